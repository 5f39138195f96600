"""Calibration: where the play area and each seat's markers are in the camera image.

``calibrate`` looks at a few still frames of the set-up table, finds the corner, crown and base
markers, checks their sizes, their order around the table and the light, and either returns a
``Calibration`` or raises ``CalibrationError`` listing every problem in one line each.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import markers
from vision.errors import CalibrationError
from vision.markers import Detection, MarkerDetector, MarkerKind
from vision.sources import MAX_JSON_DEPTH, MIN_EXPOSURE_MS, CameraSettings, json_depth

log = logging.getLogger(__name__)

MIN_SEATS = 4  # the fewest players of any game (the 1st and 2nd editions); Yakuzas has 6 to 9
MIN_SIDE_PX = 14.0  # below this a 4x4 marker (6 cells with its border) is not decoded reliably
MIN_BRIGHTNESS = 30  # median grey level of the image
MAX_BRIGHTNESS = 235
# a frame of still frames found shifted more than this against the first is left as it is: the peak is the
# table cloth's pattern repeating (a checked cloth matches itself one square across) or an arm, not shake
MAX_SHAKE_PX = 8.0
REGISTER_SIGMA_PX = 3.0  # smoothing of the frames registered for the median of still frames (``_smoothed``)
AIM_BRIGHTNESS = 110  # the median grey level the advice on exposure and gain aims at
EXPOSURE_WHERE = "[camera] exposure_ms in table.toml, --exposure-ms here"
GAIN_WHERE = "[camera] gain, --gain"
MIN_MARKER_CONTRAST = 50  # grey levels between a corner marker's black and white cells
FORMAT_VERSION = 1
MAX_FILE_BYTES = 256 << 10  # a calibration file is a few KiB
MAX_IMAGE_SIDE = 16384  # pixels: larger than any camera's frame


@dataclass
class SeatMarkers:
    """One seat's markers in the image: the crown (None if the standee is down) and the base."""

    seat: int
    crown: np.ndarray | None  # (4, 2) image corners
    base: np.ndarray | None

    @property
    def standing(self) -> bool:
        return self.crown is not None


