"""A simulated table: gpiozero mock pins on the controller clock, and scripted standee moves.

gpiozero's :class:`~gpiozero.pins.mock.MockPin` stamps its edges with the real
``time.monotonic()``.  :class:`ClockedMockFactory` makes pins that stamp them
with the injected clock instead, so a scripted edge at t = 2.100 s is seen by
the tilt sensors at exactly 2.100 s.  Every pin supports PWM, so PWMLED,
RGBLED and TonalBuzzer work on it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gpiozero.pins.mock import MockFactory, MockPWMPin, PinState

from .clock import Clock, ManualClock

HISTORY = 1000
"""State changes a simulated pin keeps (gpiozero's mock keeps them all, which grows without end)."""


class ClockedMockPin(MockPWMPin):  # type: ignore[misc]  # gpiozero has no type hints: mypy sees its classes as Any
    """A mock pin whose state changes are stamped by its factory's clock."""

    # gpiozero's MockPin's own attributes, as this class uses them (a PWM pin's state is a duty cycle)
    _state: float
    _last_change: float
    states: deque[PinState]

    def _change_state(self, value: float) -> bool:
        if self._state != value:
            t = self._factory.ticks()
            self._state = value
            self.states.append(PinState(t - self._last_change, value))
            self._last_change = t
            return True
        return False

    def clear_states(self) -> None:
        self._last_change = self._factory.ticks()
        self.states = deque([PinState(0.0, self._state)], maxlen=HISTORY)


class ClockedMockFactory(MockFactory):  # type: ignore[misc]  # gpiozero has no type hints: mypy sees its classes as Any
    """A :class:`MockFactory` whose ticks are the controller clock's seconds."""

    def __init__(self, clock: Clock, *, revision: str | None = None) -> None:
        self.clock = clock
        super().__init__(revision=revision, pin_class=ClockedMockPin)

    def ticks(self) -> float:
        return self.clock.now()


@dataclass(frozen=True, slots=True)
class StandeeMove:
    """At ``time``, the standee at ``seat`` is stood up (``up``) or laid down.

    ``bounce`` extra edges follow it, ``bounce_gap`` apart, the way a ball tilt
    switch chatters; the last one leaves the pin in the new state.
    """

    time: float
    seat: int
    up: bool
    bounce: int = 0
    bounce_gap: float = 0.002


class ScriptedTable:
    """Plays :class:`StandeeMove` lists on mock tilt pins while moving a :class:`ManualClock`.

    ``tilt_pins`` are the pin names of the seats' tilt inputs (upright drives
    the pin low, as the real switch to ground does).
    """

    def __init__(self, factory: ClockedMockFactory, tilt_pins: Sequence[int | str]) -> None:
        if not isinstance(factory.clock, ManualClock):
            raise TypeError("ScriptedTable needs a ClockedMockFactory on a ManualClock")
        self.clock: ManualClock = factory.clock
        self._pins = [factory.pin(p) for p in tilt_pins]

    def stand(self, seats: Iterable[int]) -> None:
        """Put standees upright at once (no edge time check), e.g. before a game."""
        for seat in seats:
            self._pins[seat].drive_low()

    def drive(self, seat: int, up: bool) -> None:
        pin = self._pins[seat]
        (pin.drive_low if up else pin.drive_high)()

    def play(self, moves: Iterable[StandeeMove], *, until: float | None = None) -> None:
        """Run ``moves`` in time order, then run the clock on to ``until`` (if given)."""
        for move in sorted(moves, key=lambda m: m.time):
            self.clock.advance_to(move.time)
            self.drive(move.seat, move.up)
            for i in range(move.bounce):
                self.clock.advance(move.bounce_gap)
                self.drive(move.seat, move.up if i % 2 else not move.up)
            if move.bounce % 2:
                self.clock.advance(move.bounce_gap)
                self.drive(move.seat, move.up)
        if until is not None:
            self.clock.advance_to(until)
