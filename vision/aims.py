"""Reading the aims at the aim count: who points at whom, and who pointed late.

Every weapon carries marker 30 + seat (3 cm) flat on its top, the marker's top edge towards the
muzzle (table-conventions.md). From the frames around the count's "3":

1. **The table plane** (``vision.table_plane``): the four corner markers (5 cm) give a homography from
   the image to the table in centimetres; from it (principal point at the image centre, square pixels)
   the camera's foot point on the table (its nadir) and its height.
2. **A weapon**: its marker, mapped onto the table plane by that homography, is a square of
   ``3 cm x ratio``: a horizontal card ``h`` above the table is projected from the camera onto
   the table as a similarity about the nadir, scaled by ``ratio = D / (D - h)``. So the weapon's
   own ground point is ``nadir + (mapped centre - nadir) / ratio``, its height ``D (1 - 1/ratio)``,
   and the mapped top edge gives the direction of the line of fire on the table plane.
3. **The standees**: the crown marker (4 cm, on top of the standee) is brought down to the table
   the same way; a standee whose crown is not seen is placed at its base marker.
4. **The target** of a line of fire is the seat whose standee lies closest to it (not the
   shooter's own); the evidence is the angular margin to the next candidate.
5. **Timing**: each weapon is followed through the count. It is at rest while its direction and
   place stay within the rest tolerances for ``min_rest_s`` or more; a rest that holds at the deadline
   (0.5 s after the "3") is an aim in time, the first run that begins after it an aim pointed late.
   A weapon hidden at the deadline, resting near the deadline, or whose line passes between two
   seats is unsure: the Godfather decides that seat. Two exceptions, both physical: a weapon at
   rest on its target from before the "3" that goes out of view (an arm over it) and is not seen
   moving after keeps that aim; a weapon first seen after the deadline, already at rest, is late
   when the place where it rests showed at the deadline what it showed before the count (the bare
   table: neither the weapon nor an arm was there), or when the table's own texture showed at the
   deadline in most of the cells where its marker then rests (something passing beside it changes the
   place around, but not the table under the marker: the marker was not there). Without that evidence the seat asks,
   and the reading handed to the Godfather is late, or in time when at the deadline something covered the place where
   its marker rests (an arm over it: it may have rested there unseen). A rest seen only in glimpses (never in view for
   ``glimpse_s`` without going out of view between) is unsure: a weapon swung about is read only where
   its swing slows, at the same end each time, and those glimpses look like one rest; so is a rest
   held less than ``sure_rest_s`` and seen to end (moved on in view, or still when the watch, or the clip, ended).
   A weapon on its target at the deadline whose rest is found only after it asks; the reading handed over is in
   time when its readings from before the deadline on lie about that rest pose as its readings at rest do (a
   small marker's reading scatters, the weapon was still), late when they lie off to one side (still settling).
   A marker partly covered still counts as seen at the pose last read (``_still_there``) only when that pose was
   held: one read while the weapon turned or moved beyond the rest tolerances since the reading before was passed
   through, and the weapon is not still there.
   A rest first seen just after the deadline, the weapon out of view before it, is unsure too; the reading
   handed over is in time when at the deadline its place showed its marker or was covered. A late pointer's
   first rest may be a pause as the hand brings it into view: when it came after the deadline (seen moving onto
   it, or its place bare at the deadline), was seen to end soon and a rest held longer follows, that rest is
   its aim. The first frame and the frame at the deadline are compared at the camera's gain (the ratio most of
   the frame agrees on) and shifted by the camera's shake (the shift that matches the place best; both in
   ``vision.aim_cells``). A weapon never at rest, seen in most of the frames watched (from the "1", or the
   clip's first frame if later, to the end of the watch or of the clip), was moving the whole count: it points
   at no one.

Cost: a full-frame ArUco detection only every few analysed frames (every other one while a weapon is
not found, from shortly before the "3" to the end of the watch); in between, small crops around each
weapon's last place. Frames are analysed at ``sample_hz`` (30 by default) and only
in the window around the count; see bench/bench_aims.py.

Clip folders (``clip.json`` and the frames) are opened and read with this reader by ``vision.aim_clips``.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision import aim_cells, aim_partial, markers
from vision.errors import AimError
from vision.table_plane import TablePlane

log = logging.getLogger(__name__)

COUNT_INTERVAL_S = 0.8  # "1", "2", "3" (table-conventions.md, default)
DEADLINE_AFTER_THREE_S = 0.5


@dataclass(frozen=True)
class AimConfig:
    """Every threshold of the aim reader."""

    sample_hz: float = 30.0  # frames analysed per second (at most) ...
    dense_s: float = 0.25  # ... but every frame this close to the deadline
    full_every: int = 8  # a full-frame detection every this many analysed frames ...
    lost_full_every: int = 2  # ... but every this many while a weapon is lost (not in its search box) in the
    lost_window_s: tuple[float, float] = (-0.6, DEADLINE_AFTER_THREE_S + 1.5)  # the part of the count that
    # decides the aims (from the "3"), to the end of the watch: a late pointer may come to rest up to its end
    lead_s: float = COUNT_INTERVAL_S * 2 + 0.3  # analysis starts this long before the "3" (before the "1")
    follow_s: float = 1.5  # and ends this long after the deadline (late pointers come to rest)
    watched_after_deadline_s: float = 0.8  # a weapon moving in all a clip shows points at no one only when the
    # clip goes on this long after the deadline; a shorter one may end before a late pointer comes to rest
    rest_angle_deg: float = 7.0  # largest spread of direction while at rest (median of three sightings)
    rest_move_cm: float = 3.0  # largest spread of the ground point while at rest, for a marker seen ...
    rest_marker_px: float = 20.0  # ... this wide or wider; a smaller one is read less finely (the spread allowed
    # grows as the marker shrinks: its ground point comes from its apparent size)
    side_noise_px: float = 0.5  # the error of a marker's side as read (its corners' sub-pixel noise) ...
    side_spread: float = 3.0  # ... and the range of it a still weapon shows (in that error)
    min_rest_s: float = 0.3  # a rest shorter than this is a pause
    max_gap_s: float = 0.2  # a rest is seen without a gap longer than this ...
    bridge_gap_s: float = 3.0  # ... unless the weapon was still before a longer gap (an arm over it, a marker
    bridge_still_s: float = 0.1  # read now and then) for this long, and is seen again three times at that pose
    min_seen_fraction: float = 0.25  # ... in at least this fraction of the frames analysed (and four times)
    settle_fraction: float = 0.5  # came to rest once within this fraction of the tolerances of the rest pose
    deadline_margin_s: float = 0.08  # a rest beginning this close to the deadline is unsure
    seen_near_deadline_s: float = 0.15  # a weapon must be seen this close to the deadline ...
    seen_moving_s: float = 0.3  # ... or, to be late, seen moving after this long before it
    glimpse_gap_s: float = 0.1  # a rest out of view this long or longer between two sightings ...
    glimpse_s: float = 0.15  # ... and never seen for this long without such a gap is only glimpsed: unsure
    sure_rest_s: float = 0.45  # a rest seen to end (the weapon moved on in view, or the watch ended) shorter
    # than this is the slow end of a swing as much as an aim: unsure
    kept_rest_s: float = 0.15  # at rest this long before the "3", then covered: the aim is kept (see _kept) ...
    kept_before_deadline_s: float = 0.6  # ... when it went out of view no earlier than this before the deadline
    bare_box: float = 1.5  # half-side of the place compared for a bare table, in marker sides
    shake_px: int = 3  # the first frame and the frame at the deadline are compared shifted by up to this much
    # (a camera shaken, a table bumped), at the shift that matches the place best
    bare_ratio: float = 1.5  # it is bare when it differs from the first frame at most this times the frame's
    bare_slack: float = 3.0  # own change (the quarter of the frame that changed least), plus this (grey levels)
    table_cells: float = 0.6  # the table showed where the marker later rests when this share of its cells ...
    table_cell_noise: float = 2.0  # ... differ from the first frame's at most this times the frame's median change
    table_texture: float = 1.5  # (plus bare_slack) and those cells differ among themselves this times as much
    covered_cells: float = 0.6  # a place at the deadline is covered when more than this share of the marker's cells
    # there differ from the first frame's beyond that noise
    min_margin_deg: float = 4.0  # a line passing closer than this to a second seat is unsure ...
    line_error_deg: float = 1.0  # ... and so is one whose target changes when the line is turned this much
    line_error_cm: float = 1.0  # or moved this much across (what the reading of a weapon's line may be off by)
    pause_seen_fraction: float = 0.25  # a weapon seen less than this, never at rest: its brief stillness is a guess
    lost_moving_s: float = 0.5  # a weapon never at rest, last seen turning one way onto a line and then not seen
    # again for this long to the end of the watch, was lost from view as it came to rest: that line is its likeliest aim
    swing_turn_s: float = 0.25  # a pause turned into one way and out of the other (each by more than twice the
    # rest tolerance) within this long of it is the turn of a swing, not an aim
    min_height_cm: float = -15.0  # a weapon "below the table" or far above the 0-40 cm is misread
    max_height_cm: float = 75.0
    track_pad_px: float = 28.0  # search box around the last place, beyond the marker itself
    sharpen: float = 1.0  # the unsharp mask the frames are seen through for the markers (see ``markers.sharpened``) ...
    sharpen_sigma_px: float = 1.0  # ... against a blur of about this many pixels
    small_marker_px: float = 20.0  # a marker smaller than this is enlarged twice before detection
    seat_search_px: float = 80.0  # half-side of the box searched near a seat for a weapon not yet found
    still_s: float = 1.5  # a weapon not found is looked for at its last pose read this long before (unless it
    # showed nothing there for longer than max_gap_s meanwhile: then it may have moved) ...
    still_pairs: int = 8  # ... and is still there when this many pairs of neighbouring cells of its marker
    still_share: float = 0.45  # (and this share of the pairs of half a marker: half of it shows) have the light
    still_against: float = 0.1  # and dark order of its pattern, and at most this share of that many the opposite
    still_contrast: float = 0.3  # (a pair counts when its cells differ by this share of the marker's contrast)
    still_turns_deg: tuple[float, ...] = (-30.0, -20.0, -10.0, 10.0, 20.0, 30.0)  # and no pose turned this much
                                                                        # about its centre matches better
    still_reach_cells: float = 0.75  # a hand holding a weapon still moves its marker by up to this share of a cell
    still_tremor_deg: float = 3.0  # ... each way and turns it by up to this much
    pitch_spread_deg: float = 30.0  # a weapon held at aim is pitched up or down by about this much ...
    roll_spread_deg: float = 10.0  # ... and rolled about its own axis by about this much: a hand holds it upright
    upright_reach: float = 2.0  # a card pose farther than this many spreads from level is no weapon held at aim
    tilt_noise_deg_px: float = 100.0  # a level card's pose solved from one frame's outline scatters by about this
    # (degrees) over the marker's side in pixels (its corners' noise) ...
    pitched_noise: float = 3.0  # ... and a rest whose poses tip more than this many times that is pitched: its
    # line of fire is read from the pose solved over the rest, not as a level card's
    pitched_least: int = 4  # (from at least this many readings)


# ----------------------------------------------------------------------------- finding the markers


MIN_SIDE_PX = 10.0  # no marker smaller than this is looked for: smaller outlines are noise, and costly
_DETECTORS: dict[float, cv2.aruco.ArucoDetector] = {}


def _detector(rate: float = 0.02) -> cv2.aruco.ArucoDetector:
    """An ArUco detector ignoring outlines shorter than ``rate`` times the image's larger side."""
    rate = round(min(max(rate, 0.01), 0.9), 2)
    if rate not in _DETECTORS:
        params = markers.detector_parameters(rate)
        # a 3 cm marker a little above the table is 15-20 px wide, its cells 3 px: each cell's bit is read
        # from more samples than the default four per cell (the cells' blurred edges weigh less)
        params.perspectiveRemovePixelPerCell = 8
        _DETECTORS[rate] = cv2.aruco.ArucoDetector(markers.dictionary(), params)
    return _DETECTORS[rate]


