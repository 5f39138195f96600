"""What each seat status looks like on one seat LED: a repeating light pattern, and a colour.

A Pi has too few pins for an RGB LED per seat at 9 seats, so a seat LED is a
single-colour LED by default and statuses differ by their blink timing (they
stay distinguishable on a plain on/off LED).  RGB LEDs, where fitted, add the
status colour, or the gang colour for a seat in the share (Yakuzas).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .interfaces import SeatStatus

Colour = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class LightPattern:
    """``steps`` of (brightness 0..1, seconds), repeated; a single step is steady."""

    steps: tuple[tuple[float, float], ...]

    @property
    def steady(self) -> bool:
        return len(self.steps) == 1


def _steady(level: float) -> LightPattern:
    return LightPattern(((level, math.inf),))


def _blink(*steps: tuple[float, float]) -> LightPattern:
    return LightPattern(tuple(steps))


PATTERNS: dict[SeatStatus, LightPattern] = {
    SeatStatus.OFF: _steady(0.0),
    SeatStatus.IN_SHARE: _steady(1.0),
    SeatStatus.WITHDREW: _blink((0.3, 0.1), (0.0, 1.9)),
    SeatStatus.HIT: _blink((1.0, 0.5), (0.0, 0.5)),
    SeatStatus.DEAD: _steady(0.0),
    SeatStatus.MUST_STAND_UP: _blink((1.0, 0.1), (0.0, 0.1)),
    SeatStatus.MUST_LIE_DOWN: _blink((1.0, 0.1), (0.0, 0.1), (1.0, 0.1), (0.0, 0.7)),
    SeatStatus.FAULT: _blink((1.0, 0.05), (0.0, 0.05), (1.0, 0.05), (0.0, 0.05), (1.0, 0.05), (0.0, 0.75)),
}

STATUS_COLOURS: dict[SeatStatus, Colour] = {
    SeatStatus.OFF: (0.0, 0.0, 0.0),
    SeatStatus.IN_SHARE: (1.0, 1.0, 1.0),
    SeatStatus.WITHDREW: (0.0, 0.3, 1.0),
    SeatStatus.HIT: (1.0, 0.0, 0.0),
    SeatStatus.DEAD: (0.0, 0.0, 0.0),
    SeatStatus.MUST_STAND_UP: (1.0, 0.5, 0.0),
    SeatStatus.MUST_LIE_DOWN: (1.0, 0.0, 0.0),
    SeatStatus.FAULT: (1.0, 0.0, 1.0),
}

GANG_COLOURS: dict[str, Colour] = {
    "purple": (0.6, 0.0, 1.0),
    "yellow": (1.0, 0.8, 0.0),
    "red": (1.0, 0.0, 0.0),
}


def colour_for(status: SeatStatus, gang: str | None) -> Colour:
    """The colour of ``status``; a seat in the share shows its gang's colour."""
    if status is SeatStatus.IN_SHARE and gang is not None:
        try:
            return GANG_COLOURS[gang]
        except KeyError:
            raise ValueError(f"unknown gang colour {gang!r} (known: {', '.join(GANG_COLOURS)})") from None
    return STATUS_COLOURS[status]
