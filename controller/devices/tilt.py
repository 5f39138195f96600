"""Tilt sensors on Pi pins: one gpiozero input per seat, debounced on the controller clock.

The switch closes to ground while the standee is upright and the input's pull-up
is on, so an upright standee reads low (gpiozero's "active" with ``pull_up=True``).
Debouncing is done here, not with gpiozero's ``bounce_time``: pin backends
disagree on it and the mock ignores it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from gpiozero import DigitalInputDevice
from gpiozero.pins import Factory

from .clock import Clock
from .interfaces import TiltEvent

log = logging.getLogger(__name__)

ChangeHandler = Callable[[int, bool, float], None]
"""``(seat, up, time)``: a :class:`TiltEvent`'s fields, for callers that need no event object."""


class TiltSwitch(DigitalInputDevice):  # type: ignore[misc]  # gpiozero has no type hints: mypy sees its classes as Any
    """A standee's tilt switch: ``is_active`` while upright.

    ``when_edge(ticks, state)`` is the pin's own edge callback: the ticks the pin
    backend measured (compare with ``pin_factory.ticks_diff``) and the pin's raw
    state (high: lying down).  gpiozero's ``when_activated``/``when_deactivated``
    are not fired: they would only add a second, undebounced path.
    """

    def __init__(self, pin: int | str | None = None, *, pin_factory: Factory | None = None) -> None:
        super().__init__(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        self.pin.when_changed = None  # no events until ``when_edge`` is given

    @property
    def when_edge(self) -> Callable[[object, int], None] | None:
        handler: Callable[[object, int], None] | None = self.pin.when_changed
        return handler

    @when_edge.setter
    def when_edge(self, handler: Callable[[object, int], None] | None) -> None:
        self.pin.when_changed = handler  # gpiozero keeps a bound method weakly


class TiltListeners:
    """The callbacks of a tilt source, called in order of registration.

    Event callbacks get a :class:`TiltEvent`, built once per change and only when
    one of them is registered; change callbacks get ``(seat, up, time)``.
    """

    def __init__(self) -> None:
        self._callbacks: list[tuple[bool, Callable[..., None]]] = []

    def add(self, callback: Callable[[TiltEvent], None]) -> None:
        self._callbacks.append((True, callback))

    def add_fields(self, callback: ChangeHandler) -> None:
        self._callbacks.append((False, callback))

    def emit(self, seat: int, up: bool, time: float) -> None:
        event = None
        for wants_event, callback in self._callbacks:
            if not wants_event:
                callback(seat, up, time)
            else:
                if event is None:
                    event = TiltEvent(seat, up, time)
                callback(event)


class SeatDebouncer:
    """Turns one seat's raw pin edges into changes: the first edge of a burst gives
    the time, the level read ``debounce`` seconds later gives the new state."""

    __slots__ = (
        "seat", "_pin", "_clock", "_factory", "_debounce", "_emit", "upright", "_burst_start", "_timer", "__weakref__",
    )

    def __init__(self, seat: int, switch: TiltSwitch, *, clock: Clock, debounce: float, emit: ChangeHandler) -> None:
        self.seat = seat
        self._pin = switch.pin
        self._factory = switch.pin_factory
        self._clock = clock
        self._debounce = debounce
        self._emit = emit
        self.upright = not self._pin.state  # pulled up: low is upright
        self._burst_start: float | None = None
        self._timer = clock.timer(self._settle_burst)

    def pin_edge(self, ticks: object, state: int) -> None:
        """``TiltSwitch.when_edge``: an edge the backend saw at ``ticks`` (the level is read later)."""
        with self._clock.lock:
            if self._burst_start is None:
                # Date it by the backend's edge ticks, mapped onto the controller clock.
                factory = self._factory
                start = self._clock.now() - factory.ticks_diff(factory.ticks(), ticks)
                self._burst_start = start
                self._timer.set(start + self._debounce)

    def _settle_burst(self) -> None:
        start, self._burst_start = self._burst_start, None
        level = not self._pin.state
        if level != self.upright and start is not None:
            self.upright = level
            self._emit(self.seat, level, start)

    def close(self) -> None:
        self._timer.cancel()


class PinTiltSensors:
    """A :class:`~controller.devices.interfaces.TiltSource` reading one :class:`TiltSwitch` per seat."""

    def __init__(self, pins: Sequence[int | str], *, clock: Clock, debounce: float, pin_factory: Factory | None = None) -> None:
        self._listeners = TiltListeners()
        self._switches: list[TiltSwitch] = []
        self._seats: list[SeatDebouncer] = []
        try:
            for seat, pin in enumerate(pins):
                switch = TiltSwitch(pin, pin_factory=pin_factory)
                self._switches.append(switch)
                debouncer = SeatDebouncer(seat, switch, clock=clock, debounce=debounce, emit=self._listeners.emit)
                self._seats.append(debouncer)
                switch.when_edge = debouncer.pin_edge
        except Exception:
            self.close()
            raise
        log.debug("tilt sensors on pins %s", list(pins))

    @property
    def seats(self) -> int:
        return len(self._seats)

    def on_event(self, callback: Callable[[TiltEvent], None]) -> None:
        self._listeners.add(callback)

    def on_change_fields(self, callback: ChangeHandler) -> None:
        """Like :meth:`on_event`, with ``callback(seat, up, time)``: no event object per change."""
        self._listeners.add_fields(callback)

    def upright(self, seat: int) -> bool | None:
        return self._seats[seat].upright if 0 <= seat < len(self._seats) else None

    def close(self) -> None:
        for debouncer in self._seats:
            debouncer.close()
        for switch in self._switches:
            switch.close()
