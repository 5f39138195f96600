"""The camera that judges shuriken throws, for the session: the real one, or a simulated one.

The simulated camera renders each throw as a camera over the table would film it
(``vision.synth``: the table, the standees and their markers, the flying star, blur,
noise, JPEG) from what the throw really did, and judges the frames with the real
judge (``vision.throws``): the verdict is the vision code's, not the truth. Every error vision raises
on purpose (``vision.errors.VisionError``) comes out of here as :class:`CameraError`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from ..errors import CameraError
from .session import CameraVerdict

log = logging.getLogger(__name__)

T = TypeVar("T")


def _vision(call: Callable[[], T]) -> T:
    """Runs ``call``, turning a vision error into the controller's :class:`CameraError`."""
    from vision.errors import VisionError

    try:
        return call()
    except VisionError as exc:
        raise CameraError(f"camera: {exc}") from exc


def verdict_of(verdict) -> CameraVerdict:
    """A ``vision.throws.Verdict`` as the session's :class:`CameraVerdict`."""
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
        from vision.synth import clear_targets

        return set(clear_targets(seats, thrower))

    def judge(self, *, thrower: int, seats: int, number: int, truth=None) -> CameraVerdict | None:
        from vision.synth import Scenario, random_spec, render_clip
        from vision.throws import judge_frames

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
        verdict = verdict_of(_vision(lambda: judge_frames(frames, seats=seats, thrower=thrower, fps=spec.fps)))
        verdict.frame = jpeg(frames[-1])
        return verdict


def jpeg(frame) -> bytes:
    """A frame as JPEG bytes, for the Godfather's console."""
    import cv2

    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return buf.tobytes() if ok else b""


class LiveCamera:
    """A camera over the table (a UVC webcam or a Pi camera): each throw judged by ``vision.throws``.

    Before each throw the exposure and white balance are set again, a few frames of the table
    at rest arm the judge, and frames are fed until it gives its verdict (no throw before its
    timeout is a miss).
    """

    def __init__(self, source, calibration, *, fps: float, max_frames: int = 3000) -> None:
        self.source = source
        self.calibration = calibration
        self.fps = fps
        self.max_frames = max_frames

    @classmethod
    def open(cls, spec: str, calibration_path) -> LiveCamera:
        """``webcam:N`` or ``picamera``, with the calibration file made by ``python -m vision calibrate``."""
        from vision.calibration import Calibration
        from vision.sources import PiCamera, UvcCamera

        if calibration_path is None:
            raise ValueError("camera.calibration: the camera needs its calibration file (python -m vision calibrate)")
        calibration = _vision(lambda: Calibration.load(calibration_path))
        source: PiCamera | UvcCamera
        if spec == "picamera":
            source = _vision(PiCamera)
        elif spec.startswith("webcam:"):
            device = spec.split(":", 1)[1]
            source = _vision(lambda: UvcCamera(int(device) if device.isdigit() else device))
        else:
            raise ValueError(f"camera.source: {spec!r} is not a camera")
        return cls(source, calibration, fps=getattr(source, "fps", 60.0) or 60.0)

    def judge(self, *, thrower: int, seats: int, number: int, truth=None) -> CameraVerdict | None:
        return _vision(lambda: self._judge(thrower=thrower, seats=seats))

    def _judge(self, *, thrower: int, seats: int) -> CameraVerdict:
        from vision.throws import ThrowJudge

        if hasattr(self.source, "lock_exposure"):
            self.source.lock_exposure()
        judge = ThrowJudge(self.calibration, seats=seats, thrower=thrower, fps=self.fps)
        reference = [self._read() for _ in range(judge.config.reference_frames)]
        judge.arm(reference)
        frame = reference[-1]
        for _ in range(self.max_frames):
            frame = self._read()
            verdict = judge.feed(frame)
            if verdict is not None:
                break
        else:
            verdict = judge.finish()
        seen = verdict_of(verdict)
        seen.frame = jpeg(frame)
        return seen

    def _read(self):
        frame = self.source.read()
        if frame is None:
            raise RuntimeError("the camera gave no frame")
        return frame

    def close(self) -> None:
        self.source.close()