@dataclass
class Calibration:
    image_size: tuple[int, int]  # (width, height)
    corners: dict[int, np.ndarray]  # corner marker id -> (4, 2)
    seats: dict[int, SeatMarkers]
    brightness: float
    px_per_cm: float  # on the table plane, from the corner markers
    play_area_homography: np.ndarray  # image -> play area square, corner 0 at (0, 0), corner 2 at (1, 1)
    warnings: list[str] = field(default_factory=list)
    camera: dict[str, float] | None = None  # {"exposure_ms", "gain"} the frames were taken with (a camera's)

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    def size_problem(self, frame: np.ndarray) -> str | None:
        """Why ``frame`` cannot be read with this calibration (None when it can): its markers' pixels are places on
        the table only in frames of the size it was made from."""
        h, w = frame.shape[:2]
        if (w, h) == tuple(self.image_size):
            return None
        cw, ch = self.image_size
        return f"its frames are {w}x{h}, but the calibration was made from frames of {cw}x{ch}"

    def table_centre(self) -> np.ndarray:
        """The play area's centre in the image: from the corner markers, else the seats' markers."""
        if len(self.corners) == len(markers.CORNER_IDS):
            inverse = np.linalg.inv(self.play_area_homography)
            return np.asarray(cv2.perspectiveTransform(np.array([[[0.5, 0.5]]], np.float32), inverse)).reshape(2)
        points = [np.mean(m, axis=0) for s in self.seats.values() for m in (s.crown, s.base) if m is not None]
        return np.mean(points, axis=0) if points else np.array([self.image_size[0] / 2, self.image_size[1] / 2], np.float32)

    def to_json(self) -> dict[str, Any]:
        def arr(a: np.ndarray | None) -> list[Any] | None:
            return None if a is None else np.asarray(a, float).round(3).tolist()

        return {
            "format": FORMAT_VERSION,
            "image_size": list(self.image_size),
            "corners": {str(k): arr(v) for k, v in self.corners.items()},
            "seats": {str(s.seat): {"crown": arr(s.crown), "base": arr(s.base)} for s in self.seats.values()},
            "brightness": round(self.brightness, 1),
            "px_per_cm": round(self.px_per_cm, 4),
            "play_area_homography": np.asarray(self.play_area_homography, float).tolist(),
            "warnings": self.warnings,
            **({} if self.camera is None else {"camera": dict(self.camera)}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        def arr(a: list[Any] | None) -> np.ndarray | None:
            return None if a is None else np.asarray(a, np.float32)

        def corner(k: str, a: list[Any] | None) -> np.ndarray:
            if a is None:
                raise ValueError(f"corner marker {k} has no position")
            return np.asarray(a, np.float32)

        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"calibration format {data.get('format')!r} is not {FORMAT_VERSION}")
        seats = {int(k): SeatMarkers(int(k), arr(v["crown"]), arr(v["base"])) for k, v in data["seats"].items()}
        calibration = cls(_image_size(data["image_size"]), {int(k): corner(k, v) for k, v in data["corners"].items()},
                          seats, float(data["brightness"]), float(data["px_per_cm"]),
                          np.asarray(data["play_area_homography"], np.float64), list(data.get("warnings", [])),
                          _camera_of(data.get("camera")))
        _check_markers(calibration)
        return calibration

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: Path) -> Calibration:
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_FILE_BYTES + 1)
            if len(raw) > MAX_FILE_BYTES:
                raise ValueError(f"larger than {MAX_FILE_BYTES // 1024} KiB")
            if json_depth(raw.decode("latin-1")) > MAX_JSON_DEPTH:  # in UTF-8, brackets and quotes are never part of another character
                raise CalibrationError([f"{path}: nested more than {MAX_JSON_DEPTH} deep, not a calibration file"])
            with np.errstate(over="ignore", invalid="ignore"):  # a number past float32 is named below, not warned of
                return cls.from_json(json.loads(raw))
        except (OSError, ValueError, KeyError, TypeError, IndexError, RecursionError, AttributeError) as exc:
            raise CalibrationError([f"{path}: not a calibration file ({str(exc)[:80]})"]) from None


def _image_size(value: object) -> tuple[int, int]:
    """A calibration file's ``image_size``: the width and height of the frames it was made from."""
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int and 1 <= v <= MAX_IMAGE_SIDE for v in value)):
        raise ValueError(f"image_size {value!r} is not a width and a height in pixels, 1 to {MAX_IMAGE_SIDE}")
    return value[0], value[1]


def _check_markers(calibration: Calibration) -> None:
    """Each marker of a calibration file is where a marker can be: four finite corners inside the image, around
    an area, and apart from every other marker (two on one place would put two seats in one). The play area's
    mapping and scale are finite numbers."""
    w, h = calibration.image_size
    named = [(f"corner marker {k}", q) for k, q in calibration.corners.items()]
    named += [(f"seat {s.seat}'s {kind} marker", q) for s in calibration.seats.values()
              for kind, q in (("crown", s.crown), ("base", s.base)) if q is not None]
    for name, quad in named:
        if quad.shape != (4, 2) or not np.isfinite(quad).all():
            raise ValueError(f"{name}: not four corners in pixels")
        if (quad < -1).any() or (quad[:, 0] > w + 1).any() or (quad[:, 1] > h + 1).any():
            raise ValueError(f"{name}: outside the {w}x{h} image")
        if abs(float(cv2.contourArea(quad.astype(np.float32)))) < 1.0:
            raise ValueError(f"{name}: its corners enclose no area")
    for i, (name, quad) in enumerate(named):
        for other, other_quad in named[:i]:
            if cv2.pointPolygonTest(other_quad.astype(np.float32), tuple(map(float, quad.mean(axis=0))), False) >= 0:
                raise ValueError(f"{name}: on the place of {other}")
    homography = calibration.play_area_homography
    if homography.shape != (3, 3) or not np.isfinite(homography).all():
        raise ValueError("play_area_homography is not a 3x3 matrix of numbers")
    if not (math.isfinite(calibration.px_per_cm) and calibration.px_per_cm > 0 and math.isfinite(calibration.brightness)):
        raise ValueError("px_per_cm and brightness are not numbers (px_per_cm above 0)")


