# A microsecond clock that never wraps, from MicroPython's wrapping ticks_us().
#
# On the RP2040 ticks_us() wraps every 2**30 us (about 17.9 minutes) and
# ticks_diff() is right only for readings less than half that apart: 2**29 us,
# about 8.9 minutes.  now_us() must therefore be called at least once every
# 8.9 minutes, or the time it reports jumps back.  The hub's main loop calls it
# on every pass (a thousand times a second or more), so only a loop stalled for
# 8.9 minutes could break it, and then the host would long have lost the link.


class Clock:
    def __init__(self, time, start_us=0):
        self.time = time        # the time module (or the simulator's stand-in)
        self.last = time.ticks_us()
        self.us = start_us

    def now_us(self):
        # Call at least once every 2**29 us (8.9 minutes): see above.
        t = self.time.ticks_us()
        self.us += self.time.ticks_diff(t, self.last)
        self.last = t
        return self.us
