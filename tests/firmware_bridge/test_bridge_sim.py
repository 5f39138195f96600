"""The simulator's wire: faults as configured, order kept, nothing early."""

from __future__ import annotations

import random
import threading
import time

from bridge_helpers import wait_for

from firmware_bridge.sim import Faults, Wire


def collect(wire: Wire) -> tuple[list[tuple[float, bytes]], threading.Lock]:
    got: list[tuple[float, bytes]] = []
    lock = threading.Lock()

    def sink(data: bytes) -> None:
        with lock:
            got.append((time.monotonic(), data))

    wire.sink = sink
    return got, lock


def test_jitter_and_delay_keep_order_and_never_deliver_early():
    wire = Wire("t", Faults(delay=0.003, jitter=0.005), random.Random(1), None)
    got, _ = collect(wire)
    sent = []
    try:
        for i in range(200):
            sent.append(time.monotonic())
            wire.push(i.to_bytes(2, "big"))
        wait_for(lambda: len(got) == 200, what="every write")
    finally:
        wire.close()
    assert [int.from_bytes(d, "big") for _, d in got] == list(range(200))
    assert all(t >= s + 0.003 for (t, _), s in zip(got, sent))


def test_bit_flips_drops_and_duplicates_at_their_rates():
    faults = Faults(bit_flip_rate=0.01, drop_rate=0.1, duplicate_rate=0.1)
    wire = Wire("t", faults, random.Random(2), None)
    got, _ = collect(wire)
    try:
        for _ in range(2000):
            wire.push(bytes(50))
        st = wire.stats
        wait_for(lambda: len(got) == 2000 - st.dropped + st.duplicated, what="every delivery")
    finally:
        wire.close()
    assert 150 < st.dropped < 250 and 150 < st.duplicated < 250  # 10% of 2000, binomial
    assert 800 < st.flipped_bits < 1200  # 1% of 100,000 bytes
    assert sum(bin(b).count("1") for _, d in got for b in d) <= st.flipped_bits * 2


def test_pacing_takes_at_least_the_line_time():
    wire = Wire("t", Faults(), random.Random(3), 115_200)
    got, _ = collect(wire)
    try:
        start = time.monotonic()
        for _ in range(20):
            wire.push(bytes(64))  # 20 x 64 bytes x 10 bits = 111 ms of line
        wait_for(lambda: len(got) == 20, what="every write")
    finally:
        wire.close()
    assert got[-1][0] - start >= 20 * 64 * 10 / 115_200


def test_muted_and_unplugged_wires_discard():
    wire = Wire("t", Faults(), random.Random(4), None)
    got, _ = collect(wire)
    try:
        wire.muted_until = time.monotonic() + 60
        wire.push(b"lost")
        wire.muted_until = 0.0
        wire.sink = None
        wire.push(b"lost too")
        assert wire.stats.discarded == 12
        time.sleep(0.05)
        assert got == []
    finally:
        wire.close()
