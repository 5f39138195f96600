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
   place stay within the rest tolerances for ``min_rest_s`` or more (two such rests at one pose on one target are
   one when the weapon was seen between them all along, every sighting in between on that target and within
   twice the tolerances of both: a small marker's scattered readings split a rest, a move shows beyond them);
   a rest that holds at the deadline
   (0.5 s after the "3") is an aim in time, the first run that begins after it an aim pointed late.
   A weapon hidden at the deadline, resting near the deadline, or whose line passes between two
   seats is unsure: the Godfather decides that seat. Two exceptions, both physical: a weapon at
   rest on its target from before the "3" that goes out of view (an arm over it), is read again at that
   pose ``kept_seen_again`` times and is not seen moving after keeps that aim; a weapon first seen after
   the deadline, already at rest, is late
   when the place where it rests showed at the deadline what it showed before the count (the bare
   table: neither the weapon nor an arm was there), or when the table's own texture showed at the
   deadline in most of the cells where its marker then rests (something passing beside it changes the
   place around, but not the table under the marker: the marker was not there). Without that evidence the seat asks,
   and the reading handed to the Godfather is late, or in time when at the deadline something covered the place where
   its marker rests (an arm over it: it may have rested there unseen) and none of the frames kept from
   ``later_places_s`` before the deadline on (that far apart) showed the table there (the bare table, or its texture
   under the marker) before the weapon was first seen at rest: where one did, the weapon was not there yet (or came
   to rest there just before the deadline and was covered before it was ever read at rest), and the reading is late.
   A rest seen only in glimpses (never in view for ``glimpse_s`` without going out of view between) is unsure: a weapon swung about is read only where
   its swing slows, at the same end each time, and those glimpses look like one rest; so is a rest
   held less than ``sure_rest_s`` and seen to end (moved on in view, or still when the watch, or the clip, ended).
   The watch goes on (up to ``follow_more_s``) while a weapon seen as it ends holds a pose taken after the deadline,
   on a target, for less than ``sure_rest_s``: a late pointer coming to rest is watched until its rest is long
   enough to be sure of.
   A weapon on its target at the deadline whose rest is found only after it (or found beginning just after it)
   asks; the reading handed over is in time when its readings from before the deadline on lie about that rest pose
   as its readings at rest do (a small marker's reading scatters, the weapon was still), late when they lie off to
   one side (still settling).
   A rest whose marker was read fewer than ``min_rest_reads`` times (its other sightings partly covered, at the
   pose read before) is unsure: its line is one or two readings, and a misread one would be copied. So is a rest
   at the deadline seen from then on only partly covered whose line passes closer to a second seat than the
   nearest turn a partly covered marker is told from (``still_turns_deg``): a smaller turn would not show.
   A marker partly covered still counts as seen at the pose last read (``_still_there``) only when that pose was
   held: one read while the weapon turned or moved beyond the rest tolerances since the reading before was passed
   through, and the weapon is not still there.
   A rest first seen just after the deadline, the weapon out of view before it, is unsure too; the reading
   handed over is in time when at the deadline its place showed its marker or was covered. A late pointer's
   first rest may be a pause as the hand brings it into view: when it came after the deadline (seen moving onto
   it, or its place bare at the deadline), was seen to end soon and a rest held longer follows, that rest is
   its aim. So is the rest held longer after the deadline of a weapon that came into view only after the "3" and
   was seen still at the deadline only for a moment from its first sighting, then seen moving on (a hand puts its
   weapon down where it came into view and raises it onto its aim): late, asking.
   The first frame and the frame at the deadline are compared at the camera's gain (the ratio most of
   the frame agrees on) and shifted by the camera's shake (the shift that matches the place best; both in
   ``vision.aim_cells``). A weapon never at rest, seen in most of the frames watched (from the "1", or the
   clip's first frame if later, to the end of the watch or of the clip), was moving the whole count: it points
   at no one.

Cost: a full-frame ArUco detection only every few analysed frames (every other one while a weapon is
not found, from shortly before the "3" to the end of the watch); in between, small crops around each
weapon's last place. Frames are analysed at ``sample_hz`` (30 by default) and only
in the window around the count; see bench/bench_aims.py.

Clip folders (``clip.json`` and the frames) are opened and read with this reader by ``vision.aim_clips``.

This module holds the per-frame path (``AimReader.feed``: where each weapon is looked for, its marker read, or
still seen partly covered) and is the aim reader's public entry; its types (``AimConfig``, ``Sight``, ``Rest``,
``SeatAim``, ``AimReading``, ``line_target``) are in ``vision.aim_reading``, the rests found in a weapon's
sightings in ``vision.aim_rests``, what the places where weapons rest showed at the deadline in
``vision.aim_places``, and the judgement of each seat at the end of the count in ``vision.aim_judgement``.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import cv2
import numpy as np

