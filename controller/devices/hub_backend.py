"""The controller's backend for the USB sensor hub: firmware_bridge's driver,
adapted to the controller's device faces (as ``controller/table/camera.py``
adapts ``vision``).

``HubBackend(url, seats=9)`` gives the same three faces as the Pi's own pins:
``.tilt`` (a TiltSource), ``.lights`` (SeatLights) and ``.count_lights``
(CountLights).  The URL is anything pyserial opens: ``/dev/ttyACM0``, a udev
symlink such as ``/dev/cashnguns-hub``, ``socket://host:port``, or
``sim://<name>`` for a running simulator.

As with the pin backend, changes are debounced (on the hub), dated by their
first edge on the controller's clock, and handed to the callbacks holding the
clock's lock, from the hub's reader thread; given an asyncio ``loop``, they are
handed to that loop instead.  Seat LEDs play the controller's own light
patterns (``controller.devices.patterns``) on the hub's WS2812 pixels.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Protocol

from firmware_bridge.driver import Change, HubDriver
from firmware_bridge.errors import BridgeError
from ..errors import HubError
from .interfaces import SeatStatus, TiltEvent
from .patterns import PATTERNS, LightPattern, colour_for

log = logging.getLogger(__name__)

MAX_STEP_MS = 0xFFFF


class ControllerClock(Protocol):
    """What the hub needs of the controller's clock (``controller.devices.clock.Clock``)."""

    lock: threading.RLock

    def now(self) -> float: ...


class _SystemClock:
    def __init__(self) -> None:
        self.lock = threading.RLock()

    def now(self) -> float:
        return time.monotonic()


def pattern_steps(pattern: LightPattern) -> tuple[tuple[int, int], ...]:
    """A pattern as the hub's (level 0..255, milliseconds; 0 = hold) steps."""
    return tuple(
        (round(level * 255), 0 if math.isinf(seconds) else max(1, min(MAX_STEP_MS, round(seconds * 1000))))
        for level, seconds in pattern.steps
    )


class _Part:
    def __init__(self, backend: HubBackend) -> None:
        self._backend = backend
        self.closed = False

    def close(self) -> None:
        if not self.closed:
            self._on_close()
            self.closed = True
            self._backend._part_closed()

    def _on_close(self) -> None:
        pass


class HubTilt(_Part):
    """Standee changes from the hub (a TiltSource)."""

    def __init__(self, backend: HubBackend) -> None:
        super().__init__(backend)
        self._callbacks: list[Callable[[TiltEvent], None]] = []

    def on_event(self, callback: Callable[[TiltEvent], None]) -> None:
        self._callbacks.append(callback)

    def upright(self, seat: int) -> bool | None:
        self._backend._check_seat(seat)
        return self._backend.driver.upright(seat)

    def _dispatch(self, change: Change) -> None:
        if self.closed:
            return
        event = TiltEvent(change.seat, change.up, change.time)
        loop = self._backend.loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._emit, event)
            except RuntimeError:
                log.warning("hub at %s: seat %d change dropped: the event loop is closed", self._backend.url, event.seat)
            return
        with self._backend.clock.lock:
            self._emit(event)

    def _emit(self, event: TiltEvent) -> None:
        for callback in self._callbacks:
            callback(event)


class HubSeatLights(_Part):
    """Seat LEDs on the hub's WS2812 chain (SeatLights)."""

    def __init__(self, backend: HubBackend) -> None:
        super().__init__(backend)
        self._shown: list[tuple[SeatStatus, str | None]] = [(SeatStatus.OFF, None)] * backend.seats

    def show(self, seat: int, status: SeatStatus, *, gang: str | None = None) -> None:
        self._backend._check_seat(seat)
        r, g, b = (round(c * 255) for c in colour_for(status, gang))
        rgb = (r, g, b)
        if self._shown[seat] == (status, gang) and not self.closed:
            return  # keep a blink in phase
        self._shown[seat] = (status, gang)
        self._backend.driver.set_seat_led(seat, rgb, pattern_steps(PATTERNS[status]))

    def status(self, seat: int) -> SeatStatus:
        """The status ``seat`` shows now."""
        return self._shown[seat][0]

    def _on_close(self) -> None:
        for seat in range(self._backend.seats):
            self.show(seat, SeatStatus.OFF)


class HubCountLights(_Part):
    """The three count LEDs (CountLights): ``show(n)`` lights "1".."n"."""

    def show(self, count: int) -> None:
        if not 0 <= count <= 3:
            raise ValueError(f"count {count} is outside 0..3 (hub at {self._backend.url})")
        self._backend.driver.set_count_leds((1 << count) - 1)

    def _on_close(self) -> None:
        self.show(0)


class HubBackend:
    """Tilt sensors and LEDs through the USB sensor hub at ``url``."""

    def __init__(
        self,
        url: str,
        *,
        seats: int,
        clock: ControllerClock | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
        baudrate: int = 1_000_000,
    ) -> None:
        if not 1 <= seats <= 9:
            raise HubError(f"seats={seats} is outside 1..9 (hub at {url})")
        if not url:
            raise HubError("no hub URL: set devices.hub_url (e.g. /dev/ttyACM0)")
        self.url = url
        self.seats = seats
        self.clock: ControllerClock = clock or _SystemClock()
        self.loop = loop
        self.tilt = HubTilt(self)
        self.lights = HubSeatLights(self)
        self.count_lights = HubCountLights(self)
        try:
            self.driver = HubDriver(url, seats=seats, on_change=self.tilt._dispatch, clock=self.clock.now, baudrate=baudrate)
        except BridgeError as exc:
            raise HubError(f"hub at {url}: {exc}") from exc
        self.driver.start()

    def wait_connected(self, timeout: float) -> bool:
        """Wait until the hub has answered (tests and the command line use this)."""
        return self.driver.wait_connected(timeout)

    def close(self) -> None:
        for part in (self.tilt, self.lights, self.count_lights):
            part.close()

    def _part_closed(self) -> None:
        if all(p.closed for p in (self.tilt, self.lights, self.count_lights)):
            self.driver.drain(timeout=0.5)
            self.driver.close()

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.seats:
            raise ValueError(f"seat {seat} is outside 0..{self.seats - 1} (hub at {self.url})")

    def __enter__(self) -> HubBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
