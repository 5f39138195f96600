"""Rules engine benchmark: random legal games generated and replayed end to end, and the split.

    python bench/bench_rules.py [--games 500] [--runs 5]

Run it pinned to one core for the figures in RESULTS.md: ``taskset -c 0 python bench/bench_rules.py``.
The baseline, measured in the same run, is ``json.loads`` of the same records: the least any replay
of a record file must cost.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
from typing import Any

from controller.record import from_dict, replay
from controller.record.generator import random_record
from controller.rules.split import split_bills


def per_second(count: int, seconds: float) -> float:
    return count / seconds if seconds else float("inf")


def bench_games(ruleset: str, players: int, games: int, runs: int) -> dict[str, Any]:
    end_to_end, replay_only, parse_only = [], [], []
    for run in range(runs):
        seeds = range(run * games, (run + 1) * games)
        t0 = time.perf_counter()
        records = [random_record(s, ruleset, players) for s in seeds]
        for r in records:
            replay(r)
        end_to_end.append(per_second(games, time.perf_counter() - t0))
        texts = [r.dumps() for r in records]
        t0 = time.perf_counter()
        for text in texts:
            json.loads(text)
        parse_only.append(per_second(games, time.perf_counter() - t0))
        t0 = time.perf_counter()
        for text in texts:
            replay(from_dict(json.loads(text)))
        replay_only.append(per_second(games, time.perf_counter() - t0))
        print(f"  {ruleset} x{players} run {run + 1}/{runs}", file=sys.stderr, flush=True)
    return {
        "generate+replay games/s": statistics.median(end_to_end),
        "replay from JSON games/s": statistics.median(replay_only),
        "baseline json.loads games/s": statistics.median(parse_only),
    }


def bench_split(reps: int) -> list[tuple[str, float, float, float]]:
    pots = {
        "yakuzas, all 64 bills": [20000] * 15 + [10000] * 24 + [5000] * 25,
        "classic, all 40 bills": [20000] * 10 + [10000] * 15 + [5000] * 15,
        "64 bills of 5,000-only worst case": [5000] * 64,
    }
    rows = []
    for label, pot in pots.items():
        for n in (1, 2, 3, 5, 7, 9):
            times = []
            gc.disable()
            try:
                for _ in range(reps):
                    t0 = time.perf_counter()
                    split_bills(pot, n)
                    times.append(time.perf_counter() - t0)
            finally:
                gc.enable()
            times.sort()
            p99 = times[int(len(times) * 0.99)]
            rows.append((f"{label}, {n} sharers", statistics.median(times) * 1e6, p99 * 1e6, times[-1] * 1e6))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, {platform.platform()}")
    for ruleset, players in (("yakuzas", 9), ("classic", 6), ("classic-2014", 8)):
        figures = bench_games(ruleset, players, args.games, args.runs)
        print(f"{ruleset}, {players} players ({args.games} games x {args.runs} runs, medians):")
        for key, value in figures.items():
            print(f"  {key}: {value:,.0f}")
        print(f"  replay cost / json.loads cost: {figures['baseline json.loads games/s'] / figures['replay from JSON games/s']:.1f}x")
    print("split (2,000 calls each, garbage collector off, microseconds):")
    for label, median, p99, worst in bench_split(2000):
        print(f"  {label}: median {median:.1f}, p99 {p99:.1f}, max {worst:.1f}")


if __name__ == "__main__":
    from by_hand import run  # bench/ is the script's folder

    run(main)