from vision import aim_cells, aim_partial, markers
from vision.aim_judgement import SeatJudge, missing_places
from vision.aim_places import DeadlinePlaces
from vision.aim_reading import COUNT_INTERVAL_S, DEADLINE_AFTER_THREE_S, AimConfig, AimReading, Rest, SeatAim, Sight, line_target, turn, within_rest
from vision.aim_rests import RestFinder
from vision.errors import AimError
from vision.table_plane import TablePlane

log = logging.getLogger(__name__)


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
        self.end = self.deadline + config.follow_s  # the end of the watch: later while a late pointer comes to rest
        self._end_at_most = self.end + config.follow_more_s
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
        self._pattern = {s: markers.pattern(markers.weapon_id(s)) for s in self.shooters}
        self._wanted = {markers.weapon_id(s): s for s in self.shooters}
        self._seat_px = {s: plane.to_image(p[None])[0] for s, p in plane.standees.items()}
        aimed_at = range(seats) if candidates is None else self.candidates or []
        self._missing = {m: missing_places(plane.standees, m, seats) for m in aimed_at if m not in plane.standees}
        # their standees' markers (marker id -> seat), kept each time a look for the weapons finds them (marker id
        # -> corners each time: see ``_standees_seen``)
        self._sought = {i: m for m in self._missing for i in (markers.crown_id(m), markers.base_id(m))}
        self._standee_seen: dict[int, list[np.ndarray]] = {}
        self.deadline_frame: np.ndarray | None = None
        self.first_frame: np.ndarray | None = None  # the table before the count, to compare places with
        self._first_gray: np.ndarray | None = None  # ... in grey, and when it was taken (seconds after the "3")
        self._first_at = -math.inf
        self._deadline_gap = math.inf
        # one frame ``later_places_s`` before the deadline, then one every ``later_places_s`` after it
        self._later_frames: list[tuple[float, np.ndarray]] = []
        self._later_slot = -2

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
        if t >= self.end and self.end < self._end_at_most:
            self.end = min(self._end_at_most, max(self.end, self._coming_to_rest_until()))
        gap = abs(t - self.deadline)
        if gap < self._deadline_gap:
            self._deadline_gap, self.deadline_frame = gap, frame
        slot = math.floor((t - self.deadline + 0.5 / self.fps) / self.config.later_places_s)
        if slot > self._later_slot and slot != 0 and t <= self.end:  # the first frame of each later_places_s from
            self._later_slot = slot  # one before the deadline on (but the deadline's own, kept above)
            self._later_frames.append((t, frame))
        dense = abs(t - self.deadline) <= self.config.dense_s  # every frame there: what decides the timing
        if (t < self._next_t - 0.5 / self.fps and not dense) or t > self.end:
            return
        if dense:
            self._next_t = t + 1 / self.config.sample_hz
        else:
            self._next_t = max(self._next_t + 1 / self.config.sample_hz, t + 0.5 / self.config.sample_hz)
        gray = markers.to_gray(frame)
        if self.first_frame is None:
            self.first_frame, self._first_gray, self._first_at = frame, gray, t
        found: dict[int, np.ndarray] = {}
        cfg = self.config
        phase = self._analysed % cfg.full_every
        # a weapon not found in the last frame (lost from its search box as it swung, or just come into view
        # where no box was) is looked for over the whole frame more often in the part of the count that
        # decides the aims: when it came to rest must not wait for the next regular full-frame look
        lost = cfg.lost_window_s[0] <= t <= max(cfg.lost_window_s[1], self.end) and self._analysed > 0 \
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
            # weapons too small for the full-frame look: near their seat, regularly, and more often in the part of
            # the count that decides the aims (where the full-frame look takes every other frame)
            if phase == cfg.full_every // 2 or (lost and self._analysed % cfg.lost_seat_every == 1):
                for seat in self.shooters:
                    last = self._last_box.get(seat)
                    if (last is None or t - last[2] > 0.4) and seat in self._seat_px:
                        found.update(self._detect_box(gray, self._seat_px[seat], cfg.seat_search_px, 2))
        self._analysed += 1
        self._found_last = set()
        for mid, quad in found.items():
            shooter = self._wanted.get(mid)
            if shooter is not None and not self._over_a_flat_marker(gray, quad):
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
        if not self._agrees(agree, against, len(pairs)) \
                or self._shows_as_before(seat, quad, pattern, margin, tremor, len(pairs)):
            return False
        # a weapon turned in the hand about its marker keeps the middle cells in place, and their pairs
        # still agree at the last pose: it is still only when no pose turned further matches better
        agree_t, against_t = aim_partial.scores(
            gray, aim_partial.poses_near(quad, cfg.still_reach_cells, cfg.still_turns_deg), pattern, margin)
        return int(np.max(agree_t - against_t)) <= agree - against

    def _shows_as_before(self, seat: int, quad: np.ndarray, pattern: np.ndarray, margin: float,
                         tremor: tuple[float, ...], pairs: int) -> bool:
        """Whether the table before the count, at ``quad``, passes ``_still_there``'s test of the weapon's pattern
        itself: what agrees there is then what lies behind the weapon's place (a standee's crown marker, a printed
        card), shown again as well once the weapon moved on, and no sign of the weapon held still under a cover.
        Not asked when the weapon was read at that place in that frame itself."""
        before = self._first_gray
        if before is None:
            return False
        reads = self._read_quads[seat]
        if reads and reads[0][0] <= self._first_at and \
                float(np.linalg.norm(reads[0][1].mean(axis=0) - quad.mean(axis=0))) < markers.quad_side(quad):
            return False
        then = aim_partial.best_near(before, quad, pattern, margin, self.config.still_reach_cells, tremor)
        return then is not None and self._agrees(*then, pairs)

    def _agrees(self, agree: int, against: int, pairs: int) -> bool:
        """Whether ``agree`` pairs agreeing and ``against`` against show a weapon's marker of ``pairs`` pairs to
        ``_still_there``'s test."""
        cfg = self.config
        return agree >= max(cfg.still_pairs, cfg.still_share * pairs * 0.5) and against <= cfg.still_against * agree

    def _over_a_flat_marker(self, gray: np.ndarray, quad: np.ndarray) -> bool:
        """Whether a weapon's marker read at ``quad`` lies over a marker flat on the table (a corner or a base card)
        that this frame still shows whole where it lies: a weapon's card over it would hide it, so the reading is
        that marker framed by its white margin on a dark table, its inside decoded as a weapon's by chance."""
        outline = quad.astype(np.float32)
        for mid, flat in self.plane.flat.items():
            centre = flat.mean(axis=0)
            if cv2.pointPolygonTest(outline, (float(centre[0]), float(centre[1])), False) < 0:
                continue
            side = markers.quad_side(flat)
            box = self._box(gray, centre, 1.5 * side)
            if box is None:
                continue
            x0, y0, x1, y1 = box
            upscale = 2 if side < self.config.small_marker_px else 1
            if any(seen_id == mid and float(np.linalg.norm(pts.mean(axis=0) - centre)) < side / 3
                   for seen_id, pts in self._read_markers(gray[y0:y1, x0:x1], (x0, y0), upscale)):
                return True
        return False

    @staticmethod
    def _box(gray: np.ndarray, centre: np.ndarray, pad: float) -> tuple[int, int, int, int] | None:
        """The image box ``pad`` px each way around ``centre`` (x0, y0, x1, y1), clipped to the frame; None when
        too small to hold a marker."""
        h, w = gray.shape[:2]
        x0, y0 = max(0, int(centre[0] - pad)), max(0, int(centre[1] - pad))
        x1, y1 = min(w, int(centre[0] + pad) + 1), min(h, int(centre[1] + pad) + 1)
        return None if x1 - x0 < 12 or y1 - y0 < 12 else (x0, y0, x1, y1)

    def _detect_box(self, gray: np.ndarray, centre: np.ndarray, pad: float, upscale: int = 1) -> dict[int, np.ndarray]:
        """The weapons read in the box ``pad`` px each way around ``centre``, enlarged ``upscale`` times; where none
        shows, at the frame's own size too (when enlarged), then enlarged twice through the stronger unsharp mask
        (``blurred_sharpen``, ``blurred_sigma_px``)."""
        box = self._box(gray, centre, pad)
        if box is None:
            return {}
        x0, y0, x1, y1 = box
        crop = gray[y0:y1, x0:x1]
        found = self._detect(crop, (x0, y0), upscale)
        if not found and upscale > 1:  # a blurred marker may read at its own size and not enlarged
            found = self._detect(crop, (x0, y0), 1)
        if not found:  # a small marker blurred further (a long exposure, a lens out of focus) in a dim room
            found = self._detect(crop, (x0, y0), 2, (self.config.blurred_sharpen, self.config.blurred_sigma_px))
        return found

    def _read_markers(self, gray: np.ndarray, origin: tuple[int, int], upscale: int = 1,
                      mask: tuple[float, float] | None = None) -> list[tuple[int, np.ndarray]]:
        """Every marker read in ``gray`` (a part of the frame whose top left corner is ``origin``), sharpened by the
        unsharp ``mask`` (amount, blur in px; default the config's ``sharpen`` and ``sharpen_sigma_px``) and enlarged
        ``upscale`` times: (id, corners in the frame's px)."""
        amount, sigma = mask or (self.config.sharpen, self.config.sharpen_sigma_px)
        gray = markers.sharpened(gray, amount, sigma)
        if upscale > 1:
            gray = cv2.resize(gray, None, fx=upscale, fy=upscale, interpolation=cv2.INTER_LINEAR)
        corners, ids = detect_markers(gray, upscale)
        if ids is None:
            return []
        out = []
        for quad, mid in zip(corners, ids.ravel()):
            pts = quad.reshape(4, 2).astype(np.float64)
            if upscale > 1:
                pts = (pts + 0.5) / upscale - 0.5
            out.append((int(mid), pts + np.asarray(origin, np.float64)))
        return out

    def _detect(self, gray: np.ndarray, origin: tuple[int, int], upscale: int = 1,
                mask: tuple[float, float] | None = None) -> dict[int, np.ndarray]:
        found: dict[int, np.ndarray] = {}
        for mid, pts in self._read_markers(gray, origin, upscale, mask):
            if mid in self._sought:
                self._standee_seen.setdefault(mid, []).append(pts)
            elif mid in self._wanted:
                area = abs(cv2.contourArea(pts.astype(np.float32)))
                old = found.get(mid)
                if old is None or area > abs(cv2.contourArea(old.astype(np.float32))):
                    found[mid] = pts
        return found

    def _record(self, seat: int, quad: np.ndarray, t: float) -> None:
        side = markers.quad_side(quad)
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
                and within_rest(s, last, tol_a, tol_f)][-5:]
        foot = np.median(np.array([s.foot for s in near]), axis=0)
        direction = last.direction + float(np.median([turn(s.direction, last.direction) for s in near]))
        height = float(np.median([s.height_cm for s in near]))
        target, margin = line_target(foot, direction, self.plane.standees, seat, self.candidates)
        side = float(np.median([s.side_px for s in near]))
        sights.append(Sight(t, (float(foot[0]), float(foot[1])), direction, height, last.image_centre, target,
                            margin, side, still=True))
        centre, _, _ = self._last_box[seat]
        self._last_box[seat] = (centre, side, t)

    def _coming_to_rest_until(self) -> float:
        """How long the watch goes on for the weapons coming to rest as it ends: one seen within ``max_gap_s`` of
        its end, on a target, holding the pose it took after the deadline (its sightings back from the last within
        the rest tolerances of it, none more than ``max_gap_s`` apart, as a rest is seen) for ``bridge_still_s`` (a
        weapon seen still) or more but less than ``sure_rest_s``, is watched until it has held that pose
        ``sure_rest_s`` and ``glimpse_s`` more (a late pointer's rest, long enough to tell from the
        slow end of a swing). -inf when none is."""
        cfg = self.config
        until = -math.inf
        for sights in self._sights.values():
            if not sights or sights[-1].t < self.end - cfg.max_gap_s or sights[-1].target is None:
                continue
            last = sights[-1]
            tol_a, tol_f = cfg.rest_tolerances(last.side_px)
            since = last.t
            for s in reversed(sights):
                if not within_rest(s, last, tol_a, tol_f) or since - s.t > cfg.max_gap_s:
                    break
                since = s.t
            held = last.t - since + 0.5 / self.fps  # to within half a frame: the frames' times are whole frames apart
            if since > self.deadline and cfg.bridge_still_s <= held < cfg.sure_rest_s:
                until = max(until, since + cfg.sure_rest_s + cfg.glimpse_s)
        return until

    def _read_moving(self, sights: list[Sight], last: Sight, tol_a: float, tol_f: float) -> bool:
        """Whether ``last`` was read while the weapon moved: the reading before it, no more than ``max_gap_s``
        earlier, shows it turned more than ``tol_a`` (radians) or moved more than ``tol_f`` (cm, the rest
        tolerances) since. A hand turning a weapon that fast does not stop it at the pose read mid-turn: it
        comes to rest further on, or swings on."""
        prev = next((s for s in reversed(sights) if s.t < last.t and not s.still), None)
        if prev is None or last.t - prev.t > self.config.max_gap_s:
            return False
        return not within_rest(last, prev, tol_a, tol_f)

    def finish(self) -> AimReading:
        self._standees_seen()
        judge = self.seat_judge()
        seats = {s: judge.judge(s, self._sights[s]) for s in self.shooters}
        return AimReading(seats, self._analysed, self.deadline_frame, self.plane)

    def _standees_seen(self) -> None:
        """Standees not found with the table (an arm over them before the count) whose marker was found while
        the weapons were looked for, ``standee_reads`` times or more at one place (it stands still): placed on
        the table there, and every sighting's target found again with them."""
        seen: dict[int, dict[int, np.ndarray]] = {}  # seat -> marker id -> corners (median)
        for mid, quads in self._standee_seen.items():
            stack = np.stack(quads)
            near = _at_one_place(stack)
            if int(near.sum()) >= self.config.standee_reads:
                seen.setdefault(self._sought[mid], {})[mid] = np.median(stack[near], axis=0)
        self._standee_seen = {}
        standees = dict(self.plane.standees)
        for seat, found in seen.items():
            place = self.plane.standee_place(found.get(markers.crown_id(seat)), found.get(markers.base_id(seat)))
            if place is not None:
                standees[seat] = place
        if len(standees) == len(self.plane.standees):
            return
        log.info("standees found during the aim count, not with the table: seats %s",
                 ", ".join(str(m) for m in sorted(set(standees) - set(self.plane.standees))))
        self.plane = dataclasses.replace(self.plane, standees=standees)
        self._missing = {m: missing_places(standees, m, self.seats) for m in self._missing if m not in standees}
        self._sought = {i: m for i, m in self._sought.items() if m in self._missing}
        for seat, sights in self._sights.items():
            self._sights[seat] = [dataclasses.replace(s, target=t, margin_deg=m) for s in sights
                                  for t, m in [line_target(np.array(s.foot), s.direction, standees, seat, self.candidates)]]

    def seat_judge(self) -> SeatJudge:
        """What the frames fed showed, handed to the judgement of each seat: the rests are found on the table
        plane, the places where they lie compared between the first frame and the frame at the deadline."""
        places = DeadlinePlaces(self.config, self.first_frame, self.deadline_frame, self.deadline, self._read_quads,
                                self._pattern, self._later_frames)
        return SeatJudge(self.config, self.plane, self.candidates, self.deadline, self.end, self._first_t,
                         self._last_t, self._missing, RestFinder(self.config, self.plane, self.candidates), places)


