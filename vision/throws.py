"""The Shuriken throw judge: frames in, per-seat verdict with evidence and confidence out.

States: ARMED (reference frames taken, waiting) -> MOTION (something moves: a hand, the star, a
standee) -> settled -> JUDGED. Motion is found cheaply at reduced resolution; only the seats where
something moves get a close look (ArUco detection in a small crop around the crown). Motion that
settles without a shuriken ever seen and with no standee changed (a hand reaching in) re-arms the
judge instead of judging. No throw before the timeout is a miss.

Per seat: ``knocked`` when its crown marker is gone, or turned or far from where it stood, at the
end (more certain when its base marker is still seen); ``touched`` when the crown moved during the
throw and stands again, or when it moved a little while the shuriken's blob met the standee.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Iterable

import numpy as np

from vision import markers
from vision.calibration import Calibration, calibrate
from vision.markers import Detection, MarkerDetector
from vision.motion import BlobKind, MotionDetector
from vision.sources import ClipError, open_clip

log = logging.getLogger(__name__)


MIN_STAR_SPEED_CM_S = 150.0  # a thrown foam star; hands reaching in move slower
MAX_STAR_SPEED_CM_S = 2000.0


class Outcome(Enum):
    KNOCKED = "knocked"
    TOUCHED = "touched"
    NOTHING = "nothing"


class State(Enum):
    IDLE = "idle"  # not armed yet
    ARMED = "armed"
    MOTION = "motion"
    JUDGED = "judged"


@dataclass(frozen=True)
class JudgeConfig:
    reference_frames: int = 3
    motion_scale: int = 4  # motion detection works at 1/scale of the frame size
    settle_s: float = 0.3  # this long without motion ends a throw
    timeout_s: float = 20.0  # armed this long without a throw: a miss
    max_throw_s: float = 5.0  # motion this long without settling: judged anyway, with low confidence
    moved_cm: float = 0.3  # crown displacement that counts as a touch: twice the largest jitter of still crowns
    fallen_cm: float = 3.0  # crown this far from its place at the end: the standee is not up any more
    turned_deg: float = 25.0
    shrunk_ratio: float = 0.6  # crown area at the end below this share of the armed one: turned away
    ask_godfather_below: float = 0.6
    final_frames: int = 3  # settled frames looked at for the final state


@dataclass
class SeatEvidence:
    """What the camera saw at one seat, for the verdict and for fusion with the tilt sensors."""

    seat: int
    outcome: Outcome = Outcome.NOTHING
    confidence: float = 1.0
    standing_when_armed: bool = True
    crown_seen_at_end: bool | None = None  # None: the seat was not looked at (nothing moved there)
    base_seen_at_end: bool | None = None  # None: not looked at, or no base marker known
    max_shift_cm: float = 0.0  # largest crown displacement seen in two or more frames
    final_shift_cm: float | None = None
    final_turn_deg: float | None = None
    shuriken_contact: bool = False  # the shuriken's blob met the standee in the image
    frames_examined: int = 0
    frames_crown_hidden: int = 0
    first_change_s: float | None = None  # seconds after arming when the crown first moved or was lost
    reason: str = "nothing moved there"

    def as_json(self) -> dict:
        return {k: (v.value if isinstance(v, Outcome) else v) for k, v in self.__dict__.items()}


@dataclass
class Verdict:
    knocked: list[int]
    touched: list[int]
    seats: dict[int, SeatEvidence]
    confidence: float  # the lowest seat confidence
    needs_godfather: bool  # confidence too low: the Godfather decides
    reason: str
    shuriken_seen: bool
    frames: int

    def as_json(self) -> dict[str, list[int]]:
        return {"knocked": sorted(self.knocked), "touched": sorted(self.touched)}

    def details(self) -> dict:
        return {**self.as_json(), "confidence": round(self.confidence, 3), "needs_godfather": self.needs_godfather,
                "reason": self.reason, "shuriken_seen": self.shuriken_seen, "frames": self.frames,
                "seats": {str(s): e.as_json() for s, e in self.seats.items()}}


@dataclass
class _SeatTrack:
    """Per-seat state during a throw."""

    seat: int
    crown: Detection | None  # where the crown was when armed
    base: Detection | None
    cm_per_px: float
    crop: tuple[int, int, int, int]
    watch: tuple[int, int, int, int]  # low-resolution box where motion makes us look closely
    body: tuple[int, int, int, int]  # full-resolution box of the standee seen from above
    shifts: list[float] = field(default_factory=list)
    examined: int = 0
    hidden: int = 0
    contact: bool = False
    first_change: int | None = None  # frame (since arming) when the crown first moved or was lost

    def reset(self) -> None:
        self.shifts.clear()
        self.examined = self.hidden = 0
        self.contact = False
        self.first_change = None


def _box_around(centre: np.ndarray, half: float, size: tuple[int, int]) -> tuple[int, int, int, int]:
    w, h = size
    return (max(0, int(centre[0] - half)), max(0, int(centre[1] - half)),
            min(w, int(centre[0] + half) + 1), min(h, int(centre[1] + half) + 1))


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _turn(a: Detection, b: Detection) -> float:
    return abs((b.angle_deg - a.angle_deg + 180) % 360 - 180)


class ThrowJudge:
    """Judges one throw. ``arm`` with frames of the table at rest, then ``feed`` frames until it
    returns a ``Verdict`` (or call ``finish`` when the frames run out)."""

    def __init__(self, calibration: Calibration, *, seats: int, thrower: int, fps: float,
                 config: JudgeConfig = JudgeConfig(), detector: MarkerDetector | None = None) -> None:
        if seats != calibration.seat_count:
            raise ValueError(f"the calibration has {calibration.seat_count} seats, the throw {seats}")
        if not 0 <= thrower < seats:
            raise ValueError(f"thrower seat {thrower} is not one of the {seats} seats")
        self.calibration = calibration
        self.seats = seats
        self.thrower = thrower
        self.fps = float(fps)
        self.config = config
        self.detector = detector or MarkerDetector()
        self.motion = MotionDetector(calibration.px_per_cm, fps, config.motion_scale)
        # fewer changed low-resolution pixels than a third of the star: sensor noise, not motion
        self._quiet_pixels = max(4, int(0.3 * self.motion.star_area / config.motion_scale ** 2))
        self.state = State.IDLE
        self.tracks: dict[int, _SeatTrack] = {}
        self._recent: deque[np.ndarray] = deque(maxlen=config.final_frames)
        self._frames = 0
        self._armed_at = 0
        self._motion_since = 0
        self._still = 0
        self._shuriken_seen = False
        self._last_candidates: list[np.ndarray] = []
        self.verdict: Verdict | None = None

    # ------------------------------------------------------------------ arming
    def arm(self, frames: Iterable[np.ndarray]) -> None:
        """Takes the reference: the table at rest just before the throw (a few frames)."""
        frames = list(frames)
        if not frames:
            raise ValueError("arming needs at least one reference frame")
        self.motion.set_reference(frames)
        self._recent.clear()
        self._recent.extend(frames[-self.config.final_frames:])
        size = (frames[0].shape[1], frames[0].shape[0])
        scale = self.config.motion_scale
        self.tracks = {}
        for seat in range(self.seats):
            marks = self.calibration.seats[seat]
            crown = base = None
            if marks.crown is not None:
                crown = self._find(frames, markers.crown_id(seat), np.mean(marks.crown, axis=0),
                                   2.0 * _side(marks.crown), upscale=1)
            if marks.base is not None:
                base = self._find(frames, markers.base_id(seat), np.mean(marks.base, axis=0),
                                  2.0 * _side(marks.base), upscale=2)
            if crown is None:
                self.tracks[seat] = _SeatTrack(seat, None, base, 0.0, (0, 0, 0, 0),
                                               (0, 0, 0, 0), (0, 0, 0, 0))
                continue
            side = crown.side_px
            centre = crown.center
            crop = _box_around(centre, 1.7 * side, size)
            watch_full = _box_around(centre, 1.4 * side, size)
            watch = tuple(v // scale for v in watch_full)
            body = _box_around(centre, 0.75 * side, size)
            self.tracks[seat] = _SeatTrack(seat, crown, base, markers.CROWN_SIZE_CM / side, crop, watch, body)
        self._frames = 0
        self._armed_at = 0
        self._still = 0
        self._shuriken_seen = False
        self._last_candidates = []
        self.verdict = None
        self.state = State.ARMED
        log.debug("armed: %s standing", [s for s, t in self.tracks.items() if t.crown is not None])

    def _find(self, frames: list[np.ndarray], marker_id: int, centre: np.ndarray, half: float,
              upscale: int) -> Detection | None:
        """The marker near ``centre`` in the latest of ``frames`` that shows it; None if none does."""
        size = (frames[0].shape[1], frames[0].shape[0])
        box = _box_around(centre, half, size)
        for frame in reversed(frames):  # the latest frame that shows it
            found = self.detector.detect_in(frame, box, upscale).get(marker_id)
            if found is not None:
                return found
        return None

    # ------------------------------------------------------------------ feeding
    def feed(self, frame: np.ndarray) -> Verdict | None:
        """One camera frame; returns the verdict once the throw is judged, else None."""
        if self.state is State.IDLE:
            raise RuntimeError("arm the judge with reference frames before feeding it")
        if self.state is State.JUDGED:
            return self.verdict
        self._frames += 1
        self._recent.append(frame)
        m = self.motion.update(frame)
        settle_frames = max(2, round(self.config.settle_s * self.fps))
        quiet = m.activity <= self._quiet_pixels
        if self.state is State.ARMED:
            if quiet:
                if self._frames - self._armed_at > self.config.timeout_s * self.fps:
                    return self._conclude("timeout: no throw seen", timed_out=True)
                return None
            self.state = State.MOTION
            self._motion_since = self._frames
            self._still = 0
        # MOTION
        candidates = [b for b in m.blobs if b.kind is BlobKind.SHURIKEN]
        self._confirm_shuriken(candidates)
        for blob in candidates:
            for t in self.tracks.values():
                # the star leaves from behind the thrower's own standee: passing it is no contact
                if t.crown is not None and t.seat != self.thrower and _overlap(blob.box, t.body):
                    t.contact = True
        for t in self.tracks.values():
            if t.crown is None:
                continue
            x0, y0, x1, y1 = t.watch
            if m.changed[y0:y1, x0:x1].any():
                self._examine(t, frame)
        self._still = self._still + 1 if quiet else 0
        if self._still >= settle_frames:
            return self._settled()
        if self._frames - self._motion_since > self.config.max_throw_s * self.fps:
            return self._conclude("the table did not settle", unsettled=True)
        return None

    def _confirm_shuriken(self, candidates: list) -> None:
        """The star counts as seen once star-sized blobs in two frames in a row are as far apart as
        a thrown star flies in one frame; a single blob may be a piece of an arm."""
        centres = [np.array(b.centre) for b in candidates]
        if not self._shuriken_seen:
            px_per_cm = self.calibration.px_per_cm
            low, high = (v * px_per_cm / self.fps for v in (MIN_STAR_SPEED_CM_S, MAX_STAR_SPEED_CM_S))
            self._shuriken_seen = any(low <= float(np.linalg.norm(c - p)) <= high
                                      for c in centres for p in self._last_candidates)
        self._last_candidates = centres

    def _examine(self, t: _SeatTrack, frame: np.ndarray) -> None:
        t.examined += 1
        found = self.detector.detect_in(frame, t.crop, upscale=1).get(t.crown.marker_id)
        if found is None:
            t.hidden += 1
            shift = None
        else:
            shift = float(np.linalg.norm(found.center - t.crown.center)) * t.cm_per_px
            t.shifts.append(shift)
        if t.first_change is None and (shift is None or shift >= self.config.moved_cm):
            t.first_change = self._frames

    def _settled(self) -> Verdict | None:
        if self._shuriken_seen:
            return self._conclude("judged")
        final = self._final_states()
        if any(o is not Outcome.NOTHING for o, _ in final.values()):
            return self._conclude("a standee changed but no shuriken was seen", final=final, unsure=True)
        log.debug("motion without a shuriken (a hand?) at frame %d: re-armed", self._frames)
        self.motion.rebase()
        self._last_candidates = []
        for t in self.tracks.values():
            t.reset()
        self.state = State.ARMED
        self._armed_at = self._frames
        return None

    def finish(self) -> Verdict:
        """No more frames: judges with what was seen (a throw still moving gets a low confidence)."""
        if self.state is State.JUDGED:
            return self.verdict
        if self.state is State.IDLE:
            raise RuntimeError("the judge was never armed")
        if self.state is State.ARMED:
            return self._conclude("no throw seen before the frames ran out", timed_out=True)
        if not self._shuriken_seen:
            final = self._final_states()
            if all(o is Outcome.NOTHING for o, _ in final.values()):
                return self._conclude("no throw seen before the frames ran out", timed_out=True)
        return self._conclude("the frames ran out before the table settled", unsettled=True)

    # ------------------------------------------------------------------ judging
    def _final_states(self) -> dict[int, tuple[Outcome, SeatEvidence]]:
        out = {}
        for seat, t in self.tracks.items():
            ev = self._seat_evidence(t)
            out[seat] = (ev.outcome, ev)
        return out

    def _seat_evidence(self, t: _SeatTrack) -> SeatEvidence:
        cfg = self.config
        ev = SeatEvidence(t.seat, shuriken_contact=t.contact, frames_examined=t.examined,
                          frames_crown_hidden=t.hidden,
                          first_change_s=None if t.first_change is None else round(t.first_change / self.fps, 3))
        if t.crown is None:
            ev.standing_when_armed = False
            ev.reason = "not standing when armed"
            return ev
        shifts = sorted(t.shifts)
        ev.max_shift_cm = round(shifts[-2] if len(shifts) >= 2 else 0.0, 3)
        if t.examined == 0:
            ev.confidence = 0.97
            return ev
        frames = list(self._recent)
        crown = self._find(frames, t.crown.marker_id, t.crown.center, 1.7 * t.crown.side_px + 1, upscale=1)
        if t.base is not None:
            base = self._find(frames, t.base.marker_id, t.base.center, 2.0 * t.base.side_px, upscale=2)
            ev.base_seen_at_end = base is not None
        ev.crown_seen_at_end = crown is not None
        if crown is not None:
            ev.final_shift_cm = round(float(np.linalg.norm(crown.center - t.crown.center)) * t.cm_per_px, 3)
            ev.final_turn_deg = round(_turn(t.crown, crown), 1)
            shrunk = crown.area_px < cfg.shrunk_ratio * t.crown.area_px
            if ev.final_shift_cm < cfg.fallen_cm and ev.final_turn_deg < cfg.turned_deg and not shrunk:
                return self._standing(ev, t)
            ev.outcome, ev.reason = Outcome.KNOCKED, "crown marker turned or far from its place"
            ev.confidence = 0.9 if ev.base_seen_at_end is not False else 0.6
            return ev
        ev.outcome = Outcome.KNOCKED
        if ev.base_seen_at_end:
            ev.reason, ev.confidence = "crown marker gone, base marker still seen", 0.97
        elif ev.base_seen_at_end is None:
            ev.reason, ev.confidence = "crown marker gone (no base marker to confirm)", 0.75
        elif self.motion.arm_in(t.watch):
            ev.reason, ev.confidence = "crown and base markers both hidden, an arm or hand over the seat", 0.4
        else:
            ev.reason, ev.confidence = "crown and base markers both hidden: fallen forward over its base", 0.75
        return ev

    def _standing(self, ev: SeatEvidence, t: _SeatTrack) -> SeatEvidence:
        cfg = self.config
        moved = ev.max_shift_cm
        if moved >= cfg.moved_cm:
            ev.outcome, ev.reason = Outcome.TOUCHED, "crown marker moved and came back"
            ev.confidence = float(min(0.97, 0.6 + 0.4 * (moved - cfg.moved_cm) / cfg.moved_cm))
        elif ev.final_shift_cm >= cfg.moved_cm:
            ev.outcome, ev.reason = Outcome.TOUCHED, "standee still up but pushed from its place"
            ev.confidence = 0.7
        elif t.contact and moved >= 0.6 * cfg.moved_cm:
            ev.outcome, ev.reason = Outcome.TOUCHED, "shuriken met the standee, which barely moved"
            ev.confidence = 0.55
        else:
            ev.outcome, ev.reason = Outcome.NOTHING, "crown marker stayed in place"
            seen = t.examined - t.hidden
            ev.confidence = 0.95 if (seen >= 2 or not t.contact) else 0.85
            if moved > 0.5 * cfg.moved_cm:
                ev.confidence = min(ev.confidence, 0.6 + 0.35 * (cfg.moved_cm - moved) / (0.5 * cfg.moved_cm))
        return ev

    def _conclude(self, reason: str, *, timed_out: bool = False, unsettled: bool = False, unsure: bool = False,
                  final: dict[int, tuple[Outcome, SeatEvidence]] | None = None) -> Verdict:
        if timed_out:
            evidence = {s: SeatEvidence(s, standing_when_armed=t.crown is not None,
                                        reason="no throw seen") for s, t in self.tracks.items()}
            conf = 0.9
        else:
            final = final or self._final_states()
            evidence = {s: ev for s, (_, ev) in final.items()}
            if unsettled or unsure:
                for ev in evidence.values():
                    ev.confidence *= 0.5
            conf = min((ev.confidence for ev in evidence.values()), default=1.0)
        knocked = sorted(s for s, e in evidence.items() if e.outcome is Outcome.KNOCKED)
        touched = sorted(s for s, e in evidence.items() if e.outcome is Outcome.TOUCHED)
        self.verdict = Verdict(knocked, touched, evidence, float(conf), conf < self.config.ask_godfather_below,
                               reason, self._shuriken_seen, self._frames)
        self.state = State.JUDGED
        log.info("throw judged (%s): knocked %s touched %s, confidence %.2f", reason, knocked, touched, conf)
        return self.verdict


def _side(corners: np.ndarray) -> float:
    return float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]))


def judge_frames(frames: Iterable[np.ndarray], *, seats: int, thrower: int, fps: float,
                 calibration: Calibration | None = None, config: JudgeConfig = JudgeConfig()) -> Verdict:
    """Arms on the first frames and judges the throw in the rest. Without a calibration the
    reference frames are calibrated in game mode (standees may already lie down)."""
    it = iter(frames)
    reference = [f for _, f in zip(range(config.reference_frames), it)]
    if not reference:
        raise ValueError("no frames to judge")
    if calibration is None:
        calibration = calibrate(reference, seats, setup=False)
    judge = ThrowJudge(calibration, seats=seats, thrower=thrower, fps=fps, config=config)
    judge.arm(reference)
    for frame in it:
        verdict = judge.feed(frame)
        if verdict is not None:
            return verdict
    return judge.finish()


def judge_clip(path: Path | str, calibration: Calibration | None = None,
               config: JudgeConfig = JudgeConfig()) -> Verdict:
    """Judges a clip folder (``clip.json`` and ``video.avi`` or ``frames/``). Raises
    ``vision.sources.ClipError`` for an unreadable clip and ``CalibrationError`` when the clip's
    markers cannot be found."""
    info, source = open_clip(Path(path))
    with source:
        try:
            return judge_frames(source.frames(), seats=info.seats, thrower=info.thrower, fps=info.fps,
                                calibration=calibration, config=config)
        except ValueError as exc:
            raise ClipError(f"{path}: {exc}") from exc
