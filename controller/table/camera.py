"""The camera that judges shuriken throws and reads the aims, for the session: the real one, or a
simulated one.

The simulated camera renders each throw as a camera over the table would film it
(``vision.synth``: the table, the standees and their markers, the flying star, blur,
noise, JPEG) from what the throw really did, and judges the frames with the real
judge (``vision.judge``): the verdict is the vision code's, not the truth.  Each aim count
is rendered the same way from where the weapons really point (``vision.aim_synth``) and
read by the real aim reader (``vision.aims``).
"""

from __future__ import annotations

import logging

from .session import CameraAims, CameraVerdict

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


def aims_of(reading, frame) -> CameraAims:
    """A ``vision.aims.AimReading`` as the session's :class:`CameraAims` (``frame``: the JPEG to show)."""
    return CameraAims(
        aims=dict(reading.aims),
        late=list(reading.late),
        unsure=list(reading.unsure),
        margins={s: float(a.margin_deg) for s, a in reading.seats.items() if a.margin_deg is not None},
        confidence=float(reading.confidence),
        details=reading.details(),
        frame=frame,
    )


class SimulatedCamera:
    """Films a throw from its true outcome with the synthetic renderer, and judges the film; films
    each aim count from where the weapons really point, and reads the aims from the film."""

    AIM_FPS = 30  # the simulated aim counts are filmed at 30 frames a second: the reader samples at 30

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def read_aims(self, *, seats: int, shooters: list[int], candidates: list[int], number: int,
                  truth: dict[int, tuple[int | None, bool]] | None = None) -> CameraAims | None:
        from vision.aim_synth import AimScene, random_spec
        from vision.aims import draw_lines, read_frames

        if truth is None:
            return None
        spec = random_spec(self.seed * 1000 + number, seats=seats, fps=self.AIM_FPS,
                           aims={s: truth.get(s, (None, False)) for s in shooters})
        scene = AimScene(spec)
        reading = read_frames(scene.frames(), seats=seats, fps=spec.fps, three_at=spec.three_at,
                              shooters=shooters, candidates=candidates)
        frame = b""
        if reading.deadline_frame is not None:
            frame = jpeg(draw_lines(reading.deadline_frame, reading))
        return aims_of(reading, frame)

    def reachable(self, thrower: int, seats: int) -> set[int]:
        """The seats a throw from ``thrower`` reaches in a straight line, past no other standee."""
        from vision.synth import clear_targets

        return set(clear_targets(seats, thrower))

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


class LiveCamera:
    """A camera over the table (a UVC webcam or a Pi camera): each throw judged by ``vision.judge``.

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
        calibration = Calibration.load(calibration_path)
        if spec == "picamera":
            source = PiCamera()
        elif spec.startswith("webcam:"):
            device = spec.split(":", 1)[1]
            source = UvcCamera(int(device) if device.isdigit() else device)
        else:
            raise ValueError(f"camera.source: {spec!r} is not a camera")
        return cls(source, calibration, fps=getattr(source, "fps", 60.0) or 60.0)

    def judge(self, *, thrower: int, seats: int, number: int, truth=None) -> CameraVerdict | None:
        from vision.judge import ThrowJudge

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
