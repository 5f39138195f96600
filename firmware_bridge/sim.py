"""The hub simulator: the real firmware, run under CPython on simulated pins,
clock and USB link, with fault injection.

The firmware in hardware/firmware/ is imported as is (by :mod:`.firmware`, the
same modules the host's codec and link run) and given small stand-ins for
MicroPython's ``machine``, ``neopixel`` and ``time``.  Its byte stream goes
through two :class:`Wire` objects (one each way) that pace bytes at the line
rate, corrupt, drop, duplicate, delay and jitter them as :class:`Faults` says.
The host reaches it through a pty (``transport="pty"``: ``url`` is a symlink
to the pty, re-pointed on every replug as udev would) or in-process
(``transport="sim"``: ``url`` is ``sim://<name>``, see :mod:`.protocol_sim`).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import random
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Protocol

from . import firmware

log = logging.getLogger(__name__)

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_us() wraps here on the RP2040
POLL_INTERVAL = 0.0005  # the firmware loop's pause between polls
TX_BACKLOG = 0.01  # seconds of bytes a writer may queue before write() blocks


def _import_firmware() -> SimpleNamespace:
    hub_board = firmware.load("hub_board")
    return SimpleNamespace(build=hub_board.build, SEAT_PINS=hub_board.SEAT_PINS, COUNT_PINS=hub_board.COUNT_PINS)


@dataclass
class Faults:
    """What the link does to bytes: each write (a frame, mostly) is one unit."""

    bit_flip_rate: float = 0.0  # per byte
    drop_rate: float = 0.0  # per write
    duplicate_rate: float = 0.0  # per write
    delay: float = 0.0  # seconds, every write
    jitter: float = 0.0  # seconds, uniform 0..jitter on top, order kept


@dataclass
class WireStats:
    writes: int = 0
    bytes: int = 0
    flipped_bits: int = 0
    dropped: int = 0
    duplicated: int = 0
    discarded: int = 0  # lost while unplugged or silent


class Wire:
    """One direction of the link: a paced, faulty FIFO delivering to ``sink``."""

    def __init__(self, name: str, faults: Faults, rng: random.Random, baudrate: int | None) -> None:
        self.name = name
        self.faults = faults
        self.baudrate = baudrate
        self.stats = WireStats()
        self.sink: Callable[[bytes], None] | None = None
        self.muted_until = 0.0
        self._rng = rng
        self._queue: list[tuple[float, int, bytes]] = []
        self._order = itertools.count()
        self._free_at = 0.0  # when the line finishes the bytes queued so far
        self._last_delivery = 0.0
        self._cond = threading.Condition()
        self._running = True
        self._thread = threading.Thread(target=self._run, name=f"sim wire {name}", daemon=True)
        self._thread.start()

    def push(self, data: bytes) -> None:
        now = time.monotonic()
        f, rng, st = self.faults, self._rng, self.stats
        with self._cond:
            if self.sink is None or now < self.muted_until:
                st.discarded += len(data)
                return
            st.writes += 1
            st.bytes += len(data)
            if f.drop_rate and rng.random() < f.drop_rate:
                st.dropped += 1
                return
            copies = 2 if f.duplicate_rate and rng.random() < f.duplicate_rate else 1
            st.duplicated += copies - 1
            for _ in range(copies):
                self._schedule(self._corrupt(data), now)
            self._cond.notify()
            wait = self._free_at - now - TX_BACKLOG
        if wait > 0:
            time.sleep(wait)  # a full transmit buffer blocks the writer

    def _corrupt(self, data: bytes) -> bytes:
        rate = self.faults.bit_flip_rate
        if not rate:
            return data
        out = bytearray(data)
        for i in range(len(out)):
            if self._rng.random() < rate:
                out[i] ^= 1 << self._rng.randrange(8)
                self.stats.flipped_bits += 1
        return bytes(out)

    def _schedule(self, data: bytes, now: float) -> None:
        start = max(now, self._free_at)
        self._free_at = start + (10 * len(data) / self.baudrate if self.baudrate else 0.0)
        f = self.faults
        at = self._free_at + f.delay + (self._rng.uniform(0, f.jitter) if f.jitter else 0.0)
        at = max(at, self._last_delivery)
        self._last_delivery = at
        heapq.heappush(self._queue, (at, next(self._order), data))

    def clear(self) -> None:
        with self._cond:
            self._queue.clear()
            self._free_at = self._last_delivery = 0.0

    def close(self) -> None:
        with self._cond:
            self._running = False
            self._cond.notify()
        self._thread.join(timeout=2)

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._running and not self._queue:
                    self._cond.wait()
                if not self._running:
                    return
                at = self._queue[0][0]
                delay = at - time.monotonic()
                if delay > 0:
                    self._cond.wait(delay)
                    continue
                _, _, data = heapq.heappop(self._queue)
                sink = self.sink
            if sink is not None:
                sink(data)


class _FakeTime:
    """MicroPython's ticks functions on a drifting, wrapping microsecond clock."""

    def __init__(self, drift_ppm: float) -> None:
        self.origin = time.monotonic()
        self.rate = 1.0 + drift_ppm * 1e-6

    def elapsed_us(self, at: float | None = None) -> int:
        return int(((time.monotonic() if at is None else at) - self.origin) * 1e6 * self.rate)

    def ticks_us(self) -> int:
        return self.elapsed_us() % TICKS_PERIOD

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        return (a - b + TICKS_PERIOD // 2) % TICKS_PERIOD - TICKS_PERIOD // 2

    @staticmethod
    def ticks_add(a: int, delta: int) -> int:
        return (a + delta) % TICKS_PERIOD


class _Board:
    """Stand-ins for ``machine`` and ``neopixel`` on one simulated Pico."""

    def __init__(self) -> None:
        self.levels: dict[int, int] = {}  # input pin -> level
        self.outputs: dict[int, int] = {}
        self.pixels: list[tuple[int, int, int]] = []
        board = self

        class Pin:
            IN, OUT, PULL_UP = 0, 1, 2

            def __init__(self, pin_id: int, mode: int = 0, pull: int | None = None, *, value: int | None = None) -> None:
                self.id = pin_id
                if mode == Pin.IN:
                    board.levels.setdefault(pin_id, 1 if pull == Pin.PULL_UP else 0)
                elif value is not None:
                    board.outputs[pin_id] = value

            def value(self, v: int | None = None) -> int | None:
                if v is None:
                    return board.levels.get(self.id, board.outputs.get(self.id, 0))
                board.outputs[self.id] = v
                return None

        class NeoPixel:
            def __init__(self, pin: Pin, n: int) -> None:
                self.buf = [(0, 0, 0)] * n

            def __setitem__(self, i: int, rgb: tuple[int, int, int]) -> None:
                self.buf[i] = rgb

            def write(self) -> None:
                board.pixels = list(self.buf)

        self.machine = SimpleNamespace(Pin=Pin)
        self.neopixel = SimpleNamespace(NeoPixel=NeoPixel)


class Inbox(Protocol):
    """Where the bytes from the host go: the firmware's byte stream."""

    def deliver(self, data: bytes) -> None: ...


class _HubIo:
    """The firmware's byte stream: what reached the hub, and a wire out."""

    def __init__(self, out: Wire) -> None:
        self._out = out
        self._inbox = bytearray()
        self._lock = threading.Lock()

    def deliver(self, data: bytes) -> None:
        with self._lock:
            self._inbox += data

    def read(self) -> bytes:
        with self._lock:
            data, self._inbox = bytes(self._inbox), bytearray()
        return data

    def write(self, data: bytes) -> None:
        self._out.push(bytes(data))


_REGISTRY: dict[str, SimHub] = {}
_names = itertools.count(1)


def lookup(name: str) -> SimHub | None:
    """The running simulator called ``name`` (for sim:// URLs)."""
    return _REGISTRY.get(name)


@dataclass
class SimHub:
    """A simulated hub; ``start()`` it, point the host at ``url``."""

    transport: str = "pty"
    seats: int = 9
    faults: Faults = field(default_factory=Faults)
    baudrate: int | None = None  # pace bytes at this line rate (10 bits a byte); None: unpaced
    debounce_us: int = 15000
    drift_ppm: float = 0.0
    clock_start_us: int = 0  # e.g. near 2**32 to see the 32-bit stamps wrap
    seed: int | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if self.transport not in ("pty", "sim"):
            raise ValueError(f"simulator transport {self.transport!r} is neither 'pty' nor 'sim'")
        self.name = self.name or f"hub{next(_names)}"
        self._rng = random.Random(self.seed)
        self.to_host = Wire("hub->host", self.faults, self._rng, self.baudrate)
        self.to_hub = Wire("host->hub", self.faults, self._rng, self.baudrate)
        self.recorded: list[tuple[int, bool, int]] = []  # every change the firmware recorded
        self.boots = 0
        self._plugged = False
        self._running = False
        self._dir = tempfile.TemporaryDirectory(prefix="simhub-")
        self._link = Path(self._dir.name) / "ttyHUB"
        self._master: int | None = None
        self._slave: int | None = None
        self._pty_thread: threading.Thread | None = None
        self._host_port: Any = None  # the open protocol_sim.Serial, for transport "sim"
        self._fw_thread: threading.Thread | None = None
        self._hub: Any = None  # the firmware's hub_core.Hub (untyped MicroPython code)
        self._hub_io: Inbox | None = None
        self._booting = False
        self._clock_offset = 0
        self._injected: list[tuple[int, bool]] = []
        self._inject_lock = threading.Lock()
        self._board = _Board()
        self._time = _FakeTime(self.drift_ppm)
        self._firmware = _import_firmware()
        for seat in range(self.seats):
            self._board.levels[self._firmware.SEAT_PINS[seat]] = 0  # every standee starts upright

    # -- public ------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"sim://{self.name}" if self.transport == "sim" else str(self._link)

    @property
    def plugged(self) -> bool:
        return self._plugged

    def start(self) -> SimHub:
        self._running = True
        self._boot()
        self.plug()
        _REGISTRY[self.name] = self
        return self

    def close(self) -> None:
        self._running = False
        if self._fw_thread is not None:
            self._fw_thread.join(timeout=2)
        self.unplug()
        self.to_host.close()
        self.to_hub.close()
        _REGISTRY.pop(self.name, None)
        self._dir.cleanup()

    def __enter__(self) -> SimHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stand(self, seat: int, up: bool) -> None:
        """Stand a standee up or lay it down (its tilt switch closes when upright)."""
        self._board.levels[self._firmware.SEAT_PINS[seat]] = 0 if up else 1

    @property
    def firmware_exited(self) -> bool:
        """The firmware was told to stop (EXIT_TO_REPL), as before a reinstall."""
        return self._hub.exit_requested

    @property
    def dropped(self) -> int:
        """Changes the firmware recorded but could not queue (its queue was full)."""
        return self._hub.dropped

    @property
    def queued(self) -> int:
        """Events the firmware holds that have not been framed yet."""
        return self._hub.queued

    def hub_to_host(self, clock_us: int) -> float:
        """The true host time of a hub clock reading (full width)."""
        return self._time.origin + (clock_us + self._clock_offset) / (1e6 * self._time.rate)

    def seat_colour(self, seat: int) -> tuple[int, int, int]:
        pixels = self._board.pixels
        return pixels[seat] if seat < len(pixels) else (0, 0, 0)

    @property
    def count_mask(self) -> int:
        out = self._board.outputs
        return sum(1 << i for i, pin in enumerate(self._firmware.COUNT_PINS) if out.get(pin))

    def silence(self, seconds: float) -> None:
        """Lose every byte either way for a while; the port stays open."""
        until = time.monotonic() + seconds
        self.to_host.muted_until = self.to_hub.muted_until = until

    def unplug(self) -> None:
        """Pull the USB cable: the host's port fails, bytes in flight are lost."""
        if not self._plugged:
            return
        self._plugged = False
        for wire in (self.to_host, self.to_hub):
            wire.sink = None
            wire.clear()
        if self.transport == "sim":
            port, self._host_port = self._host_port, None
            if port is not None:
                port.unplugged()
            return
        self._link.unlink(missing_ok=True)
        master, self._master = self._master, None
        if self._pty_thread is not None:
            self._pty_thread.join(timeout=2)
        for fd in (master, self._slave):
            if fd is not None:
                os.close(fd)
        self._slave = None

    def plug(self, *, power_cycle: bool = False) -> None:
        """Plug the cable (back) in; ``power_cycle``: the Pico restarts, losing its queue."""
        if self._plugged:
            return
        if power_cycle:
            self._boot()
        assert self._hub_io is not None  # booted by start()
        self.to_hub.sink = self._hub_io.deliver
        if self.transport == "pty":
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line discipline, before the host opens it
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self._link.unlink(missing_ok=True)
            self._link.symlink_to(os.ttyname(slave))
            self.to_host.sink = self._to_pty
            self._pty_thread = threading.Thread(target=self._from_pty, args=(master,), name="sim pty", daemon=True)
            self._pty_thread.start()
        else:
            self.to_host.sink = self._to_sim_port
        self._plugged = True

    def replug(self, *, power_cycle: bool = False, after: float = 0.0) -> None:
        self.unplug()
        if after:
            time.sleep(after)
        self.plug(power_cycle=power_cycle)

    # -- sim:// ---------------------------------------------------------------
    def connect_port(self, port: object) -> None:
        if not self._plugged:
            raise ConnectionError(f"simulated hub {self.name!r} is unplugged")
        self._host_port = port

    def disconnect_port(self, port: object) -> None:
        if self._host_port is port:
            self._host_port = None

    def from_host(self, data: bytes) -> None:
        self.to_hub.push(data)

    def _to_sim_port(self, data: bytes) -> None:
        port = self._host_port
        if port is not None:
            port.received(data)

    # -- internals ------------------------------------------------------------
    def _boot(self) -> None:
        """(Re)start the firmware: a new boot id, an empty queue, LEDs dark."""
        if self._fw_thread is not None:
            self._booting = True
            self._fw_thread.join(timeout=2)
        self.boots += 1
        self._board.pixels = []
        self._board.outputs.clear()
        self._hub_io = _HubIo(self.to_host)
        if self.to_hub.sink is not None:
            self.to_hub.sink = self._hub_io.deliver
        before = self._time.elapsed_us()
        hub = self._firmware.build(
            self._board.machine, self._board.neopixel, self._time, self._hub_io, self._rng.getrandbits(16),
            seats=self.seats, debounce_us=self.debounce_us,
            clock_start_us=self.clock_start_us,
        )
        # The firmware clock read clock_start_us at elapsed time e0 (ticks = e0 mod 2**30).
        e0 = before + (hub.clock.last - before) % TICKS_PERIOD
        self._clock_offset = e0 - self.clock_start_us
        hub.recorded = self._on_recorded
        self._hub = hub
        self._booting = False
        self._fw_thread = threading.Thread(target=self._firmware_loop, args=(hub,), name="sim firmware", daemon=True)
        self._fw_thread.start()

    def _on_recorded(self, seat: int, up: bool, t_us: int) -> None:
        self.recorded.append((seat, up, t_us))

    def inject(self, changes: list[tuple[int, bool]]) -> None:
        """Have the firmware record these changes as if its debouncer had seen them
        (for load beyond what pins toggled from a test can make)."""
        with self._inject_lock:
            self._injected.extend(changes)

    def _firmware_loop(self, hub: Any) -> None:
        while self._running and not self._booting and not hub.exit_requested:
            if self._injected:
                with self._inject_lock:
                    changes, self._injected = self._injected, []
                for seat, up in changes:
                    hub.record(seat, up, hub.clock.now_us())
            hub.poll()
            time.sleep(POLL_INTERVAL)

    def _to_pty(self, data: bytes) -> None:
        master = self._master
        if master is None:
            return
        try:
            os.write(master, data)
        except (BlockingIOError, OSError):
            self.to_host.stats.discarded += len(data)  # nobody reading: the buffer is full

    def _from_pty(self, master: int) -> None:
        while self._master == master:
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                if ready:
                    data = os.read(master, 4096)
                    if data:
                        self.to_hub.push(data)
            except OSError:
                time.sleep(0.01)  # the host has the port closed
