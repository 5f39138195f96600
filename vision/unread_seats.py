"""The seats unread when armed, placed by the seats read beside them.

A seat whose crown and base cards were both unread when armed always asks. Its place is not read,
but the seats go clockwise round the table: when the seats beside it were read, it lies in the
angular gap between them about the table's centre, which only its standee occupies. There a standee's
worth of table changed at the end in one piece (cm² on the table plane, apart from where the seats
beside it could lie fallen and from any hand) is its fall: ``knocked``; else, with less than that
changed there, the star's way turning in flight there (it met something standing) is a touch:
``touched`` (not when a fallen standee's worth changed within a standee's length of the standee it met
there, nor where its way in started at the thrower's hand); a turn counts also where a seat beside it may
lie fallen, but not in the strip that seat fell along, when the way it fell is known: the star meets
that seat's standee standing at its place, or tipping and lying along that strip; else nothing. Two or more unread seats side
by side share the gap between the seats read around them: each is expected at an equal share of it,
give or take twice the spread of the read seats' spacing, and a fall or a turn there is one seat's only
when it lies within that tolerance of its place and of no other's; else every one of them stays at nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import markers
from vision.motion import STAR_AREA_CM2
from vision.seat_track import (
    FALL_CHANGE_MAX_CM2,
    FALL_REACH_CM,
    STANDEE_WIDTH_CM,
    STAR_RADIUS_CM,
    TURN_DEG,
    TURN_WINDOW_S,
    SeatTrack,
)
from vision.settled_seats import SettledSeats
from vision.throw_verdict import Outcome, SeatEvidence


@dataclass(frozen=True)
class _Gap:
    """The table between two read seats about the table's centre, which only the standees of the
    unread seats between them (``run``) can occupy."""

    region: np.ndarray  # low-resolution mask
    # where the star's way turning there is looked for (low-resolution mask): the gap, apart from where the
    # star may have met a standee of the seats around it tipping or lying fallen (``_met_reach``) rather than
    # the whole table such a standee may cover
    met: np.ndarray
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


class SettledTable(SettledSeats):
    """The settled seats, and those unread when armed placed in the gaps between the seats read."""

    def unread_seat(self, seat: int, others: dict[int, SeatEvidence], unread: set[int]) -> SeatEvidence:
        """A seat whose crown and base cards were both unread when armed (far, dim, faint, blurred):
        the camera cannot vouch for it, and asks. Its place is not read, but the seats go clockwise
        round the table: it lies in the angular gap between the seats read before and after it, about
        the table's centre. A standee's worth of table changed there at the end, in one piece, no
        larger than a fallen standee, apart from where the seats beside it could lie fallen and from
        any hand or arm, is what its fall leaves: ``knocked``, still asking. Else the star's way turning
        in flight there (it met something standing there: that standee) is a touch: ``touched``, still
        asking; where a seat beside it may lie fallen, only clear of where the star may have met that
        seat's standee (``_met_reach``). Else nothing, asking; so too with a hand or arm over the gap at the end (the star may
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
        gap = self._gap_of(seat, others, unread) if self.shuriken_seen else None
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
            turns = self._star_turns_in(gap.met, ppc, [gap.before, gap.after])
            if not turns:
                ev.reason += "; no standee's worth of table changed in the gap only it can occupy"
                return ev
            fallen = self._fall_where_turned(turns, ppc, _fallen_among(others, [gap.before, gap.after]))
            if fallen is not None:
                ev.changed_area_cm2 = round(fallen, 1)
                ev.reason += self._fall_where_turned_reason(fallen)
                return ev
            turn, point = max(turns, key=lambda tp: tp[0])
            ev.outcome = Outcome.TOUCHED
            ev.reason += (f"; the shuriken turned {turn:.0f} degrees in flight in the gap between the seats beside it, "
                          f"which only its standee occupies{self._beside_fallen(gap, point)}, and no standee's worth "
                          f"of table changed there: touched, the Godfather looks")
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
        touch: tuple[float, np.ndarray] | None = None
        centre = gap.centre
        turns = self._star_turns_in(gap.met, gap.ppc, [gap.before, gap.after])
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
            if owners == [seat] and (touch is None or turn > touch[0]):
                touch = turn, point
        if touch is None:
            ev.reason += "; nothing there clearly at its expected place"
            return ev
        ev.outcome, ev.confidence = Outcome.TOUCHED, 0.35
        ev.reason += (f"; the shuriken turned {touch[0]:.0f} degrees in flight at its expected place"
                      f"{self._beside_fallen(gap, touch[1])}, clear of the others', and no standee's worth of table "
                      f"changed there: touched, the Godfather looks")
        return ev

    def _beside_fallen(self, gap: _Gap, point: np.ndarray) -> str:
        """Words for a turn at ``point`` (image px) where a seat beside the gap may lie fallen (left out
        of ``gap.region``, not of ``gap.met``); else nothing."""
        scale = self.config.motion_scale
        x, y = int(point[0] // scale), int(point[1] // scale)
        if gap.region[y, x]:
            return ""
        near = [str(s) for s in (gap.before, gap.after) if self._reach(self.tracks[s])[y, x]]
        return (f" (within a standee's length of seat {' and '.join(near)}, which may lie fallen, but clear of the "
                f"strip it fell along)")

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
        met = region.copy()
        for s in (before, after):
            if not _seen_up(others.get(s), self.config.fallen_cm):
                region &= ~self._reach(self.tracks[s])
                met &= ~self._met_reach(self.tracks[s])
        return _Gap(region, met, ppc, tuple(run), before, after, centre, angle[before], way, float(np.mean(radii)),
                    places, scale)

    def _met_reach(self, t: SeatTrack) -> np.ndarray:
        """Low-resolution mask of the table where the star may have met the standee of a seat read when
        armed and not seen up at the end, tipping or lying fallen: the strip it falls in the way its crown
        was last seen going (as ``SettledSeats._fall_way``), from its crown's place and from its base's,
        a star's radius wider all round. That way is known when the crown was last seen at least two
        touches' worth from its place: the crowns' jitter (half a touch's worth) then turns it by at most
        15 degrees, less than the strip's own spread. Else its whole reach (``_reach``), any way round.
        Standing, its standee is met only near its places, which ``_star_turns_in`` leaves out."""
        strip = None
        if t.last_seen_shift is not None and t.last_seen_shift >= 2 * self.config.moved_cm:
            strip = self._fall_way(t, widen_cm=STAR_RADIUS_CM, from_base=True)
        return self._reach(t) if strip is None else strip

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
        lone = {f: cs[0] for f, cs in self.star_track if len(cs) == 1}
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
