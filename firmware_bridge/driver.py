"""The host's side of the link: opens the hub by serial URL and keeps it open.

One thread reads the port, runs the link (:mod:`.link`), the clock sync
(:mod:`.clocksync`) and the reconnection, and hands every standee change to a
callback, in order and once.  A link is lost when nothing valid has arrived
for ``link_timeout`` (the hub sends a heartbeat every second) or the port
fails; the driver then reopens it every ``reconnect_interval``.  On every
(re)connection it asks HELLO (who are you, where are your sequence numbers),
takes a snapshot of the standees in the hub's reliable stream and resends the
LED state, so a change is neither lost nor counted twice:

* same hub boot: the hub kept the unacknowledged events and sends them again;
* first connection: the hub's backlog is old news and is skipped, the snapshot
  gives the state;
* the hub restarted: its backlog since the restart is delivered, and any seat
  whose snapshot differs from what the host last knew gets one change, stamped
  with the snapshot's time.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import serial

from . import messages as M
from .clocksync import ClockSync
from .frames import SEQ_MASK, Decoder, Frame
from .link import Link, LinkStats
from .repeats import RepeatedLog

log = logging.getLogger(__name__)

if "firmware_bridge" not in serial.protocol_handler_packages:
    serial.protocol_handler_packages.append("firmware_bridge")  # sim:// -> protocol_sim

READ_TIMEOUT = 0.005
STALE_PARTIAL_FRAME = 0.1
HELLO_RETRY = 0.25


IN_USE = "in use by another program (the table's service, a `hub watch` or mpremote: stop it first)"


def open_port(url: str, *, baudrate: int, timeout: float | None, write_timeout: float | None = None) -> serial.Serial:
    """The hub's serial port, opened exclusively: a second program on the same port (a `hub watch`
    while the table's service runs) would read part of each side's frames and break both links,
    so it is refused instead (:func:`port_in_use`)."""
    return serial.serial_for_url(url, baudrate=baudrate, timeout=timeout, write_timeout=write_timeout, exclusive=True)


def port_in_use(exc: BaseException) -> bool:
    """Whether opening a port failed because another program holds it (pyserial's lock)."""
    return "exclusively lock" in str(exc)


@dataclass(frozen=True, slots=True)
class Change:
    """A standee change with its host time."""

    seat: int
    up: bool
    time: float


class HubDriver:
    def __init__(
        self,
        url: str,
        *,
        seats: int,
        on_change: Callable[[Change], None],
        clock: Callable[[], float] = time.monotonic,
        baudrate: int = 1_000_000,
        link_timeout: float = 3.0,
        reconnect_interval: float = 1.0,
        clock_interval: float = 0.1,
        stats_interval: float = 60.0,
    ) -> None:
        self.url = url
        self.seats = seats
        self._on_change = on_change
        self._clock = clock
        self._baudrate = baudrate
        self._link_timeout = link_timeout
        self._reconnect_interval = reconnect_interval
        self._clock_interval = clock_interval
        self._stats_interval = stats_interval

        self.stats = LinkStats()
        self._repeats = RepeatedLog(log, clock)  # a noisy line: each error once a second, counted
        self.sync = ClockSync()
        self.heartbeat: M.Heartbeat | None = None
        self._link = Link(stats=self.stats)
        self._decoder = Decoder()
        self._port: serial.Serial | None = None
        self._synced = False
        self._boot_id: int | None = None
        self._upright: list[bool | None] = [None] * seats
        self._token = 0
        self._sent_at: dict[int, float] = {}
        self._unsent_tokens: list[int] = []
        self._next_open = 0.0
        self._hello_since = 0.0
        self._dropped_seen = 0
        self._last_rx = 0.0
        self._last_bytes = 0.0
        self._next_hello = 0.0
        self._next_clock = 0.0
        self._next_stats = 0.0
        self._open_failed = False

        self._lock = threading.Lock()
        self._commands: deque[bytes] = deque()
        self._leds: dict[int, bytes] = {}
        self._count = M.count_leds(0)
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"hub {url}", daemon=True)

    # -- public ----------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()

    def drain(self, timeout: float) -> None:
        """Wait (while connected) until every command has been acknowledged."""
        deadline = time.monotonic() + timeout
        while self.connected and time.monotonic() < deadline:
            with self._lock:
                idle = not self._commands and self._link.in_flight == 0
            if idle:
                return
            time.sleep(0.01)

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)
        self._close_port()
        self._repeats.flush()
        log.info("hub at %s closed: %s", self.url, self.summary())

    def summary(self) -> str:
        """Link statistics for the log: the host's, and the hub's from its last heartbeat."""
        text = self.stats.summary()
        hb = self.heartbeat
        if hb is not None:
            text += f"; hub: {hb.queued} queued, {hb.dropped} dropped, {hb.crc_errors} CRC errors, {hb.retransmits} retransmits"
        return text

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        """Wait until the hub has answered and its snapshot says where every standee is."""
        return self._connected.wait(timeout)

    def upright(self, seat: int) -> bool | None:
        return self._upright[seat] if self.connected else None

    def set_seat_led(self, seat: int, rgb: tuple[int, int, int], steps: tuple[tuple[int, int], ...]) -> None:
        self._command(M.seat_led(seat, rgb, steps), seat)

    def set_count_leds(self, mask: int) -> None:
        self._command(M.count_leds(mask), None)

    def _command(self, payload: bytes, seat: int | None) -> None:
        with self._lock:
            if seat is None:
                self._count = payload
            else:
                self._leds[seat] = payload
            self._commands.append(payload)

    # -- the thread ------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            now = self._clock()
            if self._port is None:
                if now >= self._next_open:
                    self._open(now)
                else:
                    self._stop.wait(min(0.05, self._next_open - now))
                continue
            try:
                data = self._port.read(self._port.in_waiting or 1)
            except (serial.SerialException, OSError) as exc:
                self._lose(f"read failed: {exc}")
                continue
            now = self._clock()
            if data:
                self._receive(data, now)
            elif self._decoder.pending and now - self._last_bytes > STALE_PARTIAL_FRAME:
                self._decoder.resync()  # a corrupted length byte is waiting for bytes that never come
                self._receive(b"", now)
            self._service(now)

    def _open(self, now: float) -> None:
        try:
            self._port = open_port(self.url, baudrate=self._baudrate, timeout=READ_TIMEOUT, write_timeout=2.0)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._next_open = now + self._reconnect_interval
            why = IN_USE if port_in_use(exc) else str(exc)
            (log.debug if self._open_failed else log.warning)("hub at %s: cannot open: %s (retrying every %.1f s)", self.url, why, self._reconnect_interval)
            self._open_failed = True
            return
        self._open_failed = False
        self._decoder.clear()  # a partial frame from before is no start of one now
        self._last_rx = self._last_bytes = now
        self._next_stats = max(self._next_stats, now + self._stats_interval)
        self._start_hello(now)
        log.info("hub at %s: port open, saying hello", self.url)

    def _start_hello(self, now: float) -> None:
        self._synced = False
        self._connected.clear()
        self._hello_since = self._next_hello = now

    def _close_port(self) -> None:
        port, self._port = self._port, None
        self._connected.clear()
        self._synced = False
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _lose(self, why: str) -> None:
        log.warning("hub at %s: link lost (%s); %s", self.url, why, self.summary())
        self._close_port()
        self._next_open = self._clock() + self._reconnect_interval

    def _receive(self, data: bytes, now: float) -> None:
        self.stats.bytes_rx += len(data)
        self._last_bytes = now
        for frame in self._decoder.feed(data):
            self._last_rx = now
            try:
                self._on_frame(frame, now)
            except M.MalformedMessage as exc:
                self._repeats.error("hub at %s: %s", self.url, exc)
        self.stats.crc_errors = self._decoder.crc_errors
        self.stats.resyncs = self._decoder.resyncs

    def _on_frame(self, frame: Frame, now: float) -> None:
        if not self._synced:
            if frame.seq is None and frame.payload[:1] == bytes((M.Kind.HELLO,)):
                hello = M.decode(frame.payload)
                if isinstance(hello, M.Hello):
                    self._on_hello(hello, now)
            return
        if not self._link.receive(frame, now) and frame.seq is not None:
            return
        if not frame.payload:
            return
        msg = M.decode(frame.payload)
        match msg:
            case M.Events(events):
                for e in events:
                    self._deliver(e.seat, e.up, self.sync.to_host(e.clock))
            case M.Snapshot():
                self._reconcile(msg)
            case M.ClockReply(token, clock):
                sent = self._sent_at.pop(token, None)
                if sent is not None:
                    self.sync.add_sample(sent, now, clock)
            case M.Heartbeat():
                self.heartbeat = msg
                if msg.boot_id != self._boot_id:
                    self._repeats.warning("hub at %s restarted behind an open port; saying hello again", self.url)
                    self._start_hello(now)
            case M.Hello():
                pass  # an answer to an earlier hello, already handled

    def _on_hello(self, hello: M.Hello, now: float) -> None:
        sent = self._sent_at.pop(hello.token, None)
        if sent is None:
            return
        if hello.version != M.PROTOCOL_VERSION:
            log.error("hub at %s speaks protocol %d, this host %d: reinstall the firmware", self.url, hello.version, M.PROTOCOL_VERSION)
            self._lose("protocol version mismatch")
            return
        if hello.seats < self.seats:
            log.error("hub at %s reads %d seats, the table has %d: change SEAT_PINS in hub_board.py", self.url, hello.seats, self.seats)
            self._lose("too few seats")
            return
        first = self._boot_id is None
        restarted = not first and hello.boot_id != self._boot_id
        if first or restarted:
            self.sync.reset()
        self.sync.add_sample(sent, now, hello.clock)
        window = (hello.next_tx - hello.oldest_unacked) & SEQ_MASK
        if first or restarted:
            self._dropped_seen = 0
        if first:
            rx = hello.next_tx  # the hub dropped its backlog for us
        elif restarted:
            rx = hello.oldest_unacked
            log.warning("hub at %s restarted; recovering its state from a snapshot", self.url)
        elif (self._link.rx_expected - hello.oldest_unacked) & SEQ_MASK <= window:
            rx = self._link.rx_expected
        else:
            rx = hello.next_tx
        self._boot_id = hello.boot_id
        with self._lock:
            resend = [M.snapshot_request(), *self._leds.values(), self._count]
            self._commands.clear()
        self._link.restart(hello.rx_expected, rx, resend, now)
        self._synced = True
        if not first:
            self.stats.reconnects += 1
        log.info("hub at %s connected (boot %04x, %d seats)", self.url, hello.boot_id, hello.seats)

    def _deliver(self, seat: int, up: bool, at: float) -> None:
        if seat >= self.seats:
            return
        if self._upright[seat] == up:
            log.debug("hub at %s: seat %d: repeated state %s ignored", self.url, seat, up)
            return
        self._upright[seat] = up
        self._on_change(Change(seat, up, at))

    def _reconcile(self, snap: M.Snapshot) -> None:
        at = self.sync.to_host(snap.clock)
        if snap.dropped != self._dropped_seen:
            self._repeats.warning("hub at %s dropped %d events (its queue was full)", self.url, (snap.dropped - self._dropped_seen) & 0xFFFF)
            self._dropped_seen = snap.dropped
        for seat in range(self.seats):
            up = bool(snap.upright_mask >> seat & 1)
            known = self._upright[seat]
            if known is None:
                self._upright[seat] = up
            elif known != up:
                self._repeats.warning("hub at %s: seat %d: a change was lost on the link; reported at the snapshot time", self.url, seat)
                self._deliver(seat, up, at)
        self._connected.set()  # the standees' state is known from here on

    def _service(self, now: float) -> None:
        self._repeats.flush(now)
        if now - self._last_rx > self._link_timeout:
            self._lose(f"nothing heard for {now - self._last_rx:.1f} s")
            return
        if not self._synced and now - self._hello_since > self._link_timeout:
            self._lose("no answer to hello")
            return
        link = self._link
        if not self._synced:
            if now >= self._next_hello:
                self._next_hello = now + HELLO_RETRY
                link.send_unsequenced(M.hello_query(self._new_token(), fresh=self._boot_id is None))
        else:
            with self._lock:
                while self._commands:
                    link.send(self._commands.popleft())
            if now >= self._next_clock:
                self._next_clock = now + self._clock_interval
                link.send_unsequenced(M.clock_query(self._new_token()))
        out = link.take_output(now, sequenced=self._synced)
        if now >= self._next_stats:
            self._next_stats = now + self._stats_interval
            log.info("hub at %s: %s", self.url, self.summary())
        if not out:
            return
        sent = self._clock()
        for token in self._unsent_tokens:
            self._sent_at[token] = sent
        self._unsent_tokens.clear()
        port = self._port
        if port is None:
            return
        try:
            port.write(b"".join(out))
        except (serial.SerialException, OSError) as exc:
            self._lose(f"write failed: {exc}")

    def _new_token(self) -> int:
        self._token = (self._token + 1) & 0xFF
        self._sent_at.pop(self._token, None)
        self._unsent_tokens.append(self._token)
        return self._token
