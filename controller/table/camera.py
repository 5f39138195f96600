"""The camera that judges shuriken throws, for the session: the real one, or a simulated one.

The simulated camera renders each throw as a camera over the table would film it
(``vision.synth``: the table, the standees and their markers, the flying star, blur,
noise, JPEG) from what the throw really did, and judges the frames with the real
judge (``vision.judge``): the verdict is the vision code's, not the truth.
"""

from __future__ import annotations

import logging

from .session import CameraVerdict

log = logging.getLogger(__name__)


def verdict_of(verdict) -> CameraVerdict:
    """A ``vision.judge.Verdict`` as the session's :class:`CameraVerdict`."""
    return CameraVerdict(
        knocked=sorted(verdict.knocked),
        touched=sorted(verdict.touched),
        confidence=float(verdict.confidence),
        needs_godfather=bool(verdict.needs_godfather),
        reason=verdict.reason,
        details=verdict.details(),
    )


class SimulatedCamera:
    """Films a throw from its true outcome with the synthetic renderer, and judges the film."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def reachable(self, thrower: int, seats: int) -> set[int]:
        """The seats a throw from ``thrower`` reaches in a straight line, past no other standee."""
        from vision.synth import _clear_targets

        return set(_clear_targets(seats, thrower))

    def judge(self, *, thrower: int, seats: int, number: int, truth=None) -> CameraVerdict | None:
        from vision.judge import judge_frames
        from vision.synth import Scenario, random_spec, render_clip

        if truth is None:
            return None
        knocked, touched = truth
        hits = tuple((s, "knocked") for s in knocked) + tuple((s, "touched") for s in touched)
        if not hits:
            scenario = Scenario.MISS
        elif len(hits) == 1:
            scenario = Scenario.KNOCK if knocked else Scenario.TOUCH
        else:
            scenario = Scenario.MULTI
        spec = random_spec(self.seed * 1000 + number, seats=seats, thrower=thrower, scenario=scenario, hits=hits)
        frames = list(render_clip(spec).frames())
        verdict = verdict_of(judge_frames(frames, seats=seats, thrower=thrower, fps=spec.fps))
        verdict.frame = jpeg(frames[-1])
        return verdict


def jpeg(frame) -> bytes:
    """A frame as JPEG bytes, for the Godfather's console."""
    import cv2

    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return buf.tobytes() if ok else b""
