# Sequenced, acknowledged delivery over the frame codec (MicroPython; also CPython).
#
# Go-back-N in each direction: every sequenced frame is kept until the peer's
# cumulative ACK covers it and is sent again, with all that follow it, when the
# oldest one is older than the retransmit timeout.  The timeout follows the
# measured round trip (RFC 6298: srtt + 4 * rttvar, Karn's rule).  A receiver
# that sees a frame from ahead of the one it expects sets NAK on its next
# ACK, and the sender then retransmits at once instead of waiting.
# The host runs this same class (firmware_bridge/link.py wraps it).

from hub_proto import NAK, SEQ_MASK, UNSEQ, encode

MIN_RTO_US = 25000
MAX_RTO_US = 1000000
INIT_RTO_US = 100000


class Link:
    def __init__(self, write, window=16):
        self.write = write
        self.window = window
        self.tx_next = 0          # seq of the next new frame
        self.unacked = []         # [seq, payload, first_sent_us, sent_count]
        self.rx_expected = 0      # next seq wanted from the peer
        self.ack_due = False
        self.nak_due = False
        self.srtt = 0
        self.rttvar = 0
        self.rto = INIT_RTO_US
        self.backoff = 1
        self.retx_at = None       # when the oldest unacked frame times out
        self.fast_retx_done = False
        self.frames_tx = 0
        self.frames_rx = 0
        self.retransmits = 0
        self.duplicates = 0       # sequenced frames received again
        self.out_of_order = 0     # sequenced frames from ahead (one was lost)

    def room(self):
        return self.window - len(self.unacked)

    def ack_byte(self):
        b = self.rx_expected
        if self.nak_due:
            b |= NAK
        return b

    def send(self, payload, now):
        # Queue and transmit a sequenced frame (the caller checks room()).
        seq = self.tx_next
        self.tx_next = (seq + 1) & SEQ_MASK
        self.unacked.append([seq, payload, now, 1])
        self._put(seq, payload)
        if self.retx_at is None:
            self.retx_at = now + self.rto * self.backoff

    def send_unseq(self, payload):
        self._put(UNSEQ, payload)

    def _put(self, seq, payload):
        self.write(encode(seq, self.ack_byte(), payload))
        self.frames_tx += 1
        self.ack_due = False
        self.nak_due = False

    def receive(self, seq, ack, now):
        # Handle a frame's header; True when its payload is new and in order.
        self.frames_rx += 1
        self._on_ack(ack, now)
        if seq == UNSEQ:
            return False
        self.ack_due = True
        if seq == self.rx_expected:
            self.rx_expected = (seq + 1) & SEQ_MASK
            return True
        if 0 < ((seq - self.rx_expected) & SEQ_MASK) < 64:
            self.out_of_order += 1
            self.nak_due = True
        else:
            self.duplicates += 1
        return False

    def _on_ack(self, ack, now):
        nak = ack & NAK
        ack &= SEQ_MASK
        if not self.unacked:
            return
        base = self.unacked[0][0]
        count = (ack - base) & SEQ_MASK
        if count > len(self.unacked):
            return                # stale or foreign ack
        if count:
            last = self.unacked[count - 1]
            if last[3] == 1:      # Karn: time only frames sent once
                self._rtt_sample(now - last[2])
            self.unacked = self.unacked[count:]
            self.backoff = 1
            self.fast_retx_done = False
            self.retx_at = now + self.rto if self.unacked else None
        elif nak and not self.fast_retx_done:
            self.fast_retx_done = True
            self.resend_all(now)

    def _rtt_sample(self, rtt):
        if self.srtt == 0:
            self.srtt = rtt
            self.rttvar = rtt // 2
        else:
            self.rttvar = (3 * self.rttvar + abs(self.srtt - rtt)) // 4
            self.srtt = (7 * self.srtt + rtt) // 8
        self.rto = min(MAX_RTO_US, max(MIN_RTO_US, self.srtt + 4 * self.rttvar))

    def resend_all(self, now):
        for f in self.unacked:
            f[3] += 1
            self._put(f[0], f[1])
            self.retransmits += 1
        if self.unacked:
            self.retx_at = now + min(MAX_RTO_US, self.rto * self.backoff)

    def service(self, now):
        # Retransmit on timeout and send a bare ACK when one is owed.
        if self.retx_at is not None and now - self.retx_at >= 0:
            self.backoff = min(self.backoff * 2, MAX_RTO_US // MIN_RTO_US)
            self.resend_all(now)
        if self.ack_due:
            self._put(UNSEQ, b"")

    def forget(self):
        # A new host: what it was never sent is no news to it.
        self.unacked = []
        self.retx_at = None

    def restart(self, now):
        # The peer reconnected: retransmit everything now, at the base timeout.
        self.backoff = 1
        self.fast_retx_done = False
        self.ack_due = True
        self.resend_all(now)