def detect_markers(gray: np.ndarray, scale: float = 1.0) -> tuple[Any, Any]:
    """ArUco corners and ids in ``gray`` (enlarged ``scale`` times from the frame): only outlines of
    markers at least ``MIN_SIDE_PX`` wide in the frame are considered."""
    rate = 4 * MIN_SIDE_PX * scale / max(gray.shape[:2])
    corners, ids, _ = _detector(rate).detectMarkers(gray)
    return corners, ids


# ----------------------------------------------------------------------------- lines of fire


@dataclass(frozen=True)
class Sight:
    """One sighting of a weapon: where its line of fire starts on the table and where it goes."""

    t: float  # seconds after the "3"
    foot: tuple[float, float]  # table cm
    direction: float  # radians, table frame
    height_cm: float
    image_centre: tuple[float, float]
    target: int | None
    margin_deg: float
    side_px: float = 0.0  # the marker's side in the image
    still: bool = False  # not read: its marker, partly covered, still showed at the pose read before
    quad: tuple[float, ...] = ()  # its marker's corners in the image (x and y of each), for its card's pose


def line_target(foot: np.ndarray, direction: float, standees: dict[int, np.ndarray], shooter: int,
                candidates: Iterable[int] | None = None) -> tuple[int | None, float]:
    """The seat whose standee lies closest to the line of fire (a ray on the table plane: standees
    behind the weapon are not on it) and the angular margin (degrees) to the next candidate."""
    d = np.array([math.cos(direction), math.sin(direction)])
    allowed = set(standees) if candidates is None else set(candidates) & set(standees)
    scored = []
    for seat in sorted(allowed - {shooter}):
        rel = standees[seat] - foot
        along = float(rel @ d)
        if along <= 0:  # behind the weapon: not on its line of fire
            continue
        dist = abs(float(rel[0] * d[1] - rel[1] * d[0]))
        angle = math.degrees(abs(math.atan2(float(rel[0] * d[1] - rel[1] * d[0]), along)))
        scored.append((dist, angle, seat))
    if not scored:
        return None, 0.0
    scored.sort()
    if len(scored) == 1:
        return scored[0][2], 180.0
    (_, a1, best), (_, a2, _) = scored[0], scored[1]
    return best, max(0.0, a2 - a1)


@dataclass
class SeatAim:
    """What the reader concludes of one seat's weapon."""

    seat: int
    target: int | None
    late: bool
    sure: bool
    confidence: float
    reason: str
    margin_deg: float | None = None
    height_cm: float | None = None
    rest_at_s: float | None = None  # when it came to rest on its target, seconds after the "3"
    seen: int = 0
    line: tuple[tuple[float, float], float] | None = None  # (foot, direction) at the deadline, table frame

    def details(self) -> dict[str, Any]:
        def r(x: float | None, n: int = 2) -> float | None:
            return None if x is None else round(float(x), n)

        return {"target": self.target, "late": self.late, "sure": self.sure, "confidence": r(self.confidence, 3),
                "margin_deg": r(self.margin_deg, 1), "height_cm": r(self.height_cm, 1),
                "rest_at_s": r(self.rest_at_s, 3), "seen": self.seen, "reason": self.reason}


@dataclass
class AimReading:
    """The aims of one count: the spec's JSON (``as_json``) and the evidence per seat."""

    seats: dict[int, SeatAim]
    frames_analysed: int = 0
    deadline_frame: np.ndarray | None = field(default=None, repr=False)
    plane: TablePlane | None = field(default=None, repr=False)

    @property
    def aims(self) -> dict[int, int | None]:
        return {s: a.target for s, a in self.seats.items()}

    @property
    def late(self) -> list[int]:
        return sorted(s for s, a in self.seats.items() if a.late)

    @property
    def unsure(self) -> list[int]:
        return sorted(s for s, a in self.seats.items() if not a.sure)

    @property
    def needs_godfather(self) -> bool:
        return bool(self.unsure)

    @property
    def confidence(self) -> float:
        return min((a.confidence for a in self.seats.values()), default=1.0)

    def as_json(self) -> dict[str, Any]:
        return {"aims": {str(s): a.target for s, a in sorted(self.seats.items())}, "late": self.late,
                "needs_godfather": self.needs_godfather, "confidence": round(self.confidence, 3)}

    def details(self) -> dict[str, Any]:
        return {**self.as_json(), "seats": {str(s): a.details() for s, a in sorted(self.seats.items())},
                "frames_analysed": self.frames_analysed}


