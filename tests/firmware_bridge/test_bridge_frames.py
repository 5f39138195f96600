"""The frame codec (the firmware's, and the host's typed face of it) against fixed bytes; and the decoder fuzzed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.frames import MAX_PAYLOAD, Decoder, Frame, crc16, encode

# (seq, ack, nak, payload, wire bytes)
FIXTURES = [
    (5, 3, False, bytes.fromhex("01 01 07 12 34 56 78"), bytes.fromhex("0d 05 03 01 01 07 12 34 56 78 5d 0f 7e")),
    (None, 0x42, True, b"", bytes.fromhex("06 80 c2 86 38 7e")),
    (0x7F, 0, False, bytes.fromhex("84 02 80 00 00 01"), bytes.fromhex("0c 7f 00 84 02 80 00 00 01 08 9d 7e")),
    (0, 0, False, b"\x7e", bytes.fromhex("07 00 00 7e ce f9 7e")),  # SYNC inside a payload
]


def bitwise_crc(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def test_crc_is_mcrf4xx():
    assert crc16(b"123456789") == 0x6F91  # the catalogue's check value
    assert bitwise_crc(b"123456789") == 0x6F91


def test_crc_matches_the_bitwise_definition_whole_and_over_a_prefix():
    for data in (b"", b"123456789", bytes(range(256))):
        assert crc16(data) == bitwise_crc(data)
        assert crc16(data, len(data) // 2) == bitwise_crc(data[: len(data) // 2])


@pytest.mark.parametrize("seq,ack,nak,payload,wire", FIXTURES)
def test_encode_matches_fixture(seq, ack, nak, payload, wire, fw):
    assert encode(seq, ack, payload, nak=nak) == wire
    fw_seq = 0x80 if seq is None else seq
    assert bytes(fw.proto.encode(fw_seq, ack | (0x80 if nak else 0), payload)) == wire


@pytest.mark.parametrize("seq,ack,nak,payload,wire", FIXTURES)
def test_decode_fixture(seq, ack, nak, payload, wire, fw):
    assert Decoder().feed(wire) == [Frame(seq, ack, nak, payload)]
    fw_seq = 0x80 if seq is None else seq
    assert fw.proto.Decoder().feed(wire) == [(fw_seq, ack | (0x80 if nak else 0), payload)]


def test_decode_byte_by_byte_and_back_to_back():
    stream = b"".join(f[4] for f in FIXTURES)
    decoder = Decoder()
    frames = [frame for byte in stream for frame in decoder.feed(bytes([byte]))]
    assert [f.payload for f in frames] == [f[3] for f in FIXTURES]
    assert decoder.resyncs == 0 and decoder.pending == 0


def test_resync_after_garbage_and_corruption():
    good = [f[4] for f in FIXTURES]
    corrupted = bytearray(good[0])
    corrupted[5] ^= 0x10
    decoder = Decoder()
    frames = decoder.feed(b"\x00\xff\x7e" + good[1] + bytes(corrupted) + good[2] + b"\x7e" + good[3])
    assert [f.payload for f in frames] == [FIXTURES[1][3], FIXTURES[2][3], FIXTURES[3][3]]
    assert decoder.crc_errors == 1
    assert decoder.resyncs >= 2


def test_corrupted_length_is_given_up_by_resync():
    frame = bytearray(FIXTURES[0][4])
    frame[0] = 60  # claims more bytes than will come
    decoder = Decoder()
    assert decoder.feed(bytes(frame)) == []
    assert decoder.pending == len(frame)
    decoder.resync()
    assert decoder.feed(FIXTURES[1][4]) == [Frame(None, 0x42, True, b"")]


def test_clear_drops_a_partial_frame_and_keeps_the_counts():
    decoder = Decoder()
    decoder.feed(b"\x00")  # a bad length: one resync, then skipping to the next SYNC
    decoder.clear()
    decoder.feed(FIXTURES[0][4][:5])  # no longer skipped
    assert decoder.pending == 5 and decoder.resyncs == 1
    decoder.clear()
    assert decoder.pending == 0 and decoder.resyncs == 1
    assert decoder.feed(FIXTURES[1][4]) == [Frame(None, 0x42, True, b"")]


def test_encode_rejects_what_cannot_be_framed():
    with pytest.raises(ValueError, match="exceeds"):
        encode(0, 0, bytes(MAX_PAYLOAD + 1))
    with pytest.raises(ValueError, match="sequence number"):
        encode(128, 0, b"")


frames_st = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(0, 127)), st.integers(0, 127), st.booleans(), st.binary(max_size=MAX_PAYLOAD)),
    min_size=1,
    max_size=8,
)


def assert_only_true_frames(frames: list[Frame], stream: bytes) -> None:
    """Every frame yielded re-encodes to bytes that were really in the stream."""
    for f in frames:
        assert encode(f.seq, f.ack, f.payload, nak=f.nak) in stream


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600), st.integers(1, 64))
def test_fuzz_random_bytes(data, chunk):
    decoder = Decoder()
    frames = [f for i in range(0, len(data), chunk) for f in decoder.feed(data[i : i + chunk])]
    assert_only_true_frames(frames, data)
    assert Decoder().feed(data) == frames  # however the bytes are split


@settings(max_examples=300, deadline=None)
@given(frames_st, st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255), st.sampled_from(["flip", "drop", "insert"])), max_size=6), st.integers(1, 64))
def test_fuzz_mutated_frames(fw, specs, mutations, chunk):
    stream = bytearray(b"".join(encode(s, a, p, nak=n) for s, a, n, p in specs))
    for pos, value, how in mutations:
        i = pos % (len(stream) + 1)
        if how == "insert":
            stream[i:i] = bytes([value])
        elif i < len(stream):
            if how == "flip":
                stream[i] ^= value or 1
            else:
                del stream[i]
    stream = bytes(stream)
    decoder = Decoder()
    frames = [f for i in range(0, len(stream), chunk) for f in decoder.feed(stream[i : i + chunk])]
    assert_only_true_frames(frames, stream)
    if not mutations:
        assert [(f.seq, f.ack, f.nak, f.payload) for f in frames] == [tuple(s) for s in specs]
    raw = fw.proto.Decoder().feed(stream)  # as the hub decodes, in one piece
    assert [bytes(fw.proto.encode(s, a, p)) for s, a, p in raw] == [encode(f.seq, f.ack, f.payload, nak=f.nak) for f in frames]
