"""A seat's track during a throw (what the judge saw of its crown and base cards frame by frame),
the measures of the pieces and the star it is read by, and the patches and masks around its cards."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision import markers, patches
from vision.markers import Detection
from vision.motion import STAR_AREA_CM2
from vision.patches import Look

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
# a star seen in flight comes to rest this close to its seen way: it slides on, or glances off a standee, unseen
STAR_RUN_CM = 20.0
STANDEE_WIDTH_CM = 7.5  # the widest standee
# a light swing, less than a touch's worth, is a touch only where the star came within its own radius
# and the widest standee's width of the crown: farther, it could not have met that standee
LIGHT_TOUCH_REACH_CM = STAR_RADIUS_CM + STANDEE_WIDTH_CM
HAND_NEAR_CM = 5.0  # a hand or arm this close to a crown card's edge comes near it (a hand's width)
TURN_DEG = 60.0  # the star's way turning this much in flight: it met something
TURN_WINDOW_S = 0.07  # the star's way into and out of a sighting, over at most this long each
COVERED_HALF = 0.85  # half the side (in crown marker sides) of the patch followed when the star covers the crown
BASE_SEARCH_PX = 4  # a base card lies on the table: followed this far each way around its place
JUMP_CM = 1.0  # a crown seen by its card's look alone this much nearer its place than where it was last seen: not yet believed


@dataclass
class SeatTrack:
    """Per-seat state during a throw."""

    seat: int
    crown: Detection | None  # where the crown was when armed
    base: Detection | None
    cm_per_px: float
    crop: tuple[int, int, int, int]
    watch: tuple[int, int, int, int]  # low-resolution box where motion makes us look closely
    body: tuple[int, int, int, int]  # full-resolution box of the standee seen from above
    to_cm: np.ndarray = field(default_factory=lambda: np.zeros((2, 2)))  # image px -> cm on the crown's plane
    most_cm_per_px: float = 0.0  # the most one image px is on the crown's plane, cm (``to_cm``'s largest stretch)
    table_ppc: float = 0.0  # image px per cm on the table plane at this seat (tilt makes far seats smaller)
    card_mask: np.ndarray | None = None  # low-resolution mask of the crown card's place
    fall_mask: np.ndarray | None = None  # low-resolution mask of the strip a fallen standee lies in
    lie_mask: np.ndarray | None = None  # that strip and the one along the seat's line through its base marker
    shifts: list[float] = field(default_factory=list)
    crown_look: Look | None = None  # the crown card's look at rest, tracked by correlation
    base_look: Look | None = None
    card_shifts: list[float] = field(default_factory=list)  # crown card displacements by correlation, cm
    # per frame: the crown's shift (by the card's look if found, else the marker), and the same less what the frame's
    # rows around the crown may be off beyond a still crown's jitter (``CrownLooks._rows_doubt``: a vibrating camera)
    best_readings: list[tuple[float, float]] = field(default_factory=list)
    confirmed: float = 0.0  # largest shift seen surely in one frame (marker and card agree, or the card sharp), cm
    unvouched: float = 0.0  # the same, in a frame whose registration nothing vouched for (``CrownLooks._offset``): a doubt only
    examined: int = 0
    hidden: int = 0
    contact: bool = False
    registered: int = 0  # crown shifts measured against the registered frame (no base marker seen)
    unseen: int = 0  # frames neither the crown marker nor its card's look was found
    under_arm: int = 0  # of those, frames a hand or arm from the border covered its card
    read_by_cells: bool = False  # its crown and base unread when armed, read from their cells (``markers.read_by_cells``)
    hidden_free: int = 0  # frames the crown was not found with no hand or arm over its card
    hidden_in_flight: int = 0  # frames the crown was not found once the shuriken was seen in flight
    star_nearest_px: float | None = None  # closest a shuriken blob's centre came to the crown, image px
    lost_under_arm: bool | None = None  # when the crown was first lost: under a hand or arm come in from the border?
    # where that hand or arm crossed the view's border then (low-resolution mask; None when not lost under one)
    arm_entry: np.ndarray | None = None
    # the crown not seen at the end of the watch before a re-arm (a star at rest on it): when it is first missed
    # after that says nothing of when it went, so ``lost_under_arm`` stays unknown until it is seen again
    hidden_at_arm: bool = False
    first_change: int | None = None  # frame (since arming) when the crown first moved or was lost
    star_far_now: bool = False  # this frame shows the star, and far from this crown
    watch_until: int = -1  # frame until which the crown is looked at whatever moves (the star passed near)
    first_move: int | None = None  # frame when the crown was first seen moved a touch's worth from its place
    # frame when a hand or arm from the border first covered its card (since its crown was last read sure at its
    # place, clear of any hand, before it ever moved: a hand that came and went says nothing of what came later)
    arm_first: int | None = None
    near: tuple[int, int, int, int] = (0, 0, 0, 0)  # low-resolution box a hand's width around the crown card
    # first of the unbroken run of frames, up to the one a hand or arm first covered its card (``arm_first``),
    # with a hand or arm from the border in ``near``
    arm_near_since: int | None = None
    last_seen_shift: float | None = None  # the crown's displacement (cm) the last time it was seen
    last_seen_px: np.ndarray | None = None  # the same displacement in image px (the way it went)
    pending_seen: float | None = None  # a reading of the card's look alone (no marker decoded) waiting for a second
    last_seen_sure: bool = False  # the last reading was the decoded marker or the card as sharp as at rest
    star_lost_under_arm: int = 0  # frames its card lay under the hand or arm the star was lost under
    last_seen_frame: int = -1  # frame when the crown was last seen (decoded or its card's look found)
    passed_unseen_cm: float | None = None  # closest the star's path came to it while the star and it were unseen
    passed_unseen_at: int = -1  # frame the star came back into sight after that stretch
    lost_frames: list[int] = field(default_factory=list)  # frames the crown was looked for and not found
    # most frames, of one stretch the star was out of sight, that it could have flown to this crown and back in at
    # its speed while the crown was not found (``ThrowJudge._detour_unseen``)
    reach_unseen: int = 0
    readings: list[tuple[int, float, float]] = field(default_factory=list)  # per frame seen: (frame, x, y) displacement, cm
    # the frames of ``readings`` whose rows around the crown may be off by more than a still crown's jitter once
    # registered (a vibrating camera's bent frame): no swing is read from them
    bent: set[int] = field(default_factory=set)
    star_came: int | None = None  # frame the star first came within ``STAR_NEAR_CM`` of the crown
    armed_patch: np.ndarray | None = None  # grey patch of the crown card and its margin at rest when armed
    armed_noise: float = 0.0  # grey noise there (from the reference frames)
    # what is kept of a frame: the crown's and the base card's centres (image px) and half the sides of
    # the squares around them
    kept_boxes: tuple[np.ndarray, int, np.ndarray | None, int] | None = None
    # since something star-sized first moved, frames no hand or arm covered its card in: (frame, the image
    # around the crown's patch, around the base card, the frame's shift)
    kept: deque[tuple[int, np.ndarray, np.ndarray | None, tuple[float, float]]] = field(default_factory=deque)

    def comes_back(self, shift: float) -> bool:
        """Whether a reading ``shift`` cm from the crown's place puts it back more than ``JUMP_CM`` nearer its place
        than where it was last seen (at its place when armed): by its card's look alone, a likeness of the fallen
        standee's picture where the card stood, until a second reading agrees (``CrownLooks._note_seen``)."""
        last = self.last_seen_shift if self.last_seen_shift is not None else 0.0
        return shift < last - JUMP_CM

    def reset(self) -> None:
        self.shifts.clear()
        self.card_shifts.clear()
        self.best_readings.clear()
        self.confirmed = self.unvouched = 0.0
        self.examined = self.hidden = self.registered = self.unseen = self.under_arm = 0
        self.lost_under_arm = None
        self.arm_entry = None
        self.hidden_at_arm = False
        self.hidden_free = self.hidden_in_flight = 0
        self.star_nearest_px = None
        self.contact = False
        self.first_change = self.first_move = self.arm_first = self.arm_near_since = None
        self.last_seen_shift = self.pending_seen = None
        self.last_seen_px = None
        self.last_seen_sure = False
        self.star_lost_under_arm = 0
        self.last_seen_frame = -1
        self.passed_unseen_cm = None
        self.passed_unseen_at = -1
        self.lost_frames.clear()
        self.reach_unseen = 0
        self.watch_until = -1
        self.readings.clear()
        self.bent.clear()
        self.star_came = None
        self.kept.clear()


