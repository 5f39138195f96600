"""The controller's clock: the time now, and callbacks at given times.

All device logic (debouncing, settling, counts, blink patterns) runs on one
clock and under its ``lock``, so pin-backend threads and timer callbacks never
interleave.  :class:`MonotonicClock` is the real one; :class:`ManualClock` only
moves when told to, which makes every timing rule testable without sleeping.

A :class:`Timer` can be set again and again.  The per-edge paths (debounce,
settle, blink steps) each own one timer made at start-up and only move it, so a
tilt edge makes no timer objects and no closures.  The ``lock`` guards the
timers as well: set them holding it (timer callbacks already do).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

from ..threads import join

log = logging.getLogger(__name__)


class Timer:
    """A callback the clock runs once it reaches ``when``; ``set()`` it again, or ``cancel()`` it.

    ``set()`` is called holding the clock's ``lock``; ``cancel()`` may be called from anywhere.
    """

    __slots__ = ("callback", "when", "_entry", "_queue")

    def __init__(self, callback: Callable[[], None], queue: _TimerQueue) -> None:
        self.callback = callback
        self.when: float | None = None
        self._entry = 0
        """The order number of its live entry in the clock's queue; 0 while not pending."""
        self._queue = queue

    def set(self, when: float) -> None:
        """Run the callback at ``when`` (instead of any time set before)."""
        queue = self._queue
        entry = next(queue.order)
        self.when, self._entry = when, entry
        heapq.heappush(queue.heap, (when, entry, self))
        if queue.on_earliest is not None and queue.heap[0][2] is self:
            queue.on_earliest()

    def cancel(self) -> None:
        self._entry = 0  # its queue entry, if any, is skipped when reached

    @property
    def pending(self) -> bool:
        return self._entry != 0


class Clock(Protocol):
    """Seconds on a monotonic scale, and timers on that scale."""

    lock: threading.RLock

    def now(self) -> float: ...

    def timer(self, callback: Callable[[], None]) -> Timer:
        """A timer for ``callback`` (run holding ``lock``), not set yet: ``Timer.set(when)`` it."""

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` (holding ``lock``) once the clock reaches ``when``."""

    def close(self) -> None: ...


class _TimerQueue:
    """Pending timers ordered by time, then by the order they were set.

    Entries are plain ``(when, order, timer)`` tuples; a timer set again or
    cancelled leaves its old entry behind, recognised as stale by its order number.
    """

    __slots__ = ("heap", "order", "on_earliest")

    def __init__(self, on_earliest: Callable[[], None] | None = None) -> None:
        self.heap: list[tuple[float, int, Timer]] = []
        self.order = itertools.count(1)
        self.on_earliest = on_earliest
        """Called when a timer set becomes the first due."""

    def next_time(self) -> float | None:
        """When the first pending timer is due (stale entries before it are dropped)."""
        heap = self.heap
        while heap and heap[0][2]._entry != heap[0][1]:
            heapq.heappop(heap)
        return heap[0][0] if heap else None

    def pop(self) -> Timer:
        """The first pending timer, no longer pending (call after ``next_time()``)."""
        timer = heapq.heappop(self.heap)[2]
        timer._entry = 0
        return timer


def _run(timer: Timer) -> None:
    try:
        timer.callback()
    except Exception:  # a failing callback must not stop the clock
        log.exception("timer callback %r failed", timer.callback)


class _TimedClock:
    """What both clocks share: timers on one queue, set under the clock's lock."""

    lock: threading.RLock
    _timers: _TimerQueue

    def timer(self, callback: Callable[[], None]) -> Timer:
        return Timer(callback, self._timers)

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(callback, self._timers)
        with self.lock:
            timer.set(when)
        return timer


class ManualClock(_TimedClock):
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


    def advance(self, seconds: float) -> None:
        self.advance_to(self._now + seconds)

    def advance_to(self, when: float) -> None:
        with self.lock:
            heap = self._timers.heap
            while heap and heap[0][0] <= when:
                due, entry, timer = heapq.heappop(heap)
                if timer._entry != entry:
                    continue  # cancelled, or set for another time
                timer._entry = 0
                if due > self._now:
                    self._now = due
                try:
                    timer.callback()
                except Exception:  # a failing callback must not stop the clock
                    log.exception("timer callback %r failed", timer.callback)
            if when > self._now:
                self._now = when

    def close(self) -> None:
        pass


class MonotonicClock(_TimedClock):
    """``time.monotonic()``, with timers run on one background thread."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self._wake = threading.Condition(threading.Lock())
        self._woken = False
        """A timer became the first due (or the clock closed) since the thread last looked."""
        self._timers = _TimerQueue(self._wake_up)
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="table-clock", daemon=True)
        self._thread.start()

    def now(self) -> float:
        return time.monotonic()


    def _wake_up(self) -> None:
        with self._wake:
            self._woken = True
            self._wake.notify()

    def _loop(self) -> None:
        while True:
            with self.lock:
                if self._closed:
                    return
                while (due := self._timers.next_time()) is not None and due <= time.monotonic():
                    _run(self._timers.pop())
                wait = None if due is None else due - time.monotonic()
            with self._wake:
                if not self._woken:
                    self._wake.wait(wait)
                self._woken = False

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._woken = True
            self._wake.notify()
        join(self._thread, timeout=1.0)
