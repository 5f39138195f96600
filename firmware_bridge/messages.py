"""The messages carried in frame payloads (see docs/hub-protocol.md).

Hub to host: EVENTS and SNAPSHOT ride sequenced frames; HEARTBEAT, CLOCK and
HELLO unsequenced ones.  Host to hub: SNAPSHOT requests and LED commands are
sequenced; HELLO and CLOCK queries are unsequenced (their reply is their
acknowledgement, and a lost query is simply asked again).  The message types
and sizes are the firmware's (hardware/firmware/hub_proto.py); the hub builds
what the host parses here and parses what the host builds.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

from .errors import MalformedMessage
from .firmware import hub_proto as P

__all__ = ["MalformedMessage", "decode"]

PROTOCOL_VERSION: int = P.VERSION
EVENT_SIZE: int = P.EVENT_SIZE
MAX_EVENTS_PER_FRAME: int = P.MAX_EVENTS
HELLO_FRESH: int = P.HELLO_FRESH
EXIT_MAGIC: bytes = P.EXIT_MAGIC


class Kind(IntEnum):
    """Message types: the first payload byte."""

    EVENTS = P.EVENTS
    HEARTBEAT = P.HEARTBEAT
    CLOCK = P.CLOCK
    SNAPSHOT = P.SNAPSHOT
    HELLO = P.HELLO
    Q_HELLO = P.Q_HELLO
    Q_CLOCK = P.Q_CLOCK
    Q_SNAPSHOT = P.Q_SNAPSHOT
    SEAT_LED = P.SEAT_LED
    COUNT_LEDS = P.COUNT_LEDS
    EXIT_TO_REPL = P.EXIT_TO_REPL


@dataclass(frozen=True, slots=True)
class HubEvent:
    seat: int
    up: bool
    clock: int  # hub microseconds, 32 bits


@dataclass(frozen=True, slots=True)
class Events:
    events: tuple[HubEvent, ...]


@dataclass(frozen=True, slots=True)
class Heartbeat:
    boot_id: int
    clock: int
    upright_mask: int
    queued: int
    dropped: int
    crc_errors: int
    retransmits: int


@dataclass(frozen=True, slots=True)
class ClockReply:
    token: int
    clock: int


@dataclass(frozen=True, slots=True)
class Snapshot:
    clock: int
    upright_mask: int
    dropped: int


@dataclass(frozen=True, slots=True)
class Hello:
    token: int
    boot_id: int
    clock: int
    seats: int
    next_tx: int
    oldest_unacked: int
    rx_expected: int
    version: int


HubMessage = Events | Heartbeat | ClockReply | Snapshot | Hello


def _unpack(layout: str, payload: bytes) -> tuple[int, ...]:
    return struct.unpack(layout, payload)[1:]  # the type byte dropped


def decode(payload: bytes) -> HubMessage:
    """Parse a hub-to-host payload (the layouts are the firmware's, in hub_proto)."""
    try:
        kind = payload[0]
        if kind == Kind.EVENTS:
            head = struct.calcsize(P.EVENTS_HEAD)
            n = struct.unpack_from(P.EVENTS_HEAD, payload)[1]
            if len(payload) != head + n * EVENT_SIZE:
                raise MalformedMessage(f"EVENTS with {n} events has {len(payload) - 1} bytes")
            out = []
            for i in range(n):
                seat_up, clock = struct.unpack_from(P.EVENT, payload, head + i * EVENT_SIZE)
                out.append(HubEvent(seat_up >> 1, bool(seat_up & 1), clock))
            return Events(tuple(out))
        if kind == Kind.HEARTBEAT:
            return Heartbeat(*_unpack(P.HEARTBEAT_LAYOUT, payload))
        if kind == Kind.CLOCK:
            return ClockReply(*_unpack(P.CLOCK_LAYOUT, payload))
        if kind == Kind.SNAPSHOT:
            return Snapshot(*_unpack(P.SNAPSHOT_LAYOUT, payload))
        if kind == Kind.HELLO:
            return Hello(*_unpack(P.HELLO_LAYOUT, payload))
    except (IndexError, struct.error) as exc:
        raise MalformedMessage(f"message 0x{payload[:1].hex()} does not parse: {exc}") from None
    raise MalformedMessage(f"unknown message type 0x{payload[:1].hex()}")


def hello_query(token: int, *, fresh: bool) -> bytes:
    """``fresh``: this host knows nothing of the hub yet, so its backlog is old news to drop."""
    return struct.pack(P.Q_HELLO_LAYOUT, Kind.Q_HELLO, token & 0xFF, HELLO_FRESH if fresh else 0)


def clock_query(token: int) -> bytes:
    return struct.pack(P.Q_CLOCK_LAYOUT, Kind.Q_CLOCK, token & 0xFF)


def snapshot_request() -> bytes:
    return struct.pack(P.Q_SNAPSHOT_LAYOUT, Kind.Q_SNAPSHOT)


MAX_PATTERN_STEPS = 16


def seat_led(seat: int, rgb: tuple[int, int, int], steps: tuple[tuple[int, int], ...]) -> bytes:
    """Light ``seat`` in ``rgb`` (0..255 each) with a looping pattern of
    (level 0..255, milliseconds) steps; 0 ms holds the step."""
    if not 1 <= len(steps) <= MAX_PATTERN_STEPS:
        raise ValueError(f"a light pattern needs 1..{MAX_PATTERN_STEPS} steps, not {len(steps)}")
    out = bytearray(struct.pack(P.SEAT_LED_HEAD, Kind.SEAT_LED, seat, *rgb, len(steps)))
    for level, ms in steps:
        out += struct.pack(P.PATTERN_STEP, level, ms)
    return bytes(out)


def count_leds(mask: int) -> bytes:
    return struct.pack(P.COUNT_LEDS_LAYOUT, Kind.COUNT_LEDS, mask & 0x07)


def exit_to_repl() -> bytes:
    """Stop the hub firmware and give the Pico's REPL back (for reinstalling)."""
    return bytes((Kind.EXIT_TO_REPL,)) + EXIT_MAGIC
