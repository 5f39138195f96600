# Debouncing of the tilt switches (MicroPython; also CPython), as the controller
# does it on the Pi's own pins: the first edge of a burst gives the time, the
# level read the debounce time later gives the new state.  Settling (a lay-down
# must last 60 ms to count) is the controller's business, not the hub's.


class Tilt:
    def __init__(self, read_levels, seats, debounce_us, report):
        # read_levels() returns one bool per seat: True = upright.
        self.read_levels = read_levels
        self.debounce_us = debounce_us
        self.report = report    # report(seat, up, t_us)
        levels = read_levels()
        self.up = [levels[i] for i in range(seats)]      # reported states
        self.raw = list(self.up)                          # last sampled levels
        self.burst = [None] * seats                       # first edge of a burst

    def mask(self):
        m = 0
        for i, up in enumerate(self.up):
            if up:
                m |= 1 << i
        return m

    def sample(self, now):
        levels = self.read_levels()
        for i in range(len(self.up)):
            level = levels[i]
            if level != self.raw[i]:
                self.raw[i] = level
                if self.burst[i] is None:
                    self.burst[i] = now
            start = self.burst[i]
            if start is not None and now - start >= self.debounce_us:
                self.burst[i] = None
                if level != self.up[i]:
                    self.up[i] = level
                    self.report(i, level, start)
