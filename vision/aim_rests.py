"""When a weapon held still: the rests in its sightings (``RestFinder.rests``), each at least ``min_rest_s``
long within the rest tolerances (a ground point's along the ray from the camera's nadir widened by the
error of the marker's apparent size), bridged across an arm over it, joined where they follow one another
at one pose, with the line of fire of a weapon held pitched read from its card's pose over the rest."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from vision import markers
from vision.aim_reading import AimConfig, Rest, Sight, line_target, turn, within_rest
from vision.table_plane import TablePlane


@dataclass(frozen=True)
class RestFinder:
    """Finds a weapon's rests on the table ``plane``, their lines' targets among ``candidates`` (None: every
    standee found), with the tolerances of ``config``."""

    config: AimConfig
    plane: TablePlane
    candidates: list[int] | None

    def rests(self, seat: int, sights: list[Sight]) -> list[Rest]:
        """The times the weapon held still: each a stretch of sightings whose direction and ground point
        (median of three, against the marker's jitter) stay within the rest tolerances, at least
        ``min_rest_s`` long (or lasting to the end of what was watched), with its line's target."""
        cfg = self.config
        n = len(sights)
        angles = np.unwrap([s.direction for s in sights])
        feet = np.array([s.foot for s in sights])
        times = np.array([s.t for s in sights])
        centres = np.array([s.image_centre for s in sights], np.float64).reshape(-1, 2)
        if n >= 3:
            pad_a = np.concatenate([angles[:1], angles, angles[-1:]])
            pad_f = np.concatenate([feet[:1], feet, feet[-1:]])
            angles = np.median(np.stack([pad_a[:-2], pad_a[1:-1], pad_a[2:]]), axis=0)
            feet = np.median(np.stack([pad_f[:-2], pad_f[1:-1], pad_f[2:]]), axis=0)
        runs: list[Rest] = []
        i = 0
        while i < n:
            j = i
            side = float(np.median([s.side_px for s in sights[i:i + 6]]))
            tol_a, tol_f = cfg.rest_tolerances(side)
            scaled = self._scaled_feet(feet, feet[i], side, tol_f)  # rest tolerances: 1 in each direction
            # the marker's place in the image, read to a fraction of a pixel whatever its apparent size's error:
            # the tolerance across the ray, in pixels, holds along it too (read, not copied by a still sighting)
            tol_px = tol_f * side / markers.WEAPON_SIZE_CM
            lo_a = hi_a = angles[i]
            lo_f, hi_f = scaled[i].copy(), scaled[i].copy()
            lo_c = hi_c = None if sights[i].still else centres[i]
            gaps: list[tuple[float, float]] = []
            while j + 1 < n:
                gap = times[j + 1] - times[j]
                if gap > cfg.max_gap_s:
                    # an arm over a weapon held still: bridged when it was still for a while before the gap
                    # and holds the same pose for a while after it
                    if gap > cfg.bridge_gap_s or times[j] - times[i] < cfg.bridge_still_s \
                            or j - i < 2 or not self._holds_after(angles, scaled, times, j + 1, lo_a, hi_a, lo_f,
                                                                          hi_f, tol_a, 1.0):
                        break
                a, f = angles[j + 1], scaled[j + 1]
                nlo_a, nhi_a = min(lo_a, a), max(hi_a, a)
                nlo_f, nhi_f = np.minimum(lo_f, f), np.maximum(hi_f, f)
                if nhi_a - nlo_a > tol_a or float(np.max(nhi_f - nlo_f)) > 1.0:
                    break
                if not sights[j + 1].still:
                    c = centres[j + 1]
                    nlo_c, nhi_c = (c, c) if lo_c is None or hi_c is None else (np.minimum(lo_c, c), np.maximum(hi_c, c))
                    if float(np.max(nhi_c - nlo_c)) > tol_px:
                        break
                    lo_c, hi_c = nlo_c, nhi_c
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
            # the pose as read: a still sighting copies the pose read before it (``AimReader._record_still``), and
            # fifty copies of the two readings after an arm passed would outweigh all those before
            read = [s for s in part if not s.still]
            measured = read if len(read) >= 3 else part
            foot = np.median(np.array([s.foot for s in measured]), axis=0)
            direction = float(np.median(np.unwrap([s.direction for s in measured])))
            tipped = self._pitched_line(part, direction)
            height = float(np.median([s.height_cm for s in measured]))
            pitched = None if tipped is None else tipped.line
            if tipped is not None and tipped.height_cm > height:
                # a tip only ever makes a card look smaller: the higher of the two readings, and the ground point
                # below the card at that height (the level reading's, taken lower, lies off along the camera's ray)
                height = tipped.height_cm
                if pitched is None:
                    pitched = (tipped.foot, direction)
            line_foot, line_direction = pitched if pitched is not None else (foot, direction)
            target, margin = line_target(np.asarray(line_foot), line_direction, self.plane.standees, seat,
                                         self.candidates)
            # the other poses a weapon held at aim may have (the chosen one's line gave the target above)
            others = [] if tipped is None else [pose for pose in tipped.poses if pose != tipped.line]
            rivals = [t for t in (line_target(np.asarray(f), d, self.plane.standees, seat, self.candidates)[0]
                                  for f, d in others) if t not in (target, None)]
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
                                 tuple(g for g in gaps if g[1] > times[start]), float(times[i]), tol_f, pitched,
                                 min(rivals) if rivals else None))
            i = j + 1
        return self._joined(runs, sights)

    def _pitched_line(self, part: list[Sight], level: float) -> _Tipped | None:
        """The line of fire (foot, direction) and the height of a weapon held pitched or rolled through a rest, from
        its card's pose solved in each frame read (``part``), with the lines of the poses a weapon held at aim may
        have; None when the card may be about level (the level reading stands).

        A card's pitch and roll are its rest's, not one frame's: one frame's corner noise tips a 16-20 px card's
        solved pose by about 5 degrees, some frames by 15 or more, and then the mirror pose may look the nearer
        upright. So each of the two mirror poses is followed through the rest (``_pose_family``) and their medians
        are compared. The card is pitched when both tip beyond ``pitched_noise`` times what the corners' noise gives
        one frame of a level card of that size (``tilt_noise_deg_px`` over the marker's side in pixels). A pose is
        one of a weapon held at aim when it is canted no more than ``cant_max_deg`` and its line does not dive into
        the table short of every seat ahead of it (``_aimed``): the mirror of a weapon canted towards the camera by
        more than the camera's ray is slanted is nearer upright than the weapon itself, often pitched steeply down
        or canted further still. Of two such poses whose lines turn apart by more than ``mirror_apart_deg``, the one
        nearer the level reading's line (``level``) by ``level_clear_deg`` or more, else the level reading: the level
        reading takes the line from the outline's parts across the camera's ray, which a tip about one axis leaves as
        they are but for the foreshortening of the card's edges, a few degrees; a weapon both pitched and canted
        turns it further (``level_turn_deg``: 16 degrees at 30 and 30). So the farther pose may still be the
        weapon's unless its line lies further from the level reading than its own tip could turn it (and
        ``level_clear_deg``): the lines of the poses that may be the weapon's come back with the one chosen, and a
        rest whose poses point at different seats asks (``Rest.rival``). Of two poses whose lines lie nearer each
        other, the one within ``upright_reach`` of a weapon held upright when the other is not, and when neither is,
        the line they share."""
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
        frames = np.arange(len(tips))
        families = []
        for first in (0, 1):
            chosen = _pose_family(tips, first)
            tip = np.median(tips[frames, chosen], axis=0)
            directions = poses.direction[solved][frames, chosen]
            ref = float(directions[0])
            direction = ref + float(np.median([turn(float(d), ref) for d in directions]))
            foot = np.median(poses.foot[solved][frames, chosen], axis=0)
            height = float(np.median(poses.height_cm[solved][frames, chosen]))
            aimed = abs(math.degrees(float(tip[1]))) <= cfg.cant_max_deg and self._aimed(foot, direction, float(tip[0]),
                                                                                        height)
            families.append(_MirrorPose(float(np.hypot(*(tip / spreads))), aimed, (float(foot[0]), float(foot[1])),
                                        direction, height, float(tip[0]), float(tip[1])))
        side = float(np.median([s.side_px for s, ok in zip(read, solved) if ok]))
        floor = cfg.pitched_noise * cfg.tilt_noise_deg_px / max(side, 1.0)
        if min(f.tilt_deg for f in families) <= floor:
            return None
        height = families[0].height_cm  # a mirror pose has the same side, so the same height ...
        ground = families[0].foot  # ... and the same ground point
        held = [f for f in families if f.aimed]
        lines = tuple((f.foot, f.direction) for f in held)
        if len(held) < 2:
            return _Tipped((held[0].foot, held[0].direction) if held else None, height, ground, lines)
        if abs(turn(held[0].direction, held[1].direction)) > math.radians(cfg.mirror_apart_deg):
            held.sort(key=lambda f: abs(turn(f.direction, level)))  # the level reading's line is the true pose's
            near, far = (math.degrees(abs(turn(f.direction, level))) for f in held)
            if far - near < cfg.level_clear_deg:
                return _Tipped(None, height, ground, lines)  # the level reading between the two: it stands
            if far > level_turn_deg(held[1].pitch, held[1].roll) + cfg.level_clear_deg:
                lines = ((held[0].foot, held[0].direction),)  # the far pose's tip turns the level reading less: not it
            return _Tipped((held[0].foot, held[0].direction), height, ground, lines)
        held.sort(key=lambda f: f.upright)
        if held[1].upright <= cfg.upright_reach:
            return None  # both about upright: a card about level, the level reading stands
        if held[0].upright > cfg.upright_reach:
            return _Tipped(_between(held[0], held[1]), height, ground, lines)  # both tipped, their lines agree: the one shared
        return _Tipped((held[0].foot, held[0].direction), height, ground, lines)

    def _aimed(self, foot: np.ndarray, direction: float, pitch: float, height: float) -> bool:
        """Whether a weapon at ``foot`` (table cm), ``height`` cm up, pointing along ``direction`` pitched by
        ``pitch`` (radians, muzzle up positive) may be aimed at a seat: its muzzle raised no more than
        ``pitch_max_deg``, and lowered no more than ``aim_pitch_margin_deg`` below the line to the table at the
        nearest standee within ``ahead_deg`` of its line (a line diving into the table well short of every seat
        points at no one); a line with no standee ahead is not judged by its pitch."""
        cfg = self.config
        if math.degrees(pitch) > cfg.pitch_max_deg:
            return False
        ahead = []
        for spot in self.plane.standees.values():
            to = np.asarray(spot, np.float64) - foot
            reach = float(np.hypot(to[0], to[1]))
            if reach > 1e-6 and abs(turn(math.atan2(to[1], to[0]), direction)) <= math.radians(cfg.ahead_deg):
                ahead.append(reach)
        if not ahead:
            return True
        return math.degrees(pitch) >= -math.degrees(math.atan2(max(height, 0.0), min(ahead))) - cfg.aim_pitch_margin_deg

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

    def _joined(self, runs: list[Rest], sights: list[Sight]) -> list[Rest]:
        """Rests on one target at one pose (within the rest tolerances) are one rest when they follow one another
        without a gap, or when the weapon was seen between them all along (no gap longer than ``max_gap_s``) and
        never away from that pose (each sighting in between on that target, within twice the rest tolerances of
        both rests: a weapon moving away shows beyond them, see ``SeatJudge._seen_moving``): the range of a long
        rest's tremor, a small or dim marker's readings scattering wider than the tolerances allow from one to the
        next, or the tail of the approach it began with, only split it."""
        cfg = self.config
        out: list[Rest] = []
        for run in runs:
            prev = out[-1] if out else None
            if prev is not None and run.target == prev.target \
                    and within_rest(run, prev, math.radians(cfg.rest_angle_deg), max(run.tol_cm, prev.tol_cm)) \
                    and (run.seen_from - prev.end <= cfg.max_gap_s or self._seen_still_between(prev, run, sights)):
                longer = run if run.end - run.start >= prev.end - prev.start else prev
                out[-1] = dataclasses.replace(longer, start=prev.start, end=run.end, seen_from=prev.seen_from,
                                              margin_deg=min(prev.margin_deg, run.margin_deg),
                                              gaps=prev.gaps + run.gaps)
            else:
                out.append(run)
        return out

    def _seen_still_between(self, prev: Rest, run: Rest, sights: list[Sight]) -> bool:
        """Whether the weapon was seen from the end of ``prev`` to the first sighting of ``run`` without a gap
        longer than ``max_gap_s``, every sighting in between on their target and within twice the rest
        tolerances of each of them."""
        cfg = self.config
        tol_a = 2 * math.radians(cfg.rest_angle_deg)
        between = [s for s in sights if prev.end < s.t < run.seen_from]
        times = [prev.end, *(s.t for s in between), run.seen_from]
        if any(b - a > cfg.max_gap_s for a, b in zip(times, times[1:])):
            return False
        return all(s.target == prev.target and within_rest(s, prev, tol_a, 2 * prev.tol_cm)
                   and within_rest(s, run, tol_a, 2 * run.tol_cm) for s in between)

    def _holds_after(self, angles: np.ndarray, feet: np.ndarray, times: np.ndarray, k: int, lo_a: float,
                     hi_a: float, lo_f: np.ndarray, hi_f: np.ndarray, tol_a: float, tol_f: float) -> bool:
        """Whether the sightings from ``k`` on hold, three times in a row with no gap longer than
        ``bridge_gap_s``, a pose within the rest tolerances (``tol_a``, ``tol_f``) of the pose held before
        (direction ``lo_a..hi_a``, ground point ``lo_f..hi_f``)."""
        cfg = self.config
        for m in range(k, min(k + 3, len(times))):
            if m > k and times[m] - times[m - 1] > cfg.bridge_gap_s:
                return False
            a, f = angles[m], feet[m]
            if max(hi_a, a) - min(lo_a, a) > tol_a or float(np.max(np.maximum(hi_f, f) - np.minimum(lo_f, f))) \
                    > tol_f:
                return False
        return k + 3 <= len(times)