def _camera_of(data: object) -> dict[str, float] | None:
    """A calibration file's ``camera`` (the exposure and gain it was made at), or None (made from a
    recording, or before files said it)."""
    if not isinstance(data, dict):
        return None
    values = {k: data.get(k) for k in ("exposure_ms", "gain")}
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values.values()):
        return None
    return {k: float(v) for k, v in values.items()}  # type: ignore[arg-type]


def _median_detections(frames: Sequence[np.ndarray], detector: MarkerDetector) -> dict[int, Detection]:
    """Markers seen in at least half of the frames, at their median corner positions."""
    seen: dict[int, list[np.ndarray]] = {}
    for frame in frames:
        dets = detector.detect(frame)
        if not _complete(dets):  # small, dim or defocused markers: enlarged, sharpened
            dets = {**detector.detect_hard(frame), **dets}
        for mid, det in dets.items():
            seen.setdefault(mid, []).append(det.corners)
    need = max(1, math.ceil(len(frames) / 2))
    return {mid: Detection(mid, np.median(np.stack(c), axis=0).astype(np.float32))
            for mid, c in seen.items() if len(c) >= need}


def _still_detections(frames: Sequence[np.ndarray], detector: MarkerDetector) -> dict[int, Detection]:
    """Markers found in the per-pixel median of three or more still frames, each registered to the
    first (camera shake), as is and contrast-stretched (CLAHE): sensor noise and compression blocks,
    different in every frame, drop out, and a dim or faintly printed card's cells come back. Their
    corners are in the first frame's coordinates. Nothing with fewer than three frames."""
    if len(frames) < 3:
        return {}
    h, w = frames[0].shape[:2]
    first = _smoothed(frames[0])
    window = cv2.createHanningWindow((w, h), cv2.CV_32F)
    still = [frames[0]]
    for frame in frames[1:]:
        if frame.shape[:2] != (h, w):
            return {}
        dx, dy = shake_between(first, frame, window)
        still.append(cv2.warpAffine(frame, np.array([[1, 0, -dx], [0, 1, -dy]], np.float32), (w, h),
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    median = np.median(np.stack(still), axis=0).astype(np.uint8)
    found = detector.detect_hard(median)
    stretched = cv2.createCLAHE(2.0, (8, 8)).apply(markers.to_gray(median))
    for mid, det in detector.detect_hard(stretched).items():
        found.setdefault(mid, det)
    return found


def shake_between(first: np.ndarray, frame: np.ndarray, window: np.ndarray) -> tuple[float, float]:
    """How far ``frame`` lies shifted against the still frame ``first`` (given ``_smoothed``), in px: a phase
    correlation of their smoothed grey levels, ``window`` the frames' Hanning window; (0, 0) when it finds more
    than ``MAX_SHAKE_PX`` either way, no shake."""
    (dx, dy), _ = cv2.phaseCorrelate(first.copy(), _smoothed(frame), window)
    if abs(dx) > MAX_SHAKE_PX or abs(dy) > MAX_SHAKE_PX:
        return 0.0, 0.0
    return float(dx), float(dy)


def _smoothed(frame: np.ndarray) -> np.ndarray:
    """The frame's grey levels smoothed over a few pixels, to register frames by: a dim room's sensor
    noise and a low JPEG quality's 8-pixel blocks, different in every frame, otherwise outweigh the
    table's and the cards' own pattern in the phase correlation, and the shift found is theirs."""
    return cv2.GaussianBlur(markers.to_gray(frame).astype(np.float32), (0, 0), REGISTER_SIGMA_PX)


def _kind_of(marker_id: int) -> tuple[MarkerKind, int]:
    """(kind, index) of a marker the detector found (it keeps only the table's markers)."""
    kind = markers.kind_of(marker_id)
    if kind is None:
        raise CalibrationError([f"marker id {marker_id} is not one of the table's markers"])
    return kind


def _complete(found: dict[int, Detection]) -> bool:
    """All four corners, and a base for every crown and a crown for every base."""
    seats = {_kind_of(m)[1] for m in found if _kind_of(m)[0] is not MarkerKind.CORNER}
    return all(c in found for c in markers.CORNER_IDS) and all(
        markers.crown_id(s) in found and markers.base_id(s) in found for s in seats)


def _describe(marker_id: int) -> str:
    kind, index = _kind_of(marker_id)
    if kind is MarkerKind.CORNER:
        return f"corner marker id {marker_id}"
    return f"seat {index}: {kind.value} marker id {marker_id}"


def _clockwise_problem(centres: dict[int, np.ndarray], homography: np.ndarray) -> str | None:
    """Seats must go clockwise seen from above, starting at seat 0 (table-conventions.md).

    Going round the seats found in the order of their numbers, each step turns clockwise about the
    play area's centre by some angle in [0, 2 pi): in order they go round once, and out of order
    twice or more. A step may be wider than half a turn when the seats between are unread (a far
    side of the table in a dim room), so the single steps alone do not tell."""
    if len(centres) < 3:
        return None
    order = sorted(centres)
    pts = cv2.perspectiveTransform(np.array([[centres[s] for s in order]], np.float32), homography)[0]
    ang = np.arctan2(pts[:, 1] - 0.5, pts[:, 0] - 0.5)
    # clockwise in the (x right, y up) play-area frame means the angle decreases
    steps = (ang - np.roll(ang, -1)) % (2 * math.pi)
    if round(float(steps.sum()) / (2 * math.pi)) == 1:
        return None
    worst = int(np.argmax(steps))
    sa, sb = order[worst], order[(worst + 1) % len(order)]
    return (f"seats out of order: seat {sb}'s standee is not clockwise after seat {sa}'s "
            f"(check crown markers {markers.crown_id(sa)} and {markers.crown_id(sb)})")


BASE_AHEAD_CM = 4.0  # a standee's base marker lies this far in front of it


def base_reach_px(crown_side: float, base_side: float, size: tuple[int, int]) -> float:
    """How far (image px) a standee's base marker may lie from its crown marker, their sides ``crown_side`` and
    ``base_side`` px, in an image of ``size``. The crown stands on the standee, a height above the table whose
    image is pushed away from the camera's nadir by k - 1 times its foot's distance from the nadir in the image,
    k = how much larger the crown looks than a marker of its size on the table there (the ratio of their depths
    from the camera, both cards level): its side against the base's. The nadir lies within the image's diagonal
    of any point the camera shows. With the base 4 cm in front and two of its sides of slack; and never less than
    four crown sides (a standee seen straight down). Further, the base was set before another standee, or another
    marker was decoded as it."""
    k = max(1.0, crown_side / (base_side * markers.CROWN_SIZE_CM / markers.BASE_SIZE_CM))
    lifted = (k - 1.0) * math.hypot(*size) + base_side * (BASE_AHEAD_CM / markers.BASE_SIZE_CM + 2.0)
    return max(4.0 * crown_side, lifted)


def calibrate(frames: Sequence[np.ndarray], seats: int | None = None, *,
              setup: bool = True, detector: MarkerDetector | None = None,
              camera: CameraSettings | None = None) -> Calibration:
    """Calibrates from still frames of the table. ``seats`` defaults to the crown markers found;
    ``camera``: the settings the frames were taken with, from which the advice on the light says
    what exposure and gain to try.

    ``setup`` (the calibrate command) demands every marker. During a game (``setup=False``) a
    standee may already lie down, so a missing crown is no fault when its base is seen, and a
    missing base marker is only a warning: the judge then has no base to confirm a fall."""
    if not frames:
        raise CalibrationError(["no frame to calibrate from"])
    detector = detector or MarkerDetector()
    h, w = frames[0].shape[:2]
    found = _median_detections(frames, detector)
    if not setup and not _complete(found):
        # during a game, in a dim room, with faint print or a defocused lens: the markers the still
        # frames show together (their noise averaged out, their contrast stretched) count too
        for mid, det in _still_detections(frames, detector).items():
            found.setdefault(mid, det)
    problems: list[str] = []
    warnings: list[str] = []
    advice = problems if setup else warnings  # set-up faults; during a game, what is decoded is used

    gray = markers.to_gray(frames[-1])
    brightness = float(np.median(gray))
    light = light_advice(brightness, camera)
    if light:
        advice.append(light)

    if seats is None:
        crowns = [_kind_of(m)[1] for m in found if _kind_of(m)[0] is MarkerKind.CROWN]
        bases = [_kind_of(m)[1] for m in found if _kind_of(m)[0] is MarkerKind.BASE]
        seats = max(crowns + bases, default=-1) + 1
    if not MIN_SEATS <= seats <= markers.MAX_SEATS:
        problems.append(f"{seats} seats found (crown and base markers ids 10+seat, 20+seat): a table has "
                        f"{MIN_SEATS} to {markers.MAX_SEATS} (the 1st and 2nd editions 4 to 6 and 4 to 8, Yakuzas 6 to 9)")

    for cid in markers.CORNER_IDS:
        if cid not in found:
            advice.append(f"corner marker id {cid} not found: it lies flat at a corner of the play area, "
                            "clockwise from seat 0's left")
    seat_markers: dict[int, SeatMarkers] = {}
    for seat in range(max(0, min(seats, markers.MAX_SEATS))):
        crown, base = found.get(markers.crown_id(seat)), found.get(markers.base_id(seat))
        if base is None:
            (problems if setup else warnings).append(f"seat {seat}: base marker id {markers.base_id(seat)} not found")
        if crown is None and (setup or base is None):
            advice.append(f"seat {seat}: crown marker id {markers.crown_id(seat)} not found "
                          "(is the standee up, with its crown card facing the camera?)")
        if crown is not None and base is not None:
            if np.linalg.norm(crown.center - base.center) > base_reach_px(crown.side_px, base.side_px, (w, h)):
                problems.append(f"seat {seat}: base marker id {base.marker_id} is far from crown marker id "
                                f"{crown.marker_id}: put it just in front of its own standee")
        seat_markers[seat] = SeatMarkers(seat, None if crown is None else crown.corners,
                                         None if base is None else base.corners)
    for mid in list(found):
        kind, index = _kind_of(mid)
        if kind is not MarkerKind.CORNER and index >= seats:
            # setting up, a card of a seat the table does not have is a fault to fix; during a game
            # (the seats known) it is a stray card or a misread in a dim, noisy or blurred frame,
            # and no seat's marker: left out
            (problems if setup else warnings).append(f"{_describe(mid)} seen but the table has {seats} seats"
                                                     + ("" if setup else ": left out"))
            if not setup:
                del found[mid]

    for mid, det in found.items():
        if det.side_px < MIN_SIDE_PX:
            advice.append(f"{_describe(mid)} is {det.side_px:.0f} px wide, needs at least {MIN_SIDE_PX:.0f} px: "
                            "bring the camera closer or raise its resolution")

    homography: np.ndarray = np.eye(3)
    px_per_cm = 0.0
    if all(cid in found for cid in markers.CORNER_IDS):
        centres = np.array([found[c].center for c in markers.CORNER_IDS], np.float32)
        square = np.array([[0, 0], [0, 1], [1, 1], [1, 0]], np.float32)  # corners 0-3 clockwise from seat 0's left
        homography = cv2.getPerspectiveTransform(centres, square)
        px_per_cm = float(np.mean([found[c].side_px for c in markers.CORNER_IDS])) / markers.CORNER_SIZE_CM
        for cid in markers.CORNER_IDS:
            contrast = _marker_contrast(gray, found[cid].corners)
            if contrast < MIN_MARKER_CONTRAST:
                advice.append(f"corner marker id {cid}: contrast {contrast:.0f} grey levels, needs "
                                f"{MIN_MARKER_CONTRAST}: the light is too dim or glaring there")
        standing = {s: np.mean(m.crown, axis=0) for s, m in seat_markers.items() if m.crown is not None}
        order = _clockwise_problem(standing, homography)
        if order:
            problems.append(order)
    corner_sides = [found[c].side_px for c in markers.CORNER_IDS if c in found]
    if px_per_cm == 0.0 and corner_sides:
        # during a game without every corner marker: those found give the table plane's scale (the
        # crown cards stand a standee's height nearer the camera and look larger)
        px_per_cm = float(np.mean(corner_sides)) / markers.CORNER_SIZE_CM
    if px_per_cm == 0.0:  # no corner marker at all: the crowns give the scale
        sides = [found[markers.crown_id(s)].side_px for s in seat_markers if markers.crown_id(s) in found]
        if not sides:
            problems.append("no corner marker and no crown marker found: nothing gives the table's scale")
        else:
            px_per_cm = float(np.median(sides)) / markers.CROWN_SIZE_CM
    if problems:
        log.debug("calibration refused: %s", problems)
        raise CalibrationError(problems)
    for mid, det in sorted(found.items()):
        if det.side_px < 1.3 * MIN_SIDE_PX:
            warnings.append(f"{_describe(mid)} is only {det.side_px:.0f} px wide (it works from {MIN_SIDE_PX:.0f} px,"
                            f" {1.3 * MIN_SIDE_PX:.0f} px or more leaves a margin: bring the camera closer or raise"
                            " its resolution)")
    log.info("calibrated %d seats at %.1f px/cm, brightness %.0f", len(seat_markers), px_per_cm, brightness)
    return Calibration((w, h), {c: found[c].corners for c in markers.CORNER_IDS if c in found}, seat_markers,
                       brightness, px_per_cm, homography, warnings,
                       None if camera is None else {"exposure_ms": camera.exposure_ms, "gain": camera.gain})


def light_advice(brightness: float, camera: CameraSettings | None = None) -> str | None:
    """What to change when the image's median grey level ``brightness`` is too dark or too bright,
    or None. With ``camera`` (the settings the frames were taken with) it names the exposure, and
    the gain, to try: the measured level scaled to :data:`AIM_BRIGHTNESS` as if the image's grey
    levels grew in proportion to the light (a camera's gamma makes them grow more slowly, so a try
    falls short rather than past: calibrating again gives the next)."""
    if MIN_BRIGHTNESS <= brightness <= MAX_BRIGHTNESS:
        return None
    factor = AIM_BRIGHTNESS / max(brightness, 1.0)
    if brightness < MIN_BRIGHTNESS:
        said = (f"too dark: the image's median brightness is {brightness:.0f}/255, needs at least "
                f"{MIN_BRIGHTNESS}: add light or raise the camera's exposure")
        if camera is None:
            return f"{said} ({EXPOSURE_WHERE}) or its gain ({GAIN_WHERE})"
        longest = camera.max_exposure_ms
        exposure = min(longest, math.ceil(camera.exposure_ms * factor * 10) / 10)
        if exposure > camera.exposure_ms:
            said += f" from {camera.exposure_ms:g} ms to {exposure:g} ms ({EXPOSURE_WHERE})"
        else:
            said += f" (at {camera.exposure_ms:g} ms it is one frame's time already, the longest; {EXPOSURE_WHERE})"
        more = camera.exposure_ms * factor / exposure  # what the exposure cannot give
        if more > 1.05:
            start = max(camera.gain, 1.0)
            said += (f" and its gain from {camera.gain:g} to about {start * more:.1f} on a Pi camera ({GAIN_WHERE};"
                     " a webcam's gain has its own range, which v4l2-ctl --list-ctrls shows)")
        return said
    said = (f"too bright: the image's median brightness is {brightness:.0f}/255, at most "
            f"{MAX_BRIGHTNESS}: lower the camera's exposure")
    if camera is None:
        return f"{said} ({EXPOSURE_WHERE}) or its gain ({GAIN_WHERE})"
    exposure = max(MIN_EXPOSURE_MS, math.floor(camera.exposure_ms * factor * 10) / 10)
    said += f" from {camera.exposure_ms:g} ms to {exposure:g} ms ({EXPOSURE_WHERE})"
    if camera.gain > 1.0:
        said += f", or lower its gain from {camera.gain:g} ({GAIN_WHERE})"
    return said


def _marker_contrast(gray: np.ndarray, corners: np.ndarray) -> float:
    """Difference between the bright and dark grey levels inside a marker's quad."""
    mask = np.zeros(gray.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
    values = gray[mask > 0]
    if values.size < 10:
        return 0.0
    lo, hi = np.percentile(values, [10, 90])
    return float(hi - lo)