# ----------------------------------------------------------------------------- finding the table


def _table_markers_in(gray: np.ndarray, scale: int) -> dict[int, np.ndarray]:
    """The table's markers (not the weapons') found in ``gray`` enlarged ``scale`` times: id -> corners (4, 2) in
    the frame's pixels, the first of each id."""
    img = gray if scale == 1 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    corners, ids = detect_markers(img, scale)
    found: dict[int, np.ndarray] = {}
    for quad, mid in zip(corners, () if ids is None else ids.ravel()):
        if markers.kind_of(int(mid)) is None or int(mid) in found:
            continue
        pts = quad.reshape(4, 2).astype(np.float64)
        found[int(mid)] = (pts + 0.5) / scale - 0.5 if scale > 1 else pts
    return found


def find_table(frames: Sequence[np.ndarray], seats: int | None = None) -> TablePlane:
    """The table plane and standees from a few frames of the table: the markers of their median image
    (sensor noise averaged out) and of its first frames, each at its median place; when a corner marker is not
    among them, the markers not yet found are looked for in every frame too (an arm over it most of the time).
    With ``seats`` known, a marker of a seat beyond them that the median image does not show counts only when
    single frames show it at one place twice or more (``_read_still``): a standee does not move, while a weapon's
    card passing by, or a blurred print, may be misread as one in one frame, and a standee of a seat the table
    does not have refuses the clip (``aim_clips``: the seat count given and the table disagree)."""
    if not frames:
        raise AimError("no frame to find the table in")
    grays = [markers.to_gray(f) for f in frames]
    images = [np.median(np.stack(grays), axis=0).astype(np.uint8)] if len(grays) >= 3 else []
    images += [markers.sharpened(g, AimConfig.sharpen, AimConfig.sharpen_sigma_px) for g in images]
    in_median: dict[int, list[np.ndarray]] = {}
    for gray, scale in [(g, sc) for g in images for sc in (1, 2, 3)]:
        for mid, pts in _table_markers_in(gray, scale).items():
            in_median.setdefault(mid, []).append(pts)
    in_frames: dict[int, list[tuple[int, np.ndarray]]] = {}  # marker id -> (frame, corners) read in single frames
    for index, gray in enumerate(grays[:3]):
        for scale in (1, 2):
            for mid, pts in _table_markers_in(gray, scale).items():
                in_frames.setdefault(mid, []).append((index, pts))
    known = seats if images else None  # with no median image (fewer than three frames), every marker as read
    found = _table_found(in_median, in_frames, known)
    if any(c not in found for c in markers.CORNER_IDS):  # an arm over a corner most of the time: each frame
        for index, gray in enumerate(grays[3:], start=3):
            for mid, pts in _table_markers_in(gray, 1).items():
                if mid not in found:
                    in_frames.setdefault(mid, []).append((index, pts))
        found = _table_found(in_median, in_frames, known)
    h, w = frames[0].shape[:2]
    return TablePlane.from_markers(found, (w, h))


