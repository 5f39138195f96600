"""Sequenced delivery: the firmware's link as the host wraps it and as the hub drives it,
alone and talking to each other."""

from __future__ import annotations

import random

from firmware_bridge.frames import Decoder, encode
from firmware_bridge.link import INITIAL_RTO, MIN_RTO, Link


def frames_of(data: list[bytes]):
    return Decoder().feed(b"".join(data))


def test_in_order_once_and_cumulative_ack():
    tx, rx = Link(), Link()
    for i in range(3):
        tx.send(bytes([i]))
    sent = tx.take_output(0.0)
    assert len(sent) == 3
    delivered = [f.payload for f in frames_of(sent) if rx.receive(f, 0.0)]
    assert delivered == [b"\x00", b"\x01", b"\x02"]
    # a duplicate is acknowledged but not delivered again
    assert not any(rx.receive(f, 0.0) for f in frames_of(sent[:1]))
    assert rx.stats.duplicates == 1
    ack = rx.take_output(0.001)
    assert len(ack) == 1
    tx.receive(frames_of(ack)[0], 0.001)
    assert tx.in_flight == 0
    assert tx.stats.srtt > 0


def test_retransmit_after_timeout_with_backoff():
    tx = Link()
    tx.send(b"x")
    assert len(tx.take_output(0.0)) == 1
    assert tx.take_output(0.05) == []  # before the initial timeout
    assert len(tx.take_output(0.11)) == 1  # resent
    assert tx.stats.retransmits == 1
    assert tx.take_output(0.2) == []  # the timeout doubled
    assert len(tx.take_output(0.32)) == 1


def test_nak_retransmits_at_once():
    tx, rx = Link(), Link()
    for i in range(3):
        tx.send(bytes([i]))
    sent = tx.take_output(0.0)
    rx.receive(frames_of(sent[2:])[0], 0.0)  # the first two were lost
    nak = frames_of(rx.take_output(0.0))[0]
    assert nak.nak and nak.ack == 0
    assert len(tx.take_output(0.0)) == 0
    tx.receive(nak, 0.001)
    assert len(tx.take_output(0.001)) == 3
    assert rx.stats.out_of_order == 1


def test_foreign_ack_is_ignored():
    tx = Link()
    tx.send(b"x")
    tx.take_output(0.0)
    tx.receive(Decoder().feed(encode(None, 100, b""))[0], 0.0)  # from before a restart
    assert tx.in_flight == 1


def test_window_limits_frames_in_flight():
    tx = Link(window=4)
    for i in range(10):
        tx.send(bytes([i]))
    assert len(tx.take_output(0.0)) == 4
    assert tx.in_flight == 10


def test_round_trip_and_timeout_are_in_seconds():
    tx, rx = Link(), Link()
    assert tx.stats.rto == INITIAL_RTO
    tx.send(b"x")
    rx.receive(frames_of(tx.take_output(10.0))[0], 10.001)
    tx.receive(frames_of(rx.take_output(10.001))[0], 10.004)
    assert tx.stats.srtt == 0.004
    assert tx.stats.rto == MIN_RTO  # 4 ms + 4 * 2 ms, raised to the floor


def test_restart_renumbers_and_sends_only_what_it_is_given():
    tx = Link()
    for i in range(3):
        tx.send(bytes([i]))
    tx.take_output(0.0)
    tx.send(b"queued")
    tx.restart(40, 9, [b"first", b"second"], 1.0)
    assert (tx.tx_next, tx.rx_expected, tx.in_flight) == (40, 9, 2)
    sent = frames_of(tx.take_output(1.0))
    assert [(f.seq, f.ack, f.payload) for f in sent] == [(40, 9, b"first"), (41, 9, b"second")]
    assert tx.stats.retransmits == 0
    tx.restart(0, 0, [], 2.0)
    assert [(f.seq, f.payload) for f in frames_of(tx.take_output(2.0))] == [(None, b"")]  # a bare ACK is owed


class Channel:
    """A lossy, duplicating, corrupting, delaying pipe with its own clock."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.queue: list[tuple[float, bytes]] = []

    def send(self, now: float, frames: list[bytes]) -> None:
        for frame in frames:
            if self.rng.random() < 0.1:
                continue
            data = bytearray(frame)
            if self.rng.random() < 0.05:
                data[self.rng.randrange(len(data))] ^= 1 << self.rng.randrange(8)
            for _ in range(2 if self.rng.random() < 0.05 else 1):
                self.queue.append((now + 0.002 + self.rng.random() * 0.003, bytes(data)))
        self.queue.sort(key=lambda q: q[0])

    def due(self, now: float) -> bytes:
        ready = [d for t, d in self.queue if t <= now]
        self.queue = [(t, d) for t, d in self.queue if t > now]
        return b"".join(ready)


def test_host_and_hub_links_deliver_everything_both_ways(fw):
    """The host's Link and the link as the hub drives it, over a channel losing 10%,
    corrupting 5%, duplicating 5%."""
    rng = random.Random(5)
    host = Link()
    hub_out: list[bytes] = []
    hub = fw.link.Link(hub_out.append)
    up, down = Channel(rng), Channel(rng)  # host->hub, hub->host
    host_dec, hub_dec = Decoder(), fw.proto.Decoder()
    to_hub = [bytes([i % 256, i // 256]) for i in range(300)]
    to_host = [bytes([i % 256, i // 256, 7]) for i in range(1500)]
    got_hub: list[bytes] = []
    got_host: list[bytes] = []
    for payload in to_hub:
        host.send(payload)
    pending = list(to_host)
    now = 0.0
    while now < 120 and (len(got_hub) < len(to_hub) or len(got_host) < len(to_host)):
        now += 0.001
        us = int(now * 1e6)
        while pending and hub.room() > 0:
            hub.send(pending.pop(0), us)
        for seq, ack, payload in hub_dec.feed(up.due(now)):
            if hub.receive(seq, ack, us):
                got_hub.append(payload)
        hub.service(us)
        down.send(now, hub_out)
        hub_out.clear()
        for frame in host_dec.feed(down.due(now)):
            if host.receive(frame, now):
                got_host.append(frame.payload)
        up.send(now, host.take_output(now))
    assert got_hub == to_hub
    assert got_host == to_host
    assert hub.retransmits > 0 and host.stats.retransmits > 0
    assert host.stats.rto >= MIN_RTO
