# Runs under MicroPython (runner.mjs, mode "hub"): the firmware's hub, built by
# hub_board.build() on stand-ins for machine, neopixel and time whose pins,
# pixels and clock are fed by the test through the runner.
#
# Control lines (the runner's CONTROL_FD):
#   config SEATS DEBOUNCE_US BOOT_ID CLOCK_START_US   build the hub (first line)
#   levels MASK                                       bit i set: seat i upright
#   gc                                                 report the live heap now
#   boot BOOT_ID                                       power cycle: a new hub
#   quit                                               report the peaks
# Reports (stderr): "origin NS FIRST_TICKS TICKS_OFFSET START_US", "rec SEAT UP T_US", "heap LIVE PEAK",
# "queue LEN DROPPED", "count MASK", "pixels R,G,B ...", "ready".

import binascii
import gc

import hostio
import hub_board

TICKS_PERIOD = 1 << 30


class Time:
    # MicroPython's ticks functions, on the runner's clock.
    def ticks_us(self):
        return hostio.ticks_us()

    def ticks_diff(self, a, b):
        return ((a - b + TICKS_PERIOD // 2) & (TICKS_PERIOD - 1)) - TICKS_PERIOD // 2


class Board:
    def __init__(self):
        self.levels = {}
        self.outputs = {}
        self.pixels = []
        board = self

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 2

            def __init__(self, pin_id, mode=0, pull=None, value=None):
                self.id = pin_id
                if mode == Pin.IN:
                    if pin_id not in board.levels:
                        board.levels[pin_id] = 1 if pull == Pin.PULL_UP else 0
                elif value is not None:
                    board.outputs[pin_id] = value

            def value(self, v=None):
                if v is None:
                    return board.levels.get(self.id, board.outputs.get(self.id, 0))
                board.outputs[self.id] = v

        class NeoPixel:
            def __init__(self, pin, n):
                self.buf = [(0, 0, 0)] * n

            def __setitem__(self, i, rgb):
                self.buf[i] = rgb

            def write(self):
                board.pixels = list(self.buf)

        class Machine:
            pass

        class Neo:
            pass

        Machine.Pin = Pin
        Neo.NeoPixel = NeoPixel
        self.machine = Machine
        self.neopixel = Neo


class Io:
    def read(self):
        h = hostio.take()
        return binascii.unhexlify(h) if h else b""

    def write(self, data):
        hostio.put(binascii.hexlify(data).decode())


board = Board()
hub = None
settings = None
peak = 0
polls = 0
last_count = None
last_pixels = None


def measure():
    global peak
    gc.collect()
    live = gc.mem_alloc()
    if live > peak:
        peak = live
    return live


def build(boot_id):
    global hub
    seats, debounce_us, clock_start_us = settings
    hub = None
    gc.collect()
    hub = hub_board.build(board.machine, board.neopixel, Time(), Io(), boot_id,
                          seats=seats, debounce_us=debounce_us, clock_start_us=clock_start_us)
    hub.recorded = lambda seat, up, t: hostio.report("rec %d %d %d" % (seat, 1 if up else 0, t))
    # hub time T is runner time (T - start) + ticks microseconds after the runner's origin
    hostio.report("origin %s %d %d %d" % (hostio.origin_ns(), hub.clock.last, hostio.ticks_offset(), clock_start_us))
    hostio.report("ready %d" % boot_id)


def control(line):
    global settings
    words = line.split()
    if not words:
        return
    cmd = words[0]
    if cmd == "config":
        seats, debounce_us, boot_id, start = (int(w) for w in words[1:5])
        settings = (seats, debounce_us, start)
        for i in range(seats):
            board.levels[hub_board.SEAT_PINS[i]] = 0      # every standee upright
        build(boot_id)
    elif cmd == "levels":
        mask = int(words[1])
        for i in range(settings[0]):
            board.levels[hub_board.SEAT_PINS[i]] = 0 if mask >> i & 1 else 1
    elif cmd == "boot":
        build(int(words[1]))
    elif cmd == "gc":
        live = measure()
        hostio.report("heap %d %d" % (live, peak))
        hostio.report("queue %d %d" % (hub.queued, hub.dropped))
    elif cmd == "quit":
        live = measure()
        hostio.report("heap %d %d" % (live, peak))
        hostio.report("queue %d %d" % (hub.queued, hub.dropped))


def step(n):
    global polls, last_count, last_pixels
    c = hostio.controls()
    if c:
        for line in c.split("\n"):
            control(line)
    if hub is None:
        return
    for _ in range(n):
        hub.poll()
    polls += 1
    if polls % 256 == 0:
        measure()
    mask = sum(1 << i for i, pin in enumerate(hub_board.COUNT_PINS) if board.outputs.get(pin))
    if mask != last_count:
        last_count = mask
        hostio.report("count %d" % mask)
    if board.pixels != last_pixels:
        last_pixels = board.pixels
        hostio.report("pixels " + " ".join("%d,%d,%d" % rgb for rgb in last_pixels))
