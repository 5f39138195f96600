"""The table's physical devices: tilt sensors, seat and count LEDs, the speaker."""
