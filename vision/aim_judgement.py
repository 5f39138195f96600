"""Each seat's conclusion at the end of the count (``SeatJudge.judge``): the rest that holds at the deadline,
or the first after it (late), with what makes a seat unsure (a line between two seats, a rest only glimpsed
or brief, a target whose standee was not found, a weapon covered at the deadline), the weapons kept at rest
under an arm, the pauses of a weapon seen too little to rest, the turns of a swing, and the weapons lost from
view as they came to rest."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from vision import markers
from vision.aim_places import DeadlinePlaces
from vision.aim_reading import COUNT_INTERVAL_S, AimConfig, Rest, SeatAim, Sight, line_target, turn, within_rest
from vision.aim_rests import RestFinder
from vision.table_plane import TablePlane

STILL_BEFORE = ("{}: its readings from before the deadline on lie about the pose it then rests at as its readings "
                "at rest do (the marker's reading scattered, the weapon still)")  # see ``SeatJudge._still_before``
UNSEEN_ONTO = ("first seen at rest {}, out of view before; its place at the deadline showed its marker or was "
               "covered")  # see ``SeatJudge._unseen_onto``


class LostFromView(NamedTuple):
    """A weapon never at rest while seen, lost from view as it came to rest (``SeatJudge._lost_moving``)."""

    rest: Rest  # the line it was last read on
    pushed: bool  # read pushed forward along that line (``SeatJudge._pushed_along``), else turning onto it
    again: list[Sight]  # its sightings back at that pose at the end of the watch (``SeatJudge._seen_again``)


@dataclass
class SeatJudge:
    """What the reader saw of the count, for the judgement of each seat: its settings, the table plane, the seats
    that may be aimed at (None: every standee found), the deadline and the end of the watch (seconds after the
    "3"), the first and last frames fed (likewise), where the standees not found may stand (seat -> places),
    how the rests are found and what their places showed at the deadline."""

    config: AimConfig
    plane: TablePlane
    candidates: list[int] | None
    deadline: float
    end: float
    first_t: float
    last_t: float
    missing: dict[int, list[np.ndarray]]
    finder: RestFinder
    places: DeadlinePlaces

    def judge(self, seat: int, sights: list[Sight]) -> SeatAim:
        cfg = self.config
        if not sights:
            return SeatAim(seat, None, False, False, 0.3, "the weapon was never seen: held out of view, "
                           "too low, or covered")
        runs = self.finder.rests(seat, sights)
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
            if run.rival is not None:
                sure = False
                if run.rival != other:  # else said just above
                    reasons.append(f"its card, tipped in the hand, looks the same held another way, which points at "
                                   f"seat {run.rival}: the camera cannot tell which")
            partly = sum(1 for s in sights if s.still and run.start <= s.t <= run.end)
            if partly:
                reasons.append(f"its marker partly covered in {partly} of the frames at rest, seen at the pose read "
                               "before (within a hand's tremor)")
            if held and self._glimpsed(run, sights):
                sure = False
                reasons.append("seen at that pose only in glimpses, each between stretches out of view: it may "
                               "have been moving while not seen")
            reads = self._reads(run, sights)
            if held and reads < cfg.min_rest_reads:
                sure = False
                reasons.append(f"its marker read at that pose only {reads} time{'s' if reads != 1 else ''}, covered "
                               "in the other frames: its line rests on too few readings")
            unseen = min(abs(a) for a in cfg.still_turns_deg)
            if held and run.margin_deg < unseen and self._only_still_at_deadline(run, sights):
                sure = False
                reasons.append("at the deadline and after it its marker only showed partly covered at the pose read "
                               f"before, and its line passes {run.margin_deg:.0f} degrees from a second seat: a turn "
                               "under the cover too small to show would point it there")
            if held and self._brief(run, sights):
                sure = False
                reasons.append(f"held that pose only {run.end - run.seen_from:.2f} s, then moved on, went out of view "
                               "for good or the watch ended: the slow end of a swing or start of a move as much as "
                               "an aim")
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
            brought = self._brought_in(run, runs, sights)
            if brought is not None:
                return result(brought, True, "first seen after the \"3\", still at the deadline only briefly, then "
                              "brought onto a rest held after it: most likely brought into view and onto its aim late",
                              False)
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
                if self._unseen_onto(seat, run, sights):
                    return result(run, False, UNSEEN_ONTO.format("just after the deadline"), False)
                if self._still_before(run, sights):
                    return result(run, False, STILL_BEFORE.format("came to rest just after the deadline"), False)
                return result(run, True, "came to rest just after the deadline", False)
            tol_a, tol_f = math.radians(cfg.rest_angle_deg), run.tol_cm
            there = [s for s in near if within_rest(s, run, tol_a, tol_f)]
            moving = self._seen_moving(run, sights)
            if len(there) > len(near) // 2:
                if all(s.t >= run.seen_from for s in near) and not self._seen_settling(run, sights) \
                        and self._left_unseen(run, before, sights) is None \
                        and self._unseen_onto(seat, run, sights):  # seen near the deadline only from its rest's first
                    # sighting on, after it, and not seen settling then
                    return result(run, False, UNSEEN_ONTO.format(f"{run.seen_from - deadline:.2f} s after the "
                                                                 "deadline"), False)
                if self._still_before(run, sights):
                    return result(run, False, STILL_BEFORE.format("on its target at the deadline, but seen still "
                                                                  "only after it"), False)
                return result(run, True, "on its target at the deadline, but not yet still", False)
            before_rest = [s for s in sights if s.t < run.start]
            if before_rest and before_rest[-1].t <= deadline - cfg.deadline_margin_s \
                    and within_rest(before_rest[-1], run, tol_a, tol_f):
                # last seen before the deadline already at the pose it then rests at: arriving, most likely
                # in time, but out of view when it came to rest
                return result(run, False, "on its target before the deadline, then covered before it was seen "
                              "still", False)
            if not moving:
                if self.places.empty_at_deadline(sights, run) and not self.places.there_before(seat, run):
                    return result(run, True, "came to rest after the deadline where the table showed bare at it: "
                                  "pointed late", True)
                if self.places.table_under_marker(seat, run):
                    return result(run, True, "came to rest after the deadline; at the deadline the table showed "
                                  "where its marker then rests: pointed late", True)
                if self.places.table_in_shadow(seat, run):
                    return result(run, True, "came to rest after the deadline; at the deadline the place where its "
                                  "marker then rests showed what it showed before the count, cell by cell (under a "
                                  "shadow or not), not its marker: most likely it pointed late", False)
                if self.places.hidden_there_at_deadline(seat, run):
                    if self._seen_settling(run, sights):
                        return result(run, True, "first seen at rest after the deadline, where something covered "
                                      "its marker's place at the deadline, but seen settling onto that pose just "
                                      "before, after the deadline: most likely it pointed late", False)
                    shown = self._table_after(seat, run, sights)
                    if shown is not None:
                        return result(run, True, "first seen at rest after the deadline, where something covered its "
                                      f"marker's place at the deadline, but the table showed there {shown:+.2f} s "
                                      "after the \"3\": it came to rest after that, most likely it pointed late", False)
                    return result(run, False, "first seen at rest after the deadline, where something covered its "
                                  "marker's place at the deadline: it may have rested there under it", False)
                return result(run, True, "came to rest after the deadline, not seen moving before", False)
            left = self._left_unseen(run, before, sights)
            if left is not None:  # at rest on another seat until out of view just before the deadline
                prev, departed = left
                unseen = f"at rest on seat {prev.target} until out of view {deadline - prev.end:.2f} s before the deadline"
                if departed is not None and departed > deadline:
                    return result(prev, False, f"{unseen}; seen after it turning from that pose onto seat "
                                  f"{run.target}, a turn begun {departed:+.2f} s after the \"3\" at the rate seen: "
                                  "most likely still on its first target at the deadline", False)
                return result(run, True, f"came to rest on its target after the deadline, but {unseen}: it may "
                              "still have been there at the deadline", False)
            return result(run, True, "came to rest on its target after the deadline: pointed late", True)
        if before:
            return result(before[-1], False, "at rest before the deadline, moving at it and after", False)
        window = self._watched()
        part = [s for s in sights if s.t >= -COUNT_INTERVAL_S * 2]
        if len(part) >= 0.6 * window * cfg.sample_hz:
            if self.last_t < deadline + cfg.watched_after_deadline_s:  # it may come to rest after the clip ends
                return SeatAim(seat, None, False, False, 0.4, "moving as long as the clip shows, which ends "
                               f"{max(self.last_t - deadline, 0.0):.2f} s after the deadline", seen=seen)
            return SeatAim(seat, None, False, True, 0.7, "moving the whole count: points at no one", seen=seen)
        pause = self._pause(seat, sights) if len(part) < cfg.pause_seen_fraction * window * cfg.sample_hz else None
        swung = pause is not None and self._swing_turn(pause, sights)
        if swung:
            pause = None
        since = -math.inf if pause is None else pause.end
        lost = self._lost_moving(sights, since)
        if lost is not None:  # not at rest while seen: the line it was turning onto, for the Godfather
            rest, again = lost.rest, lost.again
            late = rest.start >= deadline
            how = "moving forward along" if lost.pushed else "turning onto"
            then = (f"out of view for {again[0].t - rest.end:.2f} s and seen again at that pose only "
                    f"{len(again)} time{'s' if len(again) != 1 else ''} at the end of the watch") if again else \
                "out of view to the end of the watch"
            return result(rest, late, f"last seen {how} that line {rest.start:+.2f} s after the \"3\", then "
                          f"{then}: lost from view as it came to rest"
                          + (" (after the deadline)" if late else "") + ("; it paused on seat "
                          f"{pause.target} before" if pause is not None else ""), False, held=False)
        if pause is not None:  # seen too little to call it a rest: the likeliest reading, for the Godfather
            late = pause.start > deadline
            why = f"held still on a target only briefly while seen ({seen} sightings)"
            if late and not self._seen_moving(pause, sights) and self.places.hidden_there_at_deadline(seat, pause, least=1):
                shown = self._table_after(seat, pause, sights)
                if shown is None:
                    late = False  # not seen coming to rest: its place covered at the deadline says it may have been there
                    why += ", after the deadline; its place was covered at the deadline"
                else:
                    why += (", after the deadline; its place was covered at the deadline but showed the table "
                            f"{shown:+.2f} s after the \"3\"")
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
        if (self.places.empty_at_deadline(sights, first) and not self.places.there_before(seat, first)) \
                or self.places.table_under_marker(seat, first):
            return held[0]
        return first

    def _brought_in(self, run: Rest, runs: list[Rest], sights: list[Sight]) -> Rest | None:
        """The rest a weapon brought into view after the "3" points with, when it was still at the deadline, seen
        then, only for a moment: ``run``, the rest holding at the deadline, began at the weapon's first sighting,
        after the "3" (and after the clip's first frame: it came into view then), and was brief (held less than
        ``sure_rest_s``, then seen moving on), and a rest held longer (neither brief nor glimpsed) began after the
        deadline. A hand bringing its weapon in puts it down for a moment where it came into view and raises it
        onto its aim; a weapon aimed stays at its aim. None otherwise."""
        cfg = self.config
        if not self._brief(run, sights):
            return None
        came = sights[0].t
        shown_from = self.first_t if math.isfinite(self.first_t) else -math.inf  # the clip's first frame
        if came <= max(0.0, shown_from) or run.seen_from - came > cfg.max_gap_s:
            return None
        return next((r for r in runs if r.start > run.end and r.start >= self.deadline + cfg.deadline_margin_s
                     and not self._brief(r, sights) and not self._glimpsed(r, sights)), None)

    def _unseen_onto(self, seat: int, run: Rest, sights: list[Sight]) -> bool:
        """Whether the weapon was not seen coming to rest at the pose of ``run``, after the deadline: out of view
        (for longer than ``max_gap_s``) until first seen at that pose, at the deadline its place showed its marker
        or something over it, and no frame kept after the deadline showed the table there. It may have been at
        rest there, unseen, at the deadline."""
        prior = [s for s in sights if s.t < run.seen_from]
        return ((not prior or run.seen_from - prior[-1].t > self.config.max_gap_s)
                and self.places.hidden_there_at_deadline(seat, run) and self._table_after(seat, run, sights) is None)

    def _lost_moving(self, sights: list[Sight], since: float) -> LostFromView | None:
        """The line a weapon never at rest was last read on, when from ``since`` on (the end of a pause it moved on
        from) it was seen turning one way only, by more than twice the rest tolerance, and then not seen again for
        ``lost_moving_s`` or more to the end of the watch: an arm or another weapon came over it as it came to
        rest, and the line it was turning onto is the one the frames support. None when it turned back on its way
        (swung to and fro: a weapon waved about points at no one), turned no more than a hand's tremor (not seen
        moving: where it was raised to is not known, unless it was seen pushed forward along its line, see
        ``_pushed_along``), was seen again (but at that pose, see ``_seen_again``: it came to rest there), or its
        last line points at no one."""
        cfg = self.config
        tail = [s for s in sights if s.t >= since]
        again = self._seen_again(tail)
        tail = tail[:len(tail) - len(again)]
        if len(tail) < 3 or (not again and self._watched_to() - tail[-1].t < cfg.lost_moving_s):
            return None
        last = tail[-1]
        if last.target is None:
            return None
        lost = Rest(last.t, last.t, last.target, last.margin_deg, last.foot, last.direction, last.height_cm,
                    seen_from=last.t)
        pushed = self._pushed_along(lost, tail)
        turned = np.unwrap([s.direction for s in tail])
        turned = (turned - turned[0]) * (1.0 if turned[-1] >= turned[0] else -1.0)  # along the net turn
        tol = math.radians(cfg.rest_angle_deg)
        if pushed or (turned[-1] > 2 * tol and float(np.max(np.maximum.accumulate(turned) - turned)) <= tol):
            return LostFromView(lost, pushed, again)
        return None

    def _seen_again(self, tail: list[Sight]) -> list[Sight]:
        """The sightings after the last gap of ``lost_moving_s`` or more in ``tail``, when every one of them lies
        within twice the rest tolerances of the pose last seen before the gap: the weapon seen again, at the end
        of the watch, where it was lost from view. Empty otherwise."""
        cfg = self.config
        cut = next((i for i in range(len(tail) - 1, 0, -1) if tail[i].t - tail[i - 1].t >= cfg.lost_moving_s), None)
        if cut is None:
            return []
        before, after = tail[cut - 1], tail[cut:]
        tol_a = 2 * math.radians(cfg.rest_angle_deg)
        tol_f = 2 * Rest(0.0, 0.0, 0, 0.0, before.foot, before.direction, 0.0).tol_cm
        return after if all(within_rest(s, before, tol_a, tol_f) for s in after) else []

    def _pushed_along(self, lost: Rest, sights: list[Sight]) -> bool:
        """Whether a weapon lost from view at ``lost`` was last seen pushed forward along its line of fire: its
        last ``min_rest_reads`` readings or more, without a gap longer than ``max_gap_s`` between them, all on
        the target of ``lost``, their direction within the rest tolerance of one another (not turning), and
        the ground point moving forward, the way the weapon points, by more than a still hand's scatter
        (``rest_move_cm``) and no more across the line than along it. A hand thrusting its weapon at a target
        keeps it pointed there as it moves; one only bringing it into view (from below the table's edge, as it
        rises) holds it still or moves it any way, and one waved about turns."""
        cfg = self.config
        read = [s for s in sights if not s.still and s.t <= lost.end]
        run: list[Sight] = []
        for s in reversed(read):
            if run and run[-1].t - s.t > cfg.max_gap_s:
                break
            run.append(s)
        run.reverse()
        if len(run) < cfg.min_rest_reads or any(s.target != lost.target for s in run):
            return False
        directions = np.unwrap([s.direction for s in run])
        if float(np.ptp(directions)) > math.radians(cfg.rest_angle_deg):
            return False
        heading = float(np.median(directions))
        moved = np.asarray(run[-1].foot, np.float64) - np.asarray(run[0].foot, np.float64)
        along = float(moved @ [math.cos(heading), math.sin(heading)])
        across = abs(float(moved @ [-math.sin(heading), math.cos(heading)]))
        return along > cfg.rest_move_cm and across <= along

    def _table_after(self, seat: int, run: Rest, sights: list[Sight]) -> float | None:
        """When, from a little before the deadline on and before the weapon was first seen at the pose of ``run``, the
        place where its marker then lies showed the table (``DeadlinePlaces.table_later``): it was not at rest there
        yet. None when no frame kept showed it."""
        first = run.seen_from if math.isfinite(run.seen_from) else run.start
        return self.places.table_later(seat, sights, run, min(first, run.start))

    def _watched(self) -> float:
        """Seconds of the count watched from its "1" to the end of the watch: a clip that begins after the "1"
        or ends before the watch's end shows less of it, and a weapon in view the whole time is seen in as large
        a share of those frames as in a longer clip."""
        first = max(-COUNT_INTERVAL_S * 2, self.first_t) if math.isfinite(self.first_t) else -COUNT_INTERVAL_S * 2
        last = min(self.end, self.last_t) if math.isfinite(self.last_t) else self.end
        return max(last - first, 1.0 / self.config.sample_hz)

    def _seen_settling(self, run: Rest, sights: list[Sight]) -> bool:
        """Whether the weapon was seen settling onto the pose of ``run`` after the deadline: the sightings just
        before it settled, after the deadline and without a gap longer than ``max_gap_s``, begin beyond the rest
        tolerances of that pose and come nearer to it one after the other (within a tenth of those tolerances: the
        reading's noise), three or more of them, or two both beyond those tolerances (a weapon brought into view
        fast is read only once or twice before it settles; one at rest is not read twice running beyond its
        rest's tolerances, a cover's edge over a corner of its marker turns its reading by less). A weapon at rest
        under an arm from before the deadline is at that pose when it shows again; one seen coming onto it after
        the deadline came to rest then."""
        cfg = self.config
        tol_a = math.radians(cfg.rest_angle_deg)
        before: list[Sight] = []
        for s in reversed([s for s in sights if s.t < run.start]):
            if s.t <= self.deadline or (before[-1].t if before else run.start) - s.t > cfg.max_gap_s:
                break
            before.append(s)
        if len(before) < 2:
            return False
        away = [max(abs(turn(s.direction, run.direction)) / tol_a, math.dist(s.foot, run.foot) / run.tol_cm)
                for s in reversed(before)]
        if len(before) == 2 and away[1] <= 1.0:
            return False
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
                    or not within_rest(s, run, tol_a, run.tol_cm):
                break
            tail.append(s)
        if len(tail) < 3 or len(at_rest) < 3 or tail[-1].t > self.deadline - cfg.deadline_margin_s:
            return False
        radial = np.asarray(run.foot, np.float64) - self.plane.nadir
        u = radial / max(float(np.linalg.norm(radial)), 1e-9)
        axes = np.column_stack([u, [-u[1], u[0]]])

        def readings(part: list[Sight]) -> np.ndarray:
            turns = np.degrees([turn(s.direction, run.direction) for s in part])
            feet = (np.array([s.foot for s in part]) - np.asarray(run.foot)) @ axes
            return np.column_stack([turns, feet])

        before, held = readings(tail), readings(at_rest)
        cell_cm = markers.WEAPON_SIZE_CM / 6  # its 4 x 4 cells and black border: 6 cells a side
        tremor = np.array([cfg.still_tremor_deg, cfg.still_reach_cells * cell_cm, cfg.still_reach_cells * cell_cm])
        error = 2.0 * held.std(axis=0, ddof=1) * math.sqrt(1.0 / len(before) + 1.0 / len(held))
        return bool(np.all(np.abs(before.mean(axis=0) - held.mean(axis=0)) <= tremor + error))

    def _left_unseen(self, run: Rest, before: list[Rest], sights: list[Sight]) -> tuple[Rest, float | None] | None:
        """The last rest before the deadline, on another target, when the weapon was held there until no earlier
        than ``kept_before_deadline_s`` before the deadline and then not seen again until after it: where it
        pointed at the deadline is not seen. With it, the time the weapon left that pose, traced back from its
        first sightings after the deadline at the rate they turn (None when they do not turn away from it)."""
        cfg = self.config
        if not before:
            return None
        prev = before[-1]
        if prev.target == run.target or prev.end < self.deadline - cfg.kept_before_deadline_s:
            return None
        seen = [s for s in sights if prev.end < s.t < run.start]
        if any(s.t <= self.deadline for s in seen):
            return None
        first = [s for s in seen if not s.still and s.t - seen[0].t <= cfg.traced_s]
        if len(first) < 2:
            return prev, None
        away = turn(first[0].direction, prev.direction)
        rate = turn(first[-1].direction, first[0].direction) / (first[-1].t - first[0].t)
        if away * rate < 0 or abs(rate) < math.radians(cfg.rest_angle_deg):
            return prev, None  # turning back, or hardly turning: its way from that pose is not traced
        return prev, first[0].t - away / rate

    def _seen_moving(self, run: Rest, sights: list[Sight]) -> list[Sight]:
        """The sightings from shortly before the deadline until ``run`` began that show the weapon away from the
        pose of ``run`` (beyond twice the rest tolerances): it was seen moving onto it."""
        cfg = self.config
        tol_a, tol_f = math.radians(cfg.rest_angle_deg), run.tol_cm
        return [s for s in sights if self.deadline - cfg.seen_moving_s <= s.t < run.start
                and not within_rest(s, run, 2 * tol_a, 2 * tol_f)]

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
        """Whether the rest was brief and not seen held: held for less than ``sure_rest_s`` and then seen at
        another pose, still at the end of what was watched, or out of view from its end to the end of what was
        watched. A weapon swung to and fro slows at the ends of its swing and holds a pose about that long each
        time, and a hand bringing a weapon onto its target slows as it starts; an aim is held. A rest that ends
        out of view and is seen again at that pose (an arm over it) is bridged (``RestFinder``) or judged by
        ``_kept``; one never seen again may have moved on under what covered it."""
        cfg = self.config
        if run.end - run.seen_from >= cfg.sure_rest_s:
            return False
        if run.end >= self._watched_to() - cfg.glimpse_gap_s:  # still when the watch (or the clip) ended
            return True
        seen_next = next((s.t for s in sights if s.t > run.end), None)
        return seen_next is None or seen_next <= run.end + cfg.max_gap_s

    def _watched_to(self) -> float:
        """The end of what was watched: the end of the watch, or of the clip if sooner."""
        return min(self.end, self.last_t) if math.isfinite(self.last_t) else self.end

    @staticmethod
    def _reads(run: Rest, sights: list[Sight]) -> int:
        """How many times the marker was read (not only still seen: a partly covered marker's sighting copies
        the pose read before) from the rest's first sighting to its end: the readings its line is the median of."""
        first = run.seen_from if math.isfinite(run.seen_from) else run.start
        return sum(1 for s in sights if not s.still and first <= s.t <= run.end)

    def _only_still_at_deadline(self, run: Rest, sights: list[Sight]) -> bool:
        """Whether a rest holding at the deadline was seen from then on only partly covered (still sightings at
        the pose read before, none read). Such a sighting tells the pose read before from one turned by the
        nearest of ``still_turns_deg`` (10 degrees), not from one turned by less: a turn of up to half of it
        passes unseen, and turns the line's margin to a second seat (the difference of the two seats' angles
        from it) by twice that."""
        if not run.start <= self.deadline <= run.end:
            return False
        since = self.deadline - self.config.seen_near_deadline_s
        return not any(not s.still and since <= s.t <= run.end for s in sights)

    def _kept(self, run: Rest, sights: list[Sight]) -> bool:
        """A weapon at rest on its target from before the "3" until it went out of view (an arm over it)
        keeps that aim through the deadline when it was read again at that pose after (``kept_seen_again``
        times or more) and every later sighting still holds the rest pose: it was not seen moving. It must
        have been at rest that way for ``kept_rest_s`` up to the "3" and still at the "3", and gone out of
        view no earlier than ``kept_before_deadline_s`` before the deadline. One never read again (covered to
        the end of the watch) may have been turned under what covered it: that it stayed is not seen; one read
        again only once or twice stands on a reading or two, as thin as a misread (a bridged rest needs three)."""
        cfg = self.config
        if run.start > -cfg.kept_rest_s or run.end < min(0.0, self.deadline - cfg.kept_before_deadline_s):
            return False
        tol_a, tol_f = math.radians(cfg.rest_angle_deg), run.tol_cm
        later = [s for s in sights if s.t > run.end]
        if sum(1 for s in later if not s.still and within_rest(s, run, tol_a, tol_f)) < cfg.kept_seen_again:
            return False
        moved = [s for s in later if not within_rest(s, run, 2 * tol_a, 2 * tol_f)]
        return len(moved) <= max(1, len(later) // 10)  # a misread or two, not a move

    def _pause(self, seat: int, sights: list[Sight]) -> Rest | None:
        """The stillness that most likely was the weapon's aim when no rest was seen, among the short ones
        (``min_rest_s`` lowered to a third): the one holding at the deadline, else the last before it, else the
        last after it (a weapon still for a moment after the deadline and seen still again elsewhere later was
        moved on: the aim is where it stayed)."""
        cfg = self.config
        brief = dataclasses.replace(cfg, min_rest_s=cfg.min_rest_s / 3, min_seen_fraction=0.0)
        runs = dataclasses.replace(self.finder, config=brief).rests(seat, sights)
        if not runs:
            return None
        holding = [r for r in runs if r.start <= self.deadline <= r.end]
        before = [r for r in runs if r.end < self.deadline]
        return holding[0] if holding else before[-1] if before else runs[-1]

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
        turned_in = turn(pause.direction, before[0].direction)
        turned_out = turn(after[-1].direction, pause.direction)
        return abs(turned_in) > tol and abs(turned_out) > tol and turned_in * turned_out < 0

    def _other_target(self, run: Rest, seat: int) -> int | None:
        """A second seat the line of fire would point at if it were off by what a reading may be off by
        (turned by ``line_error_deg`` and moved across by ``line_error_cm``): None when the target holds."""
        cfg = self.config
        (x, y), direction = run.line
        foot = np.array([x, y])
        across = np.array([-math.sin(direction), math.cos(direction)])
        for shift in (-cfg.line_error_cm, 0.0, cfg.line_error_cm):
            for turned in (-cfg.line_error_deg, 0.0, cfg.line_error_deg):
                got, _ = line_target(foot + across * shift, direction + math.radians(turned),
                                     self.plane.standees, seat, self.candidates)
                if got is not None and got != run.target:
                    return got
        return None

    def _missing_target(self, run: Rest, seat: int) -> int | None:
        """A seat whose standee was not found (its markers unread) that the line of fire may point at,
        wherever between its neighbours it stands: None when there is none."""
        (x, y), direction = run.line
        foot = np.array([x, y])
        for missing, places in self.missing.items():
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


def missing_places(standees: dict[int, np.ndarray], seat: int, seats: int) -> list[np.ndarray]:
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
