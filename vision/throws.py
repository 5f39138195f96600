"""The Shuriken throw judge: frames in, per-seat verdict with evidence and confidence out.

States: ARMED (reference frames taken, waiting) -> MOTION (something moves: a hand, the star, a
standee) -> settled -> JUDGED. Motion is found cheaply at reduced resolution; only the seats where
something moves get a close look (ArUco detection in a small crop around the crown). Motion that
settles without a shuriken ever seen and with no standee changed (a hand reaching in) re-arms the
judge instead of judging. No throw before the timeout is a miss the camera is unsure of
(armed for a throw, it saw no star).

Each examined frame measures the crown's displacement on the table plane twice: by its decoded
marker, and by correlating its card's look at rest (``vision.patches``: sub-pixel, and through a
partial cover such as the star or a finger); the finer one counts, against the base card found the
same way, else the registered frame (corrected by the base cards found as sharply as at rest when they
put it off, or, in a frame no two fixed markers registered, by the crowns when most of them agree). A
displacement counts when seen in two frames, or surely in one (both readings agreeing, or the card
found as sharply as at rest: a swing the star then covers; against the registered frame only when the
fixed markers, the base cards or the crowns vouch for it). A crown is looked at for a swing's time
once the star passed near it: near a sighting, or near its way between two sightings (it flies up to
15 cm a frame) or from the thrower's hand to its first sighting; and by its card's look whenever its
place differs from the armed reference with nothing moving there from frame to frame (a dim, faint
standee tipping over, hit by a star not yet seen).

Per seat, at the end (one reading after the other, each seat's evidence naming the one that
decided): the crown marker decoded near its place; else its card's look found at its place (as
sharp as at rest: up); else the crown marker decoded anywhere a standee's length around. A decoded
crown is up when near its place and not turned, else ``knocked``. None found: ``knocked`` when a
standee's worth of table changed along its fall line (the seat's line through its crown's place and
through its base marker, and the way the crown was last seen going; cm² of table at the seat's own
scale, from its base marker; in the latest frame, or in the median of the settled frames, where noise
averaged out lets a change of little contrast show whole, and a fall seen only there asks) and the crown is gone from its place (its
card's place changed, or it was seen moving away and never back; a star seen lying elsewhere
does not count as resting on it), else up and covered (the star at rest on it) or only not decoded;
a crown lost under a hand and never seen moving asks. Up is
``touched`` when the crown was seen to move a touch's worth (or stands pushed off its place): a
star landing on a standee that does not move it touched nothing. Nothing asks the Godfather when a
touch could have gone unseen: the crown moved more than a still crown jitters near the star (judged
``touched``, still asking, when those readings show a light touch's swing: along one line, there and back,
after the star came, at least twice anything the seat's readings show off that line), or
beside the standee the star was last seen at (or a touch's worth in one frame), or was out of sight while a touch would not show (not found while watched
after the star passed), or a hand covers the seat at the end. An up crown whose marker is not decoded
at the end, the star near it (lying on it), is followed back through the frames since the star came by
the part of its card and margin left in view, as it looks at the end: swung a touch's worth along one
line and back past its place, the standee rocked: ``touched``, asking (a star dropped onto a crown that
did not move leaves that part still).

A seat whose crown and base cards were both unread when armed always asks. Its place is not read,
but the seats go clockwise round the table: when the seats beside it were read, it lies in the
angular gap between them about the table's centre, which only its standee occupies. There a standee's
worth of table changed at the end in one piece (cm² on the table plane, apart from where the seats
beside it could lie fallen and from any hand) is its fall: ``knocked``; else, with less than that
changed there, the star's way turning in flight there (it met something standing) is a touch:
``touched`` (not when a fallen standee's worth changed within a standee's length of the standee it met
there, nor where its way in started at the thrower's hand); else nothing. Two or more unread seats side
by side share the gap between the seats read around them: each is expected at an equal share of it,
give or take twice the spread of the read seats' spacing, and a fall or a turn there is one seat's only
when it lies within that tolerance of its place and of no other's; else every one of them stays at nothing.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import markers, patches
from vision.calibration import Calibration, calibrate
from vision.errors import ClipError, VisionError
from vision.markers import Detection, MarkerDetector
from vision.motion import SETTLED_FRAMES, STAR_AREA_CM2, Blob, BlobKind, MotionDetector
from vision.patches import Look
from vision.sources import open_clip

log = logging.getLogger(__name__)


FALL_REACH_CM = 15.0  # a fallen standee lies within this of its crown's place, along the seat's line
FALL_WIDTH_CM = 9.0  # across it (a standee is 5-7 cm wide)
MAX_STANDEE_AREA_CM2 = 140.0  # a 7x13 cm standee lying flat with its crown card and shadow, at most
# a fall changes at most the largest standee (7.5 x 15 cm) lying flat with its crown card, its shadow
# beside it (up to half as much again) and the star
FALL_CHANGE_MAX_CM2 = 1.5 * (7.5 * 15 + 5 * 5) + STAR_AREA_CM2
MIN_STAR_SPEED_CM_S = 150.0  # a thrown foam star; hands reaching in move slower
MAX_STAR_SPEED_CM_S = 2000.0
WATCH_AFTER_STAR_S = 0.3  # a touched standee's swing dies down within this (a few swings of 3-5 per second)
STAR_NEAR_CM = 15.0  # the shuriken's blob centre this close to a crown: it may have touched it unseen
STAR_LOST_S = 0.5  # the star out of sight this long after it was last seen may still fly (under a hand, say)
STAR_RADIUS_CM = 3.0  # a 6 cm foam star
STANDEE_WIDTH_CM = 7.5  # the widest standee
# a light swing, less than a touch's worth, is a touch only where the star came within its own radius
# and the widest standee's width of the crown: farther, it could not have met that standee
LIGHT_TOUCH_REACH_CM = STAR_RADIUS_CM + STANDEE_WIDTH_CM
TURN_DEG = 60.0  # the star's way turning this much in flight: it met something
TURN_WINDOW_S = 0.07  # the star's way into and out of a sighting, over at most this long each
COVERED_HALF = 0.85  # half the side (in crown marker sides) of the patch followed when the star covers the crown
BASE_SEARCH_PX = 4  # a base card lies on the table: followed this far each way around its place
JUMP_CM = 1.0  # a crown seen by a weak likeness alone this far from where it was last seen: not yet believed


# a crown card found by its look: shift in cm, measured against the registered frame (no base card),
# found as sharply as at rest, and the shift in image px
CardMove = tuple[float, bool, bool, np.ndarray]


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
    max_throw_s: float = 6.0  # motion this long without settling: judged anyway, with low confidence
    arm_wait_s: float = 2.5  # a still hand or arm in view: waited for this long before judging without it
    moved_cm: float = 0.3  # crown displacement that counts as a touch: twice the largest jitter of still crowns
    fallen_cm: float = 3.0  # crown this far from its place at the end: the standee is not up any more
    turned_deg: float = 25.0
    shrunk_ratio: float = 0.6  # crown area at the end below this share of the armed one: turned away
    ask_godfather_below: float = 0.6
    final_frames: int = 3  # settled frames looked at for the final state
    fallen_area_cm2: float = 35.0  # changed table area along a standee's fall line that a fallen standee leaves
    covered_share: float = 0.25  # share of the crown card that must differ for the crown to be hidden, not unread


@dataclass
class SeatEvidence:
    """What the camera saw at one seat, for the verdict and for fusion with the tilt sensors."""

    seat: int
    outcome: Outcome = Outcome.NOTHING
    confidence: float = 1.0
    standing_when_armed: bool = True
    crown_seen_at_end: bool | None = None  # None: the seat was not looked at (nothing moved there)
    base_seen_at_end: bool | None = None  # None: not looked at, or no base marker known
    max_shift_cm: float = 0.0  # largest crown displacement seen in two or more frames (the finer measure each
    # frame), or in one frame surely: by both the decoded marker and the card's look, or the card's look as sharp as at rest
    max_marker_shift_cm: float = 0.0  # the same, of the decoded crown marker's centre
    max_card_shift_cm: float = 0.0  # the same, of the crown card found by correlation with its look at rest
    last_seen_shift_cm: float | None = None  # the crown's displacement the last time it was seen
    final_card_shift_cm: float | None = None  # the crown card's displacement at the end, by its look
    final_shift_cm: float | None = None
    final_turn_deg: float | None = None
    shuriken_contact: bool = False  # the shuriken's blob met the standee in the image
    star_nearest_cm: float | None = None  # closest the shuriken's blob came to the crown, cm on the table
    frames_examined: int = 0
    frames_crown_hidden: int = 0
    first_change_s: float | None = None  # seconds after arming when the crown first moved or was lost
    shift_measured_against: str | None = None  # "base marker" or "registered frame" (table coordinates)
    crown_card_changed: float | None = None  # share of the crown card's place that differs at the end
    changed_area_cm2: float | None = None  # changed table area along the standee's fall line at the end
    arm_over_seat: bool = False  # a hand or arm covered the seat at the end
    covered_swing_cm: float | None = None  # the crown covered at the end: how far the part of its card in view swung
    reason: str = "nothing moved there"

    def as_json(self) -> dict[str, Any]:
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
        """The seat lists: ``{"knocked": [...], "touched": [...]}``."""
        return {"knocked": sorted(self.knocked), "touched": sorted(self.touched)}

    def details(self) -> dict[str, Any]:
        return {**self.as_json(), "confidence": round(self.confidence, 3), "needs_godfather": self.needs_godfather,
                "reason": self.reason, "shuriken_seen": self.shuriken_seen, "frames": self.frames,
                "seats": {str(s): e.as_json() for s, e in self.seats.items()}}


@dataclass(frozen=True)
class _Gap:
    """The table between two read seats about the table's centre, which only the standees of the
    unread seats between them (``run``) can occupy."""

    region: np.ndarray  # low-resolution mask
    ppc: float  # image px per table cm there
    run: tuple[int, ...]  # the unread seats in it, in the order of their numbers
    before: int  # the read seats around it
    after: int
    centre: np.ndarray  # the table's centre in the image
    start: float  # angle (radians) of ``before`` about the centre
    way: int  # +1 when the seats' numbers go the way the image angle grows, else -1
    radius: float  # mean distance of ``before`` and ``after`` from the centre, image px
    places: tuple[tuple[float, float], ...]  # per seat of a run of two or more: expected angle into the gap, tolerance
    scale: int  # image px per low-resolution px

    def into_of_point(self, point: np.ndarray) -> float:
        """Angle (radians) from ``before`` to an image point, the way the seats go."""
        return float((self.way * (math.atan2(point[1] - self.centre[1], point[0] - self.centre[0]) - self.start))
                     % (2 * math.pi))

    def into_of(self, mask: np.ndarray) -> np.ndarray:
        """The same angle for each pixel of a low-resolution mask."""
        ys, xs = np.nonzero(mask)
        px, py = (xs + 0.5) * self.scale - self.centre[0], (ys + 0.5) * self.scale - self.centre[1]
        return np.asarray((self.way * (np.arctan2(py, px) - self.start)) % (2 * math.pi))

    def owners(self, low: float, high: float, extent: float) -> list[int]:
        """The seats of the run whose expected place lies within its tolerance and ``extent`` (radians)
        of the angles from ``low`` to ``high``."""
        return [seat for seat, (at, tolerance) in zip(self.run, self.places)
                if low - tolerance - extent <= at <= high + tolerance + extent]


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
    to_cm: np.ndarray = field(default_factory=lambda: np.zeros((2, 2)))  # image px -> cm on the crown's plane
    table_ppc: float = 0.0  # image px per cm on the table plane at this seat (tilt makes far seats smaller)
    card_mask: np.ndarray | None = None  # low-resolution mask of the crown card's place
    fall_mask: np.ndarray | None = None  # low-resolution mask of the strip a fallen standee lies in
    lie_mask: np.ndarray | None = None  # that strip and the one along the seat's line through its base marker
    shifts: list[float] = field(default_factory=list)
    crown_look: Look | None = None  # the crown card's look at rest, tracked by correlation
    base_look: Look | None = None
    card_shifts: list[float] = field(default_factory=list)  # crown card displacements by correlation, cm
    best_shifts: list[float] = field(default_factory=list)  # per frame: by the card's look if found, else the marker
    confirmed: float = 0.0  # largest shift seen surely in one frame (marker and card agree, or the card sharp), cm
    unvouched: float = 0.0  # the same, in a frame whose registration nothing vouched for (``_offset``): a doubt only
    examined: int = 0
    hidden: int = 0
    contact: bool = False
    registered: int = 0  # crown shifts measured against the registered frame (no base marker seen)
    unseen: int = 0  # frames neither the crown marker nor its card's look was found
    under_arm: int = 0  # of those, frames a hand or arm from the border covered its card
    hidden_free: int = 0  # frames the crown was not found with no hand or arm over its card
    hidden_in_flight: int = 0  # frames the crown was not found once the shuriken was seen in flight
    star_nearest_px: float | None = None  # closest a shuriken blob's centre came to the crown, image px
    lost_under_arm: bool | None = None  # when the crown was first lost: under a hand or arm come in from the border?
    first_change: int | None = None  # frame (since arming) when the crown first moved or was lost
    star_far_now: bool = False  # this frame shows the star, and far from this crown
    watch_until: int = -1  # frame until which the crown is looked at whatever moves (the star passed near)
    first_move: int | None = None  # frame when the crown was first seen moved a touch's worth from its place
    arm_first: int | None = None  # frame when a hand or arm from the border first covered its card
    last_seen_shift: float | None = None  # the crown's displacement (cm) the last time it was seen
    last_seen_px: np.ndarray | None = None  # the same displacement in image px (the way it went)
    pending_seen: float | None = None  # a weak reading (the card's look alone, not sharp) waiting for a second
    last_seen_sure: bool = False  # the last reading was the decoded marker or the card as sharp as at rest
    star_lost_under_arm: int = 0  # frames its card lay under the hand or arm the star was lost under
    last_seen_frame: int = -1  # frame when the crown was last seen (decoded or its card's look found)
    passed_unseen_cm: float | None = None  # closest the star's path came to it while the star and it were unseen
    passed_unseen_at: int = -1  # frame the star came back into sight after that stretch
    readings: list[tuple[int, float, float]] = field(default_factory=list)  # per frame seen: (frame, x, y) displacement, cm
    star_came: int | None = None  # frame the star first came within ``STAR_NEAR_CM`` of the crown
    armed_patch: np.ndarray | None = None  # grey patch of the crown card and its margin at rest when armed
    armed_noise: float = 0.0  # grey noise there (from the reference frames)
    # what is kept of a frame: the crown's and the base card's centres (image px) and half the sides of
    # the squares around them
    kept_boxes: tuple[np.ndarray, int, np.ndarray | None, int] | None = None
    # since something star-sized first moved, frames no hand or arm covered its card in: (frame, the image
    # around the crown's patch, around the base card, the frame's shift)
    kept: deque[tuple[int, np.ndarray, np.ndarray | None, tuple[float, float]]] = field(default_factory=deque)

    def reset(self) -> None:
        self.shifts.clear()
        self.card_shifts.clear()
        self.best_shifts.clear()
        self.confirmed = self.unvouched = 0.0
        self.examined = self.hidden = self.registered = self.unseen = self.under_arm = 0
        self.lost_under_arm = None
        self.hidden_free = self.hidden_in_flight = 0
        self.star_nearest_px = None
        self.contact = False
        self.first_change = self.first_move = self.arm_first = None
        self.last_seen_shift = self.pending_seen = None
        self.last_seen_px = None
        self.last_seen_sure = False
        self.star_lost_under_arm = 0
        self.last_seen_frame = -1
        self.passed_unseen_cm = None
        self.passed_unseen_at = -1
        self.watch_until = -1
        self.readings.clear()
        self.star_came = None
        self.kept.clear()


def _armed_crown(t: _SeatTrack) -> Detection:
    """The crown of a seat that was standing when armed (only those are examined)."""
    if t.crown is None:
        raise VisionError(f"seat {t.seat}: no crown marker was seen when the judge was armed")
    return t.crown


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
        self._recent: deque[tuple[np.ndarray, tuple[float, float]]] = deque(maxlen=config.final_frames)
        self._shape: tuple[int, ...] = ()
        self._frames = 0
        self._armed_at = 0
        self._motion_since = 0
        self._still = 0
        self._shuriken_seen = False
        self._star_free = False
        self._candidate_seen = False
        self._hidden_under_hand: set[int] = set()
        self._last_candidates: list[np.ndarray] = []
        self._legs: list[tuple[np.ndarray, np.ndarray]] = []  # the star's way since the last frame (image px)
        self._offset_frame = -1  # the frame whose shift for reading crowns is worked out (``_offset``)
        self._frame_offset = (0.0, 0.0)
        self._frame_sure = True  # the fixed markers, the base cards or the crowns vouch for that shift
        # this frame's card displacements found so far: the base cards are read for the frame's shift,
        # then again to measure a crown against (``_displacement``)
        self._displaced: dict[tuple[int, int, int, int, float], tuple[np.ndarray, patches.Displacement]] = {}
        self._star_track: list[tuple[int, list[np.ndarray]]] = []  # each frame's star-sized blob centres, when any
        self._rest_end: np.ndarray | None = None  # median of the settled frames, for the final state
        self.verdict: Verdict | None = None

    # ------------------------------------------------------------------ arming
    def arm(self, frames: Iterable[np.ndarray]) -> None:
        """Takes the reference: the table at rest just before the throw (a few frames)."""
        frames = list(frames)
        if not frames:
            raise ValueError("arming needs at least one reference frame")
        self._shape = frames[0].shape
        for i, f in enumerate(frames):
            if f.shape != self._shape:
                raise ClipError(f"frame {i}: {f.shape[1]}x{f.shape[0]}, but frame 0 is "
                                f"{self._shape[1]}x{self._shape[0]}: frames of mixed sizes")
        fixed = [np.mean(c, axis=0) for c in self.calibration.corners.values()]
        fixed += [np.mean(m.base, axis=0) for m in self.calibration.seats.values() if m.base is not None]
        self.motion.set_reference(frames, anchors=fixed)
        shifts = self.motion.reference_shifts
        self._recent.clear()
        self._recent.extend(zip(frames[-self.config.final_frames:], shifts[-self.config.final_frames:]))
        size = (frames[0].shape[1], frames[0].shape[0])
        scale = self.config.motion_scale
        rest = _median_at_rest(frames, shifts)
        base_per_crown = self._base_per_crown()
        self._rest_found: dict[int, Detection] | None = None
        self._rest_end = None
        self.tracks = {}
        for seat in range(self.seats):
            marks = self.calibration.seats[seat]
            crown = base = None
            if marks.crown is not None:
                crown = self._find(frames, shifts, markers.crown_id(seat), np.mean(marks.crown, axis=0),
                                   2.0 * _side(marks.crown), upscale=1, rest=rest)
            if marks.base is not None:
                base = self._find(frames, shifts, markers.base_id(seat), np.mean(marks.base, axis=0),
                                  2.0 * _side(marks.base), upscale=2, rest=rest)
            if crown is None or (base is None and marks.base is None):
                # unread by the calibration in single frames (glare, a dim room, blur): looked for
                # in the resting image, where noise and compression blocks averaged out
                found = self._rest_markers(rest)
                crown = crown or found.get(markers.crown_id(seat))
                base = base or found.get(markers.base_id(seat))
            if crown is None:
                self.tracks[seat] = _SeatTrack(seat, None, base, 0.0, (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0),
                                               table_ppc=_table_scale(base, None, base_per_crown))
                continue
            side = crown.side_px
            centre = crown.center
            crop = _box_around(centre, 1.7 * side, size)
            watch_full = _box_around(centre, 1.4 * side, size)
            wx0, wy0, wx1, wy1 = watch_full
            watch = (wx0 // scale, wy0 // scale, wx1 // scale, wy1 // scale)
            body = _box_around(centre, 0.75 * side, size)
            track = _SeatTrack(seat, crown, base, markers.CROWN_SIZE_CM / side, crop, watch, body)
            track.to_cm = _pixels_to_cm(crown)
            track.table_ppc = _table_scale(base, crown, base_per_crown)
            track.card_mask, track.fall_mask = self._masks(crown, track.table_ppc, size)
            track.lie_mask = track.fall_mask if base is None else track.fall_mask | self._strip(base.center, track.table_ppc, size)
            still = rest if rest is not None else frames[0]
            track.crown_look = Look.of(still, crown.center, 0.6 * side, search=max(6, int(0.8 * side)))
            if base is not None:
                track.base_look = Look.of(still, base.center, 0.6 * base.side_px, search=8)
            track.armed_patch, track.armed_noise = _armed_patch(still, frames, crown)
            half, search = _covered_half(crown)
            track.kept_boxes = (crown.center.astype(np.float64), half + search,
                                None if base is None else base.center.astype(np.float64),
                                0 if base is None else _base_half(base) + BASE_SEARCH_PX)
            self.tracks[seat] = track
        self._frames = 0
        self._offset_frame = -1
        self._armed_at = 0
        self._still = 0
        self._shuriken_seen = False
        self._star_free = False  # the star seen at least once with no hand or arm in view
        self._candidate_seen = False  # a star-sized blob seen since the last (re-)arming
        self._hidden_under_hand = set()  # crowns under a hand while something star-sized moved
        self._last_candidates = []
        self._star_track = []
        self.verdict = None
        self.state = State.ARMED
        log.debug("armed: %s standing", [s for s, t in self.tracks.items() if t.crown is not None])

    def _rest_markers(self, rest: np.ndarray | None) -> dict[int, Detection]:
        """Every marker found in the resting image (worked out once per arming), contrast
        stretched too (a washed-out or dim card's cells come back), and with a faint outline."""
        if rest is None:
            return {}
        if self._rest_found is None:
            found = self.detector.detect_hard(rest)
            gray = markers.to_gray(rest)
            for mid, det in self.detector.detect_hard(cv2.createCLAHE(2.0, (8, 8)).apply(gray)).items():
                found.setdefault(mid, det)
            # a faint card in a dim room, blurred (a few grey levels between its cells): with the noise
            # averaged out, its outline is taken at a small margin over its surroundings; a card so
            # read must be the size of its kind's cards read as usual and lie apart from them. First a
            # light unsharp mask; then, for a card blurred by more than a pixel too (defocus, a shaking
            # camera's exposure) whose cells run into each other past what that separates, a strong one
            # (three times the difference from the blurred image: with the noise averaged out it does
            # not raise the noise into false cells), enlarged twice and three times (a small card far away)
            for upscale, sharpen in ((2, 1.0), (2, 3.0), (3, 3.0)):
                for mid, det in self.detector.detect(gray, upscale=upscale, sharpen=sharpen, faint=True).items():
                    if mid not in found and _fits_among(det, found):
                        found[mid] = det
            self._rest_found = found
        return self._rest_found

    def _base_per_crown(self) -> float:
        """How much smaller a centimetre on the table looks than one on a crown card (the crown
        stands nearer the camera): the median over the seats whose both markers the calibration
        found, else 1."""
        ratios = [math.sqrt(abs(cv2.contourArea(m.base.astype(np.float32)))) / markers.BASE_SIZE_CM
                  / (math.sqrt(abs(cv2.contourArea(m.crown.astype(np.float32)))) / markers.CROWN_SIZE_CM)
                  for m in self.calibration.seats.values() if m.base is not None and m.crown is not None]
        ratios = [r for r in ratios if 0.3 < r <= 1.0]
        return float(np.median(ratios)) if ratios else 1.0

    def _masks(self, crown: Detection, ppc: float, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """Low-resolution masks of the crown card's place and of the strip along the seat's fall
        line (towards and away from the table's centre) where a fallen standee lies, ``ppc`` image px
        per table cm there."""
        scale = self.config.motion_scale
        low = (size[1] // scale, size[0] // scale)
        card = np.zeros(low, np.uint8)
        cv2.fillConvexPoly(card, np.round(crown.corners / scale).astype(np.int32), 1)
        return card.astype(bool), self._strip(crown.center, ppc, size)

    def _strip(self, centre: np.ndarray, ppc: float, size: tuple[int, int]) -> np.ndarray:
        """Low-resolution mask of the strip through ``centre`` along the seat's line (towards and away
        from the table's centre), a fallen standee's reach either way and its width across. A standee
        stands behind its base marker and its crown is seen displaced from its foot (the farther from under the
        camera, the more): a standee lying on the table lies along the strip through the base marker
        as much as along the one through its crown's place."""
        scale = self.config.motion_scale
        low = (size[1] // scale, size[0] // scale)
        along = self.calibration.table_centre() - centre
        along = along / max(float(np.linalg.norm(along)), 1e-6)
        half_len = FALL_REACH_CM * ppc
        return self._band(low, centre, along, back=half_len, ahead=half_len, half_wide=FALL_WIDTH_CM / 2 * ppc)

    def _band(self, low: tuple[int, int], centre: np.ndarray, along: np.ndarray, *, back: float, ahead: float,
              half_wide: float) -> np.ndarray:
        """Low-resolution mask (of shape ``low``) of the band from ``back`` image px behind ``centre`` to
        ``ahead`` px beyond it along the unit vector ``along``, ``half_wide`` px either side."""
        across = np.array([-along[1], along[0]])
        corners = np.array([centre + along * ahead + across * half_wide, centre + along * ahead - across * half_wide,
                            centre - along * back - across * half_wide, centre - along * back + across * half_wide])
        mask = np.zeros(low, np.uint8)
        cv2.fillConvexPoly(mask, np.round(corners / self.config.motion_scale).astype(np.int32), 1)
        return mask.astype(bool)

    def _find(self, frames: list[np.ndarray], shifts: list[tuple[float, float]], marker_id: int,
              centre: np.ndarray, half: float, upscale: int, rest: np.ndarray | None = None) -> Detection | None:
        """The marker near ``centre`` in the latest of ``frames`` that shows it, moved back by that
        frame's shift against the reference (so in the reference's frame); None if none shows it.
        ``rest``: the median of ``frames`` registered to the reference, looked at first."""
        size = (frames[0].shape[1], frames[0].shape[0])
        if rest is not None:  # the resting state: sensor noise and compression blocks averaged out
            found = self.detector.find_in(rest, _box_around(centre, half, size), marker_id, upscale)
            if found is not None:
                return found
        latest = True
        for frame, shift in zip(reversed(frames), reversed(shifts)):  # the latest frame that shows it
            box = _box_around(centre + np.asarray(shift, np.float32), half, size)
            if latest:  # enlarged and sharpened passes too, on one frame only
                found = self.detector.find_in(frame, box, marker_id, upscale)
                latest = False
            else:
                found = self.detector.detect_in(frame, box, upscale).get(marker_id)
            if found is not None:
                return Detection(marker_id, found.corners - np.asarray(shift, np.float32))
        return None

    def _crown_shift(self, t: _SeatTrack, frame: np.ndarray, shift: tuple[float, float],
                     crown: Detection) -> tuple[np.ndarray, str]:
        """The crown's displacement from its armed place in cm on its own (horizontal) plane:
        against the seat's base marker when it is seen in the same frame (camera shake and drift
        move both alike), else in the frame registered to the reference."""
        moved = crown.center - _armed_crown(t).center
        against = "registered frame"
        if t.base is not None:
            box = _box_around(t.base.center + np.asarray(shift, np.float32), 1.2 * t.base.side_px, (frame.shape[1], frame.shape[0]))
            base = self.detector.detect_in(frame, box, upscale=2).get(t.base.marker_id)
            if base is not None:
                return t.to_cm @ (moved - (base.center - t.base.center)), "base marker"
        return t.to_cm @ (moved - np.asarray(shift, np.float32)), against

    # ------------------------------------------------------------------ feeding
    def feed(self, frame: np.ndarray) -> Verdict | None:
        """One camera frame; returns the verdict once the throw is judged, else None."""
        if self.state is State.IDLE:
            raise RuntimeError("arm the judge with reference frames before feeding it")
        if self.state is State.JUDGED:
            return self.verdict
        if frame.shape != self._shape:
            raise ClipError(f"frame {self._frames + self.config.reference_frames}: {frame.shape[1]}x{frame.shape[0]}, "
                            f"but the reference frames are {self._shape[1]}x{self._shape[0]}: frames of mixed sizes")
        self._frames += 1
        self._displaced.clear()
        m = self.motion.update(frame)
        self._recent.append((frame, self.motion.shift))
        settle_frames = max(2, round(self.config.settle_s * self.fps))
        quiet = m.activity <= self._quiet_pixels
        if self.state is State.ARMED:
            if quiet:
                if self._frames - self._armed_at > self.config.timeout_s * self.fps:
                    return self._timeout()
                return None
            self.state = State.MOTION
            self._motion_since = self._frames
            self._still = 0
        # MOTION
        candidates = [b for b in m.blobs if b.kind is BlobKind.SHURIKEN]
        self._candidate_seen = self._candidate_seen or bool(candidates)
        self._confirm_shuriken(candidates)
        if candidates:
            centres = [np.asarray(b.centre, np.float64) for b in candidates]
            if self._shuriken_seen:
                self._star_back(centres)
            self._star_track.append((self._frames, centres))
        elif self._shuriken_seen and self._frames - self._star_last[0] <= STAR_LOST_S * self.fps:
            self._star_lost()
        for t in self.tracks.values():
            t.star_far_now = bool(candidates)
        if self._star_track:
            self._keep_around_crowns(frame)
        for a, b in self._legs:
            self._passed(a, b)
        for blob in candidates:
            for t in self.tracks.values():
                # the star leaves from behind the thrower's own standee: passing it is no contact
                if t.seat == self.thrower:
                    continue
                if t.crown is not None and _overlap(blob.box, t.body):
                    t.contact = True
                mark = t.crown if t.crown is not None else t.base  # a seat whose crown was unread: its base
                if mark is None:
                    continue
                d = float(np.linalg.norm(np.asarray(blob.centre) - mark.center))
                if t.star_nearest_px is None or d < t.star_nearest_px:
                    t.star_nearest_px = d
                if d < STAR_NEAR_CM * self.calibration.px_per_cm:
                    t.star_far_now = False
                    t.star_came = self._frames if t.star_came is None else t.star_came
                    # a light touch's swing may move less than the noise of a dim or noisy scene
                    # shows as motion: the crown is looked at for a while after the star passed
                    t.watch_until = self._frames + round(WATCH_AFTER_STAR_S * self.fps)
        from_reference: np.ndarray | None = None
        for t in self.tracks.values():
            if t.crown is None:
                continue
            x0, y0, x1, y1 = t.watch
            if m.changed[y0:y1, x0:x1].any():
                self._examine(t, frame)
            elif self._frames <= t.watch_until:  # nothing moves there that shows: its card's look only
                self._look(t, frame)
            else:
                from_reference = self.motion.changed_now() if from_reference is None else from_reference
                if self._away_from_armed(t, from_reference):
                    self._look(t, frame, star_passed=False)
        self._still = self._still + 1 if quiet else 0
        if self._still >= settle_frames:
            # a hand or arm still in view hides what is under it: wait for it to go, a while
            if self._still < settle_frames + self.config.arm_wait_s * self.fps and any(
                    self._arm_over(t) for t in self.tracks.values() if t.crown is not None):
                return None
            return self._settled()
        if self._frames - self._motion_since > self.config.max_throw_s * self.fps:
            return self._conclude("the table did not settle", unsettled=True)
        return None

    def _keep_around_crowns(self, frame: np.ndarray) -> None:
        """Keeps, from the first frame something star-sized moves on, the image around each standing crown
        (but the thrower's) and its base card, unless a hand or arm covers its card: a crown the star comes
        to rest on is followed afterwards by the part of its card left in view at the end
        (``_covered_readings``). The latest throw's length."""
        size = (frame.shape[1], frame.shape[0])
        shift = (float(self.motion.shift[0]), float(self.motion.shift[1]))
        at = np.array([round(shift[0]), round(shift[1])], np.float64)
        arm = self.motion.arm_mask()
        arm_in_view = bool(arm.any())
        for t in self.tracks.values():
            if t.kept_boxes is None or t.seat == self.thrower:
                continue
            if len(t.kept) > self.config.max_throw_s * self.fps:
                t.kept.popleft()
            if arm_in_view and t.card_mask is not None and bool((arm & t.card_mask).any()):
                continue  # a hand over the card moves no standee, and its part in view is not the card's
            crown_at, crown_half, base_at, base_half = t.kept_boxes
            box = _patch_box(crown_at + at, crown_half, size)
            if box is None:
                continue
            base = None
            if base_at is not None:
                bbox = _patch_box(base_at + at, base_half, size)
                base = None if bbox is None else frame[bbox[1]:bbox[3], bbox[0]:bbox[2]].copy()
            t.kept.append((self._frames, frame[box[1]:box[3], box[0]:box[2]].copy(), base, shift))

    def _away_from_armed(self, t: _SeatTrack, from_reference: np.ndarray) -> bool:
        """Whether a quarter of the crown card's worth of its watch box differs from the armed
        reference though nothing there changed since the last frames: a faint, dim standee tipping
        over moves little from one frame to the next (its outline a line of specks, no motion), and
        the star that hit it may have flown unseen under the thrower's arm; moved away from where it
        was armed, it shows against the reference. Its card's look is then measured, while the crown
        was last seen at its place or is followed from the frame before (a fall seen as it goes), and
        no hand or arm lies over it (a hand's change is no move of the standee's)."""
        if t.card_mask is None:
            return False
        at_place = t.last_seen_shift is None or t.last_seen_shift < self.config.moved_cm
        if not at_place and t.last_seen_frame < self._frames - 1:
            return False
        x0, y0, x1, y1 = t.watch
        return (int(from_reference[y0:y1, x0:x1].sum()) >= 0.25 * int(t.card_mask.sum())
                and not self._card_under_arm(t))

    def _confirm_shuriken(self, candidates: list[Blob]) -> None:
        """The star counts as seen once star-sized blobs in two frames in a row are as far apart as
        a thrown star flies in one frame; a single blob may be a piece of an arm. A blob with one
        within a star's radius of it in the other frame stays in place (sensor noise or glare
        flickering in a bright, noisy room, a wobbling standee): never one end of a flight."""
        centres = [np.array(b.centre) for b in candidates]
        px_per_cm = self.calibration.px_per_cm
        low, high = (v * px_per_cm / self.fps for v in (MIN_STAR_SPEED_CM_S, MAX_STAR_SPEED_CM_S))
        last = self._last_candidates
        self._legs = []
        if not self._shuriken_seen:
            still = STAR_RADIUS_CM * px_per_cm
            moving_now = [c for c in centres if all(float(np.linalg.norm(c - p)) > still for p in last)]
            moving_before = [p for p in last if all(float(np.linalg.norm(c - p)) > still for c in centres)]
            flights = [(p, c) for c in moving_now for p in moving_before if low <= float(np.linalg.norm(c - p)) <= high]
            self._shuriken_seen = bool(flights)
            if flights:
                firsts = [p for p, _ in flights]
                self._unseen_path(self._thrower_at(), firsts, self._frames - 1)
                # the way it flew: from the thrower's hand to where it was first seen, and on
                start = self._thrower_at()
                self._legs = [(start[0], p) for p in firsts] if start else []
                self._legs += flights
        elif centres and last:
            # the star between the last frame and this one (it flies up to 15 cm a frame at 30 fps)
            p, c = min(((p, c) for p in last for c in centres), key=lambda pc: float(np.linalg.norm(pc[0] - pc[1])))
            if float(np.linalg.norm(c - p)) <= high:
                self._legs = [(p, c)]
        if centres and self._shuriken_seen and not self._star_free:
            # a star-sized blob while no hand or arm is in view: not a piece of one
            self._star_free = int(self.motion.arm_mask().sum()) <= self.motion.star_area / self.config.motion_scale ** 2
        self._last_candidates = centres

    def _star_back(self, now: list[np.ndarray]) -> None:
        """The star seen again after frames it was out of sight: its path between where it was
        last seen and where it is now may have passed a crown, touching it unseen."""
        last_frame, last = self._star_last
        if last_frame < 0 or last_frame >= self._frames - 1 or not last:
            return
        self._unseen_path(last, now, last_frame)

    def _thrower_at(self) -> list[np.ndarray]:
        """Where the star leaves from: the thrower's crown (else its base card), image px."""
        t = self.tracks.get(self.thrower)
        mark = None if t is None else t.crown if t.crown is not None else t.base
        return [] if mark is None else [np.asarray(mark.center, np.float64)]

    def _unseen_path(self, before: list[np.ndarray], after: list[np.ndarray], since: int) -> None:
        """The star's path between ``before`` and ``after`` (image px; the closest pair), flown unseen
        since frame ``since``: from the thrower's hand to where the star was first seen (under the
        thrower's arm, merged with it, too fast for two frames), or across frames it was out of
        sight. A crown within a star's reach of that path (star radius, half a crown card and 1 cm),
        itself not seen since either, may have been touched there unseen: it keeps the closest the
        path came (cm); seen again from then on, a swing it started would show."""
        if not before or not after:
            return
        a, b = min(((p, c) for p in before for c in after), key=lambda pc: float(np.linalg.norm(pc[0] - pc[1])))
        ppc = self.calibration.px_per_cm
        reach = STAR_RADIUS_CM + markers.CROWN_SIZE_CM / 2 + 1.0
        for t in self.tracks.values():
            if t.crown is None or t.seat == self.thrower or t.last_seen_frame > since:
                continue
            d = _segment_distance(t.crown.center, a, b) / ppc
            if d <= reach and (t.passed_unseen_cm is None or d < t.passed_unseen_cm):
                t.passed_unseen_cm = d
                t.passed_unseen_at = self._frames

    def _passed(self, a: np.ndarray, b: np.ndarray) -> None:
        """The star flew from ``a`` to ``b`` (image px) since the last frame: a crown (a seat whose crown
        was unread: its base card) the path passed within ``STAR_NEAR_CM`` of is as near the star as
        if a blob had been seen there, and is looked at for a swing's time (a star seen 15 cm apart
        in two frames passes between them what neither sighting is near)."""
        for t in self.tracks.values():
            mark = t.crown if t.crown is not None else t.base
            if t.seat == self.thrower or mark is None:
                continue
            d = _segment_distance(np.asarray(mark.center, np.float64), a, b)
            if t.star_nearest_px is None or d < t.star_nearest_px:
                t.star_nearest_px = d
            if d < STAR_NEAR_CM * self.calibration.px_per_cm:
                t.star_far_now = False
                t.star_came = self._frames if t.star_came is None else t.star_came
                t.watch_until = self._frames + round(WATCH_AFTER_STAR_S * self.fps)

    @property
    def _star_last(self) -> tuple[int, list[np.ndarray]]:
        """The frame and blob centres where the star was last seen ((-1, []): not yet)."""
        return self._star_track[-1] if self._star_track else (-1, [])

    def _star_lost(self) -> None:
        """The star, seen in flight, is out of sight this frame: a crown whose card lies under the
        hand or arm that reaches within a star's length of where the star was last seen may be
        touched under it, unseen."""
        arm = self.motion.arm_mask()
        if not arm.any():
            return
        _, labels = cv2.connectedComponents(arm.astype(np.uint8), connectivity=8)
        scale = self.config.motion_scale
        reach = STAR_NEAR_CM * self.calibration.px_per_cm
        size = (arm.shape[1] * scale, arm.shape[0] * scale)
        near: set[int] = set()
        for c in self._star_last[1]:
            x0, y0, x1, y1 = (v // scale for v in _box_around(c, reach, size))
            near |= set(np.unique(labels[y0:y1 + 1, x0:x1 + 1]).tolist())
        near.discard(0)
        if not near:
            return
        ids = np.array(sorted(near))
        for t in self.tracks.values():
            if t.crown is None or t.card_mask is None or t.seat == self.thrower:
                continue
            if float(np.isin(labels[t.card_mask], ids).mean()) >= 0.5:
                t.star_lost_under_arm += 1

    def _examine(self, t: _SeatTrack, frame: np.ndarray) -> None:
        t.examined += 1
        offset = self._offset(frame)
        x0, y0, x1, y1 = t.crop
        box = (int(x0 + offset[0]), int(y0 + offset[1]), int(x1 + offset[0]), int(y1 + offset[1]))
        found = self.detector.detect_in(frame, box, upscale=1).get(_armed_crown(t).marker_id)
        under_arm = self._card_under_arm(t)
        if under_arm and t.arm_first is None:
            t.arm_first = self._frames
        card_move = self._card_move(t, frame, offset)
        doubtful = self._doubtful(t, card_move, under_arm)
        if doubtful is not None:
            card_move = None
        card = None if card_move is None else card_move[0]
        if card is not None:
            t.card_shifts.append(card)
        marker_registered = False
        marker_px: np.ndarray | None = None
        if found is None:
            t.hidden += 1
            shift = None
            if card is None:  # neither decoded nor its card's look found: out of sight
                t.unseen += 1
                t.under_arm += under_arm
                t.hidden_free += not under_arm
                # the star seen this frame far from it, and not near it for a swing's time: no touch now
                star_far = t.star_far_now and self._frames > t.watch_until
                t.hidden_in_flight += self._shuriken_seen and not star_far
            if t.lost_under_arm is None:
                t.lost_under_arm = under_arm
        else:
            moved, against = self._crown_shift(t, frame, offset, found)
            shift = float(np.linalg.norm(moved))
            marker_px = np.linalg.solve(t.to_cm, moved) if abs(np.linalg.det(t.to_cm)) > 1e-12 else None
            marker_registered = against == "registered frame"
            t.shifts.append(shift)
            both = min(shift, card_move[0]) if card_move is not None else 0.0
            if card_move is not None and not card_move[1] and not marker_registered:
                # two readings of this frame, against the base card: what both see is as sure as a
                # shift seen in two frames (a swing the star then covers, or blurs in the next frames,
                # may show in one frame only)
                t.confirmed = max(t.confirmed, both)
            elif both >= 2 * self.config.moved_cm:
                # or against the registered frame by more than registering it can be off, when the
                # fixed markers, the base cards or the crowns vouch for its registration
                self._one_frame(t, both)
        self._confirm_sharp(t, card_move, under_arm)
        seen = card if card is not None else shift  # the card's look is the finer measure
        if seen is None:
            self._note_doubtful(t, doubtful)
        if seen is not None:
            t.best_shifts.append(seen)
            t.last_seen_frame = self._frames
            t.registered += card_move[1] if card_move is not None else marker_registered
            self._note_seen(t, seen, sure=shift is not None or (card_move is not None and card_move[2]),
                            px=card_move[3] if card_move is not None else marker_px)
            self._note_reading(t, card_move[3] if card_move is not None else marker_px)
            if seen >= self.config.moved_cm and t.first_move is None:
                t.first_move = self._frames
        if t.first_change is None and (shift is None or shift >= self.config.moved_cm):
            t.first_change = self._frames

    def _offset(self, frame: np.ndarray) -> tuple[float, float]:
        """This frame's shift against the reference for reading crowns: the registered frame's, unless
        the base cards found as sharply as at rest (two or more, their median) put the table more than
        a touch's worth off it. Base cards lie on the table and move with it; the registration (phase
        correlation of the fixed markers, their median) can be thrown off by things moving over them
        in a noisy frame, and every crown read against it would then seem to move at once.
        A frame the fixed markers could not register (a dim, blurred room: the whole frame's
        correlation did, which falling standees and an arm can pull several pixels off) and no two
        base cards confirm is checked by the crowns themselves (``_crowns_agree``).
        Worked out once per frame, when a crown is read; ``_frame_sure`` says whether the fixed
        markers, the base cards or the crowns vouch for it."""
        if self._offset_frame == self._frames:
            return self._frame_offset
        registered = np.asarray(self.motion.shift, np.float64)
        off: list[np.ndarray] = []
        for t in self.tracks.values():
            if t.base_look is None:
                continue
            found = self._displacement(t.base_look, frame, self.motion.shift)
            if found is not None and found[2] >= patches.MIN_SCORE_AT_REST:
                off.append(np.asarray(found[0], np.float64) - registered)
        offset = self.motion.shift
        sure = self.motion.anchored or len(off) >= 2
        limit = self.config.moved_cm * self.calibration.px_per_cm
        error = np.median(np.array(off), axis=0) if len(off) >= 2 else None
        if error is None and not sure:
            error = self._crowns_agree(frame, registered)
            sure = error is not None
        if error is not None and float(np.linalg.norm(error)) > limit:
            offset = (float(registered[0] + error[0]), float(registered[1] + error[1]))
            log.debug("frame %d: registration off by %s px by the base cards or crowns", self._frames, np.round(error, 2))
        self._offset_frame, self._frame_offset, self._frame_sure = self._frames, offset, sure
        return offset

    def _displacement(self, look: patches.Look, image: np.ndarray, offset: tuple[float, float],
                      min_score: float = patches.MIN_SCORE) -> patches.Displacement:
        """``look.displacement``, found once per image of this frame: it depends on the offset only
        through the whole pixels it searches around. The image is kept with what was found in it, so
        no other image can take its ``id`` while the frame lasts."""
        key = (id(look), id(image), int(round(offset[0])), int(round(offset[1])), min_score)
        if key not in self._displaced:
            self._displaced[key] = (image, look.displacement(image, offset, min_score))
        return self._displaced[key][1]

    def _crowns_agree(self, frame: np.ndarray, registered: np.ndarray) -> np.ndarray | None:
        """How far off the registration is by the crown cards' looks, when three or more of them (and
        most of those found) agree to a touch's worth: standees do not move together, a frame's
        registration error moves every crown read against it alike (at most two standees are hit at
        once, so the median of the others is the error). None when the crowns do not agree."""
        found: list[np.ndarray] = []
        for t in self.tracks.values():
            if t.crown_look is None:
                continue
            at = self._displacement(t.crown_look, frame, (float(registered[0]), float(registered[1])))
            if at is not None:
                found.append(np.asarray(at[0], np.float64) - registered)
        if len(found) < 3:
            return None
        points = np.array(found)
        error = np.median(points, axis=0)
        agree = int((np.linalg.norm(points - error, axis=1) <= self.config.moved_cm * self.calibration.px_per_cm).sum())
        return error if agree >= 3 and 2 * agree > len(found) else None

    def _card_under_arm(self, t: _SeatTrack) -> bool:
        """Whether a hand or arm come in from the image border covers a part of the crown card's place."""
        return t.card_mask is not None and bool((self.motion.arm_mask() & t.card_mask).any())

    @staticmethod
    def _doubtful(t: _SeatTrack, card_move: CardMove | None, under_arm: bool) -> CardMove | None:
        """The shift of a card found by its look alone, not as sharply as at rest, while a hand or
        arm covers a part of its place (None otherwise): the parts of the card still in view may
        match its pattern elsewhere (a still crown under the thrower's arm was so found 2.8 cm off,
        three frames long). Such a reading says where the crown may be (a standee falling under a
        hand), never that it moved: the frame counts as one the crown was out of sight."""
        return card_move if card_move is not None and under_arm and not card_move[2] else None

    def _note_doubtful(self, t: _SeatTrack, doubtful: CardMove | None) -> None:
        if doubtful is None:
            t.pending_seen = None
            return
        self._note_seen(t, doubtful[0], sure=False, px=doubtful[3])
        if doubtful[0] >= self.config.moved_cm and t.first_move is None:
            t.first_move = self._frames

    def _look(self, t: _SeatTrack, frame: np.ndarray, *, star_passed: bool = True) -> None:
        """The crown measured by its card's look alone (cheap: no decoding), looked at because the
        star passed close (``star_passed``) or because its place differs from the armed reference."""
        card_move = self._card_move(t, frame, self._offset(frame))
        doubtful = self._doubtful(t, card_move, card_move is not None and self._card_under_arm(t))
        if card_move is None or doubtful is not None:
            self._note_doubtful(t, doubtful)
            # looked at because the star passed close, and not found: a swing blurs a faint card
            # past its likeness, the star lies over it; a touch would not be seen in this frame
            # (looked at only because its place differs from the reference: the frame says no more
            # than if it had not been looked at)
            t.hidden_in_flight += self._shuriken_seen and star_passed
            return
        t.card_shifts.append(card_move[0])
        t.best_shifts.append(card_move[0])
        t.last_seen_frame = self._frames
        t.registered += card_move[1]
        self._note_seen(t, card_move[0], sure=card_move[2], px=card_move[3])
        self._note_reading(t, card_move[3])
        self._confirm_sharp(t, card_move, self._card_under_arm(t))
        if card_move[0] >= self.config.moved_cm and t.first_move is None:
            t.first_move = self._frames

    def _note_reading(self, t: _SeatTrack, px: np.ndarray | None) -> None:
        """This frame's crown displacement (image px), kept in cm on the crown's plane."""
        if px is None:
            return
        moved = t.to_cm @ np.asarray(px, np.float64)
        t.readings.append((self._frames, float(moved[0]), float(moved[1])))

    @staticmethod
    def _note_seen(t: _SeatTrack, shift: float, *, sure: bool, px: np.ndarray | None = None) -> None:
        """Where the crown was last seen. A weak reading (the card's look alone, not as sharp as at
        rest) that puts the crown back more than ``JUMP_CM`` nearer its place than where it was last
        seen counts once a second one agrees with it: a fallen standee's picture lying where the card
        stood can look like a part of the card. Readings moving away (a swing, a fall: several cm
        a frame) count as they come."""
        if not sure:
            pending, t.pending_seen = t.pending_seen, shift
            last = t.last_seen_shift if t.last_seen_shift is not None else 0.0  # armed at its place
            back = shift < last - JUMP_CM
            if back and (pending is None or abs(shift - pending) > JUMP_CM):
                return
        if sure:
            t.pending_seen = None
        t.last_seen_shift = shift
        t.last_seen_px = px
        t.last_seen_sure = sure

    def _confirm_sharp(self, t: _SeatTrack, card_move: CardMove | None, under_arm: bool) -> None:
        """A card found as sharply as at rest, its quarters agreeing to a pixel, is the card: its shift
        in this one frame counts (against the base card, or by more than registering the whole
        frame can be off). Not while a hand or arm covers a part of its place before the star came
        near it (within ``STAR_NEAR_CM``): the part in view can match as sharply a few millimetres off
        (the thrower's hand over his own still crown, 0.33 cm in one frame, the star far away), and
        nothing had come that could move it; such a shift counts only when a second frame shows it too."""
        if under_arm and t.star_came is None:
            return
        if card_move is not None and card_move[2] and not card_move[1]:
            t.confirmed = max(t.confirmed, card_move[0])
        elif card_move is not None and card_move[2] and card_move[0] >= 2 * self.config.moved_cm:
            self._one_frame(t, card_move[0])

    def _one_frame(self, t: _SeatTrack, shift: float) -> None:
        """A crown seen surely moved in one frame, measured against the registered frame: a touch when
        the frame's registration is vouched for, else only a doubt (the frame may be off, and every
        crown read in it with it)."""
        if self._frame_sure:
            t.confirmed = max(t.confirmed, shift)
        else:
            t.unvouched = max(t.unvouched, shift)

    def _card_move(self, t: _SeatTrack, frame: np.ndarray, offset: tuple[float, float],
                   min_score: float = patches.MIN_SCORE) -> CardMove | None:
        """The crown card's displacement (cm on its plane) found by correlating its look at rest,
        against the base card found the same way (else the registered frame: the first flag says
        which), whether it was found as sharply as a card at rest (the second flag), and the
        displacement in image px; None if unseen."""
        if t.crown_look is None:
            return None
        crown = self._displacement(t.crown_look, frame, offset, min_score)
        if crown is None:
            return None
        base = self._displacement(t.base_look, frame, offset) if t.base_look is not None else None
        if base is not None and float(np.linalg.norm(base[0] - np.asarray(offset))) > (
                self.config.moved_cm * self.calibration.px_per_cm):
            # the base card lies on the table and moves with the registered frame (within a few
            # hundredths of a cm): found a touch's worth off it, it is partly covered (the star or a
            # hand over it) and its likeness is elsewhere; the registered frame measures instead
            base = None
        moved = crown[0] - (base[0] if base is not None else np.asarray(offset))
        # sharp: the crown card, and the base card it is measured against, both as clear as at rest
        sharp = crown[2] >= patches.MIN_SCORE_AT_REST and (base is None or base[2] >= patches.MIN_SCORE_AT_REST)
        return float(np.linalg.norm(t.to_cm @ moved)), base is None, sharp, np.asarray(moved, np.float64)

    def _settled(self, final: bool = False) -> Verdict | None:
        if self._shuriken_seen and self._star_free:
            return self._conclude("judged")
        states = self._final_states()
        if self._shuriken_seen:
            # the "star" was only ever seen while a hand or arm was in view: a piece of it, or the
            # star thrown by that hand; judged unless every seat is surely untouched (a hand that
            # reached in and left), which waits for the throw instead
            if final or any(o is not Outcome.NOTHING or ev.confidence < self.config.ask_godfather_below
                            for o, ev in states.values()):
                return self._conclude("judged", final=states)
        if any(o is not Outcome.NOTHING for o, _ in states.values()):
            return self._conclude("a standee changed but no shuriken was seen", final=states, unsure=True)
        if final:
            # armed for a throw, and no star seen: the camera missed it (a dim, noisy room, a star
            # of the table's colour), which says nothing of what it touched
            return self._conclude("no throw seen before the frames ran out", final=states, unsure=True)
        if self._candidate_seen:
            # something star-sized moved while these crowns were under a hand or arm: the star may
            # have touched one of them there, unseen
            self._hidden_under_hand |= {t.seat for t in self.tracks.values() if t.under_arm >= 2}
        log.debug("motion without a shuriken (a hand?) at frame %d: re-armed", self._frames)
        self.motion.rebase()
        self._last_candidates = []
        self._star_track = []
        self._shuriken_seen = self._star_free = self._candidate_seen = False
        for t in self.tracks.values():
            t.reset()
        self.state = State.ARMED
        self._armed_at = self._frames
        return None

    def finish(self) -> Verdict:
        """No more frames: judges with what was seen (a throw still moving gets a low confidence).
        Every standing seat is looked at once more: a standee that fell unseen is not a miss."""
        if self.state is State.JUDGED:
            assert self.verdict is not None
            return self.verdict
        if self.state is State.IDLE:
            raise RuntimeError("the judge was never armed")
        settle_frames = max(2, round(self.config.settle_s * self.fps))
        if self.state is State.ARMED or self._still >= settle_frames:
            return self._settled(final=True)  # type: ignore[return-value]
        return self._conclude("the frames ran out before the table settled", unsettled=True)

    def _timeout(self) -> Verdict:
        """Armed this long without a throw: nothing changed that the camera saw, but a throw it did
        not see is the Godfather's to judge."""
        states = self._final_states()
        if any(o is not Outcome.NOTHING for o, _ in states.values()):
            return self._conclude("a standee changed but no shuriken was seen", final=states, unsure=True)
        return self._conclude("timeout: no throw seen", final=states, unsure=True)

    # ------------------------------------------------------------------ judging
    def _final_states(self) -> dict[int, tuple[Outcome, SeatEvidence]]:
        self._rest_end = None  # the latest settled frames: their median is worked out once
        out = {}
        blind = {s for s, t in self.tracks.items() if t.crown is None and t.base is None}
        for seat, t in self.tracks.items():
            if seat not in blind:
                ev = self._seat_evidence(t)
                out[seat] = (ev.outcome, ev)
        # a seat unread when armed is judged by what changed between the seats beside it, and those
        # seats' own outcomes say whether a standee of theirs may lie there
        read = {s: e for s, (_, e) in out.items()}
        for seat in sorted(blind):
            ev = self._unread_seat(seat, read, blind)
            out[seat] = (ev.outcome, ev)
        return dict(sorted(out.items()))

    def _seat_evidence(self, t: _SeatTrack) -> SeatEvidence:
        """One seat's outcome from its last settled frames, every measure in table coordinates."""
        cfg = self.config
        ev = SeatEvidence(t.seat, shuriken_contact=t.contact, frames_examined=t.examined,
                          last_seen_shift_cm=None if t.last_seen_shift is None else round(t.last_seen_shift, 3),
                          star_nearest_cm=None if t.star_nearest_px is None
                          else round(t.star_nearest_px / self.calibration.px_per_cm, 1),
                          frames_crown_hidden=t.hidden,
                          first_change_s=None if t.first_change is None else round(t.first_change / self.fps, 3))
        if t.crown is None:
            ev.standing_when_armed = False
            if t.base is None:  # neither marker seen: the camera cannot vouch for this seat
                return self._unread_seat(t.seat, {}, {t.seat})
            ev.reason = "not standing when armed (its base marker seen, its crown not)"
            changed = self._changed_near_base(t)
            ev.changed_area_cm2 = round(changed, 1)
            if changed >= 0.5 * cfg.fallen_area_cm2:
                # lying, or only its crown unread when armed: what changed there may be its fall
                ev.reason += f"; {changed:.0f} cm² changed around it since: the Godfather looks"
                ev.confidence = 0.4
            elif ev.star_nearest_cm is not None and ev.star_nearest_cm < STAR_NEAR_CM:
                # standing with its crown unread, or lying: the camera cannot tell a touch there
                ev.reason += (f"; the shuriken passed {ev.star_nearest_cm:.0f} cm from its base marker: "
                              f"the Godfather looks")
                ev.confidence = 0.5
            return ev
        shifts = sorted(t.shifts)
        cards = sorted(t.card_shifts)
        best = sorted(t.best_shifts)
        ev.max_marker_shift_cm = round(shifts[-2] if len(shifts) >= 2 else 0.0, 3)
        ev.max_card_shift_cm = round(cards[-2] if len(cards) >= 2 else 0.0, 3)
        ev.max_shift_cm = round(max(best[-2] if len(best) >= 2 else 0.0, t.confirmed), 3)
        frames = [f for f, _ in self._recent]
        offsets = [o for _, o in self._recent]
        if self._rest_end is None:
            self._rest_end = _median_at_rest(frames, offsets)
        rest = self._rest_end
        crown = self._find(frames, offsets, t.crown.marker_id, t.crown.center, 1.7 * t.crown.side_px + 1, upscale=1,
                           rest=rest)
        if t.base is not None:
            base = self._find(frames, offsets, t.base.marker_id, t.base.center, 1.5 * t.base.side_px, upscale=2,
                              rest=rest)
            ev.base_seen_at_end = base is not None
        still, offset = (rest, (0.0, 0.0)) if rest is not None else (frames[-1], offsets[-1])
        if crown is None:
            # at rest the card looks as when armed: a weaker likeness is another pattern (a fallen
            # standee's picture) that happens to correlate with a part of the card
            found = self._card_move(t, still, offset, patches.MIN_SCORE_AT_REST)
            if found is not None:
                ev.final_card_shift_cm = round(found[0], 3)
            if found is not None and found[0] < cfg.fallen_cm:
                # the card's pattern is where it stood, in two quarters or more: the star or a
                # finger may cover the rest, but the standee is up
                ev.final_shift_cm = ev.final_card_shift_cm
                ev = self._standing(ev, t)
                ev.reason = (f"crown marker not decoded, but its card's look found {found[0]:.2f} cm from its "
                             f"place: still up; {ev.reason}")
                ev.confidence = min(ev.confidence, 0.85)
                return ev
            # a crown card lying readable elsewhere on the table, a standee's length away at most
            reach = (FALL_REACH_CM + markers.CROWN_SIZE_CM) * self.calibration.px_per_cm
            at = np.asarray(offset, np.float32)
            far = self.detector.detect_in(still, _box_around(t.crown.center + at, reach, (still.shape[1], still.shape[0])),
                                          upscale=1).get(t.crown.marker_id)
            crown = None if far is None else Detection(far.marker_id, far.corners - at)
        ev.crown_seen_at_end = crown is not None
        if crown is None:
            return self._crown_unseen(ev, t)
        # found in reference coordinates: measure against the base in those too
        moved = crown.center - t.crown.center
        if t.base is not None and base is not None:
            moved = moved - (base.center - t.base.center)
            ev.shift_measured_against = "base marker"
        else:
            ev.shift_measured_against = "registered frame"
        ev.final_shift_cm = round(float(np.linalg.norm(t.to_cm @ moved)), 3)
        ev.final_turn_deg = round(_turn(t.crown, crown), 1)
        shrunk = crown.area_px < cfg.shrunk_ratio * t.crown.area_px
        if ev.final_shift_cm < cfg.fallen_cm and ev.final_turn_deg < cfg.turned_deg and not shrunk:
            return self._standing(ev, t)
        ev.outcome = Outcome.KNOCKED
        ev.reason = (f"crown marker found {ev.final_shift_cm:.1f} cm from its place, turned "
                     f"{ev.final_turn_deg:.0f} degrees{', foreshortened' if shrunk else ''} (a standee is down from "
                     f"{cfg.fallen_cm:g} cm or {cfg.turned_deg:g} degrees)")
        ev.confidence = 0.9 if ev.base_seen_at_end is not False else 0.6
        return ev

    def _unread_seat(self, seat: int, others: dict[int, SeatEvidence], unread: set[int]) -> SeatEvidence:
        """A seat whose crown and base cards were both unread when armed (far, dim, faint, blurred):
        the camera cannot vouch for it, and asks. Its place is not read, but the seats go clockwise
        round the table: it lies in the angular gap between the seats read before and after it, about
        the table's centre. A standee's worth of table changed there at the end, in one piece, no
        larger than a fallen standee, apart from where the seats beside it could lie fallen and from
        any hand or arm, is what its fall leaves: ``knocked``, still asking. Else the star's way turning
        in flight there (it met something standing there: that standee) is a touch: ``touched``, still
        asking. Else nothing, asking; so too with a hand or arm over the gap at the end (the star may
        have met the hand). ``others``: the other seats' evidence (a seat beside it seen up at the end
        lies nowhere); ``unread``: the seats unread when armed. With two or more unread seats side by
        side the gap is theirs together, and a change there is one seat's only when it lies clearly
        nearer that seat's expected place than any other's (``_seat_in_run``)."""
        t = self.tracks[seat]
        ev = SeatEvidence(seat, standing_when_armed=False, frames_examined=t.examined,
                          star_nearest_cm=None if t.star_nearest_px is None
                          else round(t.star_nearest_px / self.calibration.px_per_cm, 1))
        ev.reason, ev.confidence = "neither its crown nor its base marker was seen when armed", 0.4
        # only a throw seen says what changed there: a hand that reached in and left is no throw
        gap = self._gap_of(seat, others, unread) if self._shuriken_seen else None
        if gap is None:
            return ev
        region, ppc = gap.region, gap.ppc
        if (self.motion.arm_mask() & region).any():
            ev.reason += "; a hand or arm lies over the gap only it can occupy: the Godfather looks"
            return ev
        if len(gap.run) > 1:
            return self._seat_in_run(ev, gap, others)
        lying = self._lying_in(region, ppc)
        if lying is None:
            least = self.config.fallen_area_cm2 + STAR_AREA_CM2
            changed = self._largest_change_in(region, ppc)
            if changed >= least:
                # a standee's worth changed there, but not in a fallen standee's shape: it may lie
                # there, partly hidden, or another seat's standee or a hand changed it
                ev.changed_area_cm2 = round(changed, 1)
                ev.reason += (f"; {changed:.0f} cm² of table changed in one piece in the gap only it can occupy, "
                              f"not the shape of a fallen standee: the Godfather looks")
                return ev
            turns = self._star_turns_in(region, ppc, [gap.before, gap.after])
            if not turns:
                ev.reason += "; no standee's worth of table changed in the gap only it can occupy"
                return ev
            fallen = self._fall_where_turned(turns, ppc, _fallen_among(others, [gap.before, gap.after]))
            if fallen is not None:
                ev.changed_area_cm2 = round(fallen, 1)
                ev.reason += self._fall_where_turned_reason(fallen)
                return ev
            turn = max(t for t, _ in turns)
            ev.outcome = Outcome.TOUCHED
            ev.reason += (f"; the shuriken turned {turn:.0f} degrees in flight in the gap between the seats beside it, "
                          f"which only its standee occupies, and no standee's worth of table changed there: "
                          f"touched, the Godfather looks")
            ev.confidence = 0.35
            return ev
        area, spread, seen_in = lying
        ev.changed_area_cm2 = round(area, 1)
        ev.outcome = Outcome.KNOCKED
        ev.reason += (f"; in the gap between the seats beside it, which only its standee occupies, {area:.0f} cm² of "
                      f"table changed in one piece {spread:.0f} cm long in {seen_in} (a fallen standee, at least "
                      f"{self.config.fallen_area_cm2 + STAR_AREA_CM2:g} cm² with the star's): knocked, the Godfather looks")
        ev.confidence = 0.35
        return ev

    def _seat_in_run(self, ev: SeatEvidence, gap: _Gap, others: dict[int, SeatEvidence]) -> SeatEvidence:
        """An unread seat beside another unread seat: the gap between the read seats around them is
        theirs together, each standing about its expected place (``_Gap.places``). A fallen standee's
        change there (as ``_lying_in``) is the fall of the one seat whose place it covers, within that
        place's tolerance and half a standee's width, and no other's: ``knocked``. Else the star's way
        turning in flight there (as ``_star_turned_in``) within a star's radius and half a standee's
        width, plus the tolerance, of one seat's place and no other's is that seat's touch: ``touched``.
        A fall or a turn that could be two seats', a fall where no seat is expected, or a standee's worth
        changed there in no fallen standee's shape leaves every seat of the run at nothing. Each asks."""
        seat, run = ev.seat, gap.run
        names = " and ".join(str(s) for s in run if s != seat)
        ev.reason += f"; unread beside seat {names}, in the gap between seats {gap.before} and {gap.after}"
        half_standee = STANDEE_WIDTH_CM / 2 * gap.ppc / max(gap.radius, 1.0)
        pieces = self._fallen_pieces(gap.region, gap.ppc)
        mine: tuple[float, float, str] | None = None
        owned = np.zeros_like(gap.region)
        for area, spread, seen_in, piece in pieces:
            into = gap.into_of(piece)
            owners = gap.owners(float(into.min()), float(into.max()), half_standee)
            if len(owners) != 1:
                ev.reason += (f"; {area:.0f} cm² changed there in a fallen standee's shape, not clearly at one "
                              f"seat's place of {len(run)} unread: the Godfather looks")
                return ev
            owned |= piece
            if owners == [seat] and (mine is None or area > mine[0]):
                mine = (area, spread, seen_in)
        if mine is not None:
            area, spread, seen_in = mine
            ev.changed_area_cm2 = round(area, 1)
            ev.outcome, ev.confidence = Outcome.KNOCKED, 0.35
            ev.reason += (f"; {area:.0f} cm² of table changed in one piece {spread:.0f} cm long in {seen_in} (a fallen "
                          f"standee) at its expected place, clear of the others': knocked, the Godfather looks")
            return ev
        least = self.config.fallen_area_cm2 + STAR_AREA_CM2
        changed = self._largest_change_in(gap.region & ~owned, gap.ppc)
        if changed >= least:
            ev.changed_area_cm2 = round(changed, 1)
            ev.reason += (f"; {changed:.0f} cm² of table changed in one piece there, not the shape of a fallen "
                          f"standee: the Godfather looks")
            return ev
        touch: float | None = None
        centre = gap.centre
        turns = self._star_turns_in(gap.region, gap.ppc, [gap.before, gap.after])
        fallen = self._fall_where_turned(turns, gap.ppc, _fallen_among(others, [gap.before, gap.after]))
        if fallen is not None:
            ev.changed_area_cm2 = round(fallen, 1)
            ev.reason += self._fall_where_turned_reason(fallen)
            return ev
        for turn, point in turns:
            reach = (STAR_RADIUS_CM + STANDEE_WIDTH_CM / 2) * gap.ppc / max(float(np.linalg.norm(point - centre)), 1.0)
            at = gap.into_of_point(point)
            owners = gap.owners(at, at, reach)
            if len(owners) > 1:
                ev.reason += (f"; the shuriken turned {turn:.0f} degrees in flight there, not clearly at one seat's "
                              f"place of {len(run)} unread: the Godfather looks")
                return ev
            if owners == [seat] and (touch is None or turn > touch):
                touch = turn
        if touch is None:
            ev.reason += "; nothing there clearly at its expected place"
            return ev
        ev.outcome, ev.confidence = Outcome.TOUCHED, 0.35
        ev.reason += (f"; the shuriken turned {touch:.0f} degrees in flight at its expected place, clear of the "
                      f"others', and no standee's worth of table changed there: touched, the Godfather looks")
        return ev

    def _gap_of(self, seat: int, others: dict[int, SeatEvidence], unread: set[int]) -> _Gap | None:
        """The table only ``seat``'s standee, and those of the unread seats side by side with it, can
        occupy; None unless the seats read before and after that run of ``unread`` seats were read when
        armed and the seats read show which way round they are numbered (three or more). The gap:
        between those two read seats in angle about the table's centre, within a fallen standee's reach
        of their distances from it, apart from where either of them could lie fallen (unless ``others``,
        their evidence, shows it up at the end). Not the thrower's seat: its arm reaches in from there (in a
        run of two or more its place is one of the run's, never claimed). A run of two or more needs the
        seats' spacing (``_expected_places``)."""
        run = self._run_of(seat, unread)
        if run is None or seat == self.thrower:
            return None
        before, after = (run[0] - 1) % self.seats, (run[-1] + 1) % self.seats
        marks = {s: t.base if t.base is not None else t.crown for s, t in self.tracks.items() if s not in unread}
        read = {s: m.center.astype(np.float64) for s, m in marks.items() if m is not None}
        if before not in read or after not in read or len(read) < 3:
            return None
        centre = self._table_centre(list(read.values()))
        angle = {s: math.atan2(p[1] - centre[1], p[0] - centre[0]) for s, p in read.items()}
        corners = [np.mean(c, axis=0) for c in self.calibration.corners.values()]
        if not _inside_ring(centre, list(read.values()) + corners):
            return None
        way = _numbering_way([angle[s] for s in sorted(read)])
        if way == 0:
            return None
        width = (way * (angle[after] - angle[before])) % (2 * math.pi)
        places = self._expected_places(angle, way, width, len(run))
        if places is None:
            return None
        ppc = float(np.mean([self._ppc(self.tracks[s]) for s in (before, after)]))
        scale = self.config.motion_scale
        low = self.motion.changed_now().shape
        ys, xs = np.mgrid[0:low[0], 0:low[1]]
        px, py = (xs + 0.5) * scale - centre[0], (ys + 0.5) * scale - centre[1]
        into = (way * (np.arctan2(py, px) - angle[before])) % (2 * math.pi)
        radii = [float(np.linalg.norm(read[s] - centre)) for s in (before, after)]
        reach = FALL_REACH_CM * ppc
        r = np.hypot(px, py)
        region = (into > 0) & (into < width) & (r >= min(radii) - reach) & (r <= max(radii) + reach)
        for s in (before, after):
            if not _seen_up(others.get(s), self.config.fallen_cm):
                region &= ~self._reach(self.tracks[s])
        return _Gap(region, ppc, tuple(run), before, after, centre, angle[before], way, float(np.mean(radii)), places,
                    scale)

    def _table_centre(self, seats: list[np.ndarray]) -> np.ndarray:
        """The play area's centre in the image: the calibration's with every corner marker read; else
        the middle of a diagonal between two opposite corner markers (nearly the centre seen from
        above); else the mean of the places of the seats read when armed (``seats``: the judge reads
        more of them than the calibration, from the resting image)."""
        corners = self.calibration.corners
        if len(corners) == len(markers.CORNER_IDS) or not seats:
            return self.calibration.table_centre().astype(np.float64)
        for a, b in ((0, 2), (1, 3)):
            if a in corners and b in corners:
                return np.asarray((np.mean(corners[a], axis=0) + np.mean(corners[b], axis=0)).astype(np.float64) / 2)
        return np.asarray(np.mean(np.asarray(seats, np.float64), axis=0))

    def _run_of(self, seat: int, unread: set[int]) -> list[int] | None:
        """The seats of ``unread`` side by side with ``seat`` (itself among them), in the order of their
        numbers round the table; None when every seat is."""
        run = [seat]
        while (run[0] - 1) % self.seats in unread and len(run) < self.seats:
            run.insert(0, (run[0] - 1) % self.seats)
        while (run[-1] + 1) % self.seats in unread and len(run) < self.seats:
            run.append((run[-1] + 1) % self.seats)
        return None if len(run) >= self.seats else run

    def _expected_places(self, angle: dict[int, float], way: int, width: float,
                         count: int) -> tuple[tuple[float, float], ...] | None:
        """Where each of ``count`` unread seats side by side stands in a gap ``width`` radians wide,
        and how far off that may be: (angle into the gap, tolerance), in order. Players sit round the
        table at about equal spacing, but nothing fixes it (a rectangular table's corners, a chair
        pushed aside): each seat is expected at an equal share of the gap, give or take twice the
        spread of the steps between seats read next to each other (their standard deviation over
        their mean, ``angle``: the read seats' angles about the centre), grown as a sum of that many
        steps would be, tied at both ends to the read seats. Steps count only between seats
        numbered one after the other; with fewer than three of them the spacing is not known: None
        (for one unread seat in its gap only the gap is needed: no places)."""
        if count == 1:
            return ()
        ordered = sorted(angle)
        steps = [(way * (angle[b] - angle[a])) % (2 * math.pi)
                 for a, b in zip(ordered, ordered[1:] + ordered[:1]) if (b - a) % self.seats == 1]
        if len(steps) < 3:
            return None
        spread = float(np.std(steps)) / max(float(np.mean(steps)), 1e-9)
        step = width / (count + 1)
        return tuple((j * step, 2.0 * spread * step * math.sqrt(j * (count + 1 - j) / (count + 1)))
                     for j in range(1, count + 1))

    def _fall_where_turned(self, turns: list[tuple[float, np.ndarray]], ppc: float,
                           fallen_beside: list[int]) -> float | None:
        """cm² of the largest piece of change at the end within a standee's length of the place of a
        standee the star met where it turned (``turns``: degrees, image px), the seats beside included,
        when one is a fallen standee's worth with the star's on it, as a fall is counted anywhere: the
        standee it met may lie there, partly hidden or in the reach left out of the gap, and was not
        only touched (a touched standee leaves only the star at rest beside it, with its shadow); else
        None. Where the seats ``fallen_beside`` (judged knocked on their own cards) can lie fallen does
        not count: their fall is what changed there."""
        scale = self.config.motion_scale
        # the standee met stands within a star's radius and half a standee's width of the turn; fallen,
        # it lies within a standee's length of its place
        reach = FALL_REACH_CM + STAR_RADIUS_CM + STANDEE_WIDTH_CM / 2
        disc = np.zeros(self.motion.changed_now().shape, np.uint8)
        for _, point in turns:
            c = np.round(point / scale).astype(int)
            cv2.circle(disc, (int(c[0]), int(c[1])), int(round(reach * ppc / scale)), 1, -1)
        near = disc.astype(bool)
        for s in fallen_beside:
            near &= ~self._reach(self.tracks[s])
        changed = self._largest_change_in(near, ppc)
        return changed if changed >= self.config.fallen_area_cm2 + STAR_AREA_CM2 else None

    def _fall_where_turned_reason(self, changed: float) -> str:
        return (f"; the shuriken turned in flight there, but {changed:.0f} cm² of table changed in one piece within a "
                f"standee's length of it (a fallen standee's, {self.config.fallen_area_cm2 + STAR_AREA_CM2:g} cm² or "
                f"more with the star's, partly hidden): the Godfather looks")

    def _largest_change_in(self, region: np.ndarray, ppc: float) -> float:
        """cm² of the largest piece of change from the armed reference at the end inside ``region`` (the
        latest frame, or the median of the settled frames)."""
        cm2_per_pixel = (self.config.motion_scale / ppc) ** 2
        largest = 0.0
        for changed in (self.motion.changed_now(), self._changed_at_rest()):
            if changed is None or not (changed & region).any():
                continue
            _, labels = cv2.connectedComponents((changed & region).astype(np.uint8), connectivity=8)
            largest = max(largest, float(np.bincount(labels.ravel())[1:].max()) * cm2_per_pixel)
        return largest

    def _star_turned_in(self, region: np.ndarray, ppc: float, beside: list[int]) -> float | None:
        """How far (degrees) the star's way turned in ``region``, when it did (``_star_turns_in``): the
        largest such turn, else None."""
        turns = self._star_turns_in(region, ppc, beside)
        return max(t for t, _ in turns) if turns else None

    def _star_turns_in(self, region: np.ndarray, ppc: float, beside: list[int]) -> list[tuple[float, np.ndarray]]:
        """Where the star's way turned in ``region`` (degrees, image px): a star flies straight until it
        meets something. Seen alone (one star-sized blob) in a frame and in frames up to
        ``TURN_WINDOW_S`` before and after it, a star's radius or more from each, its way turning by
        ``TURN_DEG`` or more there, farther than a star's radius and a standee's width from the
        places of the seats ``beside`` (it may have met their standees) and from the thrower's hand, and
        its way in not starting there: leaving the hand, the star swings with it before it flies free."""
        scale = self.config.motion_scale
        window = max(1, round(TURN_WINDOW_S * self.fps))
        lone = {f: cs[0] for f, cs in self._star_track if len(cs) == 1}
        leg = STAR_RADIUS_CM * ppc
        clear = (STAR_RADIUS_CM + STANDEE_WIDTH_CM) * ppc
        places = [m.center for s in beside + [self.thrower] for m in (self.tracks[s].crown, self.tracks[s].base)
                  if m is not None]
        hand = [m.center for m in (self.tracks[self.thrower].crown, self.tracks[self.thrower].base) if m is not None]
        turns: list[tuple[float, np.ndarray]] = []
        for f, b in lone.items():
            x, y = int(b[0] // scale), int(b[1] // scale)
            if not (0 <= y < region.shape[0] and 0 <= x < region.shape[1] and region[y, x]):
                continue
            if any(float(np.linalg.norm(b - p)) < clear for p in places):
                continue
            before = [lone[g] for g in range(f - window, f) if g in lone]
            after = [lone[g] for g in range(f + window, f, -1) if g in lone]
            if not before or not after or any(float(np.linalg.norm(before[0] - p)) < clear for p in hand):
                continue
            come, go = b - before[0], after[0] - b
            if min(float(np.linalg.norm(come)), float(np.linalg.norm(go))) < leg:
                continue
            cos = float(np.dot(come, go)) / (float(np.linalg.norm(come)) * float(np.linalg.norm(go)))
            turn = math.degrees(math.acos(max(-1.0, min(1.0, cos))))
            if turn >= TURN_DEG:
                turns.append((turn, np.asarray(b, np.float64)))
        return turns

    def _lying_in(self, region: np.ndarray, ppc: float) -> tuple[float, float, str] | None:
        """The largest change from the armed reference at the end lying in ``region`` in one piece
        that is a fallen standee's (``_fallen_pieces``): (cm² of table, its longest extent in cm, where
        seen); None without one."""
        pieces = self._fallen_pieces(region, ppc)
        if not pieces:
            return None
        area, spread, seen_in, _ = max(pieces, key=lambda p: p[0])
        return area, spread, seen_in

    def _fallen_pieces(self, region: np.ndarray, ppc: float) -> list[tuple[float, float, str, np.ndarray]]:
        """The pieces of change from the armed reference at the end lying in ``region`` (in the latest
        frame, or in the median of the settled frames) that are a fallen standee's: a standee's worth
        with a star's on top, no more than the largest standee lying flat with its shadow, a
        standee's length at most, and mostly inside the region (a change that runs on beyond it is
        another seat's or a hand's). Each: (cm² of table, its longest extent in cm, where seen, its
        low-resolution mask inside the region)."""
        cm2_per_pixel = (self.config.motion_scale / ppc) ** 2
        least = self.config.fallen_area_cm2 + STAR_AREA_CM2
        pieces: list[tuple[float, float, str, np.ndarray]] = []
        for seen_in, changed in (("the latest frame", self.motion.changed_now()),
                                 ("the median of the settled frames", self._changed_at_rest())):
            if changed is None:
                continue
            _, labels = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
            for i in sorted(set(np.unique(labels[region & changed]).tolist()) - {0}):
                piece = labels == i
                inside = piece & region
                area = float(inside.sum()) * cm2_per_pixel
                if not least <= area <= FALL_CHANGE_MAX_CM2 or inside.sum() < 0.6 * piece.sum():
                    continue
                spread = _extent(inside) * self.config.motion_scale / ppc
                if spread <= FALL_REACH_CM + markers.CROWN_SIZE_CM:
                    pieces.append((area, spread, seen_in, inside))
        return pieces

    def _crown_unseen(self, ev: SeatEvidence, t: _SeatTrack) -> SeatEvidence:
        """Neither the crown marker nor its card's look is found at the end: fallen, covered (by the
        star at rest on it, or by a hand), or only not decoded. Down takes a standee's worth of
        table changed along its fall line (cm² of table), and its crown gone from its place: its
        card's place changed, or the crown seen moving away and never back. The fall line is the
        seat's line (towards and away from the table's centre) and, for a crown seen moving away,
        the way it went: a star thrown from the side knocks a standee over sideways."""
        cfg = self.config
        changed = self.motion.changed_now()
        cm2_per_pixel = self._cm2_per_pixel(t)
        card_share = float(changed[t.card_mask].mean()) if t.card_mask is not None and t.card_mask.any() else 1.0
        went_away = t.last_seen_shift is not None and t.last_seen_shift >= 2 * cfg.moved_cm
        strip = t.lie_mask
        way = self._fall_way(t) if went_away else None
        if strip is not None and way is not None:
            strip = strip | way
        latest = float(changed[strip].sum()) * cm2_per_pixel if strip is not None else 0.0
        # the same in the median of the settled frames, when they are all still: a fallen standee of
        # little contrast against the table shows whole there, where one frame's noise hides parts of it
        at_rest = self._changed_at_rest()
        settled = float(at_rest[strip].sum()) * cm2_per_pixel if at_rest is not None and strip is not None else 0.0
        area = max(latest, settled)
        seen_in = "the median of the settled frames" if settled > latest else "the latest frame"
        ev.crown_card_changed = round(card_share, 2)
        ev.changed_area_cm2 = round(area, 1)
        ev.arm_over_seat = self._arm_over(t)
        if ev.arm_over_seat:
            ev.outcome = Outcome.TOUCHED if ev.max_shift_cm >= cfg.moved_cm else Outcome.NOTHING
            ev.reason = "a hand or arm covers the seat at the end: the Godfather looks"
            ev.confidence = 0.3
            return ev
        place_changed = card_share >= cfg.covered_share
        # seen moving and then back at its place: it swung and stands; a star resting on its crown,
        # raised towards the camera and casting a shadow, changes more than a star on the table
        came_back = t.first_move is not None and t.last_seen_shift is not None and t.last_seen_shift < cfg.moved_cm
        # the star met it and may rest on it: a fall changes a star's worth more than the least fall;
        # unless the star is seen lying elsewhere, where it counts only what of it lies in the strip
        star = 0.0
        if t.contact:
            elsewhere = self._star_elsewhere(t, strip)
            star = STAR_AREA_CM2 if elsewhere is None else elsewhere
        fallen_area = cfg.fallen_area_cm2 + star
        if area >= fallen_area and place_changed and t.lost_under_arm and t.first_move is None:
            # lost under a hand or arm come in from the border and never seen moving: a hand resting
            # over the crown (its arm too faint against the table to be traced to the border) changes
            # the card's place and the strip as a fall would
            ev = self._standing(ev, t)
            ev.reason = (f"crown marker lost under a hand or arm and never seen moving, {area:.0f} cm² changed "
                         f"along its fall line: covered or fallen under it, unsure; {ev.reason}")
            ev.confidence = min(ev.confidence, 0.5)
            return ev
        if area >= fallen_area and (place_changed or went_away) and not came_back:
            ev.outcome = Outcome.KNOCKED
            gone = (f"its card's place {100 * card_share:.0f} % changed" if place_changed else
                    f"last seen {t.last_seen_shift:.1f} cm from its place, never back")
            ev.reason = (f"crown marker gone, {gone}, and {area:.0f} cm² changed along its fall line in {seen_in} "
                         f"(a fallen standee, at least {fallen_area:g} cm²)"
                         f"{', base marker still seen' if ev.base_seen_at_end else ''}")
            ev.confidence = (0.95 if ev.base_seen_at_end else 0.8) - (0 if place_changed else 0.05)
            if latest < fallen_area:
                # a standee's worth changed only where the frames' noise is averaged out: unsure
                ev.reason += f" (the latest frame alone: {latest:.0f} cm²): the Godfather looks"
                ev.confidence = min(ev.confidence, 0.55)
            return ev
        ev = self._standing(ev, t)
        if not place_changed:
            why = f"its card's place looks as when armed ({100 * card_share:.0f} % changed)"
        elif area >= fallen_area:
            why = (f"its crown was seen back at its place after it moved, then covered ({area:.0f} cm² changed "
                   f"along its fall line)")
            if not t.last_seen_sure:
                # seen back by its card's look alone, not as sharp as at rest: a fallen standee's
                # picture, lying still where the card stood, matches a part of the card the same
                # way in frame after frame
                why += ", seen back by a weak likeness only: unsure"
        else:
            why = (f"only {area:.0f} cm² changed along its fall line in {seen_in}, a star-sized blob, less than a "
                   f"fallen standee ({fallen_area:g} cm²): covered")
        ev.reason = f"crown marker not decoded, but {why}: still up; {ev.reason}"
        ev.confidence = min(ev.confidence, 0.75)
        if place_changed and area >= fallen_area and not t.last_seen_sure:
            ev.confidence = min(ev.confidence, 0.5)
        if went_away:
            # last seen away from its place and never back: a star dropping onto a crown in mid-swing
            # looks so, and so does a fall that changed little of a table of the standee's colour
            # (or of its card's place, in a dim room: the card not found there at rest is not there)
            ev.reason += f"; but last seen {t.last_seen_shift:.1f} cm from its place, never back: unsure"
            ev.confidence = min(ev.confidence, 0.5)
        if not place_changed and card_share >= 0.4 * cfg.covered_share and (t.contact or ev.max_shift_cm >= cfg.moved_cm):
            # the star met it or its crown moved, and a part of its card's place changed: it may
            # lie with its crown card where the standee stood
            ev.reason += f"; but {100 * card_share:.0f} % of its card's place changed after a touch: unsure"
            ev.confidence = min(ev.confidence, 0.5)
        return ev

    def _changed_at_rest(self) -> np.ndarray | None:
        """What differs from the reference in the median of the latest frames (``MotionDetector.
        changed_at_rest``: sensor noise averaged out, a change of little contrast seen whole), when
        every one of them was still; else None."""
        if self._still < SETTLED_FRAMES:
            return None
        return self.motion.changed_at_rest()

    def _star_elsewhere(self, t: _SeatTrack, strip: np.ndarray | None) -> float | None:
        """cm² of the seat's fall strip the star covers where it lies, when it is seen lying away
        from this crown; None when it may lie on this crown. Lying away: the last star-sized blob
        seen farther than a star's width from the crown's place after the crown first moved (the
        star bounced off it) lies where a star's worth of table changed at the end, alone (a
        star-sized change, not a part of a fallen standee's)."""
        if t.crown is None or strip is None or t.first_move is None:
            return None
        ppc = self._ppc(t)
        away = 2 * STAR_RADIUS_CM * ppc
        far: list[np.ndarray] = []
        for frame, centres in reversed(self._star_track):
            if frame < t.first_move:
                break
            far = [c for c in centres if float(np.linalg.norm(c - t.crown.center)) >= away]
            if far:
                break
        if not far:
            return None
        scale = self.config.motion_scale
        changed = self.motion.changed_now()
        cm2_per_pixel = self._cm2_per_pixel(t)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
        for c in far:
            disc = np.zeros(changed.shape, np.uint8)
            cv2.circle(disc, (int(round(c[0] / scale)), int(round(c[1] / scale))),
                       max(1, int(round((STAR_RADIUS_CM + 1) * ppc / scale))), 1, -1)
            ids = set(np.unique(labels[disc.astype(bool) & changed]).tolist()) - {0}
            star = np.isin(labels, sorted(ids)) if ids else np.zeros(changed.shape, bool)
            area = float(star.sum()) * cm2_per_pixel
            if 0.5 * STAR_AREA_CM2 <= area <= 2.5 * STAR_AREA_CM2:
                return float((star & strip).sum()) * cm2_per_pixel
        return None

    def _fall_way(self, t: _SeatTrack) -> np.ndarray | None:
        """Low-resolution mask of the strip a standee lies in when fallen the way its crown was last
        seen going (from just behind its place to a standee's length beyond, a standee's width
        across); None without a known way."""
        if t.crown is None or t.last_seen_px is None:
            return None
        norm = float(np.linalg.norm(t.last_seen_px))
        if norm < 1.0:
            return None
        ppc = self._ppc(t)
        low = self.motion.changed_now().shape
        return self._band((low[0], low[1]), t.crown.center.astype(np.float64), t.last_seen_px / norm,
                          back=(markers.CROWN_SIZE_CM / 2 + 1.0) * ppc, ahead=FALL_REACH_CM * ppc,
                          half_wide=FALL_WIDTH_CM / 2 * ppc)

    def _ppc(self, t: _SeatTrack) -> float:
        """Image px per cm on the table plane at the seat (the calibration's mean without a marker there)."""
        return t.table_ppc if t.table_ppc > 0 else self.calibration.px_per_cm

    def _cm2_per_pixel(self, t: _SeatTrack) -> float:
        """cm² of table at the seat one low-resolution pixel covers."""
        return (self.config.motion_scale / self._ppc(t)) ** 2

    def _changed_near_base(self, t: _SeatTrack) -> float:
        """cm² of table changed at the end within a standee's length of the seat's base marker."""
        if t.base is None:
            return 0.0
        scale = self.config.motion_scale
        changed = self.motion.changed_now()
        disc = np.zeros(changed.shape, np.uint8)
        centre = np.round(t.base.center / scale).astype(int)
        cv2.circle(disc, (int(centre[0]), int(centre[1])), int(FALL_REACH_CM * self._ppc(t) / scale), 1, -1)
        return float((changed & disc.astype(bool)).sum()) * self._cm2_per_pixel(t)

    def _arm_over(self, t: _SeatTrack) -> bool:
        """Whether a hand or arm covers the crown card's place: a change reaching in from the image
        border that lies mostly outside the seat's fall strip (a standee fallen at the edge of the
        view also reaches the border, but lies inside its strip), unless the standee itself went
        first: its crown seen moving away, and never back, before anything from the border reached
        it, and the change no larger than a standee lying flat, within a standee's length of where
        it stood (fallen towards the edge of the view, in any direction)."""
        if t.card_mask is None or t.fall_mask is None:
            return False
        arm = self.motion.arm_mask()
        if not (arm & t.card_mask).any():
            return False
        _, labels = cv2.connectedComponents(arm.astype(np.uint8), connectivity=8)
        cm2_per_pixel = self._cm2_per_pixel(t)
        changed = self.motion.changed_now()
        went_first = self._went_first(t)
        for i in set(np.unique(labels[t.card_mask & arm])) - {0}:
            blob = labels == i
            core = blob & changed  # what changed, without the arm trace's lower threshold and margin
            area = float(core.sum()) * cm2_per_pixel
            if went_first:
                near = float((core & self._reach(t)).sum()) * cm2_per_pixel
                # what a fall changes, at most: seen from above, where it stood changed little; a hand
                # resting there after a swing, with its forearm, changes more
                if area <= FALL_CHANGE_MAX_CM2 and near >= 0.85 * area:
                    continue
            if float((blob & t.fall_mask).sum()) < 0.6 * float(blob.sum()):
                return True  # reaches in from beyond the seat's strip
            if t.lost_under_arm is False:
                continue  # the crown went before anything came in from the border: the standee itself
            if area > MAX_STANDEE_AREA_CM2:
                return True  # larger than a standee lying flat: a forearm along the seat's line
        return False

    def _went_first(self, t: _SeatTrack) -> bool:
        """The crown was seen moving away from its place before any hand or arm reached its card,
        and was still away from it the last time it was seen."""
        return (t.first_move is not None and (t.arm_first is None or t.first_move < t.arm_first)
                and t.last_seen_shift is not None and t.last_seen_shift >= self.config.moved_cm)

    def _reach(self, t: _SeatTrack) -> np.ndarray:
        """Low-resolution mask of the table a fallen standee can cover: a standee's length around
        its crown's and its base's places, in any direction."""
        scale = self.config.motion_scale
        mask = np.zeros(self.motion.changed_now().shape, np.uint8)
        radius = int(round((FALL_REACH_CM + markers.CROWN_SIZE_CM) * self._ppc(t) / scale))
        for mark in (t.crown, t.base):
            if mark is not None:
                c = np.round(mark.center / scale).astype(int)
                cv2.circle(mask, (int(c[0]), int(c[1])), radius, 1, -1)
        return mask.astype(bool)

    def _star_went_on_from(self, t: _SeatTrack) -> int | None:
        """The seat beside this one (the seats before and after it, around the table) whose standee
        the star was last seen near, if any. A star that meets a standee goes on, slowed, and the
        standee beside it is the next in its way (a two-standee throw): seen no more (behind the
        first standee's swing or fall, blurred, under the thrower's arm, or lying on a crown), it
        may have touched this one lightly, unseen."""
        _, centres = self._star_last
        if not centres or t.seat == self.thrower:
            return None
        reach = STAR_NEAR_CM * self.calibration.px_per_cm
        for seat in sorted({(t.seat - 1) % self.seats, (t.seat + 1) % self.seats} - {self.thrower, t.seat}):
            other = self.tracks.get(seat)
            mark = None if other is None else other.crown if other.crown is not None else other.base
            if mark is not None and any(float(np.linalg.norm(c - mark.center)) < reach for c in centres):
                return seat
        return None

    def _standing(self, ev: SeatEvidence, t: _SeatTrack) -> SeatEvidence:
        """A standee up at the end: touched when its crown was seen to move a touch's worth (or
        stands pushed off its place), else nothing; nothing asks the Godfather when a touch could
        have gone unseen (the first doubt found is the reason)."""
        cfg = self.config
        moved = ev.max_shift_cm
        final = ev.final_shift_cm or 0.0
        near = ev.star_nearest_cm
        star_near = t.contact or (near is not None and near < STAR_NEAR_CM)
        went_on = None if star_near else self._star_went_on_from(t)
        star_near = star_near or went_on is not None
        # without the base marker the shift rests on registering the whole frame, which can be off
        # by a pixel or two under shake: twice the threshold, and the band between asks
        loose = t.registered * 2 > len(t.best_shifts) or ev.shift_measured_against == "registered frame"
        if loose and cfg.moved_cm <= max(moved, final) < 2 * cfg.moved_cm:
            ev.outcome = Outcome.TOUCHED if moved >= cfg.moved_cm else Outcome.NOTHING
            ev.reason = (f"crown marker moved {max(moved, final):.2f} cm against the registered frame (its base "
                         f"marker unseen): too little to be sure")
            ev.confidence = 0.5
            return ev
        if moved >= cfg.moved_cm:
            ev.outcome = Outcome.TOUCHED
            ev.reason = (f"crown marker moved {moved:.2f} cm (at least {cfg.moved_cm:g} cm in two frames, or surely in "
                         f"one: its marker and its card's look agreeing, or its card's look as sharp as at rest) and "
                         f"came back")
            ev.confidence = float(min(0.97, 0.6 + 0.4 * (moved - cfg.moved_cm) / cfg.moved_cm))
            return ev
        if final >= 2 * cfg.moved_cm:
            ev.outcome = Outcome.TOUCHED
            ev.reason = f"standee still up but pushed {final:.2f} cm from its place"
            ev.confidence = 0.7
            return ev
        ev.outcome = Outcome.NOTHING
        best = sorted(t.best_shifts) or [0.0]
        # frames the crown was out of sight in which a touch would not be seen: with no hand over it
        # (tilted away, or under the star), or under a hand while the star flew close
        unseen = max(t.hidden_free, t.hidden_in_flight if near is None or near < STAR_NEAR_CM else 0,
                     t.star_lost_under_arm)
        covered = self._covered_swing(t) if star_near and ev.crown_seen_at_end is not True else None
        if covered is not None:
            # the crown marker not decoded at the end (the star lying on it): the part of its card left
            # in view swung and came back past its place, as a rocking standee's does
            ev.outcome = Outcome.TOUCHED
            ev.covered_swing_cm = round(covered[0], 3)
            ev.reason = (f"crown marker not decoded at the end (covered), but the part of its card left in view "
                         f"swung {covered[0]:.2f} cm along one line in two frames and {covered[2]:.2f} cm back the "
                         f"other way after the shuriken came (at most {covered[1]:.2f} cm off that line): rocked, "
                         f"touched: unsure")
            ev.confidence = 0.55
        elif final >= cfg.moved_cm:  # as much as registration and decoding can be off in a hard scene
            ev.reason = f"crown marker {final:.2f} cm from its place at the end but never seen moving: unsure"
            ev.confidence = 0.5
        elif star_near and max(moved, final) >= 0.5 * cfg.moved_cm:
            # more than a still crown jitters, less than a touch: a light touch whose swing fell
            # between frames looks like this
            where = (f"it was last seen by seat {went_on}'s standee, beside this one, and went on unseen"
                     if went_on is not None else "its blob met the standee" if near is None
                     else f"it passed {near:.0f} cm from it")
            swing = self._swing(t) if near is None or near < LIGHT_TOUCH_REACH_CM else None
            if swing is not None:
                # a standee rocks in its base about an edge of its base: its crown moves along one
                # line, there and back; what the measure adds moves it any way, off that line too
                ev.outcome = Outcome.TOUCHED
                ev.reason = (f"shuriken came close ({where}); its crown then swung {swing[0]:.2f} cm along one line "
                             f"in two frames, and back, at least twice as far as it was ever seen off that line "
                             f"({swing[1]:.2f} cm): a light touch, less than a touch's worth ({cfg.moved_cm:g} cm): "
                             f"unsure")
            else:
                ev.reason = (f"shuriken came close ({where}) and its crown moved {max(moved, final):.2f} cm, more "
                             f"than a still crown's jitter ({0.5 * cfg.moved_cm:g} cm), less than a touch: unsure")
            ev.confidence = 0.55
        elif star_near and best[-1] >= cfg.moved_cm:
            # a touch's worth in one frame while the star was close, not confirmed by a second reading
            # or frame: a light touch's swing, sampled at its peak once, looks so
            ev.reason = (f"crown seen {best[-1]:.2f} cm from its place in one frame while the shuriken came close, "
                         f"in no other: unsure")
            ev.confidence = 0.55
        elif t.unvouched >= cfg.moved_cm:
            ev.reason = (f"crown seen {t.unvouched:.2f} cm from its place in one frame only, a frame whose "
                         f"registration neither the fixed markers, the base cards nor the other crowns vouch for: unsure")
            ev.confidence = 0.5
        elif unseen >= 2:
            ev.reason = (f"crown marker unseen in {unseen} frames in which a touch would not be seen (no hand over "
                         f"it, the shuriken flying close, or the shuriken lost from view under the hand over it; "
                         f"moved at most {moved:.2f} cm when seen): unsure")
            ev.confidence = 0.5
        elif t.passed_unseen_cm is not None and t.last_seen_frame < t.passed_unseen_at:
            # never seen again once the star came back: a swing started unseen would show then
            ev.reason = (f"the shuriken's path passed {t.passed_unseen_cm:.1f} cm from its crown while both were out of "
                         f"sight (moved at most {moved:.2f} cm when seen): unsure")
            ev.confidence = 0.5
        else:
            ev.reason = f"crown marker stayed in place (moved at most {moved:.2f} cm)"
            seen = t.examined - t.unseen
            ev.confidence = 0.95 if (seen >= 2 or not t.contact) else 0.85
            if moved > 0.5 * cfg.moved_cm:
                ev.confidence = min(ev.confidence, 0.6 + 0.35 * (cfg.moved_cm - moved) / (0.5 * cfg.moved_cm))
        return ev

    def _swing(self, t: _SeatTrack) -> tuple[float, float] | None:
        """A light touch's swing of the crown, less than a touch's worth: (how far it swung, the
        farthest it was seen off the swing's line), cm; None when the readings do not show one. A
        standee rocks in its base about an edge of its base, so a touch moves its crown along one
        line (across its card, whichever way the standee faces) and back: two readings at most two
        frames apart, the same way along the line of the farthest reading by at least a still crown's
        jitter, each more along that line than across it; still before the star came near (a frame
        earlier at most: the star hides the crown as it meets it), or before the star was first seen
        when it went on unseen from the standee beside; seen back afterwards (within a jitter of its
        place, or swung the other way); and standing out of what the measure adds, which moves a
        crown's reading any way: at least twice the farthest any reading lies off that line."""
        since = t.star_came
        if since is None and self._star_track:
            since = self._star_track[0][0]
        jitter = 0.5 * self.config.moved_cm
        if since is None or any(math.hypot(x, y) >= jitter for f, x, y in t.readings if f < since - 1):
            return None
        after = [r for r in t.readings if r[0] >= since - 1]
        if not after:
            return None
        _, px, py = max(after, key=lambda r: math.hypot(r[1], r[2]))
        norm = math.hypot(px, py)
        if norm < jitter:
            return None
        ux, uy = px / norm, py / norm  # the swing's line

        def on_line(r: tuple[int, float, float]) -> tuple[int, float, float]:
            return r[0], r[1] * ux + r[2] * uy, r[2] * ux - r[1] * uy  # frame, along, across

        off_line = max(abs(on_line(r)[2]) for r in t.readings)
        line = [on_line(r) for r in after]
        best: float | None = None
        for i, ((f1, a1, c1), (f2, a2, c2)) in enumerate(zip(line, line[1:])):
            if f2 - f1 > 2 or a1 * a2 <= 0 or min(abs(a1), abs(a2)) < jitter:
                continue
            if abs(c1) > 0.5 * abs(a1) or abs(c2) > 0.5 * abs(a2):
                continue
            if max(abs(a1), abs(a2)) < 2 * off_line:
                continue
            if not any(math.hypot(a, c) < jitter or a * a1 < 0 for _, a, c in line[i + 2:]):
                continue
            best = max(best or 0.0, max(abs(a1), abs(a2)))
        return None if best is None else (best, off_line)

    def _covered_readings(self, t: _SeatTrack) -> list[tuple[int, float, float]]:
        """Per frame kept since the star was seen (``_keep_around_crowns``): where the crown was against
        where it stands at the end (cm on the crown's plane), by the part of its card and margin that
        looks at the end as when armed: what the star lying on it leaves in view. Each frame is measured
        against its base card found the same way (else its registered shift). Empty when that part is
        too small or too plain to follow."""
        if t.crown is None or t.armed_patch is None or not t.kept or self._rest_end is None:
            return []
        final = self._rest_end
        size = (final.shape[1], final.shape[0])
        half, search = _covered_half(t.crown)
        box = _patch_box(t.crown.center, half, size)
        if box is None:
            return []
        x0, y0, x1, y1 = box
        template = patches.gray(final[y0:y1, x0:x1])
        diff = template - t.armed_patch
        diff -= float(np.median(diff))  # a change of exposure moves every grey level alike
        left = (np.abs(diff) < max(10.0, 3.0 * t.armed_noise)).astype(np.uint8)
        left = cv2.erode(left, np.ones((3, 3), np.uint8))
        base_template = None
        if t.base is not None:
            bhalf = _base_half(t.base)
            bbox = _patch_box(t.base.center, bhalf, size)
            if bbox is not None:
                base_template = patches.gray(final[bbox[1]:bbox[3], bbox[0]:bbox[2]])
        readings = []
        for frame_no, crop, base_crop, shift in t.kept:
            found = patches.masked_shift(template, left, patches.gray(crop))
            if found is None:
                continue
            moved = np.array(found[:2], np.float64)
            base = None
            if base_template is not None and base_crop is not None:
                base = patches.masked_shift(base_template, np.ones(base_template.shape, np.uint8), patches.gray(base_crop))
            if base is not None and base[2] >= patches.MIN_SCORE:
                moved -= np.array(base[:2], np.float64)
            else:
                moved += np.array([round(shift[0]) - shift[0], round(shift[1]) - shift[1]])
            cm = t.to_cm @ moved
            readings.append((frame_no, float(cm[0]), float(cm[1])))
        return readings

    def _covered_swing(self, t: _SeatTrack) -> tuple[float, float, float] | None:
        """A standee rocking under the star that came to rest on its crown: (how far the part of its card
        left in view swung, the farthest it was seen off the swing's line, how far it swung back the
        other way), cm; None without one. Rocking about an edge of its base moves the crown along one
        line and back past where it comes to rest (a damped swing): two readings at most two frames
        apart a touch's worth (``moved_cm``) the same way along the line of the farthest reading, each
        more along it than across; later, one the other way by at least a still crown's jitter; and at
        least twice the farthest any reading lies off that line. A star dropped onto a crown that did
        not move leaves that part still."""
        readings = self._covered_readings(t)
        if not readings:
            return None
        jitter = 0.5 * self.config.moved_cm
        _, px, py = max(readings, key=lambda r: math.hypot(r[1], r[2]))
        norm = math.hypot(px, py)
        if norm < self.config.moved_cm:
            return None
        ux, uy = px / norm, py / norm
        line = [(f, x * ux + y * uy, y * ux - x * uy) for f, x, y in readings]  # frame, along, across
        off_line = max(abs(c) for _, _, c in line)
        best: tuple[float, float, float] | None = None
        for i, ((f1, a1, c1), (f2, a2, c2)) in enumerate(zip(line, line[1:])):
            if f2 - f1 > 2 or a1 * a2 <= 0 or min(abs(a1), abs(a2)) < self.config.moved_cm:
                continue
            if abs(c1) > 0.5 * abs(a1) or abs(c2) > 0.5 * abs(a2) or max(abs(a1), abs(a2)) < 2 * off_line:
                continue
            back = [abs(a) for _, a, c in line[i + 2:] if a * a1 < 0 and abs(a) >= jitter and abs(c) <= abs(a)]
            if back and (best is None or max(abs(a1), abs(a2)) > best[0]):
                best = (max(abs(a1), abs(a2)), off_line, max(back))
        return best

    def _conclude(self, reason: str, *, unsettled: bool = False, unsure: bool = False,
                  final: dict[int, tuple[Outcome, SeatEvidence]] | None = None) -> Verdict:
        final = final or self._final_states()
        evidence = {s: ev for s, (_, ev) in final.items()}
        if unsettled or unsure:
            for ev in evidence.values():
                ev.confidence *= 0.5
        for seat in self._hidden_under_hand:
            ev = evidence[seat]
            if ev.outcome is Outcome.NOTHING:
                ev.reason += "; its crown was under a hand while something star-sized moved: the Godfather looks"
                ev.confidence = min(ev.confidence, 0.5)
        conf = min((ev.confidence for ev in evidence.values()), default=1.0)
        knocked = sorted(s for s, e in evidence.items() if e.outcome is Outcome.KNOCKED)
        touched = sorted(s for s, e in evidence.items() if e.outcome is Outcome.TOUCHED)
        self.verdict = Verdict(knocked, touched, evidence, float(conf), conf < self.config.ask_godfather_below,
                               reason, self._shuriken_seen, self._frames)
        self.state = State.JUDGED
        log.info("throw judged (%s): knocked %s touched %s, confidence %.2f", reason, knocked, touched, conf)
        return self.verdict


def _pixels_to_cm(crown: Detection) -> np.ndarray:
    """The 2x2 matrix taking a small image displacement at the crown to cm on the crown's plane
    (parallel to the table): the inverse of the marker's own edges per cm, so tilt and lens
    distortion foreshortening the marker are undone."""
    c = crown.corners.astype(np.float64)
    along_x = ((c[1] - c[0]) + (c[2] - c[3])) / (2 * markers.CROWN_SIZE_CM)
    along_y = ((c[3] - c[0]) + (c[2] - c[1])) / (2 * markers.CROWN_SIZE_CM)
    basis = np.column_stack([along_x, along_y])
    if abs(np.linalg.det(basis)) < 1e-6:
        return np.eye(2) * markers.CROWN_SIZE_CM / max(crown.side_px, 1.0)
    return np.linalg.inv(basis)


def _table_scale(base: Detection | None, crown: Detection | None, base_per_crown: float) -> float:
    """Image px per cm on the table plane at a seat: from its base marker's area (flat on the table),
    else from its crown's, scaled down as the other seats' bases are to their crowns; 0 with neither
    (the calibration's mean is used then). Under a strong tilt a far seat's centimetre is a third
    smaller than the near seats'."""
    if base is not None and base.area_px > 0:
        return math.sqrt(base.area_px) / markers.BASE_SIZE_CM
    if crown is None:
        return 0.0
    return math.sqrt(max(crown.area_px, 1.0)) / markers.CROWN_SIZE_CM * base_per_crown


def _patch_box(centre: np.ndarray, half: int, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) of the square of ``half`` px each way around ``centre`` (whole pixels), None
    where it leaves the image (``size``: width, height)."""
    cx, cy = int(round(float(centre[0]))), int(round(float(centre[1])))
    box = (cx - half, cy - half, cx + half, cy + half)
    return box if box[0] >= 0 and box[1] >= 0 and box[2] <= size[0] and box[3] <= size[1] else None


def _covered_half(crown: Detection) -> tuple[int, int]:
    """Half the side of the patch around a crown followed while the star covers it (its card and a
    margin), and how far it is searched each way (half a marker's side: a swing's reach), px."""
    side = crown.side_px
    return max(6, int(round(COVERED_HALF * side))), max(3, int(0.5 * side))


def _base_half(base: Detection) -> int:
    """Half the side of the patch of a base card followed to register a kept frame, px."""
    return max(4, int(round(0.6 * base.side_px)))


def _armed_patch(still: np.ndarray, frames: list[np.ndarray], crown: Detection) -> tuple[np.ndarray | None, float]:
    """The grey patch around the crown at rest when armed, and the grey noise there (the median absolute
    difference of two reference frames, as a standard deviation)."""
    half, _ = _covered_half(crown)
    box = _patch_box(crown.center, half, (still.shape[1], still.shape[0]))
    if box is None:
        return None, 0.0
    x0, y0, x1, y1 = box
    patch = patches.gray(still[y0:y1, x0:x1])
    if len(frames) < 2:
        return patch, 0.0
    diff = np.abs(patches.gray(frames[0][y0:y1, x0:x1]) - patches.gray(frames[-1][y0:y1, x0:x1]))
    return patch, float(np.median(diff)) / 0.6745


def _median_at_rest(frames: list[np.ndarray], shifts: list[tuple[float, float]]) -> np.ndarray | None:
    """The per-pixel median of frames of the table at rest, each moved back onto the reference by its
    shift (camera shake): sensor noise and compression blocks, different in every frame, drop out
    while the markers, which do not move, stay sharp. None with fewer than three frames."""
    if len(frames) < 3:
        return None
    h, w = frames[0].shape[:2]
    moved = []
    for frame, (dx, dy) in zip(frames, shifts):
        if abs(dx) > 0.02 or abs(dy) > 0.02:
            m = np.array([[1, 0, -dx], [0, 1, -dy]], np.float32)
            frame = cv2.warpAffine(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        moved.append(frame)
    if len(moved) == 3:  # the median of three, element by element: max(min(a, b), min(max(a, b), c))
        a, b, c = moved
        return cv2.max(cv2.min(a, b), cv2.min(cv2.max(a, b), c))
    return np.asarray(np.median(np.stack(moved), axis=0), np.uint8)


def _fits_among(det: Detection, found: dict[int, Detection]) -> bool:
    """Whether ``det`` is the size of the cards of its kind among ``found`` (within a factor of 1.6 of
    their median side, when any) and lies apart from every one of them."""
    def kind(d: Detection) -> markers.MarkerKind | None:
        k = markers.kind_of(d.marker_id)
        return None if k is None else k[0]

    sides = [d.side_px for d in found.values() if kind(d) is kind(det)]
    if sides and not 1 / 1.6 <= det.side_px / float(np.median(sides)) <= 1.6:
        return False
    return all(float(np.linalg.norm(d.center - det.center)) > 0.5 * (d.side_px + det.side_px) for d in found.values())


def _seen_up(ev: SeatEvidence | None, fallen_cm: float) -> bool:
    """Whether a seat's evidence shows its standee up at the end: not knocked, and its crown marker
    found at the end or its card's look found near its place."""
    if ev is None or ev.outcome is Outcome.KNOCKED:
        return False
    return bool(ev.crown_seen_at_end) or (ev.final_card_shift_cm is not None and ev.final_card_shift_cm < fallen_cm)


def _fallen_among(others: dict[int, SeatEvidence], seats: list[int]) -> list[int]:
    """Those of ``seats`` whose evidence (in ``others``) is ``knocked``."""
    return [s for s in seats if s in others and others[s].outcome is Outcome.KNOCKED]


def _inside_ring(centre: np.ndarray, points: list[np.ndarray]) -> bool:
    """Whether ``centre`` lies inside the ring of ``points`` (the seats' and corners' markers read):
    seen from a point inside the table's edge they lie all round it, no half turn without one. Without
    every corner marker the centre is the mean of the markers read, which lies among them, towards
    the side read, when a whole side was unread: the angles about it say nothing of the seats' order."""
    if len(points) < 3:
        return False
    angles = np.sort([math.atan2(float(p[1] - centre[1]), float(p[0] - centre[0])) for p in points])
    gaps = np.diff(np.append(angles, angles[0] + 2 * math.pi))
    return float(gaps.max()) < math.pi


def _numbering_way(angles: list[float]) -> int:
    """Which way the seats go round the table's centre in the image, from the angles (radians) of the
    seats read in the order of their numbers: +1 (the angle grows), -1, or 0 when neither goes round
    once (too few seats, or out of order)."""
    if len(angles) < 3:
        return 0
    a = np.asarray(angles)
    for way in (1, -1):
        steps = (way * (np.roll(a, -1) - a)) % (2 * math.pi)
        if round(float(steps.sum()) / (2 * math.pi)) == 1:
            return way
    return 0


def _extent(mask: np.ndarray) -> float:
    """The longest side of the smallest rectangle round a mask's pixels, in its pixels."""
    pts = np.column_stack(np.nonzero(mask)[::-1]).astype(np.float32)
    if len(pts) < 2:
        return float(len(pts))
    (_, _), (w, h), _ = cv2.minAreaRect(pts)
    return float(max(w, h)) + 1.0


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Distance from point ``p`` to the segment from ``a`` to ``b`` (image px)."""
    ab = b - a
    f = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + f * ab)))


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
        except ClipError as exc:
            raise ClipError(f"{path}: {exc}") if not str(exc).startswith(str(path)) else exc from None
        except ValueError as exc:
            raise ClipError(f"{path}: {exc}") from None
