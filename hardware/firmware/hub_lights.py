# Seat LEDs (a WS2812 chain, one pixel per seat) playing light patterns, and
# the three count LEDs (MicroPython; also CPython).
#
# A pattern is a list of (level 0..255, milliseconds) steps played in a loop;
# 0 ms means "hold".  The host sends the same patterns the controller plays on
# the Pi's own LEDs.


class Lights:
    def __init__(self, pixels, count_pins, seats, brightness=255):
        self.pixels = pixels        # NeoPixel-like: item assignment and write()
        self.count_pins = count_pins
        self.brightness = brightness
        self.colour = [(0, 0, 0)] * seats
        self.steps = [((0, 0),)] * seats
        self.step = [0] * seats
        self.step_end = [None] * seats
        self.dirty = True

    def seat(self, seat, rgb, steps, now):
        if not 0 <= seat < len(self.colour) or not steps:
            return
        if rgb == self.colour[seat] and steps == self.steps[seat]:
            return                  # keep a blink in phase
        self.colour[seat] = rgb
        self.steps[seat] = steps
        self.step[seat] = 0
        ms = steps[0][1]
        self.step_end[seat] = now + ms * 1000 if ms else None
        self.dirty = True

    def count(self, mask):
        for i, pin in enumerate(self.count_pins):
            pin.value(1 if mask & (1 << i) else 0)

    def lit(self, seat):
        # The colour a seat shows right now.
        level = self.steps[seat][self.step[seat]][0] * self.brightness
        r, g, b = self.colour[seat]
        return (r * level // 65025, g * level // 65025, b * level // 65025)

    def service(self, now):
        for i in range(len(self.colour)):
            end = self.step_end[i]
            while end is not None and now - end >= 0:
                steps = self.steps[i]
                self.step[i] = (self.step[i] + 1) % len(steps)
                ms = steps[self.step[i]][1]
                end = end + ms * 1000 if ms else None
                self.dirty = True
            self.step_end[i] = end
        if self.dirty:
            for i in range(len(self.colour)):
                self.pixels[i] = self.lit(i)
            self.pixels.write()
            self.dirty = False