def _table_found(in_median: dict[int, list[np.ndarray]], in_frames: dict[int, list[tuple[int, np.ndarray]]],
                 seats: int | None) -> dict[int, np.ndarray]:
    """Each marker's corners (the median of its readings): those the median image shows, with their readings in
    single frames; the others as read, but a standee's of a seat beyond ``seats`` only when read still
    (``_read_still``)."""
    found = {mid: np.median(np.stack(q + [p for _, p in in_frames.get(mid, [])]), axis=0)
             for mid, q in in_median.items()}
    for mid, reads in in_frames.items():
        if mid not in found:
            kind = markers.kind_of(mid)
            beyond = seats is not None and kind is not None and kind[0] is not markers.MarkerKind.CORNER and kind[1] >= seats
            still = _read_still(reads) if beyond else np.median(np.stack([p for _, p in reads]), axis=0)
            if still is not None:
                found[mid] = still
    return found


def _read_still(reads: list[tuple[int, np.ndarray]]) -> np.ndarray | None:
    """The corners of a marker read in single frames ((frame, corners) each) when two frames or more read it at
    one place (their centres within a quarter of its side of the readings' median): the median of those; None
    otherwise."""
    stack = np.stack([p for _, p in reads])
    near = _at_one_place(stack)
    if len({index for (index, _), n in zip(reads, near) if n}) < 2:
        return None
    return np.asarray(np.median(stack[near], axis=0))


