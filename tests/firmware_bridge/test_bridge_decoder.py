"""The frame decoder on hostile streams: linear in its input (the codec's steps
counted, not timed), the same frames however the stream is chunked, every
intact frame found; and a noisy line logs each error once a second with a
count, not a line per frame."""

from __future__ import annotations

import logging
import random
import sys
from collections.abc import Callable
from types import FrameType

from hypothesis import example, given, settings
from hypothesis import strategies as st

from firmware_bridge import messages as M
from firmware_bridge.driver import HubDriver
from firmware_bridge.firmware import hub_proto
from firmware_bridge.frames import MAX_PAYLOAD, SYNC, Decoder, Frame, encode

frames_st = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(0, 127)), st.integers(0, 127), st.binary(max_size=MAX_PAYLOAD)),
    max_size=8,
)
noise_st = st.one_of(
    st.binary(max_size=200),
    st.integers(0, 3000).map(lambda n: bytes([SYNC]) * n),  # runs of sync bytes
    st.integers(0, 500).map(lambda n: bytes([SYNC, 0x40]) * n),  # SYNC then a length that waits
)


def decode_in_chunks(stream: bytes, sizes: list[int]) -> list[Frame]:
    d = Decoder()
    out = []
    i = 0
    for size in sizes or [len(stream)]:
        out += d.feed(stream[i:i + size])
        i += size
    out += d.feed(stream[i:])
    while d.pending:  # the line falls silent: the host gives up on a partial frame every 100 ms
        d.resync()
        out += d.feed(b"")
    return out


# noise starting with a length byte (0x40), four frames and a run of SYNC bytes: the 64 bytes from that length
# byte pass the CRC by chance, so they come out as one frame holding the four
CHANCE_FRAME = ([(b"@~@", [(42, 53, b"\x11"), (None, 46, b"B>"), (20, 45, b"qM\xd3\xc2n;\x8f\x9f"),
                           (101, 100, b"\x7f\t")]), (b"~" * 22, [])], [])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(noise_st, frames_st), max_size=6), st.lists(st.integers(1, 300), max_size=20))
@example(*CHANCE_FRAME)
def test_every_intact_frame_after_a_sync_is_found_however_the_stream_is_chunked(parts, sizes):
    stream = b""
    sent = []
    for noise, frames in parts:
        stream += noise + bytes([SYNC])  # a frame starts right after a SYNC
        for seq, ack, payload in frames:
            stream += encode(seq, ack, payload)
            sent.append((seq, ack, payload))
    whole = decode_in_chunks(stream, [])
    assert decode_in_chunks(stream, sizes) == whole
    # what was sent comes out in order, except where noise and what follows it pass the 16-bit CRC by chance
    # (about one span in 65,536): that span comes out as one frame, and the frames inside it with it
    got = [(f.seq, f.ack, f.payload) for f in whole]
    by_chance = [encode(f.seq, f.ack, f.payload, nak=f.nak) for f, g in zip(whole, got) if f.nak or g not in sent]
    it = iter(got)
    for s in sent:
        wire = encode(*s)
        assert any(wire in chance for chance in by_chance) or any(f == s for f in it)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=4000), st.lists(st.integers(1, 100), max_size=50))
def test_random_streams_never_raise_and_hold_back_less_than_a_frame(data, sizes):
    d = Decoder()
    i = 0
    for size in sizes:
        d.feed(data[i:i + size])
        i += size
        assert d.pending < 64
    d.feed(data[i:])
    assert d.pending < 64


def _steps(stream: bytes, chunk: int) -> int:
    """Lines of the codec run to decode the stream read ``chunk`` bytes at a
    time: a count of work that, unlike a time, no busy machine changes."""
    codec = hub_proto.__file__
    steps = 0

    def tracer(frame: FrameType, event: str, arg: object) -> Callable[..., object] | None:
        nonlocal steps
        if frame.f_code.co_filename != codec:
            return None
        if event == "line":
            steps += 1
        return tracer

    d = Decoder()
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        for i in range(0, len(stream), chunk):
            d.feed(stream[i:i + chunk])
    finally:
        sys.settrace(previous)
    return steps


def test_decoding_work_grows_linearly_with_the_stream():
    """Four times the bytes cost four times the work, give or take the few
    steps of a read: quadratic would be 16 times."""
    rng = random.Random(1)
    frame = encode(3, 1, bytes(40))
    kinds = {
        "sync run": bytes([SYNC]) * 2_000,
        "sync + long length": bytes([SYNC, 0x40]) * 1_000,
        "noise": bytes(rng.getrandbits(8) for _ in range(2_000)),
        "frames in sync runs": (bytes([SYNC]) * 200 + frame) * 8,
    }
    cases = [(name, small, 10**9) for name, small in kinds.items()]  # one read of everything: the worst case
    cases.append(("sync run", kinds["sync run"], 64))  # and small reads
    for name, small, chunk in cases:
        once, four = _steps(small, chunk), _steps(small * 4, chunk)
        ratio = four / once
        assert 3.5 < ratio < 4.2, f"{name}, reads of {min(chunk, len(small) * 4)} bytes: 4x the bytes took {ratio:.2f}x the work"


def test_a_noisy_line_logs_each_error_once_a_second_with_a_count(caplog):
    now = [100.0]
    driver = HubDriver("/dev/null-hub", seats=9, on_change=lambda c: None, clock=lambda: now[0])
    driver._synced = True
    bad = encode(None, 0, bytes([0x7F, 1, 2]))  # passes the CRC, is no message
    with caplog.at_level(logging.WARNING, logger="firmware_bridge.driver"):
        for _ in range(300):  # 300 a second for 2.5 s
            for _ in range(3):
                driver._receive(bad, now[0])
            now[0] += 0.01
            driver._repeats.flush(now[0])
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) <= 6, errors
    assert errors[0] == "hub at /dev/null-hub: unknown message type 0x7f"
    counted = [e for e in errors if "more in the last" in e]
    assert counted and "(and 299 more in the last 1.0 s)" in counted[0]
    assert driver.stats.crc_errors == 0  # they passed the CRC: it is the message that is unknown
    assert isinstance(M.MalformedMessage("x"), ValueError)
