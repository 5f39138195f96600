"""Timing defaults of the physical table (see the table conventions), all configurable."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

LIMITS: dict[str, tuple[float, float]] = {
    # setting: (least, most) a configuration may give; a finite most keeps every count and wait finite
    "count_interval": (0, 5.0),
    "withdraw_after_three": (0, 10.0),
    "settle": (0, 2.0),
    "debounce": (0, 1.0),
    "judge_margin": (0, 5.0),
    "chatter_changes": (2, 1000),
    "chatter_window": (0, 60.0),
    "never_upright_after": (0, 3600.0),
}


@dataclass(frozen=True, slots=True)
class Timing:
    """Every duration is in seconds."""

    count_interval: float = 0.8
    """Between "1", "2" and "3"."""
    withdraw_after_three: float = 0.5
    """The withdrawal window runs from the "1" until this long after the "3"."""
    settle: float = 0.060
    """A standee must hold a new position this long; a shorter "down" is a wobble."""
    debounce: float = 0.015
    """A tilt switch may chatter this long at each change."""
    judge_margin: float = 0.050
    """Extra wait after the window (plus settle) before the verdict, for slow sources."""
    chatter_changes: int = 8
    """This many changes within ``chatter_window`` make a seat chatter."""
    chatter_window: float = 1.0
    never_upright_after: float = 10.0
    """A seat that should stand but has not read upright for this long is reported."""

    @classmethod
    def from_mapping(cls, values: dict[str, Any], *, where: str) -> Timing:
        """Build from a config section; ``where`` names the file for error messages."""
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in values.items():
            if key not in known:
                raise ValueError(f"{where}: unknown timing setting {key!r} (known: {', '.join(known)})")
            low, high = LIMITS[key]
            if key == "chatter_changes":
                if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                    raise ValueError(f"{where}: timing.{key} must be a whole number from {low} to {high}, not {value!r}")
            elif isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                raise ValueError(f"{where}: timing.{key} must be a non-negative number of seconds, at most {high:g}, "
                                 f"not {value!r}")
            kwargs[key] = value if key == "chatter_changes" else float(value)
        return cls(**kwargs)

    def window_end(self, first_count: float) -> float:
        """When the withdrawal window that opened at ``first_count`` ("1") closes."""
        return first_count + 2 * self.count_interval + self.withdraw_after_three
