"""Mapping the hub's 32-bit microsecond clock to host time.

As in Klipper's clocksync, the host asks the hub for its clock every so often
(and HELLO carries it too).  Each reply says: the hub read ``clock`` at some host
time between the query's send time and the reply's receive time.  A line
``host = a + b * clock`` through a window of such samples must pass through
every one of those intervals; for a given rate ``b`` the intercepts allowed
form the band ``[max(sent - b*x), min(received - b*x)]``.  The fit takes the
rate where that band is widest (a concave function, found by ternary search)
and the middle of the band.  The lower edge comes from the sample least delayed
on the way to the hub, the upper edge from the one least delayed on the way
back, so jitter in either direction hardly matters: only the luckiest sample of
each direction counts.  Until the window spans a second the rate is the
nominal 1 MHz.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

WRAP = 1 << 32
NOMINAL_HZ = 1_000_000.0
MAX_RATE_ERROR = 1e-3  # a crystal is far better than 1000 ppm
MIN_SPAN_FOR_RATE = 1.0  # seconds of samples before the rate is fitted
SEARCH_STEPS = 40


@dataclass(frozen=True, slots=True)
class _Sample:
    clock: int
    sent: float
    received: float


class ClockSync:
    def __init__(self, window: int = 128) -> None:
        self._samples: deque[_Sample] = deque(maxlen=window)
        self._reference: int | None = None
        # host time = time_ref + a + b * (clock - clock_ref) / 1 MHz
        self._clock_ref = 0
        self._time_ref = 0.0
        self._a = 0.0
        self._b = 1.0

    def reset(self) -> None:
        """Forget everything: the hub restarted and its clock with it."""
        self._samples.clear()
        self._reference = None

    @property
    def ready(self) -> bool:
        return bool(self._samples)

    @property
    def rate_ppm(self) -> float:
        """How much faster the host's clock runs than the hub's, in ppm."""
        return (self._b - 1.0) * 1e6

    def widen(self, raw: int) -> int:
        """The full clock value nearest the last one seen with these low 32 bits."""
        if self._reference is None:
            self._reference = raw
            return raw
        diff = (raw - self._reference) % WRAP
        if diff >= WRAP // 2:
            diff -= WRAP
        value = self._reference + diff
        self._reference = max(self._reference, value)
        return value

    def add_sample(self, sent: float, received: float, raw_clock: int) -> None:
        """The hub read ``raw_clock`` between host times ``sent`` and ``received``."""
        self._samples.append(_Sample(self.widen(raw_clock), sent, received))
        self._fit()

    def _fit(self) -> None:
        samples = self._samples
        c_ref, t_ref = samples[-1].clock, samples[-1].sent
        xs = [(s.clock - c_ref) / NOMINAL_HZ for s in samples]
        lows = [s.sent - t_ref for s in samples]
        highs = [s.received - t_ref for s in samples]

        def band(b: float) -> tuple[float, float]:
            return max(lo - b * x for lo, x in zip(lows, xs)), min(hi - b * x for hi, x in zip(highs, xs))

        def width(b: float) -> float:
            lo, hi = band(b)
            return hi - lo

        b = 1.0
        if xs[-1] - xs[0] >= MIN_SPAN_FOR_RATE:
            b = _centre_of_feasible(width, 1.0 - MAX_RATE_ERROR, 1.0 + MAX_RATE_ERROR)
        lo, hi = band(b)
        self._clock_ref, self._time_ref, self._a, self._b = c_ref, t_ref, (lo + hi) / 2, b

    def to_host(self, raw: int) -> float:
        """Host time of a hub clock reading (its low 32 bits)."""
        if not self._samples:
            raise RuntimeError("no clock sample from the hub yet")
        return self._time_ref + self._a + self._b * (self.widen(raw) - self._clock_ref) / NOMINAL_HZ


def _centre_of_feasible(width: Callable[[float], float], left: float, right: float) -> float:
    """The middle of the rates whose band is not empty (the widest, if all are).

    ``width`` is concave: ternary search finds its peak, bisection its roots."""
    lo, hi = left, right
    for _ in range(SEARCH_STEPS):
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if width(m1) < width(m2):
            lo = m1
        else:
            hi = m2
    peak = (lo + hi) / 2
    if width(peak) <= 0:
        return peak

    def root(inside: float, outside: float) -> float:
        if width(outside) >= 0:
            return outside
        for _ in range(SEARCH_STEPS):
            mid = (inside + outside) / 2
            if width(mid) >= 0:
                inside = mid
            else:
                outside = mid
        return inside

    return (root(peak, left) + root(peak, right)) / 2
