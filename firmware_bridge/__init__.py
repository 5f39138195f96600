"""Host side of the USB-serial sensor hub (a Raspberry Pi Pico), and its simulator."""
