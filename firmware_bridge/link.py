"""Sequenced, acknowledged delivery on top of the frame codec, and link statistics.

The go-back-N link is the firmware's (hardware/firmware/hub_link.py), run here
as is: a sequenced frame is kept until the peer's cumulative ACK covers it and
is sent again, with all that follow it, once the oldest is older than the
retransmit timeout (RFC 6298 ``srtt + 4 * rttvar`` from the measured round
trip, Karn's rule, doubled on each timeout); a receiver that sees a frame from
ahead of the one it expects sets NAK in its ACK and the sender retransmits at
once.  What the host adds: payloads beyond the window wait their turn instead
of being refused, frames are collected for the caller to write, times are
seconds (the firmware counts whole microseconds), statistics are a
:class:`LinkStats`, and :meth:`Link.restart` renumbers from the hub's HELLO.
Pure logic: the caller passes the time and writes the bytes it is given.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .firmware import hub_link
from .frames import SEQ_MASK, Frame

MIN_RTO = hub_link.MIN_RTO_US / 1e6
MAX_RTO = hub_link.MAX_RTO_US / 1e6
INITIAL_RTO = hub_link.INIT_RTO_US / 1e6


def _us(seconds: float) -> int:
    return round(seconds * 1e6)


@dataclass
class LinkStats:
    frames_rx: int = 0
    frames_tx: int = 0
    bytes_rx: int = 0
    bytes_tx: int = 0
    retransmits: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    crc_errors: int = 0
    resyncs: int = 0
    reconnects: int = 0
    srtt: float = 0.0
    rto: float = INITIAL_RTO

    def summary(self) -> str:
        return (
            f"frames rx {self.frames_rx} tx {self.frames_tx}, bytes rx {self.bytes_rx} tx {self.bytes_tx}, "
            f"retransmits {self.retransmits}, duplicates {self.duplicates}, out of order {self.out_of_order}, "
            f"CRC errors {self.crc_errors}, resyncs {self.resyncs}, reconnects {self.reconnects}, "
            f"round trip {self.srtt * 1e3:.2f} ms, retransmit timeout {self.rto * 1e3:.0f} ms"
        )


class Link:
    def __init__(self, window: int = 8, stats: LinkStats | None = None) -> None:
        self.stats = stats if stats is not None else LinkStats()
        self._out: list[bytes] = []
        self._link = hub_link.Link(self._write, window)
        self._waiting: deque[bytes] = deque()

    @property
    def tx_next(self) -> int:
        """Sequence number of the next new frame."""
        return int(self._link.tx_next)

    @property
    def rx_expected(self) -> int:
        """Sequence number wanted next from the peer."""
        return int(self._link.rx_expected)

    @property
    def in_flight(self) -> int:
        return len(self._link.unacked) + len(self._waiting)

    # -- sending -------------------------------------------------------------
    def send(self, payload: bytes) -> None:
        """Queue a payload for reliable, in-order delivery."""
        self._waiting.append(payload)

    def send_unsequenced(self, payload: bytes) -> None:
        self._link.send_unseq(payload)

    def take_output(self, now: float, *, sequenced: bool = True) -> list[bytes]:
        """Frames to write now: new ones the window allows, retransmits, a bare ACK owed.

        With ``sequenced=False`` (not yet in step with the hub) only unsequenced ones."""
        if sequenced:
            link, us = self._link, _us(now)
            while self._waiting and link.room() > 0:
                link.send(self._waiting.popleft(), us)
            link.service(us)
        self._update_stats()
        out, self._out = self._out, []
        return out

    def _write(self, frame: bytearray) -> None:
        self._out.append(bytes(frame))
        self.stats.bytes_tx += len(frame)

    # -- receiving -----------------------------------------------------------
    def receive(self, frame: Frame, now: float) -> bool:
        """Handle a frame's header; True when its payload is new and in order."""
        new = bool(self._link.receive(frame.seq_byte, frame.ack_byte, _us(now)))
        self._update_stats()
        return new

    # -- (re)connecting ------------------------------------------------------
    def restart(self, tx_next: int, rx_expected: int, resend: list[bytes], now: float) -> None:
        """Start over after a (re)connection: number from the hub's expectations,
        forget what was in flight and queue ``resend`` first."""
        link = self._link
        link.forget()
        link.tx_next = tx_next & SEQ_MASK
        link.rx_expected = rx_expected & SEQ_MASK
        link.restart(_us(now))  # nothing left to resend: resets the timers, owes an ACK
        self._waiting = deque(resend)

    def _update_stats(self) -> None:
        s, link = self.stats, self._link
        s.frames_rx, s.frames_tx, s.retransmits = link.frames_rx, link.frames_tx, link.retransmits
        s.duplicates, s.out_of_order = link.duplicates, link.out_of_order
        s.srtt, s.rto = link.srtt / 1e6, link.rto / 1e6
