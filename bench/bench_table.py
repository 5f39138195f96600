"""The table controller's benchmark: a ``--fast`` demo game's wall time, and the share of each part.

    python bench/bench_table.py [--games 3] [--seed 1]

Each game is the demo's: 9-player Yakuzas, bots, mock pins and the tilt judge on a simulated clock,
shuriken throws filmed by the synthetic camera and judged by the vision code, every input written
to a game log and synced.  Wall times are the median of the games; the shares come from one more
game, timing the wall time spent inside the functions of each part (vision: the camera; log: the
game log's writes and fsync; rules: the referee's checks and questions; devices: the simulated
standees, the tilt judge and the LEDs; the rest: the session, the bots and the announcements).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from controller.table import config as table_config
from controller.table.runner import Setup, start

NAMES = ["Aiko", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo"]


def one_game(seed: int, folder: Path) -> float:
    config = table_config.from_dict({"game": {"ruleset": "yakuzas", "players": NAMES, "seed": seed}})
    t0 = time.perf_counter()
    start(Setup(config, seed, simulate=True, camera=True), log_path=folder / f"game-{seed}-{time.time_ns()}.log",
          say=lambda line: None)
    return time.perf_counter() - t0


class Stopwatch:
    """Wall time spent inside chosen functions, by part (patched in for the measured game only)."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self._depth = 0

    def wrap(self, owner: object, name: str, part: str) -> None:
        original = getattr(owner, name)
        watch = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            if watch._depth:  # nested inside another timed part: counted there
                return original(*args, **kwargs)
            watch._depth += 1
            t0 = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                watch._depth -= 1
                watch.totals[part] = watch.totals.get(part, 0.0) + time.perf_counter() - t0

        setattr(owner, name, timed)
        self._undo.append((owner, name, original))

    def __enter__(self) -> Stopwatch:
        self._undo: list[tuple[object, str, Callable[..., Any]]] = []
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)


def shares(seed: int, folder: Path) -> tuple[float, dict[str, float]]:
    from controller.table.camera import SimulatedCamera
    from controller.table.gamelog import GameLog
    from controller.table.referee import Referee
    from controller.table.session import Session

    with Stopwatch() as watch:
        watch.wrap(SimulatedCamera, "judge", "vision (render and judge each throw)")
        watch.wrap(GameLog, "_write", "log (write and fsync)")
        watch.wrap(Referee, "check", "rules (the referee tries each input on a copy of the game)")
        watch.wrap(Referee, "prompt", "rules (the referee's questions to the engine)")
        watch.wrap(Session, "_play", "devices (simulated standees, tilt judge, LEDs)")
        watch.wrap(Session, "_wait", "devices (simulated standees, tilt judge, LEDs)")
        watch.wrap(Session, "_withdrawal_count", "devices (simulated standees, tilt judge, LEDs)")
        whole = one_game(seed, folder)
    parts = dict(watch.totals)
    parts["the rest (session, bots, announcements)"] = whole - sum(parts.values())
    return whole, {part: t / whole for part, t in sorted(parts.items(), key=lambda kv: -kv[1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, {platform.platform()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        times = []
        for k in range(args.games):
            times.append(one_game(args.seed + k, folder))
            print(f"  game {k + 1}/{args.games}: {times[-1]:.2f} s", file=sys.stderr, flush=True)
        print(f"--fast demo game (9-player yakuzas, camera on): median {statistics.median(times):.2f} s, "
              f"min {min(times):.2f} s, max {max(times):.2f} s over {args.games} games (seeds {args.seed}..)")
        whole, parts = shares(args.seed, folder)
        print(f"share of the time (one more game, seed {args.seed}, {whole:.2f} s, wall time inside each part):")
        for part, share in parts.items():
            print(f"  {part}: {share:.1%}")


if __name__ == "__main__":
    from by_hand import run  # bench/ is the script's folder

    run(main)
