"""Benchmark of the Shuriken judge, run by hand:

    .venv/bin/python bench/bench_vision.py [--clips 40] [--accuracy-clips 210] > /tmp/vision-bench.md

1. Cost: synthetic 640x480 clips are rendered into memory first; then, on one core, every frame
   is fed to the judge (timed per frame) and, in the same run, the same frame goes through a
   full-frame ArUco detection (the baseline). Reported: medians and means per frame, their ratio,
   and frames per second of the judge alone.
2. Accuracy per variation on a seeded clip set (rendered and judged in worker processes).
3. The same beyond the test set's conditions (darker, noisier, heavier JPEG, faster star, stronger
   tilt and lens), to show where the judge stops coping.

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

from vision import evaluation, synth  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.throws import JudgeConfig, ThrowJudge  # noqa: E402
from vision.markers import MarkerDetector  # noqa: E402
from vision.progress import progress  # noqa: E402


def cost(clips: int, seed: int) -> dict[str, float]:
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
        t = time.perf_counter()
        judge.arm(ref)
        arm_ms.append((time.perf_counter() - t) * 1e3)
        for frame in frames[config.reference_frames:]:
            t = time.perf_counter()
            verdict = judge.feed(frame)
            judge_ms.append((time.perf_counter() - t) * 1e3)
            t = time.perf_counter()
            detector.detect(frame)
            aruco_ms.append((time.perf_counter() - t) * 1e3)
            if verdict is not None:
                break
    return {
        "frames": len(judge_ms),
        "judge_median": statistics.median(judge_ms), "judge_mean": statistics.fmean(judge_ms),
        "judge_p95": statistics.quantiles(judge_ms, n=20)[18],
        "aruco_median": statistics.median(aruco_ms), "aruco_mean": statistics.fmean(aruco_ms),
        "arm_median": statistics.median(arm_ms),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clips", type=int, default=40, help="clips for the cost measurement")
    parser.add_argument("--accuracy-clips", type=int, default=210)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--stress-clips", type=int, default=30, help="clips per stress condition (0: none)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args()

    c = cost(args.clips, args.seed)
    specs = synth.clip_set(args.accuracy_clips, seed=args.seed + 1)
    start = time.perf_counter()
    results = list(progress(evaluation.judge_specs(specs, workers=args.workers), len(specs), "judging clips"))
    elapsed = time.perf_counter() - start
    table = evaluation.accuracy_by_tag(results)
    wrong = [r for r in results if not r.correct]
    false_knocks = sum(r.false_knock for r in results)
    godfather = sum(r.needs_godfather for r in results)

    out = [
        "\n## Vision: Shuriken judge (`bench/bench_vision.py`)\n",
        f"Machine: {os.cpu_count()}-core {platform.machine()} sandbox, Python {platform.python_version()}, "
        f"OpenCV {cv2.__version__}, while other jobs used the machine (load average {os.getloadavg()[0]:.1f} at "
        f"the end). Date: {time.strftime('%Y-%m-%d')}. Command: `.venv/bin/python bench/bench_vision.py "
        f"--clips {args.clips} --accuracy-clips {args.accuracy_clips} --stress-clips {args.stress_clips} "
        f"--seed {args.seed}`.\n",
        f"### Cost per frame at 640x480, one core (OpenCV threads = 1), {c['frames']} frames of {args.clips} synthetic clips\n",
        "| measure | median ms | mean ms |",
        "| --- | --- | --- |",
        f"| judge `feed` (motion at 160x120, close look at moving seats) | {c['judge_median']:.2f} | {c['judge_mean']:.2f} |",
        f"| full-frame ArUco detection of the same frames (baseline, same run) | {c['aruco_median']:.2f} | {c['aruco_mean']:.2f} |",
        f"| ratio judge / detection | {c['judge_median'] / c['aruco_median']:.2f} | {c['judge_mean'] / c['aruco_mean']:.2f} |",
        "",
        f"Judge alone: {1000 / c['judge_mean']:.0f} frames/s on one core (mean), 95th percentile "
        f"{c['judge_p95']:.2f} ms/frame; arming (per throw, crop detections on 3 reference frames): "
        f"median {c['arm_median']:.1f} ms. Target (judge cheaper than one detection per frame on average): "
        f"{'met' if c['judge_mean'] < c['aruco_mean'] else 'NOT met'}.\n",
        f"### Accuracy on {len(results)} synthetic clips (seed {args.seed + 1}), exact verdict per clip\n",
        f"Wrong: {len(wrong)} ({100 * len(wrong) / len(results):.1f} %); false `knocked`: {false_knocks}; "
        f"verdicts that ask the Godfather (confidence < 0.6): {godfather}. "
        f"Rendering and judging took {elapsed:.0f} s with {args.workers} workers.\n",
        "| variation | right | clips | % |",
        "| --- | --- | --- | --- |",
    ]
    for tag, (right, n) in table.items():
        out.append(f"| {tag} | {right} | {n} | {100 * right / n:.1f} |")
    if wrong:
        out.append("\nWrong clips: " + "; ".join(f"seed {r.seed}: truth {r.truth}, judged {r.verdict} ({r.reason})"
                                                for r in wrong))
    out += stress(args.stress_clips, args.seed + 2, args.workers)
    out.append("\nAll clips are synthetic (vision/synth.py); no real-webcam clip is part of these figures.\n")
    print("\n".join(out))


STRESS = {  # conditions beyond those of the test set, to show where the judge stops coping
    "very dim and noisy (light 0.3-0.5, noise 6-10)": lambda r: dict(light=r.uniform(0.3, 0.5), noise_sigma=r.uniform(6, 10)),
    "heavy JPEG (quality 25-45)": lambda r: dict(jpeg_quality=int(r.integers(25, 46))),
    "fast star, long exposure (600-900 cm/s, 1/60-1/30 s)": lambda r: dict(star_speed_cm_s=r.uniform(600, 900),
                                                                          exposure_s=r.uniform(1 / 60, 1 / 30)),
    "strong tilt and lens (15-20 degrees, k1 0.08-0.15)": lambda r: dict(tilt_deg=r.choice([-1, 1]) * r.uniform(15, 20),
                                                                        lens_k1=r.uniform(0.08, 0.15)),
}


def stress(clips: int, seed: int, workers: int) -> list[str]:
    if clips <= 0:
        return []
    import numpy as np

    kinds = list(synth.Scenario)
    out = [f"\n### Beyond the test set: {clips} clips per condition (seed {seed})\n",
           "| condition | right | refused by calibration | wrong verdicts | ask the Godfather |",
           "| --- | --- | --- | --- | --- |"]
    for name, draw in STRESS.items():
        rng = np.random.default_rng(seed)
        specs = [synth.random_spec(seed * 1000 + i, scenario=kinds[i % len(kinds)], **draw(rng)) for i in range(clips)]
        res = list(progress(evaluation.judge_specs(specs, workers=workers), clips, name[:20]))
        refused = sum(r.refused for r in res)
        wrong = sum(not r.correct and not r.refused for r in res)
        out.append(f"| {name} | {sum(r.correct for r in res)}/{clips} | {refused} | {wrong} | "
                   f"{sum(r.needs_godfather and not r.refused for r in res)} |")
    return out


if __name__ == "__main__":
    main()
