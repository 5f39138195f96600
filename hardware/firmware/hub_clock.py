# A microsecond clock that never wraps, from MicroPython's wrapping ticks_us().


class Clock:
    def __init__(self, time, start_us=0):
        self.time = time        # the time module (or the simulator's stand-in)
        self.last = time.ticks_us()
        self.us = start_us

    def now_us(self):
        t = self.time.ticks_us()
        self.us += self.time.ticks_diff(t, self.last)
        self.last = t
        return self.us
