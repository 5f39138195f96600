# The codec's test vectors, printed; run by MicroPython and by CPython, which
# must print the same (tests/firmware_bridge/test_bridge_micropython.py).
import struct

import hub_proto as P


def hx(b):
    return "".join("%02x" % x for x in b)


print("crc", "%04x" % P.crc16(b"123456789"))
print("crc-empty", "%04x" % P.crc16(b""))
print("crc-slice", "%04x" % P.crc16(b"xx123456789yy", 11, 2))
print("crc-all", "%04x" % P.crc16(bytes(range(256))))

FRAMES = [
    (0, 0, b""),
    (5, 0x83, b"\x01\x7e\x7e"),          # SYNC bytes inside a payload need no escaping
    (P.UNSEQ, 7, bytes(range(P.MAX_PAYLOAD))),
    (127, P.NAK | 127, b"\x7e"),
    (64, 0, b"\x06\x00\x00\x7e"),          # a payload that looks like a frame's start
]
encoded = [P.encode(seq, ack, payload) for seq, ack, payload in FRAMES]
for f in encoded:
    print("enc", len(f), hx(f))

# A stream with every kind of damage between good frames.
bad_crc = bytearray(encoded[1])
bad_crc[4] ^= 0x10
bad_len = bytearray(encoded[0])
bad_len[0] = 200
bad_seq = bytearray(P.encode(3, 0, b"\x01"))
bad_seq[1] = 0x83                            # neither 0..127 nor 0x80
stream = (b"\x7e\x7e\x00\xff" + encoded[0] + bytes(bad_crc) + encoded[1] + b"\x7e" * 100
          + bytes(bad_len) + encoded[2] + bytes(bad_seq) + encoded[3] + b"\x13\x37" + b"\x7e" + encoded[4])


def decode(chunk):
    d = P.Decoder()
    out = []
    for i in range(0, len(stream), chunk):
        out.extend(d.feed(stream[i:i + chunk]))
    held = len(d.buf)               # "13 37" reads as the start of a 19-byte frame
    d.resync()                      # as the host does after 100 ms without a byte
    out.extend(d.feed(b""))
    return out, d.crc_errors, d.resyncs, held


for chunk in (1, 2, 7, 64, len(stream)):
    frames, crc_errors, resyncs, held = decode(chunk)
    print("dec", chunk, len(frames), crc_errors, resyncs, held,
          " ".join("%02x/%02x/%s" % (s, a, hx(p)) for s, a, p in frames))

# A partial frame held back, then given up (a corrupted LEN).
d = P.Decoder()
print("partial", len(d.feed(b"\x40\x01\x02")), len(d.buf))
d.resync()
print("resync", len(d.buf), d.resyncs, [hx(p) for _, _, p in d.feed(encoded[0] + encoded[3])])

# The message layouts: sizes, and a packed message read back.
for name in ("EVENTS_HEAD", "EVENT", "HEARTBEAT_LAYOUT", "CLOCK_LAYOUT", "SNAPSHOT_LAYOUT", "HELLO_LAYOUT",
             "Q_HELLO_LAYOUT", "Q_CLOCK_LAYOUT", "Q_SNAPSHOT_LAYOUT", "SEAT_LED_HEAD", "PATTERN_STEP",
             "COUNT_LEDS_LAYOUT"):
    print("layout", name, struct.calcsize(getattr(P, name)))
hb = struct.pack(P.HEARTBEAT_LAYOUT, P.HEARTBEAT, 0xBEEF, 0xFFFFFFFF & P.U32, 0x1FF, 1024, 3, 65535, 7)
print("heartbeat", hx(hb), struct.unpack(P.HEARTBEAT_LAYOUT, hb))
print("event", hx(struct.pack(P.EVENT, 8 << 1 | 1, (2 ** 32 + 5) & P.U32)))
print("sizes", P.EVENT_SIZE == struct.calcsize(P.EVENT), P.MAX_EVENTS)
