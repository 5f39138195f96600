"""Seat and count LEDs on Pi pins (gpiozero ``LED``, ``PWMLED`` or ``RGBLED``).

Blink patterns are stepped by the controller clock rather than by gpiozero's
blink threads, so they follow a :class:`~controller.devices.clock.ManualClock`
in tests exactly as they follow real time on the table.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from gpiozero import LED, PWMLED, RGBLED
from gpiozero.pins import Factory

from .clock import Clock
from .interfaces import SeatStatus
from .patterns import PATTERNS, Colour, LightPattern, colour_for

log = logging.getLogger(__name__)

SeatLedPins = int | str | Sequence[int | str]
"""One pin (``LED``/``PWMLED``) or three pins, red, green, blue (``RGBLED``)."""

LED_KINDS = ("led", "pwm", "rgb")

_LOOKS: dict[str, tuple[LightPattern, Colour]] = {
    status._value_: (PATTERNS[status], colour_for(status, None)) for status in SeatStatus
}
"""Each status's pattern and colour, in one lookup (a seat in the share may take its gang's colour).

Keyed by the member's ``_value_``, a plain string: an Enum member itself hashes in Python.
"""


class SeatLamp:
    """One seat's LED, playing a :class:`LightPattern` on the clock."""

    def __init__(self, device: LED | PWMLED | RGBLED, *, clock: Clock) -> None:
        self.device = device
        self._clock = clock
        self._pattern: LightPattern | None = None
        self._colour: Colour = (1.0, 1.0, 1.0)
        self._step = 0
        self._step_ends = 0.0
        self._timer = clock.timer(self._next_step)
        if isinstance(device, RGBLED):
            self._write = self._write_rgb
        else:  # a single LED is written straight to its pin, as no gpiozero blink runs
            self._pin = device.pin
            self._write = self._write_pwm if isinstance(device, PWMLED) else self._write_on_off

    def play(self, pattern: LightPattern, colour: Colour) -> None:
        """Show ``pattern`` in ``colour`` from now on (holding the clock's lock)."""
        current = self._pattern
        if current is not None and pattern.steps == current.steps and colour == self._colour:
            return  # keep a blink in phase
        self._timer.cancel()
        self._pattern, self._colour, self._step = pattern, colour, 0
        self._enter_step(self._clock.now())

    def _enter_step(self, started: float) -> None:
        assert self._pattern is not None
        steps = self._pattern.steps
        level, seconds = steps[self._step]
        self._write(level)
        if len(steps) > 1:  # not steady
            self._step_ends = started + seconds
            self._timer.set(self._step_ends)

    def _next_step(self) -> None:
        assert self._pattern is not None
        self._step = (self._step + 1) % len(self._pattern.steps)
        self._enter_step(self._step_ends)

    def _write_rgb(self, level: float) -> None:
        self.device.value = tuple(c * level for c in self._colour)

    def _write_pwm(self, level: float) -> None:
        self._pin.state = level  # active high

    def _write_on_off(self, level: float) -> None:
        self._pin.state = level > 0

    @property
    def level(self) -> float:
        """The brightness shown now (the largest channel for an RGB LED)."""
        value = self.device.value
        return float(max(value)) if isinstance(value, tuple) else float(value)

    def close(self) -> None:
        self._timer.cancel()
        self.device.close()


def make_led(pins: SeatLedPins, kind: str, *, pin_factory: Factory | None = None) -> LED | PWMLED | RGBLED:
    """Build the gpiozero device for one LED of ``kind`` ("led", "pwm" or "rgb")."""
    if kind == "rgb":
        if isinstance(pins, (int, str)) or len(pins) != 3:
            raise ValueError(f"an RGB LED needs three pins (red, green, blue), got {pins!r}")
        return RGBLED(*pins, pin_factory=pin_factory)
    if not isinstance(pins, (int, str)):
        raise ValueError(f"a {kind!r} LED takes one pin, got {pins!r}")
    if kind == "pwm":
        return PWMLED(pins, pin_factory=pin_factory)
    if kind == "led":
        return LED(pins, pin_factory=pin_factory)
    raise ValueError(f"unknown LED kind {kind!r} (known: {', '.join(LED_KINDS)})")


class PinSeatLights:
    """A :class:`~controller.devices.interfaces.SeatLights` on Pi pins, one LED per seat."""

    def __init__(self, pins: Sequence[SeatLedPins], *, kind: str = "pwm", clock: Clock, pin_factory: Factory | None = None) -> None:
        self._clock = clock
        self._lamps: list[SeatLamp] = []
        self._shown: list[SeatStatus] = []
        try:
            for seat_pins in pins:
                device = make_led(seat_pins, kind, pin_factory=pin_factory)
                self._lamps.append(SeatLamp(device, clock=clock))
                self._shown.append(SeatStatus.OFF)
        except Exception:
            self.close()
            raise

    def show(self, seat: int, status: SeatStatus, *, gang: str | None = None) -> None:
        if not 0 <= seat < len(self._lamps):
            raise ValueError(f"seat {seat} has no LED (seats 0..{len(self._lamps) - 1})")
        pattern, colour = _LOOKS[status._value_]
        if gang is not None and status is SeatStatus.IN_SHARE:
            colour = colour_for(status, gang)
        with self._clock.lock:
            self._shown[seat] = status
            self._lamps[seat].play(pattern, colour)

    def status(self, seat: int) -> SeatStatus:
        """The status ``seat`` shows now."""
        return self._shown[seat]

    def lamp(self, seat: int) -> SeatLamp:
        return self._lamps[seat]

    def close(self) -> None:
        for lamp in self._lamps:
            lamp.close()


class PinCountLights:
    """A :class:`~controller.devices.interfaces.CountLights`: three ``LED``\\ s on Pi pins."""

    def __init__(self, pins: Sequence[int | str], *, pin_factory: Factory | None = None) -> None:
        self._leds: list[LED] = []
        try:
            for pin in pins:
                self._leds.append(LED(pin, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise

    def show(self, count: int) -> None:
        for index, led in enumerate(self._leds):
            led.value = index < count

    def lit(self) -> list[bool]:
        return [bool(led.value) for led in self._leds]

    def close(self) -> None:
        for led in self._leds:
            led.close()
