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

VERSION = 1

# Message layouts: struct formats (big-endian, no padding; MicroPython's struct
# reads them too), the type byte first.  The hub packs and the host unpacks
# these very strings: a layout is written here and nowhere else.
EVENTS_HEAD = ">BB"             # EVENTS, n; then n x EVENT
EVENT = ">BI"                   # seat << 1 | upright, hub time (low 32 bits of the microseconds)
HEARTBEAT_LAYOUT = ">BHIHHHHH"  # HEARTBEAT, boot id, hub time, upright mask, queued, dropped, CRC errors, retransmits
CLOCK_LAYOUT = ">BBI"           # CLOCK, token, hub time
SNAPSHOT_LAYOUT = ">BIHH"       # SNAPSHOT, hub time, upright mask, events dropped
HELLO_LAYOUT = ">BBHIBBBBB"     # HELLO, token, boot id, hub time, seats, next tx seq, oldest unacked seq, next rx seq, version
Q_HELLO_LAYOUT = ">BBB"         # Q_HELLO, token, flags
Q_CLOCK_LAYOUT = ">BB"          # Q_CLOCK, token
Q_SNAPSHOT_LAYOUT = ">B"        # Q_SNAPSHOT
SEAT_LED_HEAD = ">BBBBBB"       # SEAT_LED, seat, r, g, b, n; then n x PATTERN_STEP
PATTERN_STEP = ">BH"            # level 0..255, milliseconds (0: hold)
COUNT_LEDS_LAYOUT = ">BB"       # COUNT_LEDS, mask (bit 0 = LED "1")

EVENT_SIZE = 5                  # struct.calcsize(EVENT), checked by the tests
MAX_EVENTS = (MAX_PAYLOAD - 2) // EVENT_SIZE
U32 = 0xFFFFFFFF


def _table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x8408 if c & 1 else c >> 1
        t.append(c)
    return t


_T = _table()


def crc16(data, end=None, start=0):
    # CRC-16/MCRF4XX: reflected poly 0x1021, init 0xFFFF, no final xor, over data[start:end].
    crc = 0xFFFF
    t = _T
    for i in range(start, len(data) if end is None else end):
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
    # Linear in its input: one pass with an index over the bytes held back (at
    # most one partial frame, under MAX_FRAME bytes) and the new ones; a byte
    # is examined by at most the MAX_FRAME candidate frames that cover it.

    def __init__(self):
        self.buf = b""
        self.need_sync = False
        self.crc_errors = 0
        self.resyncs = 0

    def feed(self, data):
        # Returns a list of (seq_byte, ack_byte, payload) for every valid frame.
        buf = self.buf + bytes(data) if self.buf else bytes(data)
        end = len(buf)
        i = 0
        out = []
        while i < end:
            if self.need_sync:
                j = buf.find(b"\x7e", i)
                if j < 0:
                    i = end
                    break
                i = j + 1
                self.need_sync = False
                continue
            n = buf[i]
            if n < MIN_FRAME or n > MAX_FRAME:
                i = self._skip(buf, i)
                continue
            if end - i < n:
                break
            seq = buf[i + 1]
            if buf[i + n - 1] != SYNC or (seq & UNSEQ and seq != UNSEQ):
                i = self._skip(buf, i)
                continue
            if crc16(buf, i + n - 3, i) != (buf[i + n - 3] << 8 | buf[i + n - 2]):
                self.crc_errors += 1
                i = self._skip(buf, i)
                continue
            out.append((seq, buf[i + 2], buf[i + 3:i + n - 3]))
            i += n
        self.buf = buf[i:] if i < end else b""
        return out

    def resync(self):
        # Give up on the partial frame held back, as on any error (a corrupted
        # LEN would otherwise wait for bytes that never come).
        if self.buf:
            self.buf = self.buf[self._skip(self.buf, 0):]

    def clear(self):
        # Forget what is held back (a new connection); the counts stay.
        self.buf = b""
        self.need_sync = False

    def _skip(self, buf, i):
        # Skip past the next SYNC (a frame starts right after one); a stray
        # SYNC at the head is only dropped.  Returns the next index.
        self.resyncs += 1
        self.need_sync = buf[i] != SYNC
        return i + 1
