# Frame codec of the hub protocol (MicroPython; also runs under CPython).
#
# Frame: LEN SEQ ACK PAYLOAD.. CRC_HI CRC_LO SYNC
#   LEN  total frame length, 6..64
#   SEQ  0..127 for a sequenced frame, 0x80 for an unsequenced one
#   ACK  bits 0-6: next sequence number expected from the peer; bit 7: NAK
#   CRC  CRC-16/MCRF4XX over LEN..PAYLOAD, high byte first
#   SYNC 0x7E
# See docs/hub-protocol.md.  This is the protocol's only codec: the host imports
# this module too (firmware_bridge/firmware.py) and wraps it in typed classes.

SYNC = 0x7E
HEADER = 3
TRAILER = 3
MIN_FRAME = 6
MAX_FRAME = 64
MAX_PAYLOAD = MAX_FRAME - MIN_FRAME
UNSEQ = 0x80
NAK = 0x80
SEQ_MASK = 0x7F

# Hub -> host message types
EVENTS = 0x01
HEARTBEAT = 0x02
CLOCK = 0x03
SNAPSHOT = 0x04
HELLO = 0x05
# Host -> hub message types
Q_HELLO = 0x81
Q_CLOCK = 0x82
Q_SNAPSHOT = 0x83
SEAT_LED = 0x84
COUNT_LEDS = 0x85
EXIT_TO_REPL = 0x86
EXIT_MAGIC = b"REPL"   # the body EXIT_TO_REPL must carry, so noise cannot stop the hub

HELLO_FRESH = 0x01     # Q_HELLO flag: the host knows nothing yet, drop the backlog

EVENT_SIZE = 5
MAX_EVENTS = (MAX_PAYLOAD - 2) // EVENT_SIZE
VERSION = 1


def _table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x8408 if c & 1 else c >> 1
        t.append(c)
    return t


_T = _table()


def crc16(data, end=None):
    # CRC-16/MCRF4XX: reflected poly 0x1021, init 0xFFFF, no final xor.
    crc = 0xFFFF
    t = _T
    for i in range(len(data) if end is None else end):
        crc = (crc >> 8) ^ t[(crc ^ data[i]) & 0xFF]
    return crc


def encode(seq, ack, payload):
    f = bytearray((len(payload) + MIN_FRAME, seq, ack))
    f.extend(payload)
    c = crc16(f)
    f.append(c >> 8)
    f.append(c & 0xFF)
    f.append(SYNC)
    return f


class Decoder:
    # Splits a byte stream into frames, skipping to the next SYNC on any error.
    # The buffer is a bytes object, rebuilt by slicing: portable to any port.

    def __init__(self):
        self.buf = b""
        self.need_sync = False
        self.crc_errors = 0
        self.resyncs = 0

    def feed(self, data):
        # Returns a list of (seq_byte, ack_byte, payload) for every valid frame.
        buf = self.buf + bytes(data)
        out = []
        while buf:
            if self.need_sync:
                i = buf.find(b"\x7e")
                if i < 0:
                    buf = b""
                    break
                buf = buf[i + 1:]
                self.need_sync = False
                continue
            n = buf[0]
            if n < MIN_FRAME or n > MAX_FRAME:
                buf = self._skip(buf)
                continue
            if len(buf) < n:
                break
            if buf[n - 1] != SYNC or (buf[1] & UNSEQ and buf[1] != UNSEQ):
                buf = self._skip(buf)
                continue
            if crc16(buf, n - 3) != (buf[n - 3] << 8 | buf[n - 2]):
                self.crc_errors += 1
                buf = self._skip(buf)
                continue
            out.append((buf[1], buf[2], buf[3:n - 3]))
            buf = buf[n:]
        self.buf = buf
        return out

    def resync(self):
        # Give up on the partial frame held back, as on any error (a corrupted
        # LEN would otherwise wait for bytes that never come).
        if self.buf:
            self.buf = self._skip(self.buf)

    def clear(self):
        # Forget what is held back (a new connection); the counts stay.
        self.buf = b""
        self.need_sync = False

    def _skip(self, buf):
        # Skip past the next SYNC (a frame starts right after one); a stray
        # SYNC at the head is only dropped.
        self.resyncs += 1
        self.need_sync = buf[0] != SYNC
        return buf[1:]


def u16(b, i):
    return b[i] << 8 | b[i + 1]


def u32(b, i):
    return b[i] << 24 | b[i + 1] << 16 | b[i + 2] << 8 | b[i + 3]


def put16(b, v):
    b.append((v >> 8) & 0xFF)
    b.append(v & 0xFF)


def put32(b, v):
    b.append((v >> 24) & 0xFF)
    b.append((v >> 16) & 0xFF)
    b.append((v >> 8) & 0xFF)
    b.append(v & 0xFF)