def in_two_frames(shifts: Iterable[float]) -> float:
    """The largest of ``shifts`` (one a frame) that two frames or more show: the second largest; 0 for fewer than two."""
    ordered = sorted(shifts)
    return ordered[-2] if len(ordered) >= 2 else 0.0


def box_around(centre: np.ndarray, half: float, size: tuple[int, int]) -> tuple[int, int, int, int]:
    w, h = size
    return (max(0, int(centre[0] - half)), max(0, int(centre[1] - half)),
            min(w, int(centre[0] + half) + 1), min(h, int(centre[1] + half) + 1))


def segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Distance from point ``p`` to the segment from ``a`` to ``b`` (image px)."""
    ab = b - a
    f = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + f * ab)))


def nearest_pair(before: list[np.ndarray], after: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Of the star-sized blob centres seen in two frames (image px, neither list empty), the closest pair: the star's
    way from one frame to the other."""
    return min(((p, c) for p in before for c in after), key=lambda pc: float(np.linalg.norm(pc[0] - pc[1])))


def near_sightings(low: tuple[int, ...], track: list[tuple[int, list[np.ndarray]]], reach: float, *, scale: int,
                   start: list[np.ndarray] | None = None) -> np.ndarray:
    """Low-resolution mask (bool, of shape ``low``, ``scale`` image px to its pixel) of what lies within ``reach``
    image px of the star's sightings (``track``: each frame's star-sized blob centres, image px); with ``start``
    (where the star left from), within ``reach`` of its way from there through each frame's sightings too."""
    mask = np.zeros(low[:2], np.uint8)
    radius = max(1, round(reach / scale))
    before = start or []
    for _, centres in track:
        if start is not None and before and centres:
            a, b = (np.round(p / scale).astype(int) for p in nearest_pair(before, centres))
            cv2.line(mask, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 1, thickness=2 * radius + 1)
        for c in centres:
            p = np.round(c / scale).astype(int)
            cv2.circle(mask, (int(p[0]), int(p[1])), radius, 1, -1)
        before = centres or before
    return mask.astype(bool)


