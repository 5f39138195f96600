"""The count's timers while standees lie down, with a slow SD card: how late the clock runs them.

Run by hand:  taskset -c 1 .venv/bin/python bench/bench_gamelog.py [--counts 6] [--fsync-ms 50]

The real clock (``MonotonicClock``, its timer thread), mock pins stamped by it and the tilt judge,
as ``play`` opens them with ``GPIOZERO_PIN_FACTORY=mock``.  ``os.fsync`` is made to take
``--fsync-ms`` longer (an SD card that is busy).  Each count gives "1, 2, 3" 0.8 s apart; 100 ms
before the "3" six standees lie down 10 ms apart, so their changes settle (75 ms later) around the
"3", and they stand up again after it.  The judge tells each settled change on the clock's thread,
holding the clock's lock, and it is logged in a game log in one of two ways, counts alternating:

* synced (the table before): ``GameLog.seen(line)`` writes and syncs it there and then;
* queued (the table now): ``GameLog.seen(line, queued=True)``: the log's writer thread syncs it.

Measured: how late the "3" is given (its callback's time against the time it was due),
and how late probe timers set every 10 ms through the count run; medians and maxima over all counts.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from controller.devices import load_config
from controller.devices.clock import MonotonicClock
from controller.devices.opening import TableDevices, open_devices
from controller.devices.simulation import ClockedMockFactory
from controller.table.gamelog import GameLog

if TYPE_CHECKING:
    from _typeshed import HasFileno

INTERVAL = 0.8
SEATS = 6


def slow_fsync(ms: float) -> Callable[[int | HasFileno], None]:
    real = os.fsync

    def fsync(fd: int | HasFileno) -> None:
        time.sleep(ms / 1000)
        real(fd)

    return fsync


def one_count(devices: TableDevices, factory: ClockedMockFactory, pins: Sequence[int | str], late_counts: list[float], late_probes: list[float]) -> None:
    clock = devices.clock
    t0 = clock.now() + 0.05

    def given(n: int, when: float) -> None:
        if n == 3:
            late_counts.append(clock.now() - when)

    def probe(when: float) -> None:
        late_probes.append(clock.now() - when)

    devices.judge.counts.start(at=t0, on_count=given)
    for k in range(int((3 * INTERVAL) / 0.01)):
        when = t0 + k * 0.01
        clock.call_at(when, functools.partial(probe, when))
    down_at = t0 + 2 * INTERVAL - 0.1
    for seat in range(SEATS):
        time.sleep(max(0.0, down_at + seat * 0.01 - clock.now()))
        factory.pin(pins[seat]).drive_high()  # lies down (upright drives the pin low)
    time.sleep(max(0.0, t0 + 3 * INTERVAL + 0.1 - clock.now()))
    for seat in range(SEATS):
        factory.pin(pins[seat]).drive_low()
    time.sleep(0.5)  # their changes settle, and are logged, before the next count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--counts", type=int, default=6, help="counts per way of logging")
    parser.add_argument("--fsync-ms", type=float, default=50.0, help="extra time each fsync takes")
    args = parser.parse_args()
    os.fsync = slow_fsync(args.fsync_ms)  # type: ignore[assignment]  # a slow disk, for this run only
    config = load_config()
    config = replace(config, sound=replace(config.sound, output="none"))  # the speaker's clips: not measured here
    clock = MonotonicClock()
    factory = ClockedMockFactory(clock)
    devices = open_devices(config, clock=clock, pin_factory=factory)
    pins = config.tilt_pins[: config.seats]
    for seat in range(SEATS):
        factory.pin(pins[seat]).drive_low()
    time.sleep(0.3)
    results: dict[str, tuple[list[float], list[float]]] = {"synced": ([], []), "queued": ([], [])}
    with tempfile.TemporaryDirectory() as folder:
        game_log = GameLog.create(Path(folder) / "bench.log", {"record": {}})
        mode = {"queued": False}
        devices.judge.on_change(lambda e: game_log.seen(
            {"tilt": {"seat": e.seat, "up": e.up, "time": round(e.time, 6)}}, queued=mode["queued"]))
        for k in range(2 * args.counts):
            name = ("synced", "queued")[k % 2]
            mode["queued"] = name == "queued"
            one_count(devices, factory, pins, *results[name])
        game_log.close()
    devices.close()
    print(f"{platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}; "
          f"{args.counts} counts each, fsync +{args.fsync_ms:g} ms, {SEATS} standees down around the \"3\"")
    print("| standee changes logged | the \"3\" late, median / max (ms) | probe timers late, median / p99 / max (ms) |")
    print("|---|---|---|")
    for name, (counts, probes) in results.items():
        probes.sort()
        p99 = probes[min(len(probes) - 1, int(0.99 * len(probes)))]
        print(f"| {name} | {statistics.median(counts) * 1000:.1f} / {max(counts) * 1000:.1f} | "
              f"{statistics.median(probes) * 1000:.1f} / {p99 * 1000:.1f} / {max(probes) * 1000:.1f} |")


if __name__ == "__main__":
    from by_hand import run  # bench/ is the script's folder

    run(main)
