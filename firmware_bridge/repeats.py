"""Repeated log lines folded: a noisy line must not write hundreds of lines a second.

The first occurrence of a message is logged at once; the same message again
within ``interval`` is only counted, and the count is logged once the
interval is over ("... (and 312 more in the last 1.0 s)").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Window:
    start: float
    repeats: int = 0


class RepeatedLog:
    """A logger's messages, each at most once per ``interval`` plus a count of the rest."""

    def __init__(self, logger: logging.Logger, clock: Callable[[], float], interval: float = 1.0) -> None:
        self._logger = logger
        self._clock = clock
        self.interval = interval
        self._windows: dict[tuple[int, str], _Window] = {}

    def log(self, level: int, msg: str, *args: object) -> None:
        now = self._clock()
        self.flush(now)
        key = (level, msg % args if args else msg)
        window = self._windows.get(key)
        if window is None:
            self._windows[key] = _Window(now)
            self._logger.log(level, "%s", key[1])
        else:
            window.repeats += 1

    def error(self, msg: str, *args: object) -> None:
        self.log(logging.ERROR, msg, *args)

    def warning(self, msg: str, *args: object) -> None:
        self.log(logging.WARNING, msg, *args)

    def flush(self, now: float | None = None) -> None:
        """Report the counts of the windows that are over (``now=None``: all of them)."""
        for key in list(self._windows):
            window = self._windows[key]
            if now is not None and now - window.start < self.interval:
                continue
            del self._windows[key]
            if window.repeats:
                level, text = key
                elapsed = self.interval if now is None else now - window.start
                self._logger.log(level, "%s (and %d more in the last %.1f s)", text, window.repeats, elapsed)
