"""Judging labelled synthetic clips: per-clip results and accuracy per variation.

Used by the tests and by ``bench/bench_vision.py``. Clips are rendered in memory and fed to the
judge frame by frame, exactly as a camera would; only the comparison with the truth reads the
renderer's labels.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import signal
import threading
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from vision import synth
from vision.errors import CalibrationError
from vision.throws import JudgeConfig, judge_frames


@dataclass(frozen=True)
class ClipResult:
    seed: int
    tags: tuple[str, ...]
    truth: dict[str, list[int]]
    verdict: dict[str, list[int]]
    confidence: float
    needs_godfather: bool
    reason: str
    frames: int
    seconds: float  # rendering and judging
    refused: bool = False  # the calibration refused the scene (too dark, markers not found)

    @property
    def correct(self) -> bool:
        return not self.refused and self.truth == self.verdict

    @property
    def wrong_and_sure(self) -> bool:
        """Wrong without asking the Godfather: the worst outcome, counted on its own."""
        return not self.correct and not self.needs_godfather

    @property
    def false_knock(self) -> bool:
        """A seat called knocked that was not (the worst error: it wounds a player)."""
        return bool(set(self.verdict["knocked"]) - set(self.truth["knocked"]))


DEFAULT_CONFIG = JudgeConfig()


def judge_spec(spec: synth.ClipSpec, config: JudgeConfig = DEFAULT_CONFIG) -> ClipResult:
    """Renders and judges one clip; a clip whose calibration is refused counts as wrong, with the
    calibration's complaint as its reason and an empty verdict."""
    start = time.perf_counter()
    clip = synth.render_clip(spec)
    tags = tuple(synth.variation_tags(spec))
    try:
        verdict = judge_frames(clip.frames(), seats=spec.seats, thrower=spec.thrower, fps=spec.fps, config=config)
    except CalibrationError as exc:
        return ClipResult(spec.seed, tags, clip.truth.as_json(), {"knocked": [], "touched": []}, 0.0, True,
                          f"calibration refused: {exc.problems[0]}", 0, time.perf_counter() - start, refused=True)
    return ClipResult(spec.seed, tags, clip.truth.as_json(), verdict.as_json(), verdict.confidence,
                      verdict.needs_godfather, verdict.reason, verdict.frames, time.perf_counter() - start)


def judge_specs(specs: list[synth.ClipSpec], workers: int = 1) -> Iterator[ClipResult]:
    """Results in the order of ``specs``, computed by ``workers`` processes."""
    if workers <= 1:
        yield from map(judge_spec, specs)
        return
    # the workers are forked here; a Ctrl-C raised in one of a fork's own hooks would be dropped there, and the
    # measurement would go on: while they are forked a Ctrl-C is only noted, and comes as soon as they run
    # (Python runs signal handlers in the main thread only: elsewhere there is none to set)
    noted: list[int] = []
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: noted.append(signum)) if main else None
    pool: multiprocessing.pool.Pool | None = None
    try:
        pool = multiprocessing.Pool(workers, initializer=_ignore_interrupt)
        if main:
            signal.signal(signal.SIGINT, previous)
        if noted:
            signal.raise_signal(signal.SIGINT)
        yield from pool.imap(judge_spec, specs, chunksize=4)
    except BaseException:  # Ctrl-C (the workers ignore it): the clips being judged are dropped at once
        if main:
            signal.signal(signal.SIGINT, previous)
        if pool is not None:
            pool.terminate()
        raise
    pool.close()
    pool.join()


def _ignore_interrupt() -> None:
    """A worker process's start: Ctrl-C is for the process that started it to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def accuracy_by_tag(results: Iterable[ClipResult]) -> dict[str, tuple[int, int]]:
    """tag -> (clips judged exactly right, clips)."""
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        for tag in ("all",) + r.tags:
            table[tag][0] += r.correct
            table[tag][1] += 1
    return {k: (v[0], v[1]) for k, v in sorted(table.items())}
