"""What the aim reader reads and concludes: its settings (``AimConfig``, the count's timing), a weapon's
sightings (``Sight``) and the rests they make (``Rest``), the seat a line of fire points at (``line_target``),
and each seat's conclusion (``SeatAim``) in the count's reading (``AimReading``). The reader itself is
``vision.aims``."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vision.table_plane import TablePlane

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
    # decides the aims (from the "3"), to the end of the watch (or later, when it goes on): a late pointer may come to
    # rest up to its end
    lead_s: float = COUNT_INTERVAL_S * 2 + 0.3  # analysis starts this long before the "3" (before the "1")
    follow_s: float = 1.5  # and ends this long after the deadline (late pointers come to rest) ...
    follow_more_s: float = 0.7  # ... or up to this much later while a weapon seen at its end has held a pose it took
    # after the deadline, on a target, for less than sure_rest_s (but bridge_still_s or more): a late pointer coming to
    # rest as the watch ends is watched until that rest is long enough to tell from the slow end of a swing
    watched_after_deadline_s: float = 0.8  # a weapon moving in all a clip shows points at no one only when the
    # clip goes on this long after the deadline; a shorter one may end before a late pointer comes to rest
    rest_angle_deg: float = 7.0  # largest spread of direction while at rest (median of three sightings) ...
    rest_move_cm: float = 3.0  # ... and of the ground point, for a marker seen ...
    rest_marker_px: float = 20.0  # ... this wide or wider; a smaller one is read less finely (both spreads allowed
    # grow as the marker shrinks: its corners are read as finely, its direction and apparent size less)
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
    kept_seen_again: int = 3  # ... and was read at that pose this many times after it (see _kept), as a
    # bridged rest is (``RestFinder``: three times at that pose after the gap)
    traced_s: float = 0.25  # a weapon at rest on another target until out of view just before the deadline (within
    # kept_before_deadline_s) and seen again after it, turning: its first sightings this long trace the turn back
    # to when it left that pose (``SeatJudge._left_unseen``), when they turn faster than rest_angle_deg a second
    min_rest_reads: int = 3  # a rest whose marker was read fewer times than this (its other sightings
    # partly covered, at the pose read before) gives its line from one or two readings: unsure
    bare_box: float = 1.5  # half-side of the place compared for a bare table, in marker sides
    shake_px: int = 3  # the first frame and the frame at the deadline are compared shifted by up to this much
    # (a camera shaken, a table bumped), at the shift that matches the place best
    bare_ratio: float = 1.5  # it is bare when it differs from the first frame at most this times the frame's
    bare_slack: float = 3.0  # own change (the quarter of the frame that changed least), plus this (grey levels)
    table_cells: float = 0.6  # the table showed where the marker later rests when this share of its cells ...
    table_cell_noise: float = 2.0  # ... differ from the first frame's at most this times the frame's median change
    table_texture: float = 1.5  # (plus bare_slack) and those cells differ among themselves this times as much
    shade_least: float = 0.4  # a shadow on the table keeps at least this share of its light, ...
    shade_dark: float = 12.0  # ... measured on the cells lighter than this grey level, and the table's texture
    shade_match: float = 0.8  # under it follows the first frame's cell by cell at least this well (correlation)
    shade_texture: float = 1.0  # ... where both show a texture of at least this (grey levels, standard deviation)
    covered_cells: float = 0.6  # a place at the deadline is covered when more than this share of the marker's cells
    # there differ from the first frame's beyond that noise
    later_places_s: float = 0.25  # a frame is kept this long before the deadline and this often after it: a weapon
    # first seen at rest after the deadline, where something covered its place at the deadline, was not there yet if
    # one of them shows the table there (one this close before the deadline: in time, it would have come to rest
    # since and been covered before it was ever read at rest)
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
    blurred_sharpen: float = 3.0  # a weapon not found in its box is looked for once more there, enlarged twice,
    blurred_sigma_px: float = 1.5  # through an unsharp mask this strong against a blur of this many pixels
    seat_search_px: float = 80.0  # half-side of the box searched near a seat for a weapon not yet found, every
    # full_every analysed frames (half-way between two full-frame looks) ...
    lost_seat_every: int = 4  # ... and every this many in the lost window (where every other frame is a full-frame
    # look, at the markers' own size)
    standee_reads: int = 3  # a standee not found with the table (an arm over it then) stands where its marker was
    # found this many times while the weapons were looked for, each within a quarter of the marker's side of the others
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
    cant_max_deg: float = 45.0  # a weapon held at aim is canted in the hand by no more than this ...
    pitch_max_deg: float = 45.0  # ... its muzzle raised no more than this ...
    aim_pitch_margin_deg: float = 10.0  # ... nor lowered more than this below the line to the table at the
    ahead_deg: float = 30.0  # nearest standee within this of its line of fire
    mirror_apart_deg: float = 6.0  # a card's two mirror poses whose lines turn apart by more than this are told
    # apart by the level reading's line; nearer each other, by how upright each is
    level_clear_deg: float = 2.0  # ... the one whose line is nearer the level reading's by at least this much
    tilt_noise_deg_px: float = 100.0  # a level card's pose solved from one frame's outline scatters by about this
    # (degrees) over the marker's side in pixels (its corners' noise) ...
    pitched_noise: float = 3.0  # ... and a rest whose poses tip more than this many times that is pitched: its
    # line of fire is read from the pose solved over the rest, not as a level card's
    pitched_least: int = 4  # (from at least this many readings)

    def rest_tolerances(self, side_px: float) -> tuple[float, float]:
        """The rest tolerances of a weapon whose marker is ``side_px`` wide in the image: the spread of its direction
        (radians) and of its ground point (cm), both wider for a marker under ``rest_marker_px`` (a small marker is
        read less finely)."""
        finer = max(1.0, self.rest_marker_px / max(side_px, 1.0))
        return math.radians(self.rest_angle_deg) * finer, self.rest_move_cm * finer


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
    pitched: tuple[tuple[float, float], float] | None = None  # a weapon pitched or canted: its line of fire
    # (foot, direction) from its card's pose solved over the rest (the direction the level reading's where that
    # stands, the foot the solved pose's); ``foot`` and ``direction`` stay the pose read as a level card's, which
    # its sightings are compared with
    rival: int | None = None  # its card's outline fits a second pose of a weapon held at aim, whose line points
    # at this seat instead (which of the two the weapon has, the camera cannot tell)

    @property
    def line(self) -> tuple[tuple[float, float], float]:
        """The line of fire: foot (table cm) and direction (radians)."""
        return self.pitched if self.pitched is not None else (self.foot, self.direction)

    def seen_at(self, t: float, within: float) -> bool:
        """Whether the rest was in view within ``within`` seconds of ``t``, not bridged across it."""
        return self.start - within <= t <= self.end + within and not any(
            a + within < t < b - within for a, b in self.gaps)


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


def turn(a: float, b: float) -> float:
    """The angle from ``b`` to ``a`` (radians), within half a turn either way."""
    return (a - b + math.pi) % (2 * math.pi) - math.pi


def within_rest(pose: Sight | Rest, of: Sight | Rest, tol_a: float, tol_f: float) -> bool:
    """Whether ``pose`` lies within the rest tolerances of ``of``: its direction within ``tol_a`` (radians)
    of that one's, and its ground point within ``tol_f`` (table cm)."""
    return abs(turn(pose.direction, of.direction)) <= tol_a and math.dist(pose.foot, of.foot) <= tol_f


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