def _at_one_place(quads: np.ndarray) -> np.ndarray:
    """Which of a marker's readings (n, 4, 2 corners) lie at its place: their centres within a quarter of its side
    of the readings' median."""
    corners = np.median(quads, axis=0)
    return np.asarray(np.linalg.norm(quads.mean(axis=1) - corners.mean(axis=0), axis=1) <= 0.25 * markers.quad_side(corners))


def table_frame_count(fps: float, three_at: float) -> int:
    """How many of a clip's first frames the table is found in: those before the count's "1" (at most 0.6 s of
    them), at least one."""
    lead = max(0, int((three_at - COUNT_INTERVAL_S * 2) * fps))
    return max(1, min(lead, int(fps * 0.6)))


def table_of(frames: Sequence[np.ndarray], seats: int | None = None) -> TablePlane:
    """The table found in up to nine frames spread over ``frames`` (``find_table``; ``seats`` at the table when
    known)."""
    if not frames:
        raise AimError("the clip has no frame")
    step = max(1, len(frames) // 9)
    return find_table(frames[::step][:9], seats)


def read_frames(frames: Iterable[np.ndarray], *, seats: int, fps: float, three_at: float,
                plane: TablePlane | None = None, config: AimConfig = AimConfig(),
                shooters: Iterable[int] | None = None, candidates: Iterable[int] | None = None) -> AimReading:
    """Reads the aims from a sequence of frames (frame ``i`` at ``i / fps`` s; the "3" at ``three_at``).
    Without ``plane``, the table is found in frames spread over the clip before the count's "1"."""
    it = iter(frames)
    head: list[np.ndarray] = []
    if plane is None:
        want = table_frame_count(fps, three_at)
        for frame in it:
            head.append(frame)
            if len(head) >= want:
                break
        plane = table_of(head, seats)
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


__all__ = ["COUNT_INTERVAL_S", "DEADLINE_AFTER_THREE_S", "AimConfig", "AimReader", "AimReading", "Rest", "SeatAim", "Sight",
           "draw_lines", "find_table", "line_target", "read_frames", "table_frame_count", "table_of"]
