"""Benchmark of the Shuriken judge, run by hand:

    .venv/bin/python bench/bench_vision.py [--clips 12] [--tuned-clips 60] [--held-out-clips 100] > /tmp/vision-bench.md

1. Cost: synthetic 640x480 clips are rendered into memory first; then, on one core, every frame
   is fed to the judge (timed per frame) and, in the same run, the same frame goes through a
   full-frame ArUco detection (the baseline). Timed is the processor time of the thread (a shared
   machine's waits for a core are not counted). Reported: medians and means per frame, their ratio,
   and frames per second of the judge alone.
2. Accuracy on two seeded clip sets (rendered and judged in worker processes): one the judge was
   tuned on, and one never used for tuning (reported on its own line and in its own table).
   Counted per set and per condition: exact clips, wrong but asking the Godfather, wrong and sure
   (the worst outcome), false `knocked`.

Prints a Markdown section for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import evaluation, synth
from vision.calibration import calibrate
from vision.markers import MarkerDetector
from vision.progress import progress
from vision.throws import JudgeConfig, ThrowJudge


def cost(clips: int, seed: int) -> dict[str, float]:
    """Milliseconds of the judge's thread on the processor per frame fed (``time.thread_time``: on a shared
    machine, time spent waiting for a core is not counted), beside a full-frame ArUco detection of the
    same frame, and per arming."""
    cv2.setNumThreads(1)
    config = JudgeConfig()
    rendered = []
    for spec in progress(synth.clip_set(clips, seed=seed), clips, "rendering clips"):
        rendered.append((spec, list(synth.render_clip(spec).frames())))
    detector = MarkerDetector()
    judge_ms: list[float] = []
    aruco_ms: list[float] = []
    arm_ms: list[float] = []
    for spec, frames in progress(rendered, len(rendered), "timing clips"):
        ref = frames[:config.reference_frames]
        cal = calibrate(ref, spec.seats, setup=False)
        judge = ThrowJudge(cal, seats=spec.seats, thrower=spec.thrower, fps=spec.fps, config=config)
        t = time.thread_time()
        judge.arm(ref)
        arm_ms.append((time.thread_time() - t) * 1e3)
        for frame in frames[config.reference_frames:]:
            t = time.thread_time()
            verdict = judge.feed(frame)
            judge_ms.append((time.thread_time() - t) * 1e3)
            t = time.thread_time()
            detector.detect(frame)
            aruco_ms.append((time.thread_time() - t) * 1e3)
            if verdict is not None:
                break
    return {
        "frames": len(judge_ms),
        "judge_median": statistics.median(judge_ms), "judge_mean": statistics.fmean(judge_ms),
        "judge_p95": statistics.quantiles(judge_ms, n=20)[18],
        "aruco_median": statistics.median(aruco_ms), "aruco_mean": statistics.fmean(aruco_ms),
        "arm_median": statistics.median(arm_ms),
    }


def counts(results: list[evaluation.ClipResult]) -> tuple[int, int, int, int, int]:
    """(clips, exact, wrong but asking the Godfather, wrong and sure, false knocked)."""
    wrong = [r for r in results if not r.correct]
    return (len(results), len(results) - len(wrong), sum(not r.wrong_and_sure for r in wrong),
            sum(r.wrong_and_sure for r in wrong), sum(r.false_knock for r in results))


def row(name: str, results: list[evaluation.ClipResult]) -> str:
    n, exact, asks, sure, false_knock = counts(results)
    return f"| {name} | {n} | {exact} ({100 * exact / max(n, 1):.1f} %) | {asks} | {sure} | {false_knock} |"


HEADER = ["| set or condition | clips | exact | wrong, asks the Godfather | wrong and sure | false `knocked` |",
          "| --- | --- | --- | --- | --- | --- |"]


def accuracy_table(title: str, results: list[evaluation.ClipResult]) -> list[str]:
    out = [f"\n### {title}\n", *HEADER, row("**all**", results),
           row("hard conditions (any of " + ", ".join(synth.HARD_TAGS[:4]) + ", ...)",
               [r for r in results if set(r.tags) & set(synth.HARD_TAGS)])]
    tags = sorted({t for r in results for t in r.tags})
    for tag in tags:
        out.append(row(tag, [r for r in results if tag in r.tags]))
    wrong = [r for r in results if not r.correct]
    if wrong:
        out.append("\nWrong clips: " + "; ".join(
            f"seed {r.seed}: truth {r.truth}, judged {r.verdict} ({'asks' if r.needs_godfather else 'SURE'}: "
            f"{r.reason})" for r in wrong))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clips", type=int, default=12, help="clips for the cost measurement")
    parser.add_argument("--tuned-clips", type=int, default=60, help="clips of the set the judge was tuned on")
    parser.add_argument("--held-out-clips", type=int, default=100, help="clips of the set never tuned on")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--held-out-seed", type=int, default=271828, help="never used while tuning the judge")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes judging clips")
    parser.add_argument("--condition-clips", type=int, default=0,
                        help="clips of a set of its own per hard condition (0: none)")
    parser.add_argument("--condition-seed", type=int, default=5)
    parser.add_argument("--conditions", default=",".join(synth.CONDITIONS),
                        help="comma-separated conditions for those sets (default: all of synth.CONDITIONS)")
    parser.add_argument("--skip-cost", action="store_true", help="accuracy only")
    parser.add_argument("--skip-sets", action="store_true", help="no tuned and held-out sets")
    args = parser.parse_args()
    if args.condition_seed == args.held_out_seed:
        parser.error("the per-condition sets must not use the seed of the set never tuned on")
    unknown = [c for c in args.conditions.split(",") if c not in synth.CONDITIONS]
    if unknown:
        parser.error(f"--conditions: no condition {', '.join(unknown)}; one of {', '.join(synth.CONDITIONS)}")

    out = ["\n## Vision: Shuriken judge (`bench/bench_vision.py`)\n",
           (f"Machine: {os.cpu_count()}-core {platform.machine()} sandbox, Python {platform.python_version()}, "
            f"OpenCV {cv2.__version__}. Date: {time.strftime('%Y-%m-%d')}. Command: `.venv/bin/python "
            f"bench/bench_vision.py {' '.join(sys.argv[1:])}`.\n")]
    if not args.skip_cost:
        out += cost_section(cost(args.clips, args.seed), args.clips)
    if not args.skip_sets:
        out += sets_section(args)
    if args.condition_clips:
        out += conditions_section(args)
    out.append(f"\nLoad average at the end: {os.getloadavg()[0]:.1f} (other jobs shared the machine).")
    print("\n".join(out))


def cost_section(c: dict[str, float], clips: int) -> list[str]:
    return [
        f"### Cost per frame at 640x480, one core (OpenCV threads = 1, processor time of the thread), {c['frames']} frames of {clips} synthetic clips\n",
        "| measure | median ms | mean ms |",
        "| --- | --- | --- |",
        f"| judge `feed` (registration and motion at 160x120, close look at moving seats) | {c['judge_median']:.2f} | {c['judge_mean']:.2f} |",
        f"| full-frame ArUco detection of the same frames (baseline, same run) | {c['aruco_median']:.2f} | {c['aruco_mean']:.2f} |",
        f"| ratio judge / detection | {c['judge_median'] / c['aruco_median']:.2f} | {c['judge_mean'] / c['aruco_mean']:.2f} |",
        "",
        (f"Judge alone: {1000 / c['judge_mean']:.0f} frames/s on one core (mean), 95th percentile "
         f"{c['judge_p95']:.2f} ms/frame; arming (per throw): median {c['arm_median']:.1f} ms. Target (judge "
         f"cheaper than one detection per frame on average): "
         f"{'met' if c['judge_mean'] < c['aruco_mean'] else 'NOT met'}.\n"),
    ]


def conditions_section(args: argparse.Namespace) -> list[str]:
    """One fresh set per hard condition, every clip of it in that condition."""
    out = [f"\n### Fresh sets of one condition each: {args.condition_clips} clips per condition, seed "
           f"{args.condition_seed} (`synth.condition_set`)\n", *HEADER]
    wrong: list[str] = []
    start = time.perf_counter()
    for tag in args.conditions.split(","):
        specs = synth.condition_set(args.condition_clips, tag, seed=args.condition_seed)
        results = list(progress(evaluation.judge_specs(specs, workers=args.workers), len(specs), f"judging {tag}"))
        out.append(row(tag, results))
        wrong += [f"{tag} seed {r.seed}: truth {r.truth}, judged {r.verdict} "
                  f"({'asks' if r.needs_godfather else 'SURE'})" for r in results if not r.correct]
    if wrong:
        out.append("\nWrong clips: " + "; ".join(wrong))
    out.append(f"\nRendering and judging these sets took {time.perf_counter() - start:.0f} s with {args.workers} workers.")
    return out


def sets_section(args: argparse.Namespace) -> list[str]:
    sets = {}
    start = time.perf_counter()
    for name, count, seed in (("tuned", args.tuned_clips, args.seed + 1), ("held out", args.held_out_clips,
                                                                            args.held_out_seed)):
        specs = synth.clip_set(count, seed=seed)
        sets[name] = (seed, list(progress(evaluation.judge_specs(specs, workers=args.workers), count,
                                          f"judging {name} clips")))
    elapsed = time.perf_counter() - start

    out = [
        "### Summary: exact verdicts per clip\n",
        ("A clip is exact when both seat lists equal the truth. A wrong clip either asks the Godfather "
         "(confidence below 0.6, or the calibration refused the scene) or is *wrong and sure*, the worst "
         "outcome. False `knocked`: a seat called knocked that nothing knocked over.\n"),
        *HEADER,
    ]
    for name, (seed, results) in sets.items():
        label = f"**never tuned on** (seed {seed})" if name == "held out" else f"tuned on (seed {seed})"
        out.append(row(label, results))
    for name, (seed, results) in sets.items():
        title = (f"Set never tuned on: {len(results)} clips, seed {seed}, per condition" if name == "held out"
                 else f"Set tuned on: {len(results)} clips, seed {seed}, per condition")
        out += accuracy_table(title, results)
    out.append(f"\nRendering and judging both sets took {elapsed:.0f} s with {args.workers} workers. "
               "All clips are synthetic (vision/synth.py); no real-webcam clip is part of these figures.\n")
    return out


if __name__ == "__main__":
    from by_hand import run  # bench/ is the script's folder

    run(main)
