# The Pico's wiring, and the hub built on it (MicroPython; the simulator passes
# stand-ins for machine, neopixel and time).

from hub_clock import Clock
from hub_core import Hub
from hub_lights import Lights
from hub_tilt import Tilt

SEAT_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10)   # tilt switch to ground, pull-up on
PIXEL_PIN = 16                             # WS2812 chain, seat 0 first
COUNT_PINS = (18, 19, 20)                  # count LEDs "1", "2", "3"
SAFE_PIN = 22                              # held to ground at power-up: no hub, just the REPL
DEBOUNCE_US = 15000                        # as the controller's timing.debounce
BRIGHTNESS = 96                            # of 255: nine white pixels stay within USB power


def build(machine, neopixel, time, io, boot_id, seats=len(SEAT_PINS),
          debounce_us=DEBOUNCE_US, clock_start_us=0):
    Pin = machine.Pin
    inputs = [Pin(SEAT_PINS[i], Pin.IN, Pin.PULL_UP) for i in range(seats)]
    counts = [Pin(n, Pin.OUT, value=0) for n in COUNT_PINS]
    pixels = neopixel.NeoPixel(Pin(PIXEL_PIN, Pin.OUT), seats)
    clock = Clock(time, clock_start_us)

    def levels():
        return [p.value() == 0 for p in inputs]    # upright = closed = low

    hub = Hub(io, clock, Lights(pixels, counts, seats, BRIGHTNESS), seats, boot_id)
    hub.attach(Tilt(levels, seats, debounce_us, hub.record))
    return hub

