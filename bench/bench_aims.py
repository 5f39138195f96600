"""Benchmark of the aim reader, run by hand:

    .venv/bin/python bench/bench_aims.py [--cost-clips 4] [--cost-against CHECKOUT] [--tuned 24] [--held-out 40] [--game-seeds 3,4,5] > /tmp/aims.md

1. Cost: synthetic 640x480 aim clips at 60 fps (seeds 8 000 500...) are rendered into memory first; then, on one core,
   every frame is fed to the reader (timed per frame, the whole clip) and, in the same run, the same
   frame goes through a full-frame ArUco detection (the baseline) and, with ``--cost-against``, another
   checkout's reader. Timed is the processor time of the thread (a shared machine's waits for a core
   are not counted). Reported: milliseconds per frame fed (median and mean over the frames of the
   count), their ratio, and the share of a 60 fps frame interval (16.7 ms) the reader takes.
2. Accuracy per condition, on the set the thresholds were tuned on (seeds 300...) and, reported
   separately, on a seeded set never used for tuning (seeds 9 000 000...).
3. The Godfather's taps per round at the aims step in simulated 9-player Yakuzas games, played by
   the bots through the synthetic camera (each aim count rendered from where the weapons really
   point and read by the reader): without the camera he enters every living player's aim (a tap
   each); with it, the taps follow the console's aims step on what the game's Session hands it (see
   ``taps``): a seat left empty costs one tap, a seat filled in wrongly two, an unsure seat's right
   guess waits for one confirming tap, and otherwise the aims go by themselves after the countdown. A seat
   the rules refuse at the count aims again at once (the table's second count for those players, filmed
   from the aim each ends up with and read again): only what that reading leaves unsure or refused is
   asked. Also counted: the seats that aimed again and those the second reading filled in, of those
   the ones the camera had read where the weapon truly points (the player did aim where the rules
   forbid), the seats asked (unsure, or refused), and the camera's wrong aims it was sure of (both counts).

Prints a Markdown section for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import aim_evaluation, aim_synth, aims, markers
from vision.progress import progress

TUNED_SEED = 300
HELD_OUT_SEED = 9_000_000
COST_SEED = 8_000_500  # the cost clips: development seeds (the never-tuned ones, 9 000 000 on, are only read for
# the accuracy of ``--held-out``), past the 36-clip ranges read for accuracy


# the aim reader's own modules, each after those it imports: another checkout's are loaded in this order
READER_MODULES = ("aim_reading", "aim_rests", "aim_places", "aim_judgement", "aims")


def _reader_module(repo: Path | None) -> ModuleType:
    """The aim reader of this tree, or of another checkout ``repo``: its vision/aims.py and whichever of the
    reader's own modules (``READER_MODULES``) it has, loaded beside this one's, each importing the checkout's
    (the markers, calibration, frame sources, table plane and cell comparisons they import are this tree's)."""
    if repo is None:
        return aims
    if not (repo / "vision" / "aims.py").exists():
        raise SystemExit(f"{repo}: no vision/aims.py")
    ours = {name: sys.modules.get(f"vision.{name}") for name in READER_MODULES}
    module = aims
    try:
        for name in READER_MODULES:
            path = repo / "vision" / f"{name}.py"
            spec = importlib.util.spec_from_file_location(f"{name}_of_{repo.name}", path)
            if not path.exists() or spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            sys.modules[f"vision.{name}"] = module  # what the checkout's next modules import
            spec.loader.exec_module(module)
    finally:
        for name, own in ours.items():
            if own is not None:
                sys.modules[f"vision.{name}"] = own
            else:
                sys.modules.pop(f"vision.{name}", None)
    return module


def cost(clips: int, against: Path | None = None) -> dict[str, dict[str, float]]:
    """Milliseconds of the reader's thread on the processor per frame fed (``time.thread_time``: on a shared
    machine, time spent waiting for a core is not counted), beside a full-frame ArUco detection of the same
    frame and, with ``against``, another checkout's reader fed the same frames in turn."""
    cv2.setNumThreads(1)
    detector = cv2.aruco.ArucoDetector(markers.dictionary(), cv2.aruco.DetectorParameters())
    modules = {"reader": aims} | ({"previous": _reader_module(against)} if against is not None else {})
    per_frame: dict[str, list[float]] = {name: [] for name in [*modules, "full"]}
    totals = dict.fromkeys(per_frame, 0.0)
    frames_fed = 0
    for seed in progress(range(clips), clips, "cost clips"):
        spec = aim_synth.random_spec(COST_SEED + seed, fps=60, seats=9)
        frames = list(aim_synth.AimScene(spec).frames())
        lead = int((spec.three_at - 1.6) * spec.fps)
        readers = {}
        for name, module in modules.items():
            t0 = time.thread_time()
            plane = module.find_table(frames[:max(1, min(lead, 36))][::4])
            totals[name] += (time.thread_time() - t0) * 1000
            readers[name] = module.AimReader(plane, seats=spec.seats, fps=spec.fps, three_at=spec.three_at)
        for frame in frames:
            for name, reader in readers.items():
                t0 = time.thread_time()
                reader.feed(frame)
                dt = (time.thread_time() - t0) * 1000
                per_frame[name].append(dt)
                totals[name] += dt
            t0 = time.thread_time()
            detector.detectMarkers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
            dt = (time.thread_time() - t0) * 1000
            per_frame["full"].append(dt)
            totals["full"] += dt
            frames_fed += 1
        for name, reader in readers.items():
            t0 = time.thread_time()
            reader.finish()
            totals[name] += (time.thread_time() - t0) * 1000
    return {name: {"frames": frames_fed, "median_ms": statistics.median(per_frame[name]),
                   "mean_ms": totals[name] / frames_fed} for name in per_frame}


def accuracy(seed: int, count: int, very_late: bool = False) -> aim_evaluation.Report:
    late = {"late_arrival": aim_synth.VERY_LATE} if very_late else {}
    specs = [aim_synth.random_spec(seed + i, **late) for i in range(count)]
    return aim_evaluation.evaluate(specs, progress=lambda n, total: print(f"\r  clip {n + 1}/{total}", end="",
                                                                          file=sys.stderr))


def taps(seed: int) -> dict[str, float]:
    """Taps per round at the aims step in a simulated 9-player game (see the module docstring).

    The taps follow the console's aims step (controller/console/static/console.js) on what the
    game's Session gives it: a seat is filled in from the camera when the camera read it late, or read a
    target the rules allow that was not refused (unsure seats too: the camera's likeliest reading,
    marked unsure for the Godfather to check), or when the rules leave one target; the page then
    steps through the seats left empty, so each costs one tap (its target, or "was late"); a seat
    filled in wrongly costs two (the seat, then its target or "was late"); a guess for an unsure seat
    that the Godfather leaves as it is waits for his "Confirm the aims" (one tap for all of them);
    otherwise, with every seat filled in, the aims go by themselves after the countdown. What the Godfather enters for a seat is the
    aim the player ends up with. A seat the rules refused at the count has aimed again before the console
    is asked (the session's second count): its reading is the second count's, filled in as any other, and
    the second count itself costs no tap; the console shows nothing else to tap while it runs."""
    from controller.table import config as table_config
    from controller.table.bots import Bots
    from controller.table.camera import SimulatedCamera
    from controller.table.runner import Setup, start
    from controller.table.session import Session

    steps: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = []  # (pending, legal targets, plans) per aims step
    plans: dict[int, dict[str, Any]] = {}
    wrong_sure: list[int] = []  # per aims step: seats read wrong and sure, at the count and at the second count
    refused_read_right: list[int] = []  # per aims step: seats refused at the count whose reading is where the weapon points
    reads: list[tuple[Any, dict[int, tuple[int | None, bool]]]] = []  # the readings of this aims step: the count's, then the second count's (if any)
    original_plans, original_aims, original_read = Bots.aim_plans, Session._aims, SimulatedCamera.read_aims

    def spy_plans(self: Any, prompt: Any) -> Any:
        got = original_plans(self, prompt)
        plans[prompt.round] = got
        return got

    def spy_read(self: Any, **kw: Any) -> Any:
        seen = original_read(self, **kw)
        if seen is not None and kw.get("truth"):
            reads.append((seen, kw["truth"]))
        return seen

    def spy_aims(self: Any, prompt: Any, camera: Any) -> Any:
        reads.clear()
        out = original_aims(self, prompt, camera)
        if self.pending is not None and self.pending.get("kind") == "aims":
            steps.append((dict(self.pending), dict(prompt.options["targets"]), plans.get(prompt.round, {})))
            # at the second count only the target counts: lateness is the count's (controller.table.session)
            wrong_sure.append(sum(1 for k, (seen, truth) in enumerate(reads) for s, (target, late) in truth.items()
                                  if s not in seen.unsure and (seen.aims.get(s) != target
                                                               or (k == 0 and (s in seen.late) != late))))
            seen, truth = reads[0] if reads else (None, {})
            seat_of = self.referee.game.seat_of
            refused_read_right.append(sum(
                1 for name in self.pending["aimed_again"] if seen is not None
                and seen.aims.get(seat_of(name)) == truth.get(seat_of(name), (None, False))[0]))
        return out

    Bots.aim_plans, Session._aims, SimulatedCamera.read_aims = spy_plans, spy_aims, spy_read  # type: ignore[method-assign]
    try:
        names = ["Aiko", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo"]
        config = table_config.from_dict({"game": {"ruleset": "yakuzas", "players": names, "seed": seed}})
        with tempfile.TemporaryDirectory() as folder:
            start(Setup(config, seed, simulate=True, camera=True), log_path=Path(folder) / "game.log",
                  say=lambda _l: None)
    finally:
        Bots.aim_plans, Session._aims, SimulatedCamera.read_aims = original_plans, original_aims, original_read  # type: ignore[method-assign]
    rows = []
    for pending, legal, plan in steps:
        taps_ = 0
        unchecked = False  # an unsure seat's guess left as it is: the aims wait for one confirming tap
        for name in pending["aims"]:
            allowed = legal.get(name, [])
            target = pending["aims"][name]
            if name in pending["late"]:
                filled: tuple[str | None, bool] | None = (None, True)
            elif name not in pending["refused"] and (target in allowed if target is not None else not allowed):
                filled = (target, False)
            elif len(allowed) <= 1:
                filled = (allowed[0] if allowed else None, False)
            else:
                filled = None
            p = plan.get(name)
            entered = (None, True) if p is not None and p.late else (None if p is None else p.entered, False)
            taps_ += 1 if filled is None else 0 if filled == entered else 2
            unchecked |= name in pending["unsure"] and filled is not None and filled == entered
        taps_ += 1 if unchecked else 0
        again = pending["aimed_again"]
        filled_again = sum(1 for name in again if name not in pending["refused"] and name not in pending["unsure"])
        rows.append((len(pending["aims"]), len(pending["unsure"]), len(pending["refused"]), taps_, len(again),
                     filled_again))
    n = len(rows)
    return {"rounds": n, "without_camera": sum(r[0] for r in rows) / n,
            "unsure": sum(r[1] for r in rows) / n, "refused": sum(r[2] for r in rows) / n,
            "wrong_sure": sum(wrong_sure) / n,
            "asked": sum(r[1] + r[2] for r in rows) / n,
            "refused_right": sum(refused_read_right) / n,
            "taps": sum(r[3] for r in rows) / n,
            "aimed_again": sum(r[4] for r in rows) / n, "filled_again": sum(r[5] for r in rows) / n,
            "all_sure": sum(1 for r in rows if r[1] + r[2] == 0),
            "no_tap": sum(1 for r in rows if r[3] == 0)}


def table(report: aim_evaluation.Report, title: str) -> list[str]:
    header = ("| condition | clips | aims | right | right without asking | asked | wrong not asked | "
              "late right / late | false late | not right, marker never whole at rest |")
    out = [f"**{title}**", "", header, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]

    def row(name: str, t: aim_evaluation.Tally) -> str:
        j = t.as_json()
        return (f"| {name} | {j['clips']} | {j['aims']} | {j['right_pct']} % | {j['right_without_asking_pct']} % | "
                f"{j['asked_pct']} % | {j['wrong_unasked']} | {j['late_right']} / {j['late']} | {j['false_late']} | {j['hidden_at_rest']} |")

    out.append(row("**all**", report.total))
    for tag, t in sorted(report.by_tag.items()):
        out.append(row(tag, t))
    for behaviour, t in sorted(report.by_behaviour.items()):
        out.append(row(f"weapon: {behaviour}", t))
    if report.failures:
        out += ["", "Wrong aims that did not ask, and unread clips:", ""] + [f"- {f}" for f in report.failures]
    return out + [""]


def game_seeds(text: str) -> list[int]:
    """``3,4,5`` or ``3-10`` or both (``3-5,9``)."""
    seeds: list[int] = []
    try:
        for part in (p.strip() for p in text.split(",") if p.strip()):
            low, _, high = part.partition("-")
            seeds += range(int(low), int(high or low) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: whole numbers and ranges, as 3,4,5 or 3-10") from None
    if not seeds or len(seeds) > 1000:
        raise argparse.ArgumentTypeError(f"{text!r}: from 1 to 1000 game seeds")
    return seeds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cost-clips", type=int, default=4)
    parser.add_argument("--cost-against", type=Path, help="another checkout whose reader is timed on the same frames")
    parser.add_argument("--tuned", type=int, default=24)
    parser.add_argument("--held-out", type=int, default=40)
    parser.add_argument("--held-out-seed", type=int, default=HELD_OUT_SEED,
                        help="first seed of the never-tuned set (another range: a set never seen before)")
    parser.add_argument("--game-seeds", type=game_seeds, default="3,4,5",
                        help="game seeds: a list (3,4,5) and ranges (3-10) (default 3,4,5)")
    parser.add_argument("--very-late", action="store_true",
                        help="the accuracy sets with their late pointers at rest 0.95-1.35 s after the deadline")
    parser.add_argument("--no-game", action="store_true")
    parser.add_argument("--only-game", action="store_true", help="the taps per round only")
    args = parser.parse_args()
    machine = (f"{platform.machine()}, {platform.python_version()}, OpenCV {cv2.__version__}, {os.cpu_count()} cores "
               f"(shared), {time.strftime('%Y-%m-%d', time.gmtime())}; one core for the cost.")
    lines = ["## Vision: aim reader (`bench/bench_aims.py`)", "", machine, ""]
    if args.only_game:
        args.cost_clips = args.tuned = args.held_out = 0
    if args.cost_clips:
        c = cost(args.cost_clips, args.cost_against)
        full, reader = c["full"], c["reader"]
        header = "| per frame | aim reader |" + (" previous reader |" if "previous" in c else "") + \
            " full-frame ArUco (baseline) |"
        lines += [("**Cost** (9-seat clips at 60 fps, 640x480, every frame of the clip fed; processor time of the "
                   "reader's thread; the table found once per clip and the final judgement included in the mean):"),
                  "", header, "| --- " * (header.count("|") - 1) + "|"]
        for stat in ("median", "mean"):
            cells = [f"{c[name][stat + '_ms']:.2f} ms" for name in ("reader", "previous", "full") if name in c]
            lines.append(f"| {stat} | " + " | ".join(cells) + " |")
        lines += ["", (f"{reader['frames']} frames; the baseline costs {full['mean_ms'] / reader['mean_ms']:.1f} x the "
                       f"reader; the reader takes {100 * reader['mean_ms'] / (1000 / 60):.0f} % of a 60 fps frame "
                       "interval on one core."), ""]
    print("\n".join(lines), flush=True)
    very_late = "; late pointers very late" if args.very_late else ""
    if args.tuned:
        lines = table(accuracy(TUNED_SEED, args.tuned, args.very_late),
                      f"Accuracy, tuning set (seeds {TUNED_SEED}..., {args.tuned} clips{very_late})")
        print("\n".join(lines), flush=True)
    if args.held_out:
        lines = table(accuracy(args.held_out_seed, args.held_out, args.very_late),
                      f"Accuracy, never-tuned set (seeds {args.held_out_seed}..., {args.held_out} clips{very_late})")
        print("\n".join(lines), flush=True)
    if not args.no_game:
        seeds = args.game_seeds
        rows = ["**The Godfather's taps per round at the aims step** (simulated 9-player Yakuzas games, 8 rounds each; "
                "the console fills in what the camera read and the aims go by themselves after its countdown):", "",
                "| game seed | rounds | without the camera | refused at the count: aimed again (filled by the second "
                "reading) | of those, read where the weapon points | seats asked (unsure + refused) | wrong and sure | "
                "taps on the console | rounds with no tap |",
                "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        got = []
        for seed in progress(seeds, len(seeds), "games"):
            t = taps(seed)
            got.append(t)
            rows.append(f"| {seed} | {t['rounds']} | {t['without_camera']:.2f} | {t['aimed_again']:.2f} "
                        f"({t['filled_again']:.2f}) | {t['refused_right']:.2f} | {t['asked']:.2f} ({t['unsure']:.2f} + "
                        f"{t['refused']:.2f}) | {t['wrong_sure']:.2f} | {t['taps']:.2f} | {t['no_tap']} of {t['rounds']} |")
        rounds = sum(t["rounds"] for t in got)

        def mean(key: str) -> float:
            return sum(t[key] * t["rounds"] for t in got) / rounds

        rows.append(f"| **all** | {rounds} | {mean('without_camera'):.2f} | {mean('aimed_again'):.2f} "
                    f"({mean('filled_again'):.2f}) | {mean('refused_right'):.2f} | {mean('asked'):.2f} ({mean('unsure'):.2f} + "
                    f"{mean('refused'):.2f}) | {mean('wrong_sure'):.2f} | {mean('taps'):.2f} | "
                    f"{sum(t['no_tap'] for t in got)} of {rounds} |")
        print("\n".join(rows + [""]), flush=True)


if __name__ == "__main__":
    from by_hand import run  # bench/ is the script's folder

    run(main)
