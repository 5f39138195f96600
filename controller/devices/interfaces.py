"""What the physical table tells the controller, and what the controller shows on it.

Every source of standee changes (gpiozero pins on the Pi, the USB sensor hub, a
scripted simulation) produces :class:`TiltEvent` values; every way of lighting a
seat (Pi pins, the hub's WS2812 LEDs, a recording sink) implements
:class:`SeatLights`.  The rest of the controller only sees these.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol


@dataclass(frozen=True, slots=True)
class TiltEvent:
    """A standee at ``seat`` (0..8, clockwise) changed to upright (``up``) or lying down.

    ``time`` is in seconds on the controller's monotonic clock: the edge time the
    source measured where it has one (pin backend edge ticks, hub microsecond stamps
    mapped by clock sync), not the time the event was read.
    """

    seat: int
    up: bool
    time: float


class SeatStatus(Enum):
    """What a seat LED shows."""

    OFF = "off"
    IN_SHARE = "in_share"
    WITHDREW = "withdrew"
    HIT = "hit"
    DEAD = "dead"
    MUST_STAND_UP = "must_stand_up"
    MUST_LIE_DOWN = "must_lie_down"
    FAULT = "fault"


class FaultKind(Enum):
    """Why a seat's tilt sensor cannot be trusted."""

    CHATTER = "chatter"
    """Many changes a second: a loose switch or wire."""
    NEVER_UPRIGHT = "never_upright"
    """Never reads upright when it should: unplugged, or no standee in the base."""


@dataclass(frozen=True, slots=True)
class SeatFault:
    """A fault found at ``seat`` at ``time`` (controller clock); ``cleared`` once it went away."""

    seat: int
    kind: FaultKind
    time: float
    cleared: bool = False

    def describe(self) -> str:
        what = {
            FaultKind.CHATTER: "tilt sensor chatters (loose switch or wire?)",
            FaultKind.NEVER_UPRIGHT: "never reads upright (unplugged, or no standee in the base?)",
        }[self.kind]
        return f"seat {self.seat}: {what}" + (" - cleared" if self.cleared else "")


class TiltSource(Protocol):
    """A source of standee changes.

    A source may also offer ``on_change_fields(callback)``, calling ``callback(seat, up, time)``
    with the same changes and no :class:`TiltEvent` built for each; the judge uses it
    where it is there (the Pi pins have it).
    """

    def on_event(self, callback: Callable[[TiltEvent], None]) -> None:
        """Call ``callback`` for every debounced change, in order, once each."""

    def upright(self, seat: int) -> bool | None:
        """The current state of a seat (``None`` when it cannot be read)."""

    def close(self) -> None: ...


class SeatLights(Protocol):
    """Seat status LEDs, wherever they are driven from."""

    def show(self, seat: int, status: SeatStatus, *, gang: str | None = None) -> None: ...

    def close(self) -> None: ...


class CountLights(Protocol):
    """The three count LEDs ("1", "2", "3"), wherever they are driven from."""

    def show(self, count: int) -> None:
        """Light the LEDs 1..``count`` and turn the others off (0 turns all off)."""

    def close(self) -> None: ...


class Speaker(Protocol):
    """Plays prepared sounds, named by clip key (see ``controller.devices.vocabulary``)."""

    def play(self, clips: Sequence[str]) -> None:
        """Start playing ``clips`` one after the other and return at once.

        A new call supersedes a sequence still playing.
        """

    def finish(self, timeout: float) -> None:
        """Wait (``timeout`` seconds at most) until what is playing has been heard to its end."""

    def close(self) -> None: ...
