"""The controller's clock: the time now, and callbacks at given times.

All device logic (debouncing, settling, counts, blink patterns) runs on one
clock and under its ``lock``, so pin-backend threads and timer callbacks never
interleave.  :class:`MonotonicClock` is the real one; :class:`ManualClock` only
moves when told to, which makes every timing rule testable without sleeping.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from typing import Callable, Protocol

log = logging.getLogger(__name__)


class Timer:
    """A pending callback; ``cancel()`` it to drop it."""

    __slots__ = ("when", "callback", "cancelled")

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Clock(Protocol):
    """Seconds on a monotonic scale, and timers on that scale."""

    lock: threading.RLock

    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` (holding ``lock``) once the clock reaches ``when``."""

    def close(self) -> None: ...


class _TimerQueue:
    """Timers ordered by time, then by the order they were set."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()

    def push(self, timer: Timer) -> None:
        heapq.heappush(self._heap, (timer.when, next(self._order), timer))

    def next_time(self) -> float | None:
        while self._heap and self._heap[0][2].cancelled:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    def pop(self) -> Timer:
        return heapq.heappop(self._heap)[2]


def _run(timer: Timer) -> None:
    try:
        timer.callback()
    except Exception:  # a failing callback must not stop the clock
        log.exception("timer callback %r failed", timer.callback)


class ManualClock:
    """A clock that moves only through :meth:`advance` / :meth:`advance_to`.

    Timers due on the way run in time order, each seeing ``now()`` equal to its
    own time, so a test reads exactly like the table it describes.
    """

    def __init__(self, start: float = 0.0) -> None:
        self.lock = threading.RLock()
        self._now = start
        self._timers = _TimerQueue()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(when, callback)
        with self.lock:
            self._timers.push(timer)
        return timer

    def advance(self, seconds: float) -> None:
        self.advance_to(self._now + seconds)

    def advance_to(self, when: float) -> None:
        with self.lock:
            while (due := self._timers.next_time()) is not None and due <= when:
                timer = self._timers.pop()
                self._now = max(self._now, timer.when)
                _run(timer)
            self._now = max(self._now, when)

    def close(self) -> None:
        pass


class MonotonicClock:
    """``time.monotonic()``, with timers run on one background thread."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self._timers = _TimerQueue()
        self._wake = threading.Condition(threading.Lock())
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="table-clock", daemon=True)
        self._thread.start()

    def now(self) -> float:
        return time.monotonic()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(when, callback)
        with self._wake:
            self._timers.push(timer)
            self._wake.notify()
        return timer

    def _loop(self) -> None:
        while True:
            with self._wake:
                while True:
                    if self._closed:
                        return
                    due = self._timers.next_time()
                    wait = None if due is None else due - time.monotonic()
                    if wait is not None and wait <= 0:
                        timer = self._timers.pop()
                        break
                    self._wake.wait(wait)
            with self.lock:
                if not timer.cancelled:
                    _run(timer)

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=1.0)
