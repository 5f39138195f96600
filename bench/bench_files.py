"""Hostile files: how fast, and with how much memory, `replay` and `resume` refuse them.

    python bench/bench_files.py [--runs 5]

Each case runs ``cashnguns replay FILE`` (or ``resume``) in-process; the figures are the median wall time
and the peak of Python's allocations (tracemalloc) over ``--runs`` runs, against the baseline of
replaying a valid 9-player record with Super Powers and Objects measured in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import platform
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from controller.__main__ import main
from controller.record.generator import random_record

MIB = 1024 * 1024


def measure(argv: list[str], runs: int) -> tuple[float, float, int]:
    times, peaks, code = [], [], 0
    for _ in range(runs):
        sink = io.StringIO()
        tracemalloc.start()
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            code = main(argv)
        times.append(time.perf_counter() - t0)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return statistics.median(times), statistics.median(peaks) / MIB, code


def cases(folder: Path) -> dict[str, list[str]]:
    valid = folder / "valid.record.json"
    valid.write_text(random_record(7, "yakuzas", 9, powers=True, objects=True).dumps())
    big = folder / "big.record.json"
    with big.open("wb") as handle:
        handle.truncate(95 * MIB)
    just_under = folder / "under.record.json"
    just_under.write_text(" " * (4 * MIB - 10) + "[]")
    deep = folder / "deep.record.json"
    deep.write_text("[" * 5000 + "]" * 5000)
    digits = folder / "digits.record.json"
    digits.write_text('{"format": 1' + "1" * 5000 + "}")
    log = folder / "big.log"
    with log.open("wb") as handle:
        handle.write(json.dumps({"format": "cashnguns-log/1"}).encode() + b"\n")
        handle.truncate(200 * MIB)
    return {
        "baseline: replay a valid 9-player record": ["replay", str(valid)],
        "replay a 95 MB record (refused by its size)": ["replay", str(big)],
        "replay /dev/zero (bounded read)": ["replay", "/dev/zero"],
        "replay 4 MB of spaces (read, parsed, refused)": ["replay", str(just_under)],
        "replay JSON nested 5,000 deep": ["replay", str(deep)],
        "replay a number of 5,001 digits": ["replay", str(digits)],
        "resume a 200 MB game log (refused by its size)": ["resume", str(log)],
    }


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per case (default 5)")
    args = parser.parse_args()
    print(f"{platform.machine()} {platform.python_version()}, {time.strftime('%Y-%m-%d')}")
    with tempfile.TemporaryDirectory() as folder:
        base = None
        for name, argv in cases(Path(folder)).items():
            seconds, peak, code = measure(argv, args.runs)
            base = base or seconds
            print(f"| {name} | {code} | {seconds * 1000:.1f} ms | {seconds / base:.2f} | {peak:.1f} MB |")


if __name__ == "__main__":
    from by_hand import run  # bench/ is the script's folder

    run(main_bench)
