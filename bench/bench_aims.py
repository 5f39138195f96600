"""Benchmark of the aim reader, run by hand:

    .venv/bin/python bench/bench_aims.py [--cost-clips 4] [--tuned 24] [--held-out 40] [--game-seed 3] > /tmp/aims.md

1. Cost: synthetic 640x480 aim clips at 60 fps are rendered into memory first; then, on one core,
   every frame is fed to the reader (timed per frame, the whole clip) and, in the same run, the same
   frame goes through a full-frame ArUco detection (the baseline). Reported: milliseconds per frame
   fed (median and mean over the frames of the count), their ratio, and the share of a 60 fps frame
   interval (16.7 ms) the reader takes.
2. Accuracy per condition, on the set the thresholds were tuned on (seeds 300...) and, reported
   separately, on a seeded set never used for tuning (seeds 9 000 000...).
3. The Godfather's taps per round at the aims step in a simulated 9-player Yakuzas game, played by
   the bots through the synthetic camera: without the camera he enters every living player's aim;
   with it he enters the unsure seats, the aims the rules refuse and the camera's wrong sure aims
   (he sees them on the frame); the console then sends the aims by itself after its countdown (as it
   does when the camera is sure of every seat), or, without that countdown, he confirms with one tap.

Prints a Markdown section for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import aim_evaluation, aim_synth, markers
from vision.aims import AimReader, find_table
from vision.progress import progress

TUNED_SEED = 300
HELD_OUT_SEED = 9_000_000


def cost(clips: int) -> dict[str, float]:
    cv2.setNumThreads(1)
    detector = cv2.aruco.ArucoDetector(markers.dictionary(), cv2.aruco.DetectorParameters())
    reader_ms: list[float] = []
    full_ms: list[float] = []
    total_reader = total_full = 0.0
    frames_fed = 0
    for seed in progress(range(clips), clips, "cost clips"):
        spec = aim_synth.random_spec(HELD_OUT_SEED + 500 + seed, fps=60, seats=9)
        frames = list(aim_synth.AimScene(spec).frames())
        lead = int((spec.three_at - 1.6) * spec.fps)
        t0 = time.perf_counter()
        plane = find_table(frames[:max(1, min(lead, 36))][::4])
        table_ms = (time.perf_counter() - t0) * 1000
        reader = AimReader(plane, seats=spec.seats, fps=spec.fps, three_at=spec.three_at)
        for frame in frames:
            t0 = time.perf_counter()
            reader.feed(frame)
            dt = (time.perf_counter() - t0) * 1000
            t0 = time.perf_counter()
            detector.detectMarkers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
            df = (time.perf_counter() - t0) * 1000
            reader_ms.append(dt)
            full_ms.append(df)
            total_reader += dt
            total_full += df
            frames_fed += 1
        t0 = time.perf_counter()
        reader.finish()
        total_reader += (time.perf_counter() - t0) * 1000 + table_ms
    mean_reader = total_reader / frames_fed
    mean_full = total_full / frames_fed
    return {"frames": frames_fed, "reader_median_ms": statistics.median(reader_ms), "reader_mean_ms": mean_reader,
            "full_median_ms": statistics.median(full_ms), "full_mean_ms": mean_full,
            "ratio_mean": mean_full / mean_reader, "share_of_60fps": mean_reader / (1000 / 60)}


def accuracy(seed: int, count: int) -> aim_evaluation.Report:
    specs = [aim_synth.random_spec(seed + i) for i in range(count)]
    return aim_evaluation.evaluate(specs, progress=lambda n, total: print(f"\r  clip {n + 1}/{total}", end="",
                                                                          file=sys.stderr))


def taps(seed: int) -> dict[str, float]:
    """Taps per round at the aims step in a simulated 9-player game (see the module docstring)."""
    from controller.table import config as table_config
    from controller.table.camera import SimulatedCamera
    from controller.table.gamelog import read
    from controller.table.runner import Setup, start

    truths: dict[int, dict] = {}
    readings: dict[int, object] = {}
    original = SimulatedCamera.read_aims

    def spy(self, **kw):
        seen = original(self, **kw)
        truths[kw["number"]], readings[kw["number"]] = kw["truth"], seen
        return seen

    SimulatedCamera.read_aims = spy  # type: ignore[method-assign]
    try:
        names = ["Aiko", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo"]
        config = table_config.from_dict({"game": {"ruleset": "yakuzas", "players": names, "seed": seed}})
        with tempfile.TemporaryDirectory() as folder:
            log_path = Path(folder) / "game.log"
            start(Setup(config, seed, simulate=True, camera=True), log_path=log_path, say=lambda _l: None)
            seen = {s["aims"]["round"]: s["aims"] for s in read(log_path).seen if "aims" in s}
    finally:
        SimulatedCamera.read_aims = original  # type: ignore[method-assign]
    rows = []
    for number, truth in sorted(truths.items()):
        reading = readings[number]
        refused = {names.index(n) for n in seen[number]["refused"]}
        unsure = set(reading.unsure)
        wrong = {s for s, (target, late) in truth.items()
                 if s not in unsure and s not in refused and (reading.aims.get(s) != target or (s in reading.late) != late)}
        rows.append((len(truth), len(unsure), len(refused), len(wrong)))
    n = len(rows)
    return {"rounds": n, "without_camera": sum(r[0] for r in rows) / n,
            "unsure": sum(r[1] for r in rows) / n, "refused": sum(r[2] for r in rows) / n,
            "wrong_sure": sum(r[3] for r in rows) / n,
            "entries": sum(r[1] + r[2] + r[3] for r in rows) / n,
            "with_confirm": sum(r[1] + r[2] + r[3] + 1 for r in rows) / n,
            "all_sure": sum(1 for r in rows if r[1] + r[2] + r[3] == 0)}


def table(report: aim_evaluation.Report, title: str) -> list[str]:
    header = ("| condition | clips | aims | right | right without asking | asked | wrong not asked | "
              "late right / late | false late |")
    out = [f"**{title}**", "", header, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]

    def row(name: str, t: aim_evaluation.Tally) -> str:
        j = t.as_json()
        return (f"| {name} | {j['clips']} | {j['aims']} | {j['right_pct']} % | {j['right_without_asking_pct']} % | "
                f"{j['asked_pct']} % | {j['wrong_unasked']} | {j['late_right']} / {j['late']} | {j['false_late']} |")

    out.append(row("**all**", report.total))
    for tag, t in sorted(report.by_tag.items()):
        out.append(row(tag, t))
    for behaviour, t in sorted(report.by_behaviour.items()):
        out.append(row(f"weapon: {behaviour}", t))
    if report.failures:
        out += ["", "Wrong aims that did not ask, and unread clips:", ""] + [f"- {f}" for f in report.failures]
    return out + [""]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cost-clips", type=int, default=4)
    parser.add_argument("--tuned", type=int, default=24)
    parser.add_argument("--held-out", type=int, default=40)
    parser.add_argument("--game-seed", type=int, default=3)
    parser.add_argument("--no-game", action="store_true")
    args = parser.parse_args()
    machine = (f"{platform.machine()}, {platform.python_version()}, OpenCV {cv2.__version__}, {os.cpu_count()} cores "
               f"(shared), {time.strftime('%Y-%m-%d', time.gmtime())}; one core for the cost.")
    lines = ["## Vision: aim reader (`bench/bench_aims.py`)", "", machine, ""]
    c = cost(args.cost_clips)
    lines += [("**Cost** (9-seat clips at 60 fps, 640x480, every frame of the clip fed; the table found once per "
               "clip and the final judgement included in the mean):"), "",
              "| per frame | aim reader | full-frame ArUco (baseline) |", "| --- | --- | --- |",
              f"| median | {c['reader_median_ms']:.2f} ms | {c['full_median_ms']:.2f} ms |",
              f"| mean | {c['reader_mean_ms']:.2f} ms | {c['full_mean_ms']:.2f} ms |", "",
              (f"{c['frames']} frames; the baseline costs {c['ratio_mean']:.1f} x the reader; the reader takes "
               f"{100 * c['share_of_60fps']:.0f} % of a 60 fps frame interval on one core."), ""]
    print("\n".join(lines), flush=True)
    lines = table(accuracy(TUNED_SEED, args.tuned), f"Accuracy, tuning set (seeds {TUNED_SEED}..., {args.tuned} clips)")
    print("\n".join(lines), flush=True)
    lines = table(accuracy(HELD_OUT_SEED, args.held_out),
                  f"Accuracy, never-tuned set (seeds {HELD_OUT_SEED}..., {args.held_out} clips)")
    print("\n".join(lines), flush=True)
    if not args.no_game:
        t = taps(args.game_seed)
        print("\n".join([
            (f"**The Godfather's taps per round at the aims step** (simulated 9-player Yakuzas game, seed "
             f"{args.game_seed}, {t['rounds']} rounds):"), "",
            "| | taps per round |", "| --- | --- |",
            f"| without the camera (every living player's aim) | {t['without_camera']:.2f} |",
            (f"| with the camera: seats entered (unsure {t['unsure']:.2f} + refused {t['refused']:.2f} + wrong sure "
             f"{t['wrong_sure']:.2f}) | {t['entries']:.2f} |"),
            f"| with the camera and the console's countdown (no confirm tap) | {t['entries']:.2f} |",
            f"| with the camera, confirmed with one tap (no countdown) | {t['with_confirm']:.2f} |",
            (f"| rounds the camera was sure of every seat (sent by the countdown, no tap) | "
             f"{t['all_sure']:.0f} of {t['rounds']} |"), ""]), flush=True)


if __name__ == "__main__":
    main()
