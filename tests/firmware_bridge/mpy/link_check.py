# The link (sequence numbers, cumulative ACK, NAK, retransmit on timeout) over a
# lossy, corrupting line, on a simulated clock; run by MicroPython and by
# CPython, which must print the same.  Deterministic: its own random numbers.
import hub_proto as P
from hub_link import Link

seed = 12345


def rand(n):
    # A 31-bit LCG: the same numbers under any interpreter.
    global seed
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return seed % n


class Line:
    def __init__(self):
        self.queue = []              # [deliver_at_us, bytes]
        self.sent = self.lost = self.flipped = 0

    def write(self, frame, now):
        self.sent += 1
        if rand(100) < 8:            # 8 % of frames lost
            self.lost += 1
            return
        f = bytearray(frame)
        if rand(100) < 5:            # 5 % with a flipped bit
            f[rand(len(f))] ^= 1 << rand(8)
            self.flipped += 1
        self.queue.append([now + 2000 + rand(500), bytes(f)])

    def due(self, now):
        out = b""
        while self.queue and self.queue[0][0] <= now:
            out += self.queue.pop(0)[1]
        return out


clock = [0]
a_to_b = Line()
b_to_a = Line()
hub = Link(lambda f: a_to_b.write(f, clock[0]), window=16)
host = Link(lambda f: b_to_a.write(f, clock[0]), window=8)
dec_hub = P.Decoder()
dec_host = P.Decoder()
received = []
to_send = list(range(600))
steps = 0
while (to_send or hub.unacked) and steps < 200000:
    steps += 1
    now = clock[0]
    while to_send and hub.room() > 0:
        n = to_send.pop(0)
        hub.send(bytes((n >> 8, n & 0xFF)), now)
    for seq, ack, payload in dec_host.feed(a_to_b.due(now)):
        if host.receive(seq, ack, now) and payload:
            received.append(payload[0] << 8 | payload[1])
    for seq, ack, payload in dec_hub.feed(b_to_a.due(now)):
        hub.receive(seq, ack, now)
    hub.service(now)
    host.service(now)
    clock[0] += 250

print("delivered", len(received), received == list(range(600)))
print("hub", hub.tx_next, hub.frames_tx, hub.retransmits, hub.rto, hub.srtt)
print("host", host.rx_expected, host.frames_rx, host.duplicates, host.out_of_order)
print("line", a_to_b.sent, a_to_b.lost, a_to_b.flipped, b_to_a.sent, b_to_a.lost)
print("decoders", dec_host.crc_errors, dec_host.resyncs, dec_hub.crc_errors)
print("time", clock[0], steps)
