"""The "1, 2, 3" count: count LEDs and speaker, paced by the clock."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from .clock import Clock, Timer
from .interfaces import CountLights, Speaker
from .vocabulary import Phrases

log = logging.getLogger(__name__)


@dataclass
class CountRun:
    """A count under way: ``times[n - 1]`` is when "n" is (or was) given."""

    times: tuple[float, float, float]
    lights_off: float
    _timers: list[Timer] = field(default_factory=list, repr=False)

    @property
    def first(self) -> float:
        return self.times[0]

    def cancel(self) -> None:
        for timer in self._timers:
            timer.cancel()


class CountSequencer:
    """Gives "1", "2", "3" every ``interval`` seconds on the count LEDs and the speaker."""

    def __init__(self, *, clock: Clock, count_lights: CountLights, speaker: Speaker, interval: float) -> None:
        self._clock = clock
        self._lights = count_lights
        self._speaker = speaker
        self.interval = interval

    def start(
        self,
        *,
        at: float | None = None,
        lights_off_after_three: float | None = None,
        on_count: Callable[[int, float], None] | None = None,
    ) -> CountRun:
        """Schedule a count whose "1" is at ``at`` (default: now).

        The LEDs go dark ``lights_off_after_three`` seconds after the "3" (default
        one interval).  ``on_count(n, time)`` is called as each number is given.
        """
        with self._clock.lock:
            first = self._clock.now() if at is None else at
            times = (first, first + self.interval, first + 2 * self.interval)
            off = times[2] + (self.interval if lights_off_after_three is None else lights_off_after_three)
            run = CountRun(times, off)
            for n, when in enumerate(times, start=1):
                run._timers.append(self._clock.call_at(when, functools.partial(self._give, n, when, on_count)))
            run._timers.append(self._clock.call_at(off, lambda: self._lights.show(0)))
            return run

    def _give(self, n: int, when: float, on_count: Callable[[int, float], None] | None) -> None:
        log.debug("count %d at %.3f", n, when)
        self._lights.show(n)
        self._speaker.play(Phrases.count(n))
        if on_count is not None:
            on_count(n, when)
