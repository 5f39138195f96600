# The hub: tilt events queued until the host acknowledges them, LED commands,
# heartbeats, clock replies and snapshots (MicroPython; also CPython).
#
# Board-independent: the caller passes a byte stream (read() -> bytes,
# write(bytes)), a microsecond clock (now_us(), never wrapping), a Tilt and
# Lights.  hub_board.py wires these to the Pico; the simulator to fakes.

import struct

import hub_proto as P
from hub_link import Link

HEARTBEAT_US = 1000000
QUEUE_MAX = 1024


class Hub:
    def __init__(self, io, clock, lights, seats, boot_id):
        self.io = io
        self.clock = clock
        self.lights = lights
        self.seats = seats
        self.boot_id = boot_id & 0xFFFF
        self.tilt = None
        self.decoder = P.Decoder()
        self.link = Link(io.write)
        # Events not yet framed, in a ring of QUEUE_MAX wire-format records
        # (P.EVENT) allocated once: the queue's memory is fixed at boot.
        self.ring = bytearray(QUEUE_MAX * P.EVENT_SIZE)
        self.head = 0               # index of the oldest queued event
        self.queued = 0
        self.dropped = 0
        self.snapshot_due = False
        self.next_heartbeat = 0
        self.recorded = None        # optional hook: recorded(seat, up, t_us)
        self.exit_requested = False  # main.py stops the hub and returns to the REPL

    def attach(self, tilt):
        self.tilt = tilt

    def record(self, seat, up, t_us):
        # Queue a debounced change; Tilt calls this.
        if self.recorded is not None:
            self.recorded(seat, up, t_us)
        if self.queued >= QUEUE_MAX:
            self.dropped += 1       # the host's snapshot will show the change
            return
        i = (self.head + self.queued) % QUEUE_MAX
        struct.pack_into(P.EVENT, self.ring, i * P.EVENT_SIZE, seat << 1 | (1 if up else 0), t_us & P.U32)
        self.queued += 1

    def mask(self):
        return self.tilt.mask() if self.tilt is not None else 0

    def poll(self):
        now = self.clock.now_us()
        if self.tilt is not None:
            self.tilt.sample(now)
        data = self.io.read()
        if data:
            for seq, ack, payload in self.decoder.feed(data):
                if self.link.receive(seq, ack, now) or seq == P.UNSEQ:
                    if payload:
                        self.handle(payload, now)
        self.flush(now)
        self.link.service(now)
        if now - self.next_heartbeat >= 0:
            self.next_heartbeat = now + HEARTBEAT_US
            self.heartbeat(now)
        self.lights.service(now)

    def handle(self, p, now):
        kind = p[0]
        if kind == P.Q_CLOCK and len(p) == struct.calcsize(P.Q_CLOCK_LAYOUT):
            token = struct.unpack(P.Q_CLOCK_LAYOUT, p)[1]
            self.link.send_unseq(struct.pack(P.CLOCK_LAYOUT, P.CLOCK, token, self.clock.now_us() & P.U32))
        elif kind == P.Q_HELLO and len(p) == struct.calcsize(P.Q_HELLO_LAYOUT):
            _, token, flags = struct.unpack(P.Q_HELLO_LAYOUT, p)
            link = self.link
            if flags & P.HELLO_FRESH:
                self.queued = 0
                self.snapshot_due = False
                link.forget()
            oldest = link.unacked[0][0] if link.unacked else link.tx_next
            link.send_unseq(struct.pack(
                P.HELLO_LAYOUT, P.HELLO, token, self.boot_id, self.clock.now_us() & P.U32,
                self.seats, link.tx_next, oldest, link.rx_expected, P.VERSION))
            link.restart(now)
        elif kind == P.Q_SNAPSHOT:
            self.snapshot_due = True
        elif kind == P.SEAT_LED:
            head = struct.calcsize(P.SEAT_LED_HEAD)
            size = struct.calcsize(P.PATTERN_STEP)
            if len(p) < head:
                return
            _, seat, r, g, b, n = struct.unpack_from(P.SEAT_LED_HEAD, p)
            if len(p) != head + size * n:
                return
            steps = tuple(struct.unpack_from(P.PATTERN_STEP, p, i) for i in range(head, len(p), size))
            self.lights.seat(seat, (r, g, b), steps, now)
        elif kind == P.COUNT_LEDS and len(p) == struct.calcsize(P.COUNT_LEDS_LAYOUT):
            self.lights.count(struct.unpack(P.COUNT_LEDS_LAYOUT, p)[1])
        elif kind == P.EXIT_TO_REPL and p[1:] == P.EXIT_MAGIC:
            self.exit_requested = True

    def flush(self, now):
        # Frame queued events (and a requested snapshot, after them) while the window has room.
        link = self.link
        while self.queued and link.room() > 0:
            n = min(self.queued, P.MAX_EVENTS, QUEUE_MAX - self.head)   # up to the ring's end
            start = self.head * P.EVENT_SIZE
            b = bytearray(struct.pack(P.EVENTS_HEAD, P.EVENTS, n))
            b.extend(self.ring[start:start + n * P.EVENT_SIZE])
            self.head = (self.head + n) % QUEUE_MAX
            self.queued -= n
            link.send(b, now)
        if self.snapshot_due and not self.queued and link.room() > 0:
            self.snapshot_due = False
            link.send(struct.pack(P.SNAPSHOT_LAYOUT, P.SNAPSHOT, self.clock.now_us() & P.U32,
                                  self.mask(), self.dropped & 0xFFFF), now)

    def heartbeat(self, now):
        link = self.link
        queued = min(0xFFFF, self.queued + len(link.unacked) * P.MAX_EVENTS)
        link.send_unseq(struct.pack(
            P.HEARTBEAT_LAYOUT, P.HEARTBEAT, self.boot_id, now & P.U32, self.mask(), queued,
            self.dropped & 0xFFFF, self.decoder.crc_errors & 0xFFFF, link.retransmits & 0xFFFF))
