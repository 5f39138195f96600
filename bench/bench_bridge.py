"""Benchmarks of the hub link, run by hand:  .venv/bin/python bench/bench_bridge.py

1. Throughput: events per second from the simulated hub through a pty to the
   host driver, with the simulator pacing bytes at the line rate (10 bits a
   byte; a pty itself has no baud rate).  Reported against the line rate: the
   share of the line's bytes that carried event frames, and events/s against
   the most the framing allows (11 events in a 63-byte frame).  Baseline, same
   run: raw 63-byte blocks through the same paced pty with no protocol.
2. Host-side event time error with 0-5 ms random delivery jitter each way
   (p50/p99/max against the simulator's true clock).  Baseline: no jitter.
3. Time from replugging the hub to the first delivered event (a change made
   while unplugged), over repeated replugs at random moments.
4. The firmware's heap under MicroPython 1.27 (its WebAssembly build, through
   tests/firmware_bridge/mpy_hub.py): live heap after a collection
   (gc.mem_alloc) through 10,000 events, a full queue while the host is
   unplugged, and reconnects, against the Pico's ~190 KB.  Baseline: the idle
   hub just after HELLO.
5. The frame decoder's cost per byte as the input grows (one read of 20 KB
   to 320 KB of sync bytes, of noise, and of frames): linear means a flat
   cost per byte.  Baseline, same run: a stream of back-to-back valid frames.

``--only heap,decoder`` runs some of them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
import tty

import serial

from controller.devices.hub_backend import HubBackend
from controller.devices.interfaces import TiltEvent
from firmware_bridge.frames import SYNC, Decoder, encode
from firmware_bridge.sim import Faults, SimHub, Wire

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "firmware_bridge"))

EVENTS_PER_FRAME = 11
FRAME_BYTES = 6 + 2 + 5 * EVENTS_PER_FRAME


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def raw_pty_baseline(baud: int, seconds: float) -> float:
    """Bytes/s of paced 63-byte blocks through a pty, as a fraction of the line rate."""
    master, slave = os.openpty()
    tty.setraw(slave)
    wire = Wire("baseline", Faults(), random.Random(0), baud)

    def to_master(data: bytes) -> None:
        os.write(master, data)

    wire.sink = to_master
    port = serial.Serial(os.ttyname(slave), timeout=0.05)
    received = 0
    stop = threading.Event()

    def writer() -> None:
        block = bytes(FRAME_BYTES)
        while not stop.is_set():
            wire.push(block)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    time.sleep(0.3)
    port.reset_input_buffer()
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        received += len(port.read(4096))
    elapsed = time.monotonic() - start
    stop.set()
    thread.join()
    wire.close()
    port.close()
    os.close(master)
    os.close(slave)
    return received / elapsed / (baud / 10)


def throughput(baud: int, seconds: float) -> dict[str, float]:
    with SimHub(transport="pty", baudrate=baud, debounce_us=0, seed=1) as sim:
        got: list[float] = []
        hub = HubBackend(sim.url, seats=9, baudrate=baud)
        hub.tilt.on_event(lambda e: got.append(time.monotonic()))
        assert hub.wait_connected(20), "hub did not connect"
        state = [True] * 9
        stop = threading.Event()

        def feed() -> None:  # keep the hub's queue full
            i = 0
            while not stop.is_set():
                if sim.queued < 400:
                    batch = []
                    for _ in range(200):
                        state[i % 9] = not state[i % 9]
                        batch.append((i % 9, state[i % 9]))
                        i += 1
                    sim.inject(batch)
                time.sleep(0.002)

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        time.sleep(1.0)
        n0, b0, t0 = len(got), hub.driver.stats.bytes_rx, time.monotonic()
        time.sleep(seconds)
        n1, b1, t1 = len(got), hub.driver.stats.bytes_rx, time.monotonic()
        stop.set()
        feeder.join()
        hub.close()
    line = baud / 10
    events_per_s = (n1 - n0) / (t1 - t0)
    return {
        "events_per_s": events_per_s,
        "line_share": (b1 - b0) / (t1 - t0) / line,
        "of_framing_max": events_per_s / (line / FRAME_BYTES * EVENTS_PER_FRAME),
    }


def time_errors(jitter: float, seconds: float, seed: int) -> list[float]:
    with SimHub(transport="pty", faults=Faults(jitter=jitter), debounce_us=0, drift_ppm=-60, seed=seed) as sim:
        got: list[TiltEvent] = []
        hub = HubBackend(sim.url, seats=9)
        hub.tilt.on_event(got.append)
        assert hub.wait_connected(20), "hub did not connect"
        time.sleep(3.0)  # a window of clock samples first
        rng = random.Random(seed)
        state = [True] * 9
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            seat = rng.randrange(9)
            state[seat] = not state[seat]
            sim.stand(seat, state[seat])
            time.sleep(rng.uniform(0.005, 0.03))
        deadline = time.monotonic() + 10
        while len(got) < len(sim.recorded) and time.monotonic() < deadline:
            time.sleep(0.05)
        hub.close()
        return [abs(e.time - sim.hub_to_host(t)) for e, (_, _, t) in zip(got, sim.recorded)]


def replug_latency(rounds: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    out: list[float] = []
    with SimHub(transport="pty", debounce_us=1000, seed=seed) as sim:
        got: list[float] = []
        hub = HubBackend(sim.url, seats=9)
        hub.tilt.on_event(lambda e: got.append(time.monotonic()))
        assert hub.wait_connected(20), "hub did not connect"
        up = True
        for _ in range(rounds):
            sim.unplug()
            up = not up
            sim.stand(0, up)  # a change waiting in the hub's queue
            time.sleep(rng.uniform(0.1, 3.0))
            before = len(got)
            plugged = time.monotonic()
            sim.plug()
            while len(got) == before:
                time.sleep(0.001)
            out.append(got[-1] - plugged)
            time.sleep(rng.uniform(0.1, 0.5))
        hub.close()
    return out


PICO_HEAP = 190 * 1024


def micropython_heap(seed: int) -> dict[str, object]:
    """Live heap (bytes, after gc.collect) of the firmware under MicroPython at each stage."""
    from bridge_helpers import recorded_at_least, wait_for
    from mpy_hub import MpyHub

    from firmware_bridge.driver import HubDriver

    rng = random.Random(seed)
    out: dict[str, object] = {}

    def flips(hub: MpyHub, n: int, mask: int) -> int:
        target = len(hub.recorded) + n
        while len(hub.recorded) < target:
            bits = rng.getrandbits(9) or 1
            before = len(hub.recorded)
            mask ^= bits
            hub.set_levels(mask)
            wait_for(recorded_at_least(hub, before + bin(bits).count("1")), 10, "changes", poll=0.0005)
        return mask

    with MpyHub(transport="pty", seats=9, seed=seed, debounce_us=0, clock_start_us=2**32 - 5_000_000) as hub:
        driver = HubDriver(hub.url, seats=9, on_change=lambda c: None)
        driver.start()
        assert driver.wait_connected(20)
        out["idle"] = hub.measure()[0]
        mask = flips(hub, 10_000, (1 << 9) - 1)
        out["after 10,000 events"] = hub.measure()[0]
        full, drained = [], []
        for _ in range(3):
            hub.unplug()
            mask = flips(hub, 1100, mask)
            live, _, queued, _ = hub.measure()
            full.append((live, queued))
            hub.plug()
            wait_for(lambda: hub.measure()[2] == 0 and driver.connected, 30, "the queue to drain")
            drained.append(hub.measure()[0])
        out["full queue"] = full
        out["after reconnect"] = drained
        out["peak"] = hub.measure()[1]
        driver.close()
    return out


def decoder_cost() -> dict[str, list[float]]:
    """Microseconds per byte, one read of everything, at 20, 80 and 320 KB (best of 3)."""
    rng = random.Random(1)
    frame = encode(3, 1, bytes(40))
    unit = 20_000
    kinds = {
        "valid frames (baseline)": frame * (unit // len(frame)),
        "sync run": bytes([SYNC]) * unit,
        "sync + length that waits": bytes([SYNC, 0x40]) * (unit // 2),
        "random noise": bytes(rng.getrandbits(8) for _ in range(unit)),
        "frames in sync runs": (bytes([SYNC]) * 200 + frame) * (unit // 246),
    }
    out = {}
    for name, small in kinds.items():
        costs = []
        for times in (1, 4, 16):
            data = small * times
            best = float("inf")
            for _ in range(3):
                d = Decoder()
                t = time.process_time()
                d.feed(data)
                best = min(best, time.process_time() - t)
            costs.append(best / len(data) * 1e6)
        out[name] = costs
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--replugs", type=int, default=12)
    parser.add_argument("--only", default="throughput,timing,replug,heap,decoder")
    args = parser.parse_args()
    only = set(args.only.split(","))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    if "heap" in only:
        print("\n## MicroPython heap (live bytes after gc.collect)")
        for seed in (1, 2):
            heap = micropython_heap(seed)
            print(f"seed {seed}: {heap}; Pico budget {PICO_HEAP}")
    if "decoder" in only:
        print("\n## decoder cost, us per byte at 20 / 80 / 320 KB in one read")
        for name, costs in decoder_cost().items():
            print(f"{name:26}: " + " / ".join(f"{c:.3f}" for c in costs) + f"  (320 KB vs 20 KB: x{costs[2] / costs[0]:.2f})")
    if not only & {"throughput", "timing", "replug"}:
        return 0
    print("\n## throughput (events through the pty, paced at the line rate)")
    for baud in (115_200, 1_000_000):
        base = raw_pty_baseline(baud, 3.0)
        runs = [throughput(baud, args.seconds) for _ in range(3)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(
            f"{baud:>9} baud: {med['events_per_s']:8.0f} events/s, line share {med['line_share']:.1%}, "
            f"{med['of_framing_max']:.1%} of the framing's maximum; raw paced pty baseline {base:.1%} "
            f"(median of 3 runs of {args.seconds:.0f} s: {', '.join(str(round(r['events_per_s'])) for r in runs)})"
        )
    print("\n## host-side event time error (vs the simulator's true clock)")
    for jitter in (0.0, 0.005):
        errors = [e * 1e3 for seed in (1, 2, 3) for e in time_errors(jitter, args.seconds, seed)]
        print(
            f"jitter 0-{jitter * 1e3:.0f} ms each way: n={len(errors)}, p50 {statistics.median(errors):.3f} ms, "
            f"p99 {pct(errors, 0.99):.3f} ms, max {max(errors):.3f} ms"
        )
    print("\n## replug to first delivered event")
    lat = replug_latency(args.replugs, 7)
    print(f"n={len(lat)}: median {statistics.median(lat):.3f} s, p90 {pct(lat, 0.9):.3f} s, max {max(lat):.3f} s")
    return 0


if __name__ == "__main__":
    from by_hand import run  # bench/ is the script's folder

    run(main)
