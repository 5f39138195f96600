"""The Shuriken throw judge: frames in, per-seat verdict with evidence and confidence out.

States: ARMED (reference frames taken, waiting) -> MOTION (something moves: a hand, the star, a
standee) -> settled -> JUDGED. Motion is found cheaply at reduced resolution; only the seats where
something moves get a close look (ArUco detection in a small crop around the crown). Motion that
settles with no standee changed, and no shuriken seen or none left lying where it went (a hand
reaching in, its fingertips moving like a star), re-arms the judge instead of judging; a seat it left
unsure stays for the Godfather. No throw before the timeout is a miss the camera is unsure of
(armed for a throw, it saw no star).

Each examined frame measures the crown's displacement on the table plane twice: by its decoded
marker, and by correlating its card's look at rest (``vision.patches``: sub-pixel, and through a
partial cover such as the star or a finger); the finer one counts, against the base card found the
same way, else the registered frame (corrected by the base cards found as sharply as at rest when they
put it off, or, in a frame no two fixed markers registered, by the crowns when most of them agree). A
displacement counts when seen in two frames, or surely in one (both readings agreeing, or the card
found as sharply as at rest: a swing the star then covers; against the registered frame only when the
fixed markers, the base cards or the crowns vouch for it, at the crown's rows to a touch's worth). A
crown is looked at for a swing's time once the star passed near it: near a sighting, or near its way
between two sightings (it flies up to 15 cm a frame) or from the thrower's hand to its first sighting;
and by its card's look whenever its place differs from the armed reference with nothing moving there
from frame to frame (a dim, faint standee tipping over, hit by a star not yet seen).

The verdict's types are in ``vision.throw_verdict``, a seat's track and the measures of the pieces in
``vision.seat_track``, the crowns' readings in each frame in ``vision.crown_looks``; once the table
settled, the seats read when armed are read by ``vision.settled_seats``, and those unread placed by
their neighbours by ``vision.unread_seats``.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path

import cv2
import numpy as np

from vision import markers, patches
from vision.calibration import Calibration, calibrate
from vision.crown_looks import CrownLooks
from vision.errors import CalibrationError, ClipError
from vision.markers import Detection, MarkerDetector
from vision.motion import STAR_AREA_CM2, STAR_SHARE_MIN, Blob, BlobKind, MotionDetector
from vision.patches import Look
from vision.seat_track import (
    BASE_SEARCH_PX,
    FALL_REACH_CM,
    FALL_WIDTH_CM,
    HAND_NEAR_CM,
    MAX_STAR_SPEED_CM_S,
    MIN_STAR_SPEED_CM_S,
    STAR_LOST_S,
    STAR_NEAR_CM,
    STAR_RADIUS_CM,
    STAR_RUN_CM,
    WATCH_AFTER_STAR_S,
    SeatTrack,
    armed_patch,
    band,
    base_patch_half,
    box_around,
    covered_half,
    in_two_frames,
    median_at_rest,
    near_sightings,
    nearest_pair,
    patch_box,
    pixels_to_cm,
    quad_mask,
    segment_distance,
    table_scale,
)
from vision.sources import CameraSettings, open_clip
from vision.throw_verdict import JudgeConfig, Outcome, SeatEvidence, State, Verdict
from vision.unread_seats import SettledTable

__all__ = ["JudgeConfig", "Outcome", "SeatEvidence", "State", "ThrowJudge", "Verdict", "calibrate_from_frames", "judge_clip", "judge_frames"]

log = logging.getLogger(__name__)


# a card's marker, however its standee lies or turns, shows one side at least this share of its length when
# armed: lying down puts it a standee's height (15 cm at most) farther from a camera 60 cm away or more, and a
# card turns about one axis only, so the two sides along that axis keep their length; a "marker" smaller all round,
# or with one long side only (a sliver, not a card seen edge on), is a pattern a few pixels across read by chance (in
# noise, or in the star lying on the card)
LEAST_SIDE_SHARE = 0.5
# a star's centre this close to a crown's may meet that crown: its radius, half a crown card and 1 cm
STAR_REACH_CM = STAR_RADIUS_CM + markers.CROWN_SIZE_CM / 2 + 1.0


def _card_sized(det: Detection | None, side: float) -> Detection | None:
    """``det`` if two of its opposite sides are ``LEAST_SIDE_SHARE`` of ``side`` (the marker's armed side) long or
    more."""
    if det is None:
        return None
    c = det.corners
    sides = [float(np.linalg.norm(c[i] - c[(i + 1) % 4])) for i in range(4)]
    kept = max(min(sides[0], sides[2]), min(sides[1], sides[3]))
    if kept >= LEAST_SIDE_SHARE * side:
        return det
    log.debug("marker %d read %.1f px across (its sides %s) where it was %.1f px: no reading of its card",
              det.marker_id, kept, [round(s, 1) for s in sides], side)
    return None


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _turn(a: Detection, b: Detection) -> float:
    return abs((b.angle_deg - a.angle_deg + 180) % 360 - 180)


class ThrowJudge(CrownLooks):
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
        self.tracks: dict[int, SeatTrack] = {}
        self._recent: deque[tuple[np.ndarray, tuple[float, float]]] = deque(maxlen=config.final_frames)
        self._shape: tuple[int, ...] = ()
        self._frames = 0
        self._armed_at = 0
        self._motion_since = 0
        self._still = 0
        self._shuriken_seen = False
        self._star_free = False
        self._candidate_seen = False
        self._unsure_before: dict[int, str] = {}
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
    def arm(self, frames: Iterable[np.ndarray], *, calibrated_here: bool = False) -> None:
        """Takes the reference: the table at rest just before the throw (a few frames). ``calibrated_here``: the
        calibration was made from this clip's first still frames, so a marker it found lies where it found it,
        whether or not the reference frames decode it (a dim room: the calibration took the median of more)."""
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
        frames = self.motion.set_reference(frames, anchors=fixed)
        shifts = self.motion.reference_shifts
        self._recent.clear()
        self._recent.extend(zip(frames[-self.config.final_frames:], shifts[-self.config.final_frames:]))
        size = (frames[0].shape[1], frames[0].shape[0])
        scale = self.config.motion_scale
        rest = median_at_rest(frames, shifts)
        base_per_crown = self._base_per_crown()
        self._rest_found: dict[int, Detection] | None = None
        self._rest_end = None
        self.tracks = {}
        cards: dict[int, tuple[Detection | None, Detection | None]] = {}
        for seat in range(self.seats):
            marks = self.calibration.seats[seat]
            crown = base = None
            if marks.crown is not None:
                armed = markers.quad_side(marks.crown)
                crown = self._find(frames, shifts, markers.crown_id(seat), np.mean(marks.crown, axis=0), 2.0 * armed,
                                   upscale=1, rest=rest, side=armed)
            if marks.base is not None:
                armed = markers.quad_side(marks.base)
                base = self._find(frames, shifts, markers.base_id(seat), np.mean(marks.base, axis=0), 2.0 * armed,
                                  upscale=2, rest=rest, side=armed)
            if crown is None or (base is None and marks.base is None):
                # unread by the calibration in single frames (glare, a dim room, blur): looked for
                # in the resting image, where noise and compression blocks averaged out
                found = self._rest_markers(rest)
                crown = crown or found.get(markers.crown_id(seat))
                base = base or found.get(markers.base_id(seat))
            if calibrated_here and crown is None and marks.crown is not None:
                crown = Detection(markers.crown_id(seat), np.asarray(marks.crown, np.float32))
            if calibrated_here and base is None and marks.base is not None:
                base = Detection(markers.base_id(seat), np.asarray(marks.base, np.float32))
            cards[seat] = (crown, base)
        by_cells = self._armed_by_cells(rest, cards)
        for seat in range(self.seats):
            crown, base = cards[seat]
            from_cells = by_cells.get(markers.crown_id(seat)), by_cells.get(markers.base_id(seat))
            cells_only = any(d is not None for d in from_cells)  # only a seat with both cards unread has any
            if cells_only:
                crown, base = from_cells
            if crown is None:
                self.tracks[seat] = SeatTrack(seat, None, base, 0.0, (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0),
                                               table_ppc=table_scale(base, None, base_per_crown),
                                               read_by_cells=cells_only)
                continue
            side = crown.side_px
            centre = crown.center
            crop = box_around(centre, 1.7 * side, size)
            watch_full = box_around(centre, 1.4 * side, size)
            wx0, wy0, wx1, wy1 = watch_full
            watch = (wx0 // scale, wy0 // scale, wx1 // scale, wy1 // scale)
            body = box_around(centre, 0.75 * side, size)
            track = SeatTrack(seat, crown, base, markers.CROWN_SIZE_CM / side, crop, watch, body,
                              read_by_cells=cells_only)
            track.to_cm = pixels_to_cm(crown)
            track.most_cm_per_px = float(np.linalg.norm(track.to_cm, 2))
            track.table_ppc = table_scale(base, crown, base_per_crown)
            nx0, ny0, nx1, ny1 = box_around(centre, side / 2 + HAND_NEAR_CM * side / markers.CROWN_SIZE_CM, size)
            track.near = (nx0 // scale, ny0 // scale, nx1 // scale, ny1 // scale)
            track.card_mask, track.fall_mask = self._masks(crown, track.table_ppc, size)
            track.lie_mask = track.fall_mask if base is None else track.fall_mask | self._strip(base.center, track.table_ppc, size)
            still = rest if rest is not None else frames[0]
            track.crown_look = Look.of(still, crown.center, 0.6 * side, search=max(6, int(0.8 * side)))
            if base is not None:
                track.base_look = Look.of(still, base.center, 0.6 * base.side_px, search=8)
            track.armed_patch, track.armed_noise = armed_patch(still, frames, crown)
            half, search = covered_half(crown)
            track.kept_boxes = (crown.center.astype(np.float64), half + search,
                                None if base is None else base.center.astype(np.float64),
                                0 if base is None else base_patch_half(base) + BASE_SEARCH_PX)
            self.tracks[seat] = track
        self._frames = 0
        self._offset_frame = -1
        self._armed_at = 0
        self._still = 0
        self._shuriken_seen = False
        self._star_free = False  # the star seen at least once with no hand or arm in view
        self._candidate_seen = False  # a star-sized blob seen since the last (re-)arming
        self._left_lying_at: int | None = None  # the table settled with something lying where nothing lay, no
        # star seen: the frame it was found (looked at again a settle's length later, never armed again on it)
        self._unsure_before = {}  # seats left unsure by motion before the throw: why
        self._last_candidates = []
        self._star_track = []
        self.verdict = None
        self.state = State.ARMED
        log.debug("armed: %s standing", [s for s, t in self.tracks.items() if t.crown is not None])

    def _armed_by_cells(self, rest: np.ndarray | None,
                        cards: dict[int, tuple[Detection | None, Detection | None]]) -> dict[int, Detection]:
        """The cards of the seats whose crown and base were both unread when armed (``cards``: each seat's crown and
        base as read, or None), read from their cells in the resting image: an outline there whose code does not
        decode (a card blurred, or smeared by a vibrating camera) whose cells follow one of their patterns clearly
        (``markers.read_by_cells``), apart from every card read, and as large as the cards of its kind read at this
        table."""
        wanted = {i for s, (c, b) in cards.items() if c is None and b is None
                  for i in (markers.crown_id(s), markers.base_id(s))}
        if rest is None or not wanted:
            return {}
        read = [d for pair in cards.values() for d in pair if d is not None]
        read += [Detection(mid, np.asarray(q, np.float32)) for mid, q in self.calibration.corners.items()]

        def kind(marker_id: int) -> markers.MarkerKind | None:
            known = markers.kind_of(marker_id)
            return None if known is None else known[0]

        sides = {k: [d.side_px for d in read if kind(d.marker_id) == k] for k in {kind(m) for m in wanted}}
        gray = markers.to_gray(rest)
        found: dict[int, Detection] = {}
        for upscale in (1, 2):
            for quad in self.detector.outlines(gray, upscale):
                det = markers.read_by_cells(gray, quad, wanted - set(found))
                if det is None or any(np.linalg.norm(det.center - r.center) < 0.5 * (det.side_px + r.side_px)
                                      for r in read + list(found.values())):
                    continue
                alike = sides.get(kind(det.marker_id)) or []
                if alike and not 0.6 <= det.side_px / float(np.median(alike)) <= 1.6:
                    continue
                found[det.marker_id] = det
        if found:
            log.debug("cards read by their cells when armed: %s", sorted(found))
        return found

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
        return quad_mask(low, crown.corners, scale), self._strip(crown.center, ppc, size)

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
        return band(low, centre, along, back=half_len, ahead=half_len, half_wide=FALL_WIDTH_CM / 2 * ppc, scale=self.config.motion_scale)

    def _find(self, frames: list[np.ndarray], shifts: list[tuple[float, float]], marker_id: int,
              centre: np.ndarray, half: float, upscale: int, rest: np.ndarray | None = None, *,
              side: float) -> Detection | None:
        """The marker near ``centre`` in the latest of ``frames`` that shows it, moved back by that
        frame's shift against the reference (so in the reference's frame); None if none shows it.
        ``rest``: the median of ``frames`` registered to the reference, looked at first. ``side``: the
        marker's side when armed (pixels); a reading with no side ``LEAST_SIDE_SHARE`` of it long is none."""
        size = (frames[0].shape[1], frames[0].shape[0])
        if rest is not None:  # the resting state: sensor noise and compression blocks averaged out
            found = _card_sized(self.detector.find_in(rest, box_around(centre, half, size), marker_id, upscale), side)
            if found is not None:
                return found
        latest = True
        for frame, shift in zip(reversed(frames), reversed(shifts)):  # the latest frame that shows it
            box = box_around(centre + np.asarray(shift, np.float32), half, size)
            if latest:  # enlarged and sharpened passes too, on one frame only
                found = self.detector.find_in(frame, box, marker_id, upscale)
                latest = False
            else:
                found = self.detector.detect_in(frame, box, upscale).get(marker_id)
            found = _card_sized(found, side)
            if found is not None:
                return Detection(marker_id, found.corners - np.asarray(shift, np.float32))
        return None

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
        frame = self.motion.steady(frame)
        m = self.motion.update(frame)
        self._recent.append((frame, self.motion.shift))
        settle_frames = max(2, round(self.config.settle_s * self.fps))
        quiet = m.activity <= self._quiet_pixels
        if self.state is State.ARMED:
            # waiting for a throw, scattered changed pixels are enough (a star dimmed by the room or blurred by its
            # flight); once something moves, the table is still when the changes in blocks are over
            if m.stirred <= self._quiet_pixels:
                if self._frames - self._armed_at > self.config.timeout_s * self.fps:
                    return self._timeout()
                return None
            self.state = State.MOTION
            self._motion_since = self._frames
            self._still = 0
        # MOTION
        candidates = [b for b in m.blobs if b.kind is BlobKind.SHURIKEN]
        candidates += self._star_beside_arm(m.blobs)
        if self._star_gone_quiet() and any(b.kind is BlobKind.ARM for b in m.blobs):
            # the star out of sight longer than a flight hides it (at rest, most likely), and a hand or arm in
            # view: star-sized blobs now are pieces of the hand (fingers, its shadow's edge), not the star
            candidates = []
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
        for t in self.tracks.values():
            if t.crown is None or t.arm_first is not None:
                continue
            # the unbroken run of frames, up to the one a hand or arm first covers its card, with one
            # within a hand's width of it (looked for where something changed, or while the run lasts)
            x0, y0, x1, y1 = t.near
            if t.arm_near_since is not None or m.changed[y0:y1, x0:x1].any():
                near = bool(self.motion.arm_mask()[y0:y1, x0:x1].any())
                t.arm_near_since = (t.arm_near_since if t.arm_near_since is not None else self._frames) if near else None
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
        if not quiet:
            self._left_lying_at = None
        if self._still >= settle_frames:
            # a hand or arm still in view hides what is under it: wait for it to go, a while
            if self._still < settle_frames + self.config.arm_wait_s * self.fps and any(
                    self._settled_table().arm_over(t, in_median=True) for t in self.tracks.values() if t.crown is not None):
                return None
            if self._left_lying_at is not None:  # not armed again on what lies there: looked at once a settle
                if self._frames - self._left_lying_at < settle_frames:
                    return None
                if self._frames - self._armed_at > self.config.timeout_s * self.fps:
                    return self._timeout()
            return self._settled()
        if self._frames - self._motion_since > self.config.max_throw_s * self.fps:
            return self._conclude("the table did not settle", unsettled=True)
        return None

    def _blocks_moved(self) -> bool:
        """Whether anything moved in blocks (``MotionFrame.activity``) since the motion began: the still frames at the
        end are fewer than the frames since then."""
        return self._still <= self._frames - self._motion_since

    def _keep_around_crowns(self, frame: np.ndarray) -> None:
        """Keeps, from the first frame something star-sized moves on, the image around each standing crown
        (but the thrower's) and its base card, unless a hand or arm covers its card: a crown the star comes
        to rest on is followed afterwards by the part of its card left in view at the end
        (``SettledSeats._covered_readings``), and whether the frame's rows there may be off by more than a still
        crown's jitter (``SeatTrack.bent``). The latest throw's length."""
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
            box = patch_box(crown_at + at, crown_half, size)
            if box is None:
                continue
            base = None
            if base_at is not None:
                bbox = patch_box(base_at + at, base_half, size)
                base = None if bbox is None else frame[bbox[1]:bbox[3], bbox[0]:bbox[2]].copy()
            t.kept.append((self._frames, frame[box[1]:box[3], box[0]:box[2]].copy(), base, shift))
            self._note_bent(t)

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
            p, c = nearest_pair(last, centres)
            if float(np.linalg.norm(c - p)) <= high:
                self._legs = [(p, c)]
        if centres and self._shuriken_seen and not self._star_free:
            # a star-sized blob while no hand or arm is in view: not a piece of one
            self._star_free = int(self.motion.arm_mask().sum()) <= self.motion.star_area / self.config.motion_scale ** 2
        self._last_candidates = centres

    def _star_gone_quiet(self) -> bool:
        """Whether the star, seen in flight, has been out of sight for more than ``STAR_LOST_S``."""
        return self._shuriken_seen and bool(self._star_track) and \
            self._frames - self._star_track[-1][0] > STAR_LOST_S * self.fps

    def _star_beside_arm(self, blobs: list[Blob]) -> list[Blob]:
        """Star-sized blobs taken for a hand's or arm's because a hand's trace (its shadow, a lower
        threshold and a margin) reaches them, that lie on the star's way on from the last frame: the
        star seen in the last two frames it showed, the last of them the frame before this one, and
        the blob within a star's radius and a centimetre of the stretch it flies in one frame at that
        speed from where it was (a star slows or stops, never speeds up). A star flying past a hand,
        or coming to rest beside one, stays the star."""
        if not self._shuriken_seen or len(self._star_track) < 2 or self._star_track[-1][0] != self._frames - 1:
            return []
        (f0, before), (f1, last) = self._star_track[-2], self._star_track[-1]
        ppc = self.calibration.px_per_cm
        high = MAX_STAR_SPEED_CM_S * ppc / self.fps
        p, c = nearest_pair(before, last)
        step = (c - p) / (f1 - f0)
        if float(np.linalg.norm(step)) > high:
            return []
        reach = (STAR_RADIUS_CM + 1.0) * ppc
        return [b for b in blobs if b.kind is BlobKind.ARM
                and self.motion.star_sized(b.area_px, b.length_px)
                and segment_distance(np.asarray(b.centre, np.float64), c, c + step) <= reach]

    def _star_back(self, now: list[np.ndarray]) -> None:
        """The star seen again after frames it was out of sight: its path between where it was
        last seen and where it is now may have passed a crown, touching it unseen."""
        last_frame, last = self._star_last
        if last_frame < 0 or last_frame >= self._frames - 1 or not last:
            return
        self._unseen_path(last, now, last_frame)
        self._detour_unseen(*self._flown_from(now), now)

    def _flown_from(self, now: list[np.ndarray]) -> tuple[int, list[np.ndarray]]:
        """Where the star seen again this frame flew unseen from: its last sighting (frame, blob
        centres), unless it came here faster than it was seen coming into that sighting; a star slows,
        never speeds up, so those last sightings were something else (a falling standee, a hand) and
        the star flew unseen since the last sighting it came into at least as fast."""
        track = self._star_track
        f_last, last = track[-1]
        needed = _speed((f_last, last), (self._frames, now))
        for (f0, a), (f1, b) in zip(reversed(track[:-1]), reversed(track)):
            if not a or not b:
                break
            if _speed((f0, a), (f1, b)) >= needed:
                return f1, b
        return f_last, last

    def _top_speed(self) -> float:
        """The fastest the star was seen flying between two sightings (image px a frame, at most
        ``MAX_STAR_SPEED_CM_S``): a star slows, never speeds up, so it flies no faster after."""
        top = max((_speed(earlier, later) for earlier, later in zip(self._star_track, self._star_track[1:])
                   if earlier[1] and later[1]), default=0.0)
        return min(top, MAX_STAR_SPEED_CM_S * self.calibration.px_per_cm / self.fps)

    def _detour_unseen(self, since: int, before: list[np.ndarray], after: list[np.ndarray]) -> None:
        """The star out of sight from frame ``since`` to this one, between ``before`` and ``after``
        (image px; the closest pair): a star bounces off what it meets, so its unseen way need not be
        straight. At its fastest seen speed it could have been within a star's reach of a crown (star
        radius, half a crown card and 1 cm) in frame k when it can fly from where it was last seen to
        there in the frames until k, and from there to where it is seen again in the frames after; a
        crown not found in such frames may have been touched there unseen (its swing dies down before
        it is seen again): it keeps the most such frames of one stretch."""
        if not before or not after:
            return
        a, b = nearest_pair(before, after)
        speed = self._top_speed()
        reach = STAR_REACH_CM * self.calibration.px_per_cm
        for t in self.tracks.values():
            if t.crown is None or t.seat == self.thrower:
                continue
            c = np.asarray(t.crown.center, np.float64)
            there = float(np.linalg.norm(c - a)) - reach
            back = float(np.linalg.norm(c - b)) - reach
            frames = sum(1 for k in t.lost_frames
                         if since < k < self._frames and speed * (k - since) >= there and speed * (self._frames - k) >= back)
            t.reach_unseen = max(t.reach_unseen, frames)

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
        a, b = nearest_pair(before, after)
        ppc = self.calibration.px_per_cm
        for t in self.tracks.values():
            if t.crown is None or t.seat == self.thrower or t.last_seen_frame > since:
                continue
            d = segment_distance(t.crown.center, a, b) / ppc
            if d <= STAR_REACH_CM and (t.passed_unseen_cm is None or d < t.passed_unseen_cm):
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
            d = segment_distance(np.asarray(mark.center, np.float64), a, b)
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
            x0, y0, x1, y1 = (v // scale for v in box_around(c, reach, size))
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

    def _settled(self, final: bool = False) -> Verdict | None:
        states = self._final_states()
        # something star-sized or larger lies where nothing lay, clear of the view's border
        left_lying = self.motion.left_at_rest() >= STAR_SHARE_MIN * self.motion.star_area
        if self._shuriken_seen:
            # judged when a standee changed or something star-sized lies where nothing lay, where the star's seen way
            # could have brought it (the star at rest, partly hidden or not; far from it, it is what a hand left, the
            # "star" seen the hand's fingertips); so too a star seen clear of every
            # hand that left every seat surely untouched (flown off the table). Else the "star" may
            # have been a piece of a hand (its fingertips move like a star, and over a bright table
            # its arm may not show): it waits for the throw, the seats that hand left unsure
            # remembered
            sure = all(ev.confidence >= self.config.ask_godfather_below for _, ev in states.values())
            # lying there in the latest frame too: the median's lower threshold also traces, in pieces up to a
            # third of a star, what a lamp's bands and an exposure change leave corrected a level or two off all
            # over the table; a star seen in flight shows at rest in one frame
            way = self._star_way()
            least = STAR_SHARE_MIN * self.motion.star_area
            on_way = left_lying and self.motion.left_at_rest(way) >= least and self.motion.left_now(way) >= least
            if final or any(o is not Outcome.NOTHING for o, _ in states.values()) \
                    or (self._star_free and sure) or on_way:
                return self._conclude("judged", final=states)
            for s, (_, ev) in states.items():
                if ev.confidence < self.config.ask_godfather_below:
                    self._unsure_before.setdefault(s, f"unsure after a hand reached in before the throw ({ev.reason})")
        changed = [s for s, (o, _) in states.items() if o is not Outcome.NOTHING]
        if changed and (final or self._blocks_moved() or any(states[s][0] is Outcome.KNOCKED for s in changed)):
            return self._conclude("a standee changed but no shuriken was seen", final=states, unsure=True)
        # crowns read off their places, no star seen and nothing on the table moved in blocks since pixels first
        # stirred: no standee was pushed or swung there that the frames would not show, the measure is off in these
        # frames (a vibrating camera's rows), and the throw is still to come; those seats are remembered unsure
        for s in changed:
            self._unsure_before.setdefault(s, f"before the throw, nothing seen moving: {states[s][1].reason}")
        if final:
            # armed for a throw, and no star seen: the camera missed it (a dim, noisy room, a star
            # of the table's colour), which says nothing of what it touched
            return self._conclude("no throw seen before the frames ran out", final=states, unsure=True)
        if left_lying:
            # something star-sized or larger lies where nothing lay, though no star was seen in flight (a dim
            # room, a star blurred by its speed), or only far from it: a star at rest, a standee falling too faintly
            # from frame to frame for the motion to show, or what a hand left. The table is not as it was armed, so
            # it is not armed again on it (that would take the throw's outcome for the table before it): watched on,
            # looked at again a settle's length later, and judged against the table as armed once a standee changed,
            # the star shows, the frames run out or the timeout comes
            self._left_lying_at = self._frames
            return None
        if self._candidate_seen:
            # something star-sized moved while these crowns were under a hand or arm: the star may
            # have touched one of them there, unseen
            for t in self.tracks.values():
                if t.under_arm >= 2:
                    self._unsure_before.setdefault(t.seat, "its crown was under a hand while something star-sized moved")
        log.debug("motion with no standee changed and %s (a hand?) at frame %d: re-armed",
                  "a \"star\" seen, nothing left lying" if self._shuriken_seen else "no star seen", self._frames)
        self.motion.rebase()
        self._last_candidates = []
        self._star_track = []
        self._shuriken_seen = self._star_free = self._candidate_seen = False
        for t in self.tracks.values():
            t.reset()
            # standing, its crown unseen at the end (a star at rest on it): hidden from the new reference on
            t.hidden_at_arm = t.seat in states and states[t.seat][1].standing_when_armed \
                and not states[t.seat][1].crown_seen_at_end
        self.state = State.ARMED
        self._armed_at = self._frames
        return None

    def _star_way(self) -> np.ndarray:
        """Low-resolution mask of where the star, seen in flight, can have come to rest: within ``STAR_RUN_CM`` of its
        way from the thrower's standee through each frame's sightings (it slides on, or glances off a standee,
        unseen: blurred, dim, under a hand)."""
        assert self.motion.reference is not None
        return near_sightings(self.motion.reference.shape, self._star_track, STAR_RUN_CM * self.calibration.px_per_cm,
                              scale=self.config.motion_scale, start=self._thrower_at())

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
                if t.read_by_cells:  # a card misread by its cells would be another seat's judgement
                    ev.confidence = min(ev.confidence, 0.5)
                    ev.reason += ("; its crown and base cards unread when armed, read from their cells only: "
                                  "the Godfather looks")
                if seat == self.thrower and ev.outcome is not Outcome.NOTHING:
                    # the star leaves from behind the thrower's own standee: what moved it is the thrower's hand, or
                    # the measure (a vibrating camera's rows), not the star
                    ev.reason += (f"; but this is the thrower's own standee, which the shuriken leaves from: read "
                                  f"{ev.outcome.value}, not the shuriken's doing: the Godfather looks")
                    ev.outcome = Outcome.NOTHING
                    ev.confidence = min(ev.confidence, 0.5)
                out[seat] = (ev.outcome, ev)
        # a seat unread when armed is judged by what changed between the seats beside it, and those
        # seats' own outcomes say whether a standee of theirs may lie there
        read = {s: e for s, (_, e) in out.items()}
        for seat in sorted(blind):
            ev = self._settled_table().unread_seat(seat, read, blind)
            out[seat] = (ev.outcome, ev)
        return dict(sorted(out.items()))

    def _seat_evidence(self, t: SeatTrack) -> SeatEvidence:
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
                return self._settled_table().unread_seat(t.seat, {}, {t.seat})
            ev.reason = "not standing when armed (its base marker seen, its crown not)"
            changed = self._settled_table().changed_near_base(t)
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
        ev.max_marker_shift_cm = round(in_two_frames(t.shifts), 3)
        ev.max_card_shift_cm = round(in_two_frames(t.card_shifts), 3)
        ev.max_shift_cm = round(max(in_two_frames(seen for seen, _ in t.best_readings), t.confirmed), 3)
        ev.shift_beyond_doubt_cm = round(max(in_two_frames(sure for _, sure in t.best_readings), t.confirmed), 3)
        frames = [f for f, _ in self._recent]
        offsets = [o for _, o in self._recent]
        if self._rest_end is None:
            self._rest_end = median_at_rest(frames, offsets)
        rest = self._rest_end
        crown = self._find(frames, offsets, t.crown.marker_id, t.crown.center, 1.7 * t.crown.side_px + 1, upscale=1,
                           rest=rest, side=t.crown.side_px)
        if t.base is not None:
            base = self._find(frames, offsets, t.base.marker_id, t.base.center, 1.5 * t.base.side_px, upscale=2,
                              rest=rest, side=t.base.side_px)
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
                ev = self._settled_table().standing(ev, t)
                ev.reason = (f"crown marker not decoded, but its card's look found {found[0]:.2f} cm from its "
                             f"place: still up; {ev.reason}")
                ev.confidence = min(ev.confidence, 0.85)
                # off its place by a push's worth, its marker unread, and a fallen standee's worth changed along its
                # fall line (with room for the star lying there): a fallen standee's picture lying where its card
                # stood matches a part of the card so
                lying = max(self._settled_table().fall_line_change(t)[1:]) if found[0] >= 2 * cfg.moved_cm else 0.0
                if lying >= cfg.fallen_area_cm2 + STAR_AREA_CM2:
                    ev.reason += (f"; but {lying:.0f} cm² changed along its fall line, a fallen standee's worth, and "
                                  f"its card found {found[0]:.2f} cm off its place by its look alone: unsure")
                    ev.confidence = min(ev.confidence, 0.5)
                if t.comes_back(found[0]):
                    # last seen farther away and never back, found back by its card's look alone in one image:
                    # a fallen standee's picture where its card stood can match two quarters of it so
                    ev.reason += (f"; but last seen {t.last_seen_shift:.1f} cm from its place, and back at the end "
                                  f"by its card's look alone: unsure")
                    ev.confidence = min(ev.confidence, 0.5)
                return ev
            # a crown card lying readable elsewhere on the table, a standee's length away at most
            reach = (FALL_REACH_CM + markers.CROWN_SIZE_CM) * self.calibration.px_per_cm
            at = np.asarray(offset, np.float32)
            far = self.detector.detect_in(still, box_around(t.crown.center + at, reach, (still.shape[1], still.shape[0])),
                                          upscale=1).get(t.crown.marker_id)
            far = _card_sized(far, t.crown.side_px)
            crown = None if far is None else Detection(far.marker_id, far.corners - at)
        ev.crown_seen_at_end = crown is not None
        if crown is None:
            return self._settled_table().crown_unseen(ev, t)
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
            return self._settled_table().standing(ev, t)
        ev.outcome = Outcome.KNOCKED
        ev.reason = (f"crown marker found {ev.final_shift_cm:.1f} cm from its place, turned "
                     f"{ev.final_turn_deg:.0f} degrees{', foreshortened' if shrunk else ''} (a standee is down from "
                     f"{cfg.fallen_cm:g} cm or {cfg.turned_deg:g} degrees)")
        ev.confidence = 0.9 if ev.base_seen_at_end is not False else 0.6
        return ev

    def _settled_table(self) -> SettledTable:
        """What the judge saw so far, for reading the seats as they lie now."""
        return SettledTable(self.config, self.calibration, self.motion, self.tracks, self.seats, self.thrower, self.fps,
                            star_track=self._star_track, shuriken_seen=self._shuriken_seen, still_frames=self._still,
                            rest_end=self._rest_end)

    def _conclude(self, reason: str, *, unsettled: bool = False, unsure: bool = False,
                  final: dict[int, tuple[Outcome, SeatEvidence]] | None = None) -> Verdict:
        final = final or self._final_states()
        evidence = {s: ev for s, (_, ev) in final.items()}
        if unsettled or unsure:
            for ev in evidence.values():
                ev.confidence *= 0.5
        for seat, why in self._unsure_before.items():
            ev = evidence[seat]
            if ev.outcome is Outcome.NOTHING:
                ev.reason += f"; {why}: the Godfather looks"
                ev.confidence = min(ev.confidence, 0.5)
        conf = min((ev.confidence for ev in evidence.values()), default=1.0)
        knocked = sorted(s for s, e in evidence.items() if e.outcome is Outcome.KNOCKED)
        touched = sorted(s for s, e in evidence.items() if e.outcome is Outcome.TOUCHED)
        self.verdict = Verdict(knocked, touched, evidence, float(conf), conf < self.config.ask_godfather_below,
                               reason, self._shuriken_seen, self._frames)
        self.state = State.JUDGED
        log.info("throw judged (%s): knocked %s touched %s, confidence %.2f", reason, knocked, touched, conf)
        return self.verdict


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


def _markers_found(calibration: Calibration | None) -> int:
    if calibration is None:
        return 0
    return len(calibration.corners) + sum((m.crown is not None) + (m.base is not None) for m in calibration.seats.values())


def calibrate_from_frames(reference: list[np.ndarray], it: Iterator[np.ndarray], seats: int,
                          config: JudgeConfig = JudgeConfig(), *, camera: CameraSettings | None = None,
                          ) -> tuple[Calibration, Iterator[np.ndarray]]:
    """A throw's calibration made from its own reference frames, when no calibration was given (standees may lie
    down already); when those do not show every corner marker and both markers of every seat (a dim, noisy scene,
    faint print; a standee lying down), from the median of the first ``config.calibration_frames`` frames instead if
    that shows more markers (their noise averaged out; the throw has not begun in them, or is a small part of each pixel's history).
    Returns it and the frames after the reference (those read past it first). Arm the judge with
    ``calibrated_here=True``."""
    try:
        calibration: Calibration | None = calibrate(reference, seats, setup=False, camera=camera)
        refused: CalibrationError | None = None
    except CalibrationError as exc:
        calibration, refused = None, exc
    whole = len(markers.CORNER_IDS) + 2 * seats
    if _markers_found(calibration) < whole:
        more = reference + [f for _, f in zip(range(config.calibration_frames - len(reference)), it)]
        it = chain(more[len(reference):], it)
        if len(more) > len(reference):
            try:
                wider: Calibration | None = calibrate(more, seats, setup=False, camera=camera)
            except CalibrationError:
                wider = None
            if _markers_found(wider) > _markers_found(calibration):
                calibration = wider
    if calibration is None:
        assert refused is not None
        raise refused
    return calibration, it


def _speed(earlier: tuple[int, list[np.ndarray]], later: tuple[int, list[np.ndarray]]) -> float:
    """How fast the star flew between two sightings (frame, blob centres; the closest pair), image px a frame."""
    p, q = nearest_pair(earlier[1], later[1])
    return float(np.linalg.norm(q - p)) / (later[0] - earlier[0])


def judge_frames(frames: Iterable[np.ndarray], *, seats: int, thrower: int, fps: float,
                 calibration: Calibration | None = None, config: JudgeConfig = JudgeConfig()) -> Verdict:
    """Arms on the first frames and judges the throw in the rest. Without a calibration the
    reference frames are calibrated in game mode (standees may already lie down)."""
    it: Iterator[np.ndarray] = iter(frames)
    reference = [f for _, f in zip(range(config.reference_frames), it)]
    if not reference:
        raise ValueError("no frames to judge")
    calibrated_here = calibration is None
    if calibration is None:
        calibration, it = calibrate_from_frames(reference, it, seats, config)
    elif (problem := calibration.size_problem(reference[0])) is not None:
        raise ValueError(problem)
    judge = ThrowJudge(calibration, seats=seats, thrower=thrower, fps=fps, config=config)
    judge.arm(reference, calibrated_here=calibrated_here)
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
