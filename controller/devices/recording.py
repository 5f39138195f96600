"""Recording sinks: seat lights, count lights and a speaker that keep what they were told, and when.

Each keeps its last ``keep`` records (default 1000), so a long simulated game does not grow
without end.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from .clock import Clock
from .interfaces import SeatStatus

KEEP = 1000


@dataclass(frozen=True, slots=True)
class Shown:
    time: float
    seat: int
    status: SeatStatus
    gang: str | None


@dataclass(frozen=True, slots=True)
class Counted:
    time: float
    count: int


@dataclass(frozen=True, slots=True)
class Played:
    time: float
    clips: tuple[str, ...]


class RecordingSeatLights:
    """A :class:`~controller.devices.interfaces.SeatLights` that lights nothing."""

    def __init__(self, *, clock: Clock, seats: int, keep: int = KEEP) -> None:
        self._clock = clock
        self._seats = seats
        self.shown: deque[Shown] = deque(maxlen=keep)

    def show(self, seat: int, status: SeatStatus, *, gang: str | None = None) -> None:
        if not 0 <= seat < self._seats:
            raise ValueError(f"seat {seat} has no LED (seats 0..{self._seats - 1})")
        self.shown.append(Shown(self._clock.now(), seat, status, gang))

    def status(self, seat: int) -> SeatStatus:
        """The last status shown at ``seat`` (OFF if none)."""
        for record in reversed(self.shown):
            if record.seat == seat:
                return record.status
        return SeatStatus.OFF

    def close(self) -> None:
        pass


class RecordingCountLights:
    """A :class:`~controller.devices.interfaces.CountLights` that lights nothing."""

    def __init__(self, *, clock: Clock, keep: int = KEEP) -> None:
        self._clock = clock
        self.counted: deque[Counted] = deque(maxlen=keep)

    def show(self, count: int) -> None:
        self.counted.append(Counted(self._clock.now(), count))

    def close(self) -> None:
        pass


class RecordingSpeaker:
    """A :class:`~controller.devices.interfaces.Speaker` that plays nothing.

    With ``known`` clip keys, it refuses others, as a real speaker would.
    """

    def __init__(self, *, clock: Clock, known: Sequence[str] | None = None, keep: int = KEEP) -> None:
        self._clock = clock
        self._known = set(known) if known is not None else None
        self.played: deque[Played] = deque(maxlen=keep)

    def play(self, clips: Sequence[str]) -> None:
        if self._known is not None:
            unknown = [key for key in clips if key not in self._known]
            if unknown:
                raise ValueError(f"no prepared sound {unknown[0]!r}")
        self.played.append(Played(self._clock.now(), tuple(clips)))

    def finish(self, timeout: float) -> None:
        """Nothing plays: nothing to wait for."""

    def close(self) -> None:
        pass