def band(low: tuple[int, int], centre: np.ndarray, along: np.ndarray, *, back: float, ahead: float,
         half_wide: float, scale: int) -> np.ndarray:
    """Low-resolution mask (of shape ``low``, ``scale`` image px to its pixel) of the band from ``back``
    image px behind ``centre`` to ``ahead`` px beyond it along the unit vector ``along``, ``half_wide`` px
    either side."""
    across = np.array([-along[1], along[0]])
    corners = np.array([centre + along * ahead + across * half_wide, centre + along * ahead - across * half_wide,
                        centre - along * back - across * half_wide, centre - along * back + across * half_wide])
    return quad_mask(low, corners, scale)


def quad_mask(low: tuple[int, int], corners: np.ndarray, scale: int) -> np.ndarray:
    """Low-resolution mask (of shape ``low``, ``scale`` image px to its pixel) of the convex quadrilateral
    ``corners`` (image px): a card's place, a band."""
    mask = np.zeros(low, np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners / scale).astype(np.int32), 1)
    return mask.astype(bool)


def pixels_to_cm(crown: Detection) -> np.ndarray:
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


def table_scale(base: Detection | None, crown: Detection | None, base_per_crown: float) -> float:
    """Image px per cm on the table plane at a seat: from its base marker's area (flat on the table),
    else from its crown's, scaled down as the other seats' bases are to their crowns; 0 with neither
    (the calibration's mean is used then). Under a strong tilt a far seat's centimetre is a third
    smaller than the near seats'."""
    if base is not None and base.area_px > 0:
        return math.sqrt(base.area_px) / markers.BASE_SIZE_CM
    if crown is None:
        return 0.0
    return math.sqrt(max(crown.area_px, 1.0)) / markers.CROWN_SIZE_CM * base_per_crown


def patch_box(centre: np.ndarray, half: int, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) of the square of ``half`` px each way around ``centre`` (whole pixels), None
    where it leaves the image (``size``: width, height)."""
    cx, cy = int(round(float(centre[0]))), int(round(float(centre[1])))
    box = (cx - half, cy - half, cx + half, cy + half)
    return box if box[0] >= 0 and box[1] >= 0 and box[2] <= size[0] and box[3] <= size[1] else None


def covered_half(crown: Detection) -> tuple[int, int]:
    """Half the side of the patch around a crown followed while the star covers it (its card and a
    margin), and how far it is searched each way (half a marker's side: a swing's reach), px."""
    side = crown.side_px
    return max(6, int(round(COVERED_HALF * side))), max(3, int(0.5 * side))


def base_patch_half(base: Detection) -> int:
    """Half the side of the patch of a base card followed to register a kept frame, px."""
    return max(4, int(round(0.6 * base.side_px)))


def armed_patch(still: np.ndarray, frames: list[np.ndarray], crown: Detection) -> tuple[np.ndarray | None, float]:
    """The grey patch around the crown at rest when armed, and the grey noise there (the median absolute
    difference of two reference frames, as a standard deviation)."""
    half, _ = covered_half(crown)
    box = patch_box(crown.center, half, (still.shape[1], still.shape[0]))
    if box is None:
        return None, 0.0
    x0, y0, x1, y1 = box
    patch = patches.gray(still[y0:y1, x0:x1])
    if len(frames) < 2:
        return patch, 0.0
    diff = np.abs(patches.gray(frames[0][y0:y1, x0:x1]) - patches.gray(frames[-1][y0:y1, x0:x1]))
    return patch, float(np.median(diff)) / 0.6745


def median_at_rest(frames: list[np.ndarray], shifts: list[tuple[float, float]]) -> np.ndarray | None:
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
