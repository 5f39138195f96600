"""Latency from a mock pin edge to the seat LED showing the judged state.

Run by hand:  taskset -c 1 .venv/bin/python bench/bench_devices.py [--edges 10000] [--runs 5]

Both paths run on the same clocked mock pins in the same process, with the
garbage collector on, and are timed from the same call (``drive_high()`` on the
input pin) until the LED's pin has changed:

* baseline: a bare gpiozero ``DigitalInputDevice`` whose ``when_deactivated``
  turns an ``LED`` on;
* judged: the table's whole path - tilt switch edge, debounce, settle, the
  withdrawal judge, the seat LED showing WITHDREW.

They take edges in turns, alternating which goes first, so both meet the same
machine noise; each run gives p50 and p99 per path and their ratios, and the
summary is the median of the runs.

The debounce (15 ms) and settle (60 ms) waits are rule-given delays, not
work: the judged path runs on a manual clock that jumps over them, so the
figure is the processing cost of the path (on the Pi, a timer thread's
wake-up adds to it).
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import time
from dataclasses import replace

from gpiozero import LED, DigitalInputDevice

from controller.devices import SeatStatus, load_config
from controller.devices.clock import ManualClock
from controller.devices.lamps import PinSeatLights
from controller.devices.opening import open_simulated
from controller.devices.simulation import ClockedMockFactory


def percentile(samples: list[int], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] / 1000  # microseconds


class Baseline:
    """A bare gpiozero callback turning an LED on."""

    def __init__(self) -> None:
        self.clock = ManualClock()
        factory = ClockedMockFactory(self.clock)
        self.sensor = DigitalInputDevice(4, pull_up=True, pin_factory=factory)
        self.led = LED(23, pin_factory=factory)
        self.sensor.when_deactivated = self.led.on
        self.pin, self.out = factory.pin(4), factory.pin(23)

    def edge(self) -> int:
        self.pin.drive_low()
        self.led.off()
        self.clock.advance(1.0)
        start = time.perf_counter_ns()
        self.pin.drive_high()
        elapsed = time.perf_counter_ns() - start
        assert self.out.state == 1
        return elapsed

    def close(self) -> None:
        self.sensor.close()
        self.led.close()


class Judged:
    """The table's path: tilt edge, debounce, settle, judge, seat LED."""

    def __init__(self) -> None:
        config = replace(load_config(), seats=1)
        config = replace(config, sound=replace(config.sound, output="none"))
        self.devices, self.script = open_simulated(config)
        self.wait = config.timing.debounce + config.timing.settle + 1e-6  # just past the settle timer
        # open_simulated runs mock pins on a manual clock, with the seat LEDs on pins
        clock, lights, factory = self.devices.clock, self.devices.lights, self.devices.pin_factory
        assert isinstance(clock, ManualClock) and isinstance(lights, PinSeatLights) and isinstance(factory, ClockedMockFactory)
        self.clock = clock
        self.lamp = lights.lamp(0)
        self.pin = factory.pin(config.tilt_pins[0])  # driven as the baseline drives its pin

    def edge(self) -> int:
        clock, judge = self.clock, self.devices.judge
        judge.set_status(0, SeatStatus.IN_SHARE)
        count = judge.withdrawal_count([0])
        clock.advance(0.1)
        start = time.perf_counter_ns()
        self.pin.drive_high()  # laid down: the switch opens, the pull-up reads high
        clock.advance(self.wait)
        elapsed = time.perf_counter_ns() - start
        assert judge.shown(0) is SeatStatus.WITHDREW and self.lamp.level == 0.3
        clock.advance_to(count.verdict_at)
        assert count.result is not None and count.result.withdrew == (0,)
        self.script.drive(0, up=True)
        clock.advance(1.0)
        return elapsed


class _Cycle:
    """An object in a reference cycle: only the garbage collector frees it."""

    def __init__(self) -> None:
        self.me = self


def make_garbage(count: int) -> None:
    for _ in range(count):
        _Cycle()


def measure(edges: int, *, garbage: int = 0) -> tuple[list[int], list[int]]:
    """Edges taken in turns (alternating which path goes first), so both meet the same machine noise.

    ``garbage`` cyclic objects are made before each edge, outside the timed part, as the rest of
    a controller would, so that young-generation collections happen during the run.
    """
    base, ours = Baseline(), Judged()
    for _ in range(200):  # warm up
        base.edge(), ours.edge()
    gc.collect()
    base_samples, our_samples = [], []
    for i in range(edges):
        if i % 2:
            make_garbage(garbage)
            base_samples.append(base.edge())
            make_garbage(garbage)
            our_samples.append(ours.edge())
        else:
            make_garbage(garbage)
            our_samples.append(ours.edge())
            make_garbage(garbage)
            base_samples.append(base.edge())
    base.close()
    ours.devices.close()
    return base_samples, our_samples


Figures = tuple[float, float, float, float, float, float]
"""baseline p50, p99; judged p50, p99; ratio p50, p99."""


def figures(base: list[int], ours: list[int]) -> Figures:
    b50, b99, o50, o99 = (percentile(s, p) for s in (base, ours) for p in (50, 99))
    return b50, b99, o50, o99, o50 / b50, o99 / b99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", type=int, default=10_000, help="edges per path in each run")
    parser.add_argument("--runs", type=int, default=5, help="runs; the summary is their median")
    parser.add_argument("--garbage", type=int, default=0, metavar="N", help="cyclic objects made before each edge (untimed)")
    parser.add_argument("--no-gc", action="store_true", help="disable the garbage collector while measuring (diagnostic)")
    args = parser.parse_args()
    if args.no_gc:
        gc.disable()
    gc_state = "off" if args.no_gc else "on"
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()}, {args.edges} edges per path"
        f" per run, {args.runs} runs, gc {gc_state}, garbage {args.garbage} per edge"
    )
    header = f"{'run':>6} {'base p50':>9} {'base p99':>9} {'judged p50':>11} {'judged p99':>11} {'ratio p50':>10} {'ratio p99':>10}"
    print(header + "   (microseconds)")
    runs = []
    for run in range(1, args.runs + 1):
        runs.append(figures(*measure(args.edges, garbage=args.garbage)))
        print(f"{run:>6} " + _row(runs[-1]))
    medians = tuple(statistics.median(column) for column in zip(*runs))
    print(f"{'median':>6} " + _row(medians))
    print(f"target: judged p99 < 2x baseline p99: {'met' if medians[5] < 2 else 'not met'} (median {medians[5]:.2f}x)")


def _row(f: Figures) -> str:
    return f"{f[0]:9.1f} {f[1]:9.1f} {f[2]:11.1f} {f[3]:11.1f} {f[4]:9.2f}x {f[5]:9.2f}x"


if __name__ == "__main__":
    from by_hand import run  # bench/ is the script's folder

    run(main)
