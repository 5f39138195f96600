"""Tilt sensors on Pi pins: one gpiozero input per seat, debounced on the controller clock.

The switch closes to ground while the standee is upright and the input's pull-up
is on, so an upright standee reads low (gpiozero's "active" with ``pull_up=True``).
Debouncing is done here, not with gpiozero's ``bounce_time``: pin backends
disagree on it and the mock ignores it.
"""

from __future__ import annotations

import logging
from typing import Callable, Sequence

from gpiozero import DigitalInputDevice

from .clock import Clock, Timer
from .events import TiltEvent

log = logging.getLogger(__name__)

EdgeHandler = Callable[[float, bool], None]


class TiltSwitch(DigitalInputDevice):
    """A standee's tilt switch: ``is_active`` while upright; edges carry the backend's ticks.

    ``when_edge(ticks, upright)`` is called for every edge with the ticks the pin
    backend measured (compare with ``pin_factory.ticks_diff``).
    """

    def __init__(self, pin=None, *, pin_factory=None) -> None:
        self.when_edge: Callable[[object, bool], None] | None = None
        super().__init__(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)

    def _pin_changed(self, ticks, state) -> None:
        handler = self.when_edge
        if handler is not None:
            handler(ticks, bool(self._state_to_value(state)))
        super()._pin_changed(ticks, state)


class TiltListeners:
    """The callbacks of a tilt source, called in order of registration."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[TiltEvent], None]] = []

    def add(self, callback: Callable[[TiltEvent], None]) -> None:
        self._callbacks.append(callback)

    def emit(self, event: TiltEvent) -> None:
        for callback in self._callbacks:
            callback(event)


class SeatDebouncer:
    """Turns one seat's raw edges into changes: the first edge of a burst gives the
    time, the level read ``debounce`` seconds later gives the new state."""

    __slots__ = ("seat", "_clock", "_debounce", "_read", "_emit", "upright", "_burst_start", "_timer")

    def __init__(
        self,
        seat: int,
        *,
        clock: Clock,
        debounce: float,
        read: Callable[[], bool],
        emit: Callable[[TiltEvent], None],
    ) -> None:
        self.seat = seat
        self._clock = clock
        self._debounce = debounce
        self._read = read
        self._emit = emit
        self.upright = read()
        self._burst_start: float | None = None
        self._timer: Timer | None = None

    def edge(self, time: float) -> None:
        if self._burst_start is None:
            self._burst_start = time
            self._timer = self._clock.call_at(time + self._debounce, self._settle_burst)

    def _settle_burst(self) -> None:
        start, self._burst_start, self._timer = self._burst_start, None, None
        level = self._read()
        if level != self.upright and start is not None:
            self.upright = level
            self._emit(TiltEvent(self.seat, level, start))

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()


class PinTiltSensors:
    """A :class:`~controller.devices.events.TiltSource` reading one :class:`TiltSwitch` per seat."""

    def __init__(self, pins: Sequence[int | str], *, clock: Clock, debounce: float, pin_factory=None) -> None:
        self._clock = clock
        self._listeners = TiltListeners()
        self._switches: list[TiltSwitch] = []
        self._seats: list[SeatDebouncer] = []
        try:
            for seat, pin in enumerate(pins):
                switch = TiltSwitch(pin, pin_factory=pin_factory)
                self._switches.append(switch)
                debouncer = SeatDebouncer(
                    seat,
                    clock=clock,
                    debounce=debounce,
                    read=lambda s=switch: bool(s.is_active),
                    emit=self._listeners.emit,
                )
                self._seats.append(debouncer)
                switch.when_edge = self._edge_handler(switch, debouncer)
        except Exception:
            self.close()
            raise
        log.debug("tilt sensors on pins %s", list(pins))

    def _edge_handler(self, switch: TiltSwitch, debouncer: SeatDebouncer) -> Callable[[object, bool], None]:
        factory = switch.pin_factory
        clock = self._clock

        def on_edge(ticks: object, upright: bool) -> None:
            # Map the backend's edge ticks onto the controller clock.
            with clock.lock:
                now = clock.now()
                debouncer.edge(now - factory.ticks_diff(factory.ticks(), ticks))

        return on_edge

    @property
    def seats(self) -> int:
        return len(self._seats)

    def on_event(self, callback: Callable[[TiltEvent], None]) -> None:
        self._listeners.add(callback)

    def upright(self, seat: int) -> bool | None:
        return self._seats[seat].upright if 0 <= seat < len(self._seats) else None

    def close(self) -> None:
        for debouncer in self._seats:
            debouncer.close()
        for switch in self._switches:
            switch.close()
