"""Frame codec of the hub protocol (see docs/hub-protocol.md): typed host face
of the firmware's codec, hardware/firmware/hub_proto.py, which is the only one.

``LEN SEQ ACK PAYLOAD.. CRC_HI CRC_LO SYNC``: LEN is the whole frame (6..64
bytes), SEQ 0..127 for a sequenced frame or 0x80 for an unsequenced one, ACK the
next sequence number wanted from the peer (bit 7: NAK), CRC-16/MCRF4XX over
LEN..PAYLOAD, SYNC 0x7E.  A decoder that meets anything else skips to the byte
after the next SYNC, as Klipper's host does.  The firmware speaks in raw SEQ
and ACK bytes; here a frame is a :class:`Frame` and bad arguments raise.
"""

from __future__ import annotations

from dataclasses import dataclass

from .firmware import hub_proto

SYNC: int = hub_proto.SYNC
MIN_FRAME: int = hub_proto.MIN_FRAME
MAX_FRAME: int = hub_proto.MAX_FRAME
MAX_PAYLOAD: int = hub_proto.MAX_PAYLOAD
UNSEQ: int = hub_proto.UNSEQ
NAK: int = hub_proto.NAK
SEQ_MASK: int = hub_proto.SEQ_MASK

crc16 = hub_proto.crc16
"""CRC-16/MCRF4XX (reflected 0x1021, init 0xFFFF, no final xor): ``crc16(data, end=None)``."""


@dataclass(frozen=True, slots=True)
class Frame:
    """A decoded frame.  ``seq`` is None for an unsequenced frame."""

    seq: int | None
    ack: int
    nak: bool
    payload: bytes

    @classmethod
    def from_wire(cls, seq_byte: int, ack_byte: int, payload: bytes) -> Frame:
        return cls(None if seq_byte == UNSEQ else seq_byte, ack_byte & SEQ_MASK, bool(ack_byte & NAK), bytes(payload))

    @property
    def seq_byte(self) -> int:
        return UNSEQ if self.seq is None else self.seq

    @property
    def ack_byte(self) -> int:
        return ack_byte(self.ack, self.nak)


def ack_byte(ack: int, nak: bool) -> int:
    return (ack & SEQ_MASK) | (NAK if nak else 0)


def encode(seq: int | None, ack: int, payload: bytes, *, nak: bool = False) -> bytes:
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"frame payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    if seq is not None and not 0 <= seq <= SEQ_MASK:
        raise ValueError(f"sequence number {seq} is outside 0..{SEQ_MASK}")
    return bytes(hub_proto.encode(UNSEQ if seq is None else seq, ack_byte(ack, nak), payload))


class Decoder:
    """Turns a byte stream into frames; never raises on any input."""

    def __init__(self) -> None:
        self._decoder = hub_proto.Decoder()

    @property
    def crc_errors(self) -> int:
        return int(self._decoder.crc_errors)

    @property
    def resyncs(self) -> int:
        """Frames given up (bad length, SEQ, SYNC or CRC, or given up by :meth:`resync`)."""
        return int(self._decoder.resyncs)

    @property
    def pending(self) -> int:
        """Bytes held back waiting for the rest of a frame."""
        return len(self._decoder.buf)

    def feed(self, data: bytes) -> list[Frame]:
        return [Frame.from_wire(*raw) for raw in self._decoder.feed(data)]

    def resync(self) -> None:
        """Give up on the frame at the head of the buffer: skip past the next SYNC
        (a frame starts right after one).  A stray SYNC at the head only is dropped."""
        self._decoder.resync()

    def clear(self) -> None:
        """Drop what is held back (a new connection); the counts stay."""
        self._decoder.clear()