class _MirrorPose(NamedTuple):
    """One of a card's two mirror poses over a rest (see ``RestFinder._pitched_line``)."""

    upright: float  # how far from a weapon held upright, in the spreads of pitch and roll
    aimed: bool  # a pose a weapon held at aim may have
    foot: tuple[float, float]  # its line of fire: foot (table cm) ...
    direction: float  # ... and direction (radians)
    height_cm: float
    pitch: float  # radians
    roll: float

    @property
    def tilt_deg(self) -> float:
        """How far from level."""
        return math.degrees(math.hypot(self.pitch, self.roll))


LEVEL_TURN_DEG = (18.0, 30.0)  # see level_turn_deg


def level_turn_deg(pitch: float, roll: float) -> float:
    """How far (degrees) a card tipped by ``pitch`` and ``roll`` (radians) turns the level reading's line at most,
    over every way it may point: fitted to the level reading of a card 24 cm up, 32 cm out from the nadir of a camera
    90 cm up (4 degrees at 30 degrees about one axis, 7 at 20 and 20, 16 at 30 and 30; see the tests)."""
    sp, sr = math.sin(pitch), math.sin(roll)
    return LEVEL_TURN_DEG[0] * (sp * sp + sr * sr) + LEVEL_TURN_DEG[1] * abs(sp * sr)


class _Tipped(NamedTuple):
    """What a tipped card's poses over a rest say (see ``RestFinder._pitched_line``)."""

    line: tuple[tuple[float, float], float] | None  # its line of fire (foot, direction); None: the level reading's
    height_cm: float
    foot: tuple[float, float]  # the ground point of a card of that height there (both mirror poses share it)
    poses: tuple[tuple[tuple[float, float], float], ...]  # the lines of each pose a weapon held at aim may have


def _between(a: _MirrorPose, b: _MirrorPose) -> tuple[tuple[float, float], float]:
    """The line of fire two mirror poses of one card share (their lines within a few degrees): the mean of their
    feet and of their directions."""
    foot = ((a.foot[0] + b.foot[0]) / 2, (a.foot[1] + b.foot[1]) / 2)
    return foot, a.direction + turn(b.direction, a.direction) / 2


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