class AimReader:
    """Follows the weapons through one aim count; ``feed`` each frame, then ``finish``.

    ``three_at`` is the time of the "3" in seconds after the first frame fed (frame ``i`` is at
    ``i / fps``). ``shooters`` are the seats that aim (default: every seat of the table) and
    ``candidates`` the seats that may be aimed at (default: every standee found).
    """

    def __init__(self, plane: TablePlane, *, seats: int, fps: float, three_at: float,
                 shooters: Iterable[int] | None = None, candidates: Iterable[int] | None = None,
                 config: AimConfig = AimConfig()) -> None:
        self.plane = plane
        self.seats = seats
        self.fps = float(fps)
        self.three_at = float(three_at)
        self.shooters = sorted(set(range(seats) if shooters is None else shooters))
        self.candidates = None if candidates is None else sorted(set(candidates))
        self.config = config
        self.deadline = DEADLINE_AFTER_THREE_S
        self.start = -config.lead_s
        self.end = self.deadline + config.follow_s
        self._index = 0
        self._last_t = -math.inf
        self._first_t = math.inf  # the first frame fed (seconds after the "3"): a clip may begin after ``start``
        self._next_t = self.start
        self._analysed = 0
        self._sights: dict[int, list[Sight]] = {s: [] for s in self.shooters}
        self._last_box: dict[int, tuple[np.ndarray, float, float]] = {}  # seat -> (image centre, side px, t)
        self._velocity: dict[int, np.ndarray] = {}  # seat -> image px per second between its last two sightings
        self._found_last: set[int] = set()  # seats whose weapon the last analysed frame found
        self._last_read: dict[int, tuple[np.ndarray, float, float]] = {}  # seat -> (corners, t, contrast) read last
        self._read_quads: dict[int, list[tuple[float, np.ndarray, float]]] = {s: [] for s in self.shooters}
        # ... and every pose read: (t, corners, contrast)
        self._pattern = {s: aim_cells.pattern(markers.weapon_id(s)) for s in self.shooters}
        self._wanted = {markers.weapon_id(s): s for s in self.shooters}
        self._seat_px = {s: plane.to_image(p[None])[0] for s, p in plane.standees.items()}
        aimed_at = range(seats) if candidates is None else self.candidates or []
        self._missing = {m: _missing_places(plane.standees, m, seats) for m in aimed_at if m not in plane.standees}
        self.deadline_frame: np.ndarray | None = None
        self.first_frame: np.ndarray | None = None  # the table before the count, to compare places with
        self._deadline_gap = math.inf
        self._deadline_gain: float | None = None  # see _gain_at_deadline

    @property
    def done(self) -> bool:
        """Every frame the reader needs was fed."""
        return self._last_t >= self.end

    def feed(self, frame: np.ndarray, at: float | None = None) -> None:
        """One frame, taken ``at`` seconds on the clock of ``three_at`` (default: the ``i``-th frame fed
        at ``i / fps``; a live camera gives its frames' own timestamps, gaps and all)."""
        t = (self._index / self.fps if at is None else float(at)) - self.three_at  # seconds after the "3"
        self._index += 1
        self._last_t = max(self._last_t, t)
        self._first_t = min(self._first_t, t)
        gap = abs(t - self.deadline)
        if gap < self._deadline_gap:
            self._deadline_gap, self.deadline_frame = gap, frame
        dense = abs(t - self.deadline) <= self.config.dense_s  # every frame there: what decides the timing
        if (t < self._next_t - 0.5 / self.fps and not dense) or t > self.end:
            return
        if dense:
            self._next_t = t + 1 / self.config.sample_hz
        else:
            self._next_t = max(self._next_t + 1 / self.config.sample_hz, t + 0.5 / self.config.sample_hz)
        if self.first_frame is None:
            self.first_frame = frame
        gray = markers.to_gray(frame)
        found: dict[int, np.ndarray] = {}
        cfg = self.config
        phase = self._analysed % cfg.full_every
        # a weapon not found in the last frame (lost from its search box as it swung, or just come into view
        # where no box was) is looked for over the whole frame more often in the part of the count that
        # decides the aims: when it came to rest must not wait for the next regular full-frame look
        lost = cfg.lost_window_s[0] <= t <= cfg.lost_window_s[1] and self._analysed > 0 \
            and any(s not in self._found_last for s in self.shooters)
        if phase == 0 or (lost and self._analysed % cfg.lost_full_every == 0):
            found = self._detect(gray, (0, 0))
        else:
            for seat, (centre, side, seen_t) in self._last_box.items():
                if t - seen_t > 0.4:
                    continue
                # where it is now if it kept moving as between its last two sightings (a hand's swing
                # slows down onto its target: half of that motion, at most 0.15 s of it)
                ahead = centre + self._velocity.get(seat, np.zeros(2)) * min(t - seen_t, 0.15) * 0.5
                pad = side * 0.9 + cfg.track_pad_px * (1 + 3 * (t - seen_t))
                pad_ahead = pad + 0.5 * float(np.linalg.norm(ahead - centre))
                found.update(self._detect_box(gray, (centre + ahead) / 2, pad_ahead,
                                              2 if side < cfg.small_marker_px else 1))
            if phase == cfg.full_every // 2:  # weapons too small for the full-frame look: near their seat
                for seat in self.shooters:
                    last = self._last_box.get(seat)
                    if (last is None or t - last[2] > 0.4) and seat in self._seat_px:
                        found.update(self._detect_box(gray, self._seat_px[seat], cfg.seat_search_px, 2))
        self._analysed += 1
        self._found_last = set()
        for mid, quad in found.items():
            shooter = self._wanted.get(mid)
            if shooter is not None:
                contrast = aim_cells.cell_contrast(gray, quad, self._pattern[shooter])
                self._last_read[shooter] = (quad, t, contrast)
                self._read_quads[shooter].append((t, quad, contrast))
                self._record(shooter, quad, t)
                self._found_last.add(shooter)
        for seat, (quad, seen_t, contrast) in list(self._last_read.items()):
            # partly covered (an arm, another weapon held over it), its marker no longer reads; what shows of
            # it at its last pose still has the marker's pattern: it has not moved
            if seat in self._found_last or t - seen_t > cfg.still_s:
                continue
            if self._still_there(gray, seat, quad, contrast):
                self._record_still(seat, seen_t, t)
            elif t - self._sights[seat][-1].t > cfg.max_gap_s:
                # neither read nor showing at its last pose for longer than a rest may go unseen: it may have
                # moved meanwhile, and that pose showing again later (the marker's border and a few cells
                # agree with a pose turned a little from it) says nothing of where it was in between; a still
                # sighting copies the pose read before, so it cannot be the evidence that bridges that gap
                del self._last_read[seat]

    def _still_there(self, gray: np.ndarray, seat: int, quad: np.ndarray, contrast: float) -> bool:
        """Whether the weapon's marker still shows at ``quad`` (its last pose read), in the part of it not
        covered: neighbouring cells of different colour in its pattern keep their light/dark order at a pose that
        differs from it by no more than a hand's tremor while it holds a weapon still (``still_reach_cells`` of a
        cell each way, ``still_tremor_deg`` turned); a covered cell pair shows no difference, a marker gone shows
        as many pairs one way as the other (``vision.aim_partial``)."""
        cfg = self.config
        if contrast <= 0:
            return False
        pattern = self._pattern[seat]
        pairs, _ = aim_partial.pairs_of(pattern)
        margin = cfg.still_contrast * contrast
        tremor = (-cfg.still_tremor_deg, 0.0, cfg.still_tremor_deg)
        here = aim_partial.best_near(gray, quad, pattern, margin, cfg.still_reach_cells, tremor)
        if here is None:
            return False
        agree, against = here
        if agree < max(cfg.still_pairs, cfg.still_share * len(pairs) * 0.5) or against > cfg.still_against * agree:
            return False
        # a weapon turned in the hand about its marker keeps the middle cells in place, and their pairs
        # still agree at the last pose: it is still only when no pose turned further matches better
        agree_t, against_t = aim_partial.scores(
            gray, aim_partial.poses_near(quad, cfg.still_reach_cells, cfg.still_turns_deg), pattern, margin)
        return int(np.max(agree_t - against_t)) <= agree - against

    def _detect_box(self, gray: np.ndarray, centre: np.ndarray, pad: float, upscale: int = 1) -> dict[int, np.ndarray]:
        h, w = gray.shape[:2]
        x0, y0 = max(0, int(centre[0] - pad)), max(0, int(centre[1] - pad))
        x1, y1 = min(w, int(centre[0] + pad) + 1), min(h, int(centre[1] + pad) + 1)
        if x1 - x0 < 12 or y1 - y0 < 12:
            return {}
        found = self._detect(gray[y0:y1, x0:x1], (x0, y0), upscale)
        if not found and upscale > 1:  # a blurred marker may read at its own size and not enlarged
            found = self._detect(gray[y0:y1, x0:x1], (x0, y0), 1)
        return found

    def _detect(self, gray: np.ndarray, origin: tuple[int, int], upscale: int = 1) -> dict[int, np.ndarray]:
        gray = markers.sharpened(gray, self.config.sharpen, self.config.sharpen_sigma_px)
        if upscale > 1:
            gray = cv2.resize(gray, None, fx=upscale, fy=upscale, interpolation=cv2.INTER_LINEAR)
        corners, ids = detect_markers(gray, upscale)
        found: dict[int, np.ndarray] = {}
        if ids is None:
            return found
        for quad, mid in zip(corners, ids.ravel()):
            if int(mid) in self._wanted:
                pts = quad.reshape(4, 2).astype(np.float64)
                if upscale > 1:
                    pts = (pts + 0.5) / upscale - 0.5
                pts += np.asarray(origin, np.float64)
                area = abs(cv2.contourArea(pts.astype(np.float32)))
                old = found.get(int(mid))
                if old is None or area > abs(cv2.contourArea(old.astype(np.float32))):
                    found[int(mid)] = pts
        return found

    def _record(self, seat: int, quad: np.ndarray, t: float) -> None:
        side = float(np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]))
        centre = quad.mean(axis=0)
        last = self._last_box.get(seat)
        if last is not None and 0 < t - last[2] <= 0.2:
            self._velocity[seat] = (centre - last[0]) / (t - last[2])
        else:
            self._velocity.pop(seat, None)
        self._last_box[seat] = (centre, side, t)
        foot, direction, height = self.plane.ground(quad, markers.WEAPON_SIZE_CM)
        target, margin = line_target(foot, direction, self.plane.standees, seat, self.candidates)
        sights = self._sights[seat]
        if sights and sights[-1].t == t:
            return
        sights.append(Sight(t, (float(foot[0]), float(foot[1])), direction, height,
                            (float(centre[0]), float(centre[1])), target, margin, side,
                            quad=tuple(np.asarray(quad, np.float64).reshape(-1).tolist())))

    def _record_still(self, seat: int, seen_t: float, t: float) -> None:
        """A sighting at ``t`` of a weapon still at the pose last read at ``seen_t``: that pose as the
        readings just before it give it (their median: one reading's error is not repeated)."""
        sights = self._sights[seat]
        if not sights or sights[-1].t >= t:
            return
        last = next((s for s in reversed(sights) if s.t == seen_t), None)
        if last is None:
            return
        tol_a, tol_f = math.radians(self.config.rest_angle_deg), self.config.rest_move_cm * 2
        if self._read_moving(sights, last, tol_a, tol_f):
            return  # that pose was passed through, not held: what shows of it later is no sign of a weapon still
        near = [s for s in sights if seen_t - 0.5 <= s.t <= seen_t and not s.still
                and _within_rest(s, last, tol_a, tol_f)][-5:]
        foot = np.median(np.array([s.foot for s in near]), axis=0)
        direction = last.direction + float(np.median([_turn(s.direction, last.direction) for s in near]))
        height = float(np.median([s.height_cm for s in near]))
        target, margin = line_target(foot, direction, self.plane.standees, seat, self.candidates)
        side = float(np.median([s.side_px for s in near]))
        sights.append(Sight(t, (float(foot[0]), float(foot[1])), direction, height, last.image_centre, target,
                            margin, side, still=True))
        centre, _, _ = self._last_box[seat]
        self._last_box[seat] = (centre, side, t)

    def _read_moving(self, sights: list[Sight], last: Sight, tol_a: float, tol_f: float) -> bool:
        """Whether ``last`` was read while the weapon moved: the reading before it, no more than ``max_gap_s``
        earlier, shows it turned more than ``tol_a`` (radians) or moved more than ``tol_f`` (cm, the rest
        tolerances) since. A hand turning a weapon that fast does not stop it at the pose read mid-turn: it
        comes to rest further on, or swings on."""
        prev = next((s for s in reversed(sights) if s.t < last.t and not s.still), None)
        if prev is None or last.t - prev.t > self.config.max_gap_s:
            return False
        return not _within_rest(last, prev, tol_a, tol_f)

    def finish(self) -> AimReading:
        seats = {s: self._judge(s, self._sights[s]) for s in self.shooters}
        return AimReading(seats, self._analysed, self.deadline_frame, self.plane)

    # -- one weapon's count
    def _judge(self, seat: int, sights: list[Sight]) -> SeatAim:
        cfg = self.config
        if not sights:
            return SeatAim(seat, None, False, False, 0.3, "the weapon was never seen: held out of view, "
                           "too low, or covered")
        runs = self._rests(seat, sights)
        deadline = self.deadline
        seen = len(sights)
        near = [s for s in sights if abs(s.t - deadline) <= cfg.seen_near_deadline_s]

        def result(run: Rest, late: bool, why: str, sure: bool, held: bool = True) -> SeatAim:
            reasons = [why]
            other = self._other_target(run, seat)
            if run.margin_deg < cfg.min_margin_deg or other is not None:
                sure = False
                reasons.append(f"the line of fire passes close to seat {other} as well: between two seats"
                               if other is not None else
                               f"the line of fire passes {run.margin_deg:.0f} degrees from a second seat")
            partly = sum(1 for s in sights if s.still and run.start <= s.t <= run.end)
            if partly:
                reasons.append(f"its marker partly covered in {partly} of the frames at rest, seen at the pose read "
                               "before (within a hand's tremor)")
            if held and self._glimpsed(run, sights):
                sure = False
                reasons.append("seen at that pose only in glimpses, each between stretches out of view: it may "
                               "have been moving while not seen")
            if held and self._brief(run, sights):
                sure = False
                reasons.append(f"held that pose only {run.end - run.seen_from:.2f} s before moving on or the end of "
                               "the watch: a swing slowing at its end as much as an aim")
            hidden = self._missing_target(run, seat)
            if hidden is not None:
                sure = False
                reasons.append(f"seat {hidden}'s standee was not found on the table: the line of fire may point "
                               "at it")
            if not cfg.min_height_cm <= run.height_cm <= cfg.max_height_cm:
                sure = False
                reasons.append(f"the weapon reads {run.height_cm:.0f} cm above the table")
            conf = min(0.99, 0.6 + 0.4 * min(1.0, run.margin_deg / 25.0)) if sure else 0.4
            return SeatAim(seat, run.target, late, sure, conf, "; ".join(reasons), run.margin_deg, run.height_cm,
                           run.start, seen, run.line)

        holding = [r for r in runs if r.start <= deadline <= r.end]
        if holding:
            run = holding[0]
            if not near:
                if run.gaps and run.start <= deadline - cfg.deadline_margin_s and not run.seen_at(deadline, 0.0):
                    return result(run, False, "at rest on its target before the deadline and after it at the same "
                                  "pose, covered at it", True)
                if self._kept(run, sights):
                    return result(run, False, "at rest on its target from before the \"3\", covered at the "
                                  "deadline and not seen moving", True)
                return result(run, False, "at rest on its target, but covered at the deadline", False)
            if run.start > deadline - cfg.deadline_margin_s:
                return result(run, False, "came to rest just before the deadline", False)
            return result(run, False, "at rest on its target at the deadline", True)
        after = [r for r in runs if r.start > deadline]
        before = [r for r in runs if r.end < deadline]
        if before and not near:  # at rest before the deadline, then covered across it
            run = before[-1]
            if self._kept(run, sights):
                return result(run, False, "at rest on its target from before the \"3\", then covered and not "
                              "seen moving", True)
            if after and after[0].target == run.target:
                return result(run, False, "at rest on its target before and after the deadline, covered at it",
                              False)
            return result(run, False, "at rest on its target before the deadline, then not seen", False)
        if after:
            run = self._late_rest(seat, after, sights)
            if run.start < deadline + cfg.deadline_margin_s:
                prior = [s for s in sights if s.t < run.seen_from]
                if (not prior or run.seen_from - prior[-1].t > cfg.max_gap_s) \
                        and self._hidden_there_at_deadline(seat, run):
                    # not seen coming to rest: out of view until then, and at the deadline its place showed its
                    # marker or something over it; it may have been at rest there before
                    return result(run, False, "first seen at rest just after the deadline, out of view before; its "
                                  "place at the deadline showed its marker or was covered", False)
                return result(run, True, "came to rest just after the deadline", False)
            tol_a, tol_f = math.radians(cfg.rest_angle_deg), run.tol_cm
            there = [s for s in near if _within_rest(s, run, tol_a, tol_f)]
            moving = self._seen_moving(run, sights)
            if len(there) > len(near) // 2:
                if self._still_before(run, sights):
                    return result(run, False, "on its target at the deadline, but seen still only after it: its "
                                  "readings from before the deadline on lie about the pose it then rests at as "
                                  "its readings at rest do (the marker's reading scattered, the weapon still)",
                                  False)
                return result(run, True, "on its target at the deadline, but not yet still", False)
            before_rest = [s for s in sights if s.t < run.start]
            if before_rest and before_rest[-1].t <= deadline - cfg.deadline_margin_s \
                    and _within_rest(before_rest[-1], run, tol_a, tol_f):
                # last seen before the deadline already at the pose it then rests at: arriving, most likely
                # in time, but out of view when it came to rest
                return result(run, False, "on its target before the deadline, then covered before it was seen "
                              "still", False)
            if not moving:
                if self._empty_at_deadline(sights, run) and not self._there_before(seat, run):
                    return result(run, True, "came to rest after the deadline where the table showed bare at it: "
                                  "pointed late", True)
                if self._table_under_marker(seat, run):
                    return result(run, True, "came to rest after the deadline; at the deadline the table showed "
                                  "where its marker then rests: pointed late", True)
                if self._hidden_there_at_deadline(seat, run):
                    if self._seen_settling(run, sights):
                        return result(run, True, "first seen at rest after the deadline, where something covered "
                                      "its marker's place at the deadline, but seen settling onto that pose just "
                                      "before, after the deadline: most likely it pointed late", False)
                    return result(run, False, "first seen at rest after the deadline, where something covered its "
                                  "marker's place at the deadline: it may have rested there under it", False)
                return result(run, True, "came to rest after the deadline, not seen moving before", False)
            return result(run, True, "came to rest on its target after the deadline: pointed late", True)
        if before:
            return result(before[-1], False, "at rest before the deadline, moving at it and after", False)
        window = self._watched()
        part = [s for s in sights if s.t >= -COUNT_INTERVAL_S * 2]
        if len(part) >= 0.6 * window * cfg.sample_hz:
            if self._last_t < deadline + cfg.watched_after_deadline_s:  # it may come to rest after the clip ends
                return SeatAim(seat, None, False, False, 0.4, "moving as long as the clip shows, which ends "
                               f"{max(self._last_t - deadline, 0.0):.2f} s after the deadline", seen=seen)
            return SeatAim(seat, None, False, True, 0.7, "moving the whole count: points at no one", seen=seen)
        pause = self._pause(seat, sights) if len(part) < cfg.pause_seen_fraction * window * cfg.sample_hz else None
        swung = pause is not None and self._swing_turn(pause, sights)
        if swung:
            pause = None
        lost = self._lost_moving(sights, -math.inf if pause is None else pause.end)
        if lost is not None:  # not at rest while seen: the line it was turning onto, for the Godfather
            late = lost.start >= deadline
            return result(lost, late, f"last seen turning onto that line {lost.start:+.2f} s after the \"3\", then "
                          "out of view to the end of the watch: lost from view as it came to rest"
                          + (" (after the deadline)" if late else "") + ("; it paused on seat "
                          f"{pause.target} before" if pause is not None else ""), False, held=False)
        if pause is not None:  # seen too little to call it a rest: the likeliest reading, for the Godfather
            late = pause.start > deadline
            why = f"held still on a target only briefly while seen ({seen} sightings)"
            if late and not self._seen_moving(pause, sights) and self._hidden_there_at_deadline(seat, pause, least=1):
                late = False  # not seen coming to rest: its place covered at the deadline says it may have been there
                why += ", after the deadline; its place was covered at the deadline"
            return result(pause, late, why, False)
        if swung:
            return SeatAim(seat, None, False, False, 0.3, "held still only at the turn of a swing while seen (turned "
                           "into that pose one way and out of it the other): waved about, not aimed", seen=seen)
        return SeatAim(seat, None, False, False, 0.3, "never at rest on a target while seen, and often out of view",
                       seen=seen)

    def _late_rest(self, seat: int, after: list[Rest], sights: list[Sight]) -> Rest:
        """The rest a weapon first at rest after the deadline points with: the first, unless it was a pause that
        came after the deadline and was seen to end soon (a hand stops for a moment as it brings the weapon into
        view, then raises it onto its target) and a rest held longer follows it. The pause came after the
        deadline when the weapon was seen moving onto it after the deadline had nearly come, or its place showed
        the bare table at the deadline; then the weapon first came to rest late, and the rest it holds is its
        aim. Otherwise the weapon may have been at that pose before the deadline, unseen: the first rest."""
        cfg = self.config
        first = after[0]
        held = [r for r in after[1:] if not self._brief(r, sights) and not self._glimpsed(r, sights)]
        if not held or not self._brief(first, sights):
            return first
        if first.start >= self.deadline + cfg.deadline_margin_s and self._seen_moving(first, sights):
            return held[0]
        if (self._empty_at_deadline(sights, first) and not self._there_before(seat, first)) \
                or self._table_under_marker(seat, first):
            return held[0]
        return first

    def _lost_moving(self, sights: list[Sight], since: float) -> Rest | None:
        """The line a weapon never at rest was last read on, when from ``since`` on (the end of a pause it moved on
        from) it was seen turning one way only, by more than twice the rest tolerance, and then not seen again for
        ``lost_moving_s`` or more to the end of the watch: an arm or another weapon came over it as it came to
        rest, and the line it was turning onto is the one the frames support. None when it turned back on its way
        (swung to and fro: a weapon waved about points at no one), turned no more than a hand's tremor (not seen
        moving: where it was raised to is not known), was seen again, or its last line points at no one."""
        cfg = self.config
        tail = [s for s in sights if s.t >= since]
        if len(tail) < 3 or self._watched_to() - tail[-1].t < cfg.lost_moving_s:
            return None
        turned = np.unwrap([s.direction for s in tail])
        turned = (turned - turned[0]) * (1.0 if turned[-1] >= turned[0] else -1.0)  # along the net turn
        tol = math.radians(cfg.rest_angle_deg)
        if turned[-1] <= 2 * tol or float(np.max(np.maximum.accumulate(turned) - turned)) > tol:
            return None
        last = tail[-1]
        if last.target is None:
            return None
        return Rest(last.t, last.t, last.target, last.margin_deg, last.foot, last.direction, last.height_cm,
                    seen_from=last.t)

    def _watched(self) -> float:
        """Seconds of the count watched from its "1" to the end of the watch: a clip that begins after the "1"
        or ends before the watch's end shows less of it, and a weapon in view the whole time is seen in as large
        a share of those frames as in a longer clip."""
        first = max(-COUNT_INTERVAL_S * 2, self._first_t) if math.isfinite(self._first_t) else -COUNT_INTERVAL_S * 2
        last = min(self.end, self._last_t) if math.isfinite(self._last_t) else self.end
        return max(last - first, 1.0 / self.config.sample_hz)

    def _bare(self, box: tuple[float, float, float, float]) -> bool:
        """Whether the image ``box`` (x0, y0, x1, y1) at the deadline shows what the first frame showed
        (see ``_empty_at_deadline``)."""
        first, last = self.first_frame, self.deadline_frame
        if first is None or last is None or first.shape != last.shape:
            return False
        h, w = first.shape[:2]
        x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
        x1, y1 = min(w, int(box[2]) + 1), min(h, int(box[3]) + 1)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return False
        a = first.astype(np.float32)
        b = last.astype(np.float32) / self._gain_at_deadline()
        diff = np.abs(a - b)
        if diff.ndim == 3:
            diff = diff.max(axis=2)
        change = aim_cells.least_change(diff, max(8, min(x1 - x0, y1 - y0)))
        if change is None:
            return False
        limit = change * self.config.bare_ratio + self.config.bare_slack
        dx, dy = aim_cells.shake(a, b, (x0, y0, x1, y1), self.config.shake_px)
        here = np.abs(a[y0:y1, x0:x1] - np.roll(b, (-dy, -dx), axis=(0, 1))[y0:y1, x0:x1])
        return float((here.max(axis=2) if here.ndim == 3 else here).mean()) <= limit

    def _gain_at_deadline(self) -> float:
        """How much brighter the camera shows the table at the deadline than in the first frame (see ``aim_cells.gain``)."""
        if self._deadline_gain is None:
            first, last = self.first_frame, self.deadline_frame
            self._deadline_gain = 1.0 if first is None or last is None or first.shape != last.shape else \
                aim_cells.gain(markers.to_gray(first).astype(np.float32), markers.to_gray(last).astype(np.float32))
        return self._deadline_gain

    def _empty_at_deadline(self, sights: list[Sight], run: Rest) -> bool:
        """Whether the place where the weapon later rests showed, at the deadline, what it showed before
        the count (the bare table, as in the first frame analysed): then nothing was there at the
        deadline, neither this weapon nor an arm over it. The comparison allows for a change of the
        camera's gain (whole frames) and for the noise, shake and JPEG of this clip (the same
        difference measured over the whole frame)."""
        at_rest = [s for s in sights if run.start <= s.t <= run.end and s.side_px > 0]
        if not at_rest:
            return False
        cx = float(np.median([s.image_centre[0] for s in at_rest]))
        cy = float(np.median([s.image_centre[1] for s in at_rest]))
        half = max(8.0, float(np.median([s.side_px for s in at_rest])) * self.config.bare_box)
        return self._bare((cx - half, cy - half, cx + half, cy + half))

    def _seen_settling(self, run: Rest, sights: list[Sight]) -> bool:
        """Whether the weapon was seen settling onto the pose of ``run`` after the deadline: the three or more
        sightings just before it settled, after the deadline and without a gap longer than ``max_gap_s``, begin
        beyond the rest tolerances of that pose and come nearer to it one after the other (within a tenth of those
        tolerances: the reading's noise). A weapon at rest under an arm from before the deadline is at that pose
        when it shows again; one seen coming onto it after the deadline came to rest then."""
        cfg = self.config
        tol_a = math.radians(cfg.rest_angle_deg)
        before: list[Sight] = []
        for s in reversed([s for s in sights if s.t < run.start]):
            if s.t <= self.deadline or (before[-1].t if before else run.start) - s.t > cfg.max_gap_s:
                break
            before.append(s)
        if len(before) < 3:
            return False
        away = [max(abs(_turn(s.direction, run.direction)) / tol_a, math.dist(s.foot, run.foot) / run.tol_cm)
                for s in reversed(before)]
        return away[0] > 1.0 and all(b <= a + 0.1 for a, b in zip(away, away[1:]))

    def _still_before(self, run: Rest, sights: list[Sight]) -> bool:
        """Whether the weapon was already at the pose of ``run`` before the deadline, its rest found later only
        because its readings scatter more than the rest tolerances allow from one to the next (a small or dim
        marker: the error of its corners turns and moves the line it gives). The readings just before the rest,
        without a gap longer than ``max_gap_s`` between them or onto the rest, from ``deadline_margin_s`` or
        more before the deadline on, are each within the rest tolerances of its pose, and their mean differs
        from the mean of its readings at rest by no more than a hand's tremor (``still_tremor_deg``,
        ``still_reach_cells`` of a cell) beyond two standard errors of that scatter, in direction and in the
        ground point along and across the ray from the camera's nadir: a weapon still settling comes from one
        side, and its readings' mean lies off that side; a still one's scatter about the same pose."""
        cfg = self.config
        tol_a = math.radians(cfg.rest_angle_deg)
        read = [s for s in sights if not s.still]
        at_rest = [s for s in read if run.start <= s.t <= run.end]
        tail: list[Sight] = []
        for s in reversed([s for s in read if s.t < run.start]):
            if (tail[-1].t if tail else run.start) - s.t > cfg.max_gap_s \
                    or not _within_rest(s, run, tol_a, run.tol_cm):
                break
            tail.append(s)
        if len(tail) < 3 or len(at_rest) < 3 or tail[-1].t > self.deadline - cfg.deadline_margin_s:
            return False
        radial = np.asarray(run.foot, np.float64) - self.plane.nadir
        u = radial / max(float(np.linalg.norm(radial)), 1e-9)
        axes = np.column_stack([u, [-u[1], u[0]]])

        def readings(part: list[Sight]) -> np.ndarray:
            turns = np.degrees([_turn(s.direction, run.direction) for s in part])
            feet = (np.array([s.foot for s in part]) - np.asarray(run.foot)) @ axes
            return np.column_stack([turns, feet])

        before, held = readings(tail), readings(at_rest)
        cell_cm = markers.WEAPON_SIZE_CM / 6  # its 4 x 4 cells and black border: 6 cells a side
        tremor = np.array([cfg.still_tremor_deg, cfg.still_reach_cells * cell_cm, cfg.still_reach_cells * cell_cm])
        error = 2.0 * held.std(axis=0, ddof=1) * math.sqrt(1.0 / len(before) + 1.0 / len(held))
        return bool(np.all(np.abs(before.mean(axis=0) - held.mean(axis=0)) <= tremor + error))

    def _seen_moving(self, run: Rest, sights: list[Sight]) -> list[Sight]:
        """The sightings from shortly before the deadline until ``run`` began that show the weapon away from the
        pose of ``run`` (beyond twice the rest tolerances): it was seen moving onto it."""
        cfg = self.config
        tol_a, tol_f = math.radians(cfg.rest_angle_deg), run.tol_cm
        return [s for s in sights if self.deadline - cfg.seen_moving_s <= s.t < run.start
                and not _within_rest(s, run, 2 * tol_a, 2 * tol_f)]

    def _rest_quad(self, seat: int, run: Rest, least: int = 3) -> tuple[np.ndarray, float] | None:
        """The marker's corners in the image during ``run`` (the reading nearest their median place) and its
        contrast then; None when it was read fewer than ``least`` times in it."""
        read = [(q, c) for t, q, c in self._read_quads.get(seat, []) if run.start <= t <= run.end]
        if not read or len(read) < least:
            return None
        centres = np.array([q.mean(axis=0) for q, _ in read])
        return read[int(np.argmin(np.linalg.norm(centres - np.median(centres, axis=0), axis=1)))]

    def _marker_shows(self, seat: int, cells: np.ndarray, contrast: float) -> bool:
        """Whether the cells read at a marker's place show that marker's light/dark order (see
        ``_still_there``)."""
        cfg = self.config
        pattern = self._pattern[seat]
        pairs = _PAIRS[pattern[_PAIRS[:, 0]] != pattern[_PAIRS[:, 1]]]
        diff = cells[pairs[:, 0]] - cells[pairs[:, 1]]
        diff = np.where(pattern[pairs[:, 0]] > pattern[pairs[:, 1]], diff, -diff)
        margin = cfg.still_contrast * max(contrast, 1.0)
        agree, against = int(np.sum(diff > margin)), int(np.sum(diff < -margin))
        return agree >= cfg.still_pairs and 3 * against <= agree

    def _there_before(self, seat: int, run: Rest) -> bool:
        """Whether the weapon's marker already showed in the first frame (before the count) where it rests
        in ``run``: then the place's look at the deadline says nothing of when it came to rest."""
        rest, first = self._rest_quad(seat, run), self.first_frame
        if rest is None or first is None:
            return False
        cells = aim_cells.cells(markers.to_gray(first).astype(np.float32), rest[0])
        return cells is not None and self._marker_shows(seat, cells, rest[1])

    def _deadline_cells(self, seat: int, run: Rest, least: int = 3) -> tuple[np.ndarray, np.ndarray, float, float] | None:
        """The cells of the weapon's marker at its pose at rest in ``run``, as the first frame (the table before
        the count) and the frame at the deadline show them (the latter brought to the former's gain), the
        difference a cell may show without change (the frame's noise, JPEG and shake) and the marker's
        contrast; None when unknown."""
        first, last = self.first_frame, self.deadline_frame
        if first is None or last is None or first.shape != last.shape:
            return None
        rest = self._rest_quad(seat, run, least)
        if rest is None:
            return None
        quad, contrast = rest
        a = markers.to_gray(first).astype(np.float32)
        b = markers.to_gray(last).astype(np.float32) / self._gain_at_deadline()
        side = float(np.max(np.ptp(quad, axis=0)))
        (cx0, cy0), (cx1, cy1) = quad.min(axis=0) - side, quad.max(axis=0) + side
        dx, dy = aim_cells.shake(a, b, (int(cx0), int(cy0), int(cx1) + 1, int(cy1) + 1), self.config.shake_px)
        before, at = aim_cells.cells(a, quad), aim_cells.cells(b, quad + np.array([dx, dy], np.float64))
        if before is None or at is None:
            return None
        noise = aim_cells.least_change(np.abs(a - b), 32)  # the frame's own change: noise, JPEG, shake
        if noise is None:
            return None
        return before, at, self.config.table_cell_noise * noise + self.config.bare_slack, contrast

    def _table_under_marker(self, seat: int, run: Rest) -> bool:
        """Whether, at the deadline, the table showed through where the weapon's marker lies at rest after it:
        most of the marker's cells there showed the deadline frame what the first frame showed (the table
        before the count, its texture cell by cell, a gain change of the camera allowed for), so the marker
        was not there. A weapon at rest at that pose at the deadline puts its marker over those cells; an arm
        or another weapon over it hides the table as well: neither shows the table's own texture. The place
        must have texture enough (its cells differing from one another well beyond the frame's noise) for
        the table to be told from a plain arm or sleeve of the same colour."""
        cfg = self.config
        got = self._deadline_cells(seat, run)
        if got is None:
            return False
        before, at, tolerance, contrast = got
        spread = float(np.std(before))
        if spread < cfg.table_texture * tolerance:
            return False
        if self._marker_shows(seat, before, contrast):
            return False  # the weapon was there before the count (and not read until after the deadline)
        same = np.abs(at - before) <= tolerance
        if int(same.sum()) < cfg.table_cells * len(same):
            return False
        shown = before[same]
        return float(np.std(shown)) >= cfg.table_texture * tolerance

    def _hidden_there_at_deadline(self, seat: int, run: Rest, least: int = 3) -> bool:
        """Whether, at the deadline, the place where the weapon's marker lies at rest after it was covered
        (most of the marker's cells then showed neither what they showed before the count nor, within the
        frame's noise, the same: an arm or another weapon over it), or showed the marker itself. A weapon
        first seen at rest after the deadline and not seen moving before may then have been at rest there,
        unseen, since before the deadline: the likelier reading for the Godfather to check is in time. Where
        the table showed (the cells unchanged), the marker was not there: late is the likelier. ``least``: the
        readings of the marker in ``run`` its pose is taken from."""
        got = self._deadline_cells(seat, run, least)
        if got is None:
            return False
        before, at, tolerance, contrast = got
        if self._marker_shows(seat, at, contrast):
            return True
        changed = np.abs(at - before) > tolerance
        return int(changed.sum()) > self.config.covered_cells * len(changed)

    def _glimpsed(self, run: Rest, sights: list[Sight]) -> bool:
        """Whether the rest was seen only in glimpses: never in view for ``glimpse_s`` without going out
        of view for ``glimpse_gap_s`` or longer. A weapon at rest stays in view (found, or still seen at
        its pose) but while an arm passes over it; one swung about is seen only where it slows, at the
        same end of its swing each time, and those glimpses, out of view in between, line up into what
        looks like one rest."""
        cfg = self.config
        times = [s.t for s in sights if run.start <= s.t <= run.end]
        longest, began = 0.0, times[0] if times else run.start
        for a, b in zip(times, times[1:] + [math.inf]):
            if b - a >= cfg.glimpse_gap_s:
                longest = max(longest, a - began)
                began = b
        return longest < cfg.glimpse_s

    def _brief(self, run: Rest, sights: list[Sight]) -> bool:
        """Whether the rest was brief and seen to end: held for less than ``sure_rest_s`` and then seen at
        another pose, or still at the end of what was watched. A weapon swung to and fro slows at the ends
        of its swing and holds a pose about that long each time; an aim is held (a rest that ends out of
        view, an arm over it, is judged by ``_kept``)."""
        cfg = self.config
        if run.end - run.seen_from >= cfg.sure_rest_s:
            return False
        if run.end >= self._watched_to() - cfg.glimpse_gap_s:  # still when the watch (or the clip) ended
            return True
        return any(run.end < s.t <= run.end + cfg.max_gap_s for s in sights)

    def _watched_to(self) -> float:
        """The end of what was watched: the end of the watch, or of the clip if sooner."""
        return min(self.end, self._last_t) if math.isfinite(self._last_t) else self.end

    def _kept(self, run: Rest, sights: list[Sight]) -> bool:
        """A weapon at rest on its target from before the "3" until it went out of view (an arm over it)
        keeps that aim through the deadline when every later sighting still holds the rest pose: it was
        not seen moving. It must have been at rest that way for ``kept_rest_s`` up to the "3" and still
        at the "3", and gone out of view no earlier than ``kept_before_deadline_s`` before the deadline."""
        cfg = self.config
        if run.start > -cfg.kept_rest_s or run.end < min(0.0, self.deadline - cfg.kept_before_deadline_s):
            return False
        tol_a, tol_f = math.radians(cfg.rest_angle_deg), run.tol_cm
        later = [s for s in sights if s.t > run.end]
        moved = [s for s in later if not _within_rest(s, run, 2 * tol_a, 2 * tol_f)]
        return len(moved) <= max(1, len(later) // 10)  # a misread or two, not a move

    def _rests(self, seat: int, sights: list[Sight]) -> list[Rest]:
        """The times the weapon held still: each a stretch of sightings whose direction and ground point
        (median of three, against the marker's jitter) stay within the rest tolerances, at least
        ``min_rest_s`` long (or lasting to the end of what was watched), with its line's target."""
        cfg = self.config
        n = len(sights)
        angles = np.unwrap([s.direction for s in sights])
        feet = np.array([s.foot for s in sights])
        times = np.array([s.t for s in sights])
        if n >= 3:
            pad_a = np.concatenate([angles[:1], angles, angles[-1:]])
            pad_f = np.concatenate([feet[:1], feet, feet[-1:]])
            angles = np.median(np.stack([pad_a[:-2], pad_a[1:-1], pad_a[2:]]), axis=0)
            feet = np.median(np.stack([pad_f[:-2], pad_f[1:-1], pad_f[2:]]), axis=0)
        tol_a = math.radians(cfg.rest_angle_deg)
        runs: list[Rest] = []
        i = 0
        while i < n:
            j = i
            side = float(np.median([s.side_px for s in sights[i:i + 6]]))
            tol_f = cfg.rest_move_cm * max(1.0, cfg.rest_marker_px / max(side, 1.0))
            scaled = self._scaled_feet(feet, feet[i], side, tol_f)  # rest tolerances: 1 in each direction
            lo_a = hi_a = angles[i]
            lo_f, hi_f = scaled[i].copy(), scaled[i].copy()
            gaps: list[tuple[float, float]] = []
            while j + 1 < n:
                gap = times[j + 1] - times[j]
                if gap > cfg.max_gap_s:
                    # an arm over a weapon held still: bridged when it was still for a while before the gap
                    # and holds the same pose for a while after it
                    if gap > cfg.bridge_gap_s or times[j] - times[i] < cfg.bridge_still_s \
                            or j - i < 2 or not self._holds_after(angles, scaled, times, j + 1, lo_a, hi_a, lo_f,
                                                                          hi_f, 1.0):
                        break
                a, f = angles[j + 1], scaled[j + 1]
                nlo_a, nhi_a = min(lo_a, a), max(hi_a, a)
                nlo_f, nhi_f = np.minimum(lo_f, f), np.maximum(hi_f, f)
                if nhi_a - nlo_a > tol_a or float(np.max(nhi_f - nlo_f)) > 1.0:
                    break
                if gap > cfg.max_gap_s:
                    gaps.append((float(times[j]), float(times[j + 1])))
                lo_a, hi_a, lo_f, hi_f = nlo_a, nhi_a, nlo_f, nhi_f
                j += 1
            span = times[j] - times[i]
            watched = span - sum(b - a for a, b in gaps)
            long_enough = span >= cfg.min_rest_s and j - i + 1 >= max(4.0, cfg.min_seen_fraction * watched * cfg.sample_hz)
            if not long_enough:
                i += 1
                continue
            part = sights[i:j + 1]
            foot = np.median(np.array([s.foot for s in part]), axis=0)
            direction = float(np.median(np.unwrap([s.direction for s in part])))
            pitched = self._pitched_line(part)
            line_foot, line_direction = pitched if pitched is not None else (foot, direction)
            target, margin = line_target(np.asarray(line_foot), line_direction, self.plane.standees, seat,
                                         self.candidates)
            height = float(np.median([s.height_cm for s in part]))
            # it came to rest when it last entered the rest pose closely (the end of a slow approach
            # stays within the loose tolerances above)
            at = self._scaled_feet(foot[None], feet[i], side, tol_f)[0]
            close = [abs(angles[k] - direction) <= tol_a * cfg.settle_fraction
                     and float(np.linalg.norm(scaled[k] - at)) <= cfg.settle_fraction
                     for k in range(i, j + 1)]
            start = next((i + k for k in range(len(close)) if all(close[k:k + 3])), i)
            if target is not None:
                runs.append(Rest(float(times[start]), float(times[j]), target, margin,
                                 (float(foot[0]), float(foot[1])), direction, height,
                                 tuple(g for g in gaps if g[1] > times[start]), float(times[i]), tol_f, pitched))
            i = j + 1
        return self._joined(runs)

    def _pitched_line(self, part: list[Sight]) -> tuple[tuple[float, float], float] | None:
        """The line of fire (foot, direction) of a weapon held pitched or rolled through a rest, from its card's
        pose solved in each frame read (``part``); None when the level reading stands: the card may be about
        level, or its outline fits two poses of a weapon held upright.

        A card's pitch and roll are its rest's, not one frame's: one frame's corner noise tips a 16-20 px card's
        solved pose by about 5 degrees, some frames by 15 or more, and then the mirror pose may look the nearer
        upright. So each of the two
        mirror poses is followed through the rest (``_pose_family``) and their medians are compared. The card is
        pitched when both tip beyond ``pitched_noise`` times what the corners' noise gives one frame of a level
        card of that size (``tilt_noise_deg_px`` over the marker's side in pixels); its pose is the one within
        ``upright_reach`` of a weapon held upright when the other is not."""
        cfg = self.config
        read = [s for s in part if not s.still and s.quad]
        if len(read) < cfg.pitched_least:
            return None
        poses = self.plane.card_pose_arrays(np.array([s.quad for s in read]).reshape(-1, 4, 2), markers.WEAPON_SIZE_CM)
        solved = poses.solved
        if int(solved.sum()) < cfg.pitched_least:
            return None
        tips = np.stack([poses.pitch[solved], poses.roll[solved]], axis=-1)  # (frame, mirror, pitch and roll)
        spreads = np.radians([cfg.pitch_spread_deg, cfg.roll_spread_deg])
        families = []
        for first in (0, 1):
            chosen = _pose_family(tips, first)
            tip = np.median(tips[np.arange(len(tips)), chosen], axis=0)
            families.append((float(np.hypot(*(tip / spreads))), math.degrees(float(np.hypot(*tip))), chosen))
        (upright, tilt, chosen), (other_upright, other_tilt, _) = sorted(families, key=lambda f: f[0])
        side = float(np.median([s.side_px for s, ok in zip(read, solved) if ok]))
        floor = cfg.pitched_noise * cfg.tilt_noise_deg_px / max(side, 1.0)
        if min(tilt, other_tilt) <= floor or upright > cfg.upright_reach or other_upright <= cfg.upright_reach:
            return None
        frames = np.arange(len(tips))
        directions = poses.direction[solved][frames, chosen]
        ref = float(directions[0])
        direction = ref + float(np.median([_turn(float(d), ref) for d in directions]))
        foot = np.median(poses.foot[solved][frames, chosen], axis=0)
        return (float(foot[0]), float(foot[1])), direction

    def _scaled_feet(self, feet: np.ndarray, ref: np.ndarray, side: float, tol_f: float) -> np.ndarray:
        """Ground points in units of the rest tolerance, along and across the ray from the camera's nadir
        through ``ref``. Along that ray a ground point also carries the error of the marker's apparent size
        (``side_noise_px`` on a side of ``side`` px moves it by that share of its distance from the nadir:
        a still weapon's ground point wanders along the ray, not across it)."""
        radial = np.asarray(ref, np.float64) - self.plane.nadir
        reach = float(np.linalg.norm(radial))
        if reach < 1e-6:
            return np.asarray(feet, np.float64) / tol_f
        u = radial / reach
        v = np.array([-u[1], u[0]])
        along = tol_f + self.config.side_spread * reach * self.config.side_noise_px / max(side, 1.0)
        rel = np.asarray(feet, np.float64) - self.plane.nadir
        return np.column_stack([rel @ u / along, rel @ v / tol_f])

    def _pause(self, seat: int, sights: list[Sight]) -> Rest | None:
        """The stillness that most likely was the weapon's aim when no rest was seen: the longest of the
        short ones (``min_rest_s`` lowered to a third): the one holding at the deadline, else the last
        before it, else the first after it."""
        saved = self.config
        self.config = dataclasses.replace(saved, min_rest_s=saved.min_rest_s / 3, min_seen_fraction=0.0)
        try:
            runs = self._rests(seat, sights)
        finally:
            self.config = saved
        if not runs:
            return None
        holding = [r for r in runs if r.start <= self.deadline <= r.end]
        before = [r for r in runs if r.end < self.deadline]
        return holding[0] if holding else before[-1] if before else runs[0]

    def _swing_turn(self, pause: Rest, sights: list[Sight]) -> bool:
        """Whether ``pause`` was the turn of a swing: read turning into it one way within ``swing_turn_s`` before
        it and out of it the other way within ``swing_turn_s`` after, each by more than twice the rest tolerance. A
        weapon waved to and fro slows to a stop at each end of its swing; one brought onto its target comes to
        rest there and does not turn back the way it came."""
        cfg = self.config
        tol = 2 * math.radians(cfg.rest_angle_deg)
        read = [s for s in sights if not s.still]
        before = [s for s in read if pause.seen_from - cfg.swing_turn_s <= s.t < pause.seen_from]
        after = [s for s in read if pause.end < s.t <= pause.end + cfg.swing_turn_s]
        if not before or not after:
            return False
        turned_in = _turn(pause.direction, before[0].direction)
        turned_out = _turn(after[-1].direction, pause.direction)
        return abs(turned_in) > tol and abs(turned_out) > tol and turned_in * turned_out < 0

    def _other_target(self, run: Rest, seat: int) -> int | None:
        """A second seat the line of fire would point at if it were off by what a reading may be off by
        (turned by ``line_error_deg`` and moved across by ``line_error_cm``): None when the target holds."""
        cfg = self.config
        (x, y), direction = run.line
        foot = np.array([x, y])
        across = np.array([-math.sin(direction), math.cos(direction)])
        for shift in (-cfg.line_error_cm, 0.0, cfg.line_error_cm):
            for turn in (-cfg.line_error_deg, 0.0, cfg.line_error_deg):
                got, _ = line_target(foot + across * shift, direction + math.radians(turn),
                                     self.plane.standees, seat, self.candidates)
                if got is not None and got != run.target:
                    return got
        return None

    def _missing_target(self, run: Rest, seat: int) -> int | None:
        """A seat whose standee was not found (its markers unread) that the line of fire may point at,
        wherever between its neighbours it stands: None when there is none."""
        (x, y), direction = run.line
        foot = np.array([x, y])
        for missing, places in self._missing.items():
            if missing == seat:
                continue
            if not places:
                return missing
            for place in places:
                got, margin = line_target(foot, direction, {**self.plane.standees, missing: place}, seat,
                                          self.candidates)
                if got == missing or margin < self.config.min_margin_deg:
                    return missing
        return None

    def _joined(self, runs: list[Rest]) -> list[Rest]:
        """Rests that follow one another without a gap, on one target at one pose (within the rest
        tolerances), are one rest: the range of a long rest's tremor, or the tail of the approach it
        began with, only split it."""
        cfg = self.config
        out: list[Rest] = []
        for run in runs:
            prev = out[-1] if out else None
            if prev is not None and run.seen_from - prev.end <= cfg.max_gap_s and run.target == prev.target \
                    and _within_rest(run, prev, math.radians(cfg.rest_angle_deg), max(run.tol_cm, prev.tol_cm)):
                longer = run if run.end - run.start >= prev.end - prev.start else prev
                out[-1] = dataclasses.replace(longer, start=prev.start, end=run.end, seen_from=prev.seen_from,
                                              margin_deg=min(prev.margin_deg, run.margin_deg),
                                              gaps=prev.gaps + run.gaps)
            else:
                out.append(run)
        return out


    def _holds_after(self, angles: np.ndarray, feet: np.ndarray, times: np.ndarray, k: int, lo_a: float,
                     hi_a: float, lo_f: np.ndarray, hi_f: np.ndarray, tol_f: float) -> bool:
        """Whether the sightings from ``k`` on hold, three times in a row with no gap longer than
        ``bridge_gap_s``, a pose within the rest tolerances of the pose held before (direction
        ``lo_a..hi_a``, ground point ``lo_f..hi_f``)."""
        cfg = self.config
        tol_a = math.radians(cfg.rest_angle_deg)
        for m in range(k, min(k + 3, len(times))):
            if m > k and times[m] - times[m - 1] > cfg.bridge_gap_s:
                return False
            a, f = angles[m], feet[m]
            if max(hi_a, a) - min(lo_a, a) > tol_a or float(np.max(np.maximum(hi_f, f) - np.minimum(lo_f, f))) \
                    > tol_f:
                return False
        return k + 3 <= len(times)


def _missing_places(standees: dict[int, np.ndarray], seat: int, seats: int) -> list[np.ndarray]:
    """Where the standee of ``seat``, not found, may stand: the seats go round the table in order, so
    between the standees found of the seats before and after it, on the segment joining them or beyond it
    away from the others (by up to half its length at its middle: the table's edge curves out between
    them). Empty when that cannot be told (fewer than three standees found): it may stand anywhere."""
    if len(standees) < 3:
        return []
    before = next((seat - k) % seats for k in range(1, seats) if (seat - k) % seats in standees)
    after = next((seat + k) % seats for k in range(1, seats) if (seat + k) % seats in standees)
    a, b = standees[before], standees[after]
    span = b - a
    length = float(np.linalg.norm(span))
    if before == after or length < 1e-6:
        return []
    normal = np.array([-span[1], span[0]]) / length
    centre = np.mean(np.array(list(standees.values())), axis=0)
    if float((centre - (a + b) / 2) @ normal) > 0:
        normal = -normal  # away from the standees found
    out = []
    for f in np.linspace(0.0, 1.0, 9)[1:-1]:
        for k in np.linspace(0.0, 1.0, 5):
            out.append(a + span * f + normal * k * 2.0 * length * f * (1 - f))
    return out


_PAIRS = np.array([(r * 6 + c, r * 6 + c + 1) for r in range(6) for c in range(5)]
                  + [(r * 6 + c, (r + 1) * 6 + c) for r in range(5) for c in range(6)])  # neighbouring cells


def _pose_family(tips: np.ndarray, first: int, rounds: int = 3) -> np.ndarray:
    """One of a still card's two mirror poses followed through its frames (``tips``: each frame's two poses' pitch
    and roll): starting from the median of each frame's ``first`` pose, in each frame the pose nearer the family's
    median pitch and roll, a few times over. Which of each frame's two poses the family holds."""
    frames = np.arange(len(tips))
    chosen = np.full(len(tips), first)
    for _ in range(rounds):
        centre = np.median(tips[frames, chosen], axis=0)
        off = tips - centre
        chosen = np.argmin(np.hypot(off[..., 0], off[..., 1]), axis=1)
    return chosen


def _turn(a: float, b: float) -> float:
    return (a - b + math.pi) % (2 * math.pi) - math.pi


def _within_rest(pose: Sight | Rest, of: Sight | Rest, tol_a: float, tol_f: float) -> bool:
    """Whether ``pose`` lies within the rest tolerances of ``of``: its direction within ``tol_a`` (radians)
    of that one's, and its ground point within ``tol_f`` (table cm)."""
    return abs(_turn(pose.direction, of.direction)) <= tol_a and math.dist(pose.foot, of.foot) <= tol_f


@dataclass(frozen=True)
class Rest:
    """A weapon held still from ``start`` to ``end`` (seconds after the "3"), its line on ``target``;
    ``gaps`` are the stretches it was out of view in between (an arm over it), bridged because it held
    the same pose on both sides."""

    start: float
    end: float
    target: int
    margin_deg: float
    foot: tuple[float, float]
    direction: float
    height_cm: float
    gaps: tuple[tuple[float, float], ...] = ()
    seen_from: float = -math.inf  # its first sighting (``start`` is when it settled)
    tol_cm: float = 3.0  # the spread of the ground point allowed to it (see ``AimConfig.rest_marker_px``)
    pitched: tuple[tuple[float, float], float] | None = None  # a weapon pitched at its target: its line of fire
    # (foot, direction) from its card's pose solved over the rest; ``foot`` and ``direction`` stay the pose read as
    # a level card's, which its sightings are compared with

    @property
    def line(self) -> tuple[tuple[float, float], float]:
        """The line of fire: foot (table cm) and direction (radians)."""
        return self.pitched if self.pitched is not None else (self.foot, self.direction)

    def seen_at(self, t: float, within: float) -> bool:
        """Whether the rest was in view within ``within`` seconds of ``t``, not bridged across it."""
        return self.start - within <= t <= self.end + within and not any(
            a + within < t < b - within for a, b in self.gaps)


# ----------------------------------------------------------------------------- finding the table


def find_table(frames: Sequence[np.ndarray]) -> TablePlane:
    """The table plane and standees from a few frames of the table: the markers of their median image
    (sensor noise averaged out) and of each frame, each at its median place."""
    if not frames:
        raise AimError("no frame to find the table in")
    grays = [markers.to_gray(f) for f in frames]
    images = [np.median(np.stack(grays), axis=0).astype(np.uint8)] if len(grays) >= 3 else []
    seen: dict[int, list[np.ndarray]] = {}
    images += [markers.sharpened(g, AimConfig.sharpen, AimConfig.sharpen_sigma_px) for g in images]
    jobs = [(g, sc) for g in images for sc in (1, 2, 3)] + [(g, sc) for g in grays[:3] for sc in (1, 2)]
    for gray, scale in jobs:
        img = gray if scale == 1 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        corners, ids = detect_markers(img, scale)
        if ids is None:
            continue
        got = set()
        for quad, mid in zip(corners, ids.ravel()):
            kind = markers.kind_of(int(mid))
            if kind is None or int(mid) in got:
                continue
            got.add(int(mid))
            pts = quad.reshape(4, 2).astype(np.float64)
            if scale > 1:
                pts = (pts + 0.5) / scale - 0.5
            seen.setdefault(int(mid), []).append(pts)
    found = {mid: np.median(np.stack(q), axis=0) for mid, q in seen.items()}
    h, w = frames[0].shape[:2]
    return TablePlane.from_markers(found, (w, h))


def read_frames(frames: Iterable[np.ndarray], *, seats: int, fps: float, three_at: float,
                plane: TablePlane | None = None, config: AimConfig = AimConfig(),
                shooters: Iterable[int] | None = None, candidates: Iterable[int] | None = None) -> AimReading:
    """Reads the aims from a sequence of frames (frame ``i`` at ``i / fps`` s; the "3" at ``three_at``).
    Without ``plane``, the table is found in frames spread over the clip before the count's "1"."""
    it = iter(frames)
    head: list[np.ndarray] = []
    if plane is None:
        lead = max(0, int((three_at - COUNT_INTERVAL_S * 2) * fps))
        want = max(1, min(lead, int(fps * 0.6)))
        for frame in it:
            head.append(frame)
            if len(head) >= want:
                break
        if not head:
            raise AimError("the clip has no frame")
        step = max(1, len(head) // 9)
        plane = find_table(head[::step][:9])
    reader = AimReader(plane, seats=seats, fps=fps, three_at=three_at, config=config, shooters=shooters,
                       candidates=candidates)
    count = 0
    for frame in _chain(head, it):
        reader.feed(frame)
        count += 1
        if reader.done:
            break
    if count / fps < three_at + DEADLINE_AFTER_THREE_S:
        raise AimError(f"the clip ends {count / fps:.2f} s after its start, before the deadline "
                       f"({three_at + DEADLINE_AFTER_THREE_S:.2f} s)")
    return reader.finish()


def _chain(head: list[np.ndarray], rest: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
    yield from head
    yield from rest


# ----------------------------------------------------------------------------- drawing


def draw_lines(frame: np.ndarray, reading: AimReading, plane: TablePlane | None = None) -> np.ndarray:
    """A copy of ``frame`` with each weapon's line of fire at the deadline drawn on the table plane
    (green: sure, orange: late, red: unsure), from the weapon's foot to its target's standee."""
    out = frame.copy()
    plane = plane or reading.plane
    if plane is None:
        return out
    for seat, aim in sorted(reading.seats.items()):
        if aim.line is None:
            continue
        foot, direction = np.asarray(aim.line[0]), aim.line[1]
        if aim.target is not None and aim.target in plane.standees:
            reach = float(np.linalg.norm(plane.standees[aim.target] - foot)) + 6.0
        else:
            reach = 40.0
        end = foot + reach * np.array([math.cos(direction), math.sin(direction)])
        a, b = plane.to_image(np.array([foot, end]))
        colour = (0, 0, 230) if not aim.sure else (0, 150, 255) if aim.late else (40, 200, 40)
        cv2.line(out, tuple(int(v) for v in a), tuple(int(v) for v in b), colour, 2, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in a), 4, colour, -1, cv2.LINE_AA)
        cv2.putText(out, str(seat), (int(a[0]) + 5, int(a[1]) - 5), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1,
                    cv2.LINE_AA)
    return out


__all__ = ["AimConfig", "AimReader", "AimReading", "SeatAim", "Sight", "draw_lines", "find_table", "line_target",
           "read_frames"]
