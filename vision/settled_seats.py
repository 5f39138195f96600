"""The seats whose cards were read when armed, as they lie once the table settled.

Per seat, at the end (one reading after the other, each seat's evidence naming the one that
decided): the crown marker decoded near its place; else its card's look found at its place (as
sharp as at rest: up); else the crown marker decoded anywhere a standee's length around. A decoded
crown is up when near its place and not turned, else ``knocked``. None found: ``knocked`` when a
standee's worth of table changed along its fall line (the seat's line through its crown's place and
through its base marker, and the way the crown was last seen going; cm² of table at the seat's own
scale, from its base marker; in the latest frame, or in the median of the settled frames, where noise
averaged out lets a change of little contrast show whole, and a fall seen only there asks) and the crown is gone from its place (its
card's place changed, in the latest frame or in that median, asking when only there; or it was seen moving away and never back; a star seen lying elsewhere
does not count as resting on it), else up and covered (the star at rest on it) or only not decoded;
up, asking, when what is left of that change without the table in shadow (darker, its colour kept; no more of
it than a star's shadow) is less than a fall, the star having met it and maybe lying on its crown (raised
there, it casts its shadow on the table beside the standee, whether the standee moved or not; not when its crown
was last seen farther than a swing goes: falling, nor when no change of a star's size lies alone over its crown's
place: no star lies there);
a crown lost under a hand and never seen moving asks while a hand or arm is still traced across the image border
where that one came in (a hand may rest there, its arm too faint to trace all the way); none there, the hand has gone
and the standee is read as it lies. Up is
``touched`` when the crown was seen to move a touch's worth (or stands pushed off its place): a
star landing on a standee that does not move it touched nothing. Nothing asks the Godfather when a
touch could have gone unseen: the crown moved more than a still crown jitters near the star (judged
``touched``, still asking, when those readings show a light touch's swing: along one line, there and back,
after the star came, at least twice anything the seat's readings show off that line, and followed
by the part of its card left in view when the star lies on it at the end; or so in one frame only, just after the
star passed within a light touch's reach), or
beside the standee the star was last seen at (or a touch's worth in one frame), or was out of sight while a touch would not show (not found while watched
after the star passed), or a hand covers the seat at the end. An up crown whose marker is not decoded
at the end, the star near it (lying on it), is followed back through the frames since the star came by
the part of its card and margin left in view, as it looks at the end: swung a touch's worth along one
line and back past its place, the standee rocked: ``touched``, asking (a star dropped onto a crown that
did not move leaves that part still).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import markers, patches
from vision.calibration import Calibration
from vision.motion import SETTLED_FRAMES, STAR_AREA_CM2, STAR_SHARE_MIN, STAR_WITH_SHADOW, MotionDetector
from vision.seat_track import (
    FALL_CHANGE_MAX_CM2,
    FALL_REACH_CM,
    FALL_WIDTH_CM,
    LIGHT_TOUCH_REACH_CM,
    MAX_STANDEE_AREA_CM2,
    STAR_NEAR_CM,
    STAR_RADIUS_CM,
    SeatTrack,
    band,
    base_patch_half,
    covered_half,
    in_two_frames,
    near_sightings,
    nearest_pair,
    patch_box,
    quad_mask,
    segment_distance,
)
from vision.throw_verdict import JudgeConfig, Outcome, SeatEvidence

# a crown's move read as a touch is sure by itself, with the star seen near but never meeting the standee, from this
# many times a touch's worth (``JudgeConfig.moved_cm``) on
TOUCH_SURE_ALONE = 1.5
# readings of a crown from which the place it lies at in most frames is taken (``SettledSeats._about_still_place``)
STILL_PLACE_READINGS = 6


@dataclass
class SettledSeats:
    """What the judge saw, read once the table settled: each seat's outcome from its track and the
    table's changes at the end."""

    config: JudgeConfig
    calibration: Calibration
    motion: MotionDetector
    tracks: dict[int, SeatTrack]
    seats: int
    thrower: int
    fps: float
    star_track: list[tuple[int, list[np.ndarray]]]  # each frame's star-sized blob centres, when any
    shuriken_seen: bool
    still_frames: int  # frames without motion, up to the latest
    rest_end: np.ndarray | None  # median of the settled frames, when worked out

    @property
    def _star_last(self) -> tuple[int, list[np.ndarray]]:
        """The frame and blob centres where the star was last seen ((-1, []): not yet)."""
        return self.star_track[-1] if self.star_track else (-1, [])

    def crown_unseen(self, ev: SeatEvidence, t: SeatTrack) -> SeatEvidence:
        """Neither the crown marker nor its card's look is found at the end: fallen, covered (by the
        star at rest on it, or by a hand), or only not decoded. Down takes a standee's worth of
        table changed along its fall line (cm² of table), and its crown gone from its place: its
        card's place changed, or the crown seen moving away and never back. The fall line is the
        seat's line (towards and away from the table's centre) and, for a crown seen moving away,
        the way it went: a star thrown from the side knocks a standee over sideways."""
        cfg = self.config
        changed = self.motion.changed_now()
        cm2_per_pixel = self._cm2_per_pixel(t)
        # the median of the settled frames, when they are all still: a change of little contrast against
        # the table (a fallen standee, the bare table where its crown card stood, in a dim room) shows
        # whole there, where one frame's noise hides parts of it
        at_rest = self._changed_at_rest()
        has_card = t.card_mask is not None and t.card_mask.any()
        card_now = float(changed[t.card_mask].mean()) if has_card else 1.0
        card_at_rest = float(at_rest[t.card_mask].mean()) if has_card and at_rest is not None else 0.0
        card_share = max(card_now, card_at_rest)
        went_away = self._went_away(t)
        strip, latest, settled = self.fall_line_change(t)
        area = max(latest, settled)
        seen_in = "the median of the settled frames" if settled > latest else "the latest frame"
        ev.crown_card_changed = round(card_share, 2)
        ev.changed_area_cm2 = round(area, 1)
        ev.arm_over_seat = self.arm_over(t)
        if ev.arm_over_seat:
            ev.outcome = Outcome.TOUCHED if ev.max_shift_cm >= cfg.moved_cm else Outcome.NOTHING
            ev.reason = "a hand or arm covers the seat at the end: the Godfather looks"
            if self._seen_falling(t):
                # what the camera saw last of it was a fall: the crown farther from its place than a swing goes
                ev.outcome = Outcome.KNOCKED
                ev.reason = (f"a hand or arm covers the seat at the end, its crown last seen {t.last_seen_shift:.1f} cm "
                             f"from its place (falling): the Godfather looks")
            ev.confidence = 0.3
            return ev
        # a change from the border over its card that is its own, not a hand's: said whatever the outcome
        own = t.card_mask is not None and bool((self.motion.arm_mask() & t.card_mask).any()) and self.tipped_out_of_view(t)
        out_of_view = ("; the change reaching its card from the image border is its own fall out of the view, not a "
                       "hand: its crown went towards that border in the frame the change first reached its card, "
                       "nothing from the border near it before" if own else "")
        place_now = card_now >= cfg.covered_share  # in the latest frame
        place_changed = card_share >= cfg.covered_share  # there, or in the median of the settled frames
        # seen moving and then back at its place: it swung and stands; a star resting on its crown,
        # raised towards the camera and casting a shadow, changes more than a star on the table
        came_back = t.first_move is not None and t.last_seen_shift is not None and t.last_seen_shift < cfg.moved_cm
        # the star met it and may rest on it: a fall changes a star's worth more than the least fall;
        # unless the star is seen lying elsewhere, where it counts only what of it lies in the strip
        star = 0.0
        elsewhere = None
        if t.contact:
            # the star seen lying away counts only its part in the strip, and never more than a star
            # that may lie on the crown: its blob there, with its shadow and a dim room's blur, can
            # be twice a star's size, and knowing where it lies asks no more of a fall than not knowing
            elsewhere = self._star_elsewhere(t, strip)
            star = STAR_AREA_CM2 if elsewhere is None else min(elsewhere, STAR_AREA_CM2)
        # the star never seen meeting it (its flight under a hand, or too fast), but a star-sized change lying
        # alone over its crown's place at the end: the star may lie on its crown, which it covers
        star_on_unseen = not t.contact and self._star_on_crown(t)
        if star_on_unseen:
            star = STAR_AREA_CM2
        fallen_area = cfg.fallen_area_cm2 + star
        if area >= fallen_area and place_changed and t.lost_under_arm and t.first_move is None \
                and self._arm_still_in(t):
            # lost under a hand or arm come in from the border and never seen moving: a hand resting
            # over the crown (its arm too faint against the table to be traced to the border) changes
            # the card's place and the strip as a fall would; its arm still crosses the border where it
            # came in
            return self._up_unsure(ev, t, f"crown marker lost under a hand or arm and never seen moving, {area:.0f} "
                                   f"cm² changed along its fall line, and a hand or arm still crosses the image border "
                                   f"where that one came in: covered or fallen under it, unsure")
        shade = 0.0
        if area >= fallen_area and place_changed and t.contact and elsewhere is None and not self._seen_falling(t) \
                and self._star_on_crown(t):
            # the star met it and may lie on its crown: raised there, nearer the lamp, it casts its shadow on the table
            # beside the standee, within its strip, whether the standee moved or not; a shadow darkens the table with
            # its colour kept, a standee lying there shows its own. A star's shadow is a star and a half at most (what
            # a star at rest changes, its shadow with it, is at most STAR_WITH_SHADOW stars): more of the table
            # darkened is something else's (a fallen standee of nearly the table's colour, a darker print). Its crown
            # last seen farther than a swing goes (``_seen_falling``), it was falling: no crown stands for a star to
            # lie on; and a star lying on a crown changes its place by a star's size alone (``_star_on_crown``): a
            # fallen standee changes it in one piece with the table it lies on, and casts no star's shadow
            shadow = self.motion.shadowed(at_rest=settled > latest)
            changed_in = at_rest if settled > latest else changed
            if shadow is not None and changed_in is not None and strip is not None:
                shade = min(float((changed_in & strip & shadow).sum()) * cm2_per_pixel,
                            (STAR_WITH_SHADOW - 1.0) * STAR_AREA_CM2)
        if area >= fallen_area and place_changed and not came_back and area - shade < fallen_area:
            return self._up_unsure(ev, t, f"crown marker not decoded, {area:.0f} cm² changed along its fall line in "
                                   f"{seen_in}, but {shade:.0f} cm² of it is the table darkened with its colour kept, "
                                   f"the shadow of a star (the star met it and may lie on its crown: raised there, it "
                                   f"casts one beside it); {area - shade:.0f} cm² left, less than a fallen standee "
                                   f"({fallen_area:g} cm²): still up, unsure", out_of_view)
        # the table never settled (no median of still frames to show a faint standee whole), and what changed along
        # the fall line lies in pieces of a star's size with its shadow at most: a standee lying there is one body, 7 by
        # 13 cm at least; its crown never seen going away
        piece = _largest_piece(changed & strip) * cm2_per_pixel if at_rest is None and strip is not None else math.inf
        if area >= fallen_area and place_changed and not came_back and not went_away \
                and piece <= STAR_WITH_SHADOW * STAR_AREA_CM2:
            return self._up_unsure(ev, t, f"crown marker not decoded, {area:.0f} cm² changed along its fall line in "
                                   f"the latest frame (the table never settled), but in pieces of a star's size, the "
                                   f"largest {piece:.0f} cm²: no standee lying there, still up, unsure", out_of_view)
        if area >= fallen_area and (place_changed or went_away) and not came_back:
            ev.outcome = Outcome.KNOCKED
            if place_now:
                gone = f"its card's place {100 * card_now:.0f} % changed"
            elif went_away:
                gone = f"last seen {t.last_seen_shift:.1f} cm from its place, never back"
            else:
                gone = (f"its card's place {100 * card_share:.0f} % changed in the median of the settled frames "
                        f"({100 * card_now:.0f} % in the latest frame alone)")
            ev.reason = (f"crown marker gone, {gone}, and {area:.0f} cm² changed along its fall line in {seen_in} "
                         f"(a fallen standee, at least {fallen_area:g} cm²)"
                         f"{', base marker still seen' if ev.base_seen_at_end else ''}")
            ev.reason += out_of_view
            ev.confidence = (0.95 if ev.base_seen_at_end else 0.8) - (0 if place_now else 0.05)
            if latest < fallen_area:
                # a standee's worth changed only where the frames' noise is averaged out: unsure
                ev.reason += f" (the latest frame alone: {latest:.0f} cm²): the Godfather looks"
                ev.confidence = min(ev.confidence, 0.55)
            if not place_now and not went_away:
                # its crown gone from its place only where the frames' noise is averaged out: unsure
                ev.reason += ": the Godfather looks"
                ev.confidence = min(ev.confidence, 0.55)
            return ev
        ev = self.standing(ev, t)
        if not place_now:
            why = f"its card's place looks as when armed ({100 * card_now:.0f} % changed)"
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
        ev.reason = f"crown marker not decoded, but {why}: still up; {ev.reason}{out_of_view}"
        ev.confidence = min(ev.confidence, 0.75)
        if star_on_unseen:
            # what lies on its crown's place is star-sized and alone, but the star was not seen coming there
            ev.reason += ("; a star-sized change lies alone over its crown's place, the star never seen meeting "
                          "it: covered, unsure")
            ev.confidence = min(ev.confidence, 0.5)
        if place_now and area >= fallen_area and not t.last_seen_sure:
            ev.confidence = min(ev.confidence, 0.5)
        if went_away:
            # last seen away from its place and never back: a star dropping onto a crown in mid-swing
            # looks so, and so does a fall that changed little of a table of the standee's colour
            # (or of its card's place, in a dim room: the card not found there at rest is not there)
            ev.reason += f"; but last seen {t.last_seen_shift:.1f} cm from its place, never back: unsure"
            ev.confidence = min(ev.confidence, 0.5)
        if not place_now and card_share >= 0.4 * cfg.covered_share and (t.contact or ev.max_shift_cm >= cfg.moved_cm):
            # the star met it or its crown moved, and a part of its card's place changed (in the latest
            # frame or in the median of the settled frames): it may lie with its crown card where the
            # standee stood
            where = "" if card_share == card_now else " in the median of the settled frames"
            ev.reason += f"; but {100 * card_share:.0f} % of its card's place changed{where} after a touch: unsure"
            ev.confidence = min(ev.confidence, 0.5)
        return ev

    def fall_line_change(self, t: SeatTrack) -> tuple[np.ndarray | None, float, float]:
        """The seat's fall strip (low-resolution mask: along its line, and the way its crown was last seen going when
        it went a touch's worth twice over) and the cm² of table changed in it in the latest frame and in the median
        of the settled frames (0 unless they are all still); (None, 0, 0) without a strip."""
        strip = t.lie_mask
        way = self._fall_way(t) if self._went_away(t) else None
        if strip is not None and way is not None:
            strip = strip | way
        if strip is None:
            return None, 0.0, 0.0
        cm2_per_pixel = self._cm2_per_pixel(t)
        at_rest = self._changed_at_rest()
        latest = float(self.motion.changed_now()[strip].sum()) * cm2_per_pixel
        settled = float(at_rest[strip].sum()) * cm2_per_pixel if at_rest is not None else 0.0
        return strip, latest, settled

    def _up_unsure(self, ev: SeatEvidence, t: SeatTrack, why: str, after: str = "") -> SeatEvidence:
        """Up, as its crown's moves say (``standing``), and unsure (0.5 at most): ``why`` leads its reason, ``after``
        ends it."""
        ev = self.standing(ev, t)
        ev.reason = f"{why}; {ev.reason}{after}"
        ev.confidence = min(ev.confidence, 0.5)
        return ev

    def _went_away(self, t: SeatTrack) -> bool:
        """Whether its crown was last seen a touch's worth twice over from its place."""
        return t.last_seen_shift is not None and t.last_seen_shift >= 2 * self.config.moved_cm

    def _changed_at_rest(self) -> np.ndarray | None:
        """What differs from the reference in the median of the latest frames (``MotionDetector.
        changed_at_rest``: sensor noise averaged out, a change of little contrast seen whole), when
        every one of them was still; else None."""
        if self.still_frames < SETTLED_FRAMES:
            return None
        return self.motion.changed_at_rest()

    def _star_elsewhere(self, t: SeatTrack, strip: np.ndarray | None) -> float | None:
        """cm² of the seat's fall strip the star covers where it lies, when it is seen lying away
        from this crown; None when it may lie on this crown. Lying away: the star-sized blobs of the
        latest frame that showed any after the crown first moved (the star bounced off it), or, the crown
        never seen moving, after the star came near it, are all farther than a star's width from the
        crown's place, and one lies where a star's worth of table changed at the end, alone (a star-sized
        change, not a part of a fallen standee's), in the latest frame or in the median of the settled
        frames; and nothing star-sized lies alone over the crown's place (``_star_on_crown``): a "star" last
        seen far away (a hand's fingertips, a crown's swing) leaves the star where it lies there."""
        since = t.first_move if t.first_move is not None else t.star_came
        if t.crown is None or strip is None or since is None:
            return None
        ppc = self._ppc(t)
        away = 2 * STAR_RADIUS_CM * ppc
        # the latest sighting since the crown first moved (or the star came near): a star-sized blob last seen
        # within a star's width of the crown may be the star lying on it, whatever was seen farther before (the
        # star passing by a neighbour, a hand)
        last: list[np.ndarray] = next((centres for frame, centres in reversed(self.star_track) if frame >= since and centres), [])
        far = [c for c in last if float(np.linalg.norm(c - t.crown.center)) >= away]
        if not far or len(far) < len(last) or self._star_on_crown(t):
            return None
        # the latest frame, then the median of the settled frames: in a dim, noisy room one frame's
        # noise may hide the star lying still where the noise averaged out shows it whole
        for changed in (self.motion.changed_now(), self._changed_at_rest()):
            if changed is not None and (lying := self._star_lying(t, far, changed)) is not None:
                return float((lying & strip).sum()) * self._cm2_per_pixel(t)
        return None

    def _star_on_crown(self, t: SeatTrack) -> bool:
        """Whether a star-sized change lies alone over the crown's place at the end (``_star_lying`` at its
        centre), in the latest frame or in the median of the settled frames: the star may rest on the crown.
        A fallen standee changes its crown's place in one piece with the table it lies on, more than a star."""
        if t.crown is None:
            return False
        centre = [np.asarray(t.crown.center, np.float64)]
        return any(changed is not None and self._star_lying(t, centre, changed) is not None
                   for changed in (self.motion.changed_now(), self._changed_at_rest()))

    def _star_lying(self, t: SeatTrack, centres: list[np.ndarray], changed: np.ndarray) -> np.ndarray | None:
        """The star-sized change (low-resolution mask) at one of ``centres`` (image px) in ``changed``,
        alone: a star's worth of table, not a part of a larger change; None without one."""
        scale, ppc = self.config.motion_scale, self._ppc(t)
        _, labels = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
        for c in centres:
            disc = np.zeros(changed.shape, np.uint8)
            cv2.circle(disc, (int(round(c[0] / scale)), int(round(c[1] / scale))),
                       max(1, int(round((STAR_RADIUS_CM + 1) * ppc / scale))), 1, -1)
            ids = set(np.unique(labels[disc.astype(bool) & changed]).tolist()) - {0}
            star = np.isin(labels, sorted(ids)) if ids else np.zeros(changed.shape, bool)
            if 0.5 * STAR_AREA_CM2 <= float(star.sum()) * self._cm2_per_pixel(t) <= STAR_WITH_SHADOW * STAR_AREA_CM2:
                return star
        return None

    def _fall_way(self, t: SeatTrack, *, widen_cm: float = 0.0, from_base: bool = False) -> np.ndarray | None:
        """Low-resolution mask of the strip a standee lies in when fallen the way its crown was last
        seen going (from just behind its place to a standee's length beyond, a standee's width
        across), ``widen_cm`` wider all round, drawn from its base's place too with ``from_base``;
        None without a known way."""
        if t.crown is None or t.last_seen_px is None:
            return None
        norm = float(np.linalg.norm(t.last_seen_px))
        if norm < 1.0:
            return None
        ppc = self._ppc(t)
        low = self.motion.changed_now().shape
        strip = np.zeros(low, bool)
        for mark in (t.crown, t.base if from_base else None):
            if mark is not None:
                strip |= band((low[0], low[1]), mark.center.astype(np.float64), t.last_seen_px / norm,
                              back=(markers.CROWN_SIZE_CM / 2 + 1.0 + widen_cm) * ppc,
                              ahead=(FALL_REACH_CM + widen_cm) * ppc,
                              half_wide=(FALL_WIDTH_CM / 2 + widen_cm) * ppc, scale=self.config.motion_scale)
        return strip

    def _ppc(self, t: SeatTrack) -> float:
        """Image px per cm on the table plane at the seat (the calibration's mean without a marker there)."""
        return t.table_ppc if t.table_ppc > 0 else self.calibration.px_per_cm

    def _cm2_per_pixel(self, t: SeatTrack) -> float:
        """cm² of table at the seat one low-resolution pixel covers."""
        return (self.config.motion_scale / self._ppc(t)) ** 2

    def changed_near_base(self, t: SeatTrack) -> float:
        """cm² of table changed at the end within a standee's length of the seat's base marker."""
        if t.base is None:
            return 0.0
        scale = self.config.motion_scale
        changed = self.motion.changed_now()
        disc = np.zeros(changed.shape, np.uint8)
        centre = np.round(t.base.center / scale).astype(int)
        cv2.circle(disc, (int(centre[0]), int(centre[1])), int(FALL_REACH_CM * self._ppc(t) / scale), 1, -1)
        return float((changed & disc.astype(bool)).sum()) * self._cm2_per_pixel(t)

    def arm_over(self, t: SeatTrack, *, in_median: bool = False) -> bool:
        """Whether a hand or arm covers the crown card's place: a change reaching in from the image
        border that lies mostly outside the seat's fall strip (a standee fallen at the edge of the
        view also reaches the border, but lies inside its strip), unless the standee itself went
        first: its crown seen moving away, and never back, before anything from the border reached
        it (or in that frame, tipping out of the view: ``tipped_out_of_view``), the change no larger
        than a standee lying flat, within a standee's length of where it stood, and its own part of
        it (``_own_part``) reaching the image border only if its crown was last seen farther than a
        swing goes (``_seen_falling``) or it fell that way from within a standee's length of it
        (``_falls_to_border``), its base card left in view unless it fell over it
        (``_base_covered_off_its_way``): a hand resting over a standee that swung back reaches in
        from the border where no fall of it could, and over its base card.

        In the latest frame; with ``in_median``, in the median of the settled frames as well, when they are all
        still (``MotionDetector.arm_mask_at_rest``): a still hand of nearly the table's shade in a dim room, its arm
        broken by one frame's noise short of the border, shows whole there. That is for waiting for a hand to go
        before reading the seats: the median's lower threshold traces as well what is left of the light after an
        exposure change, which no wait undoes, and a seat read as covered by a hand would ask."""
        if t.card_mask is None or t.fall_mask is None:
            return False
        if self._arm_over_in(t, self.motion.arm_mask(), self.motion.changed_now(), t.card_mask, t.fall_mask):
            return True
        at_rest = self._changed_at_rest() if in_median else None
        arms_at_rest = self.motion.arm_mask_at_rest() if at_rest is not None else None
        return arms_at_rest is not None and at_rest is not None \
            and self._arm_over_in(t, arms_at_rest, at_rest, t.card_mask, t.fall_mask)

    def _arm_over_in(self, t: SeatTrack, arm: np.ndarray, changed: np.ndarray, card: np.ndarray,
                     fall: np.ndarray) -> bool:
        """``arm_over`` in one view: the hands and arms ``arm`` and what changed, ``changed``, over the seat's crown card
        place ``card`` and fall strip ``fall`` (low-resolution masks)."""
        if not (arm & card).any():
            return False
        _, labels = cv2.connectedComponents(arm.astype(np.uint8), connectivity=8)
        cm2_per_pixel = self._cm2_per_pixel(t)
        went_first = self._went_first(t)
        for i in set(np.unique(labels[card & arm])) - {0}:
            blob = labels == i
            core = blob & changed  # what changed, without the arm trace's lower threshold and margin
            area = float(core.sum()) * cm2_per_pixel
            # what a fall changes, at most: seen from above, where it stood changed little; a hand
            # resting there after a swing, with its forearm, changes more. The part of the change
            # nearer another seat's standee is that standee's when it too was seen moving before
            # anything from the border reached it (a fall beside a touched neighbour: both changes
            # in one piece); else it counts, as a hand's may
            own = self._own_part(t, core) if went_first else core
            if went_first and (self._seen_falling(t) or not self.motion.reaches_rim(own)
                               or (self._falls_to_border(t) and not self._base_covered_off_its_way(t))) \
                    and any(self._fits_a_fall(t, part) for part in (core, own)):
                continue
            if float((blob & fall).sum()) < 0.6 * float(blob.sum()):
                return True  # reaches in from beyond the seat's strip
            if t.lost_under_arm is False:
                continue  # the crown went before anything came in from the border: the standee itself
            if area > MAX_STANDEE_AREA_CM2:
                return True  # larger than a standee lying flat: a forearm along the seat's line
        return False

    def _arm_still_in(self, t: SeatTrack) -> bool:
        """Whether a hand or arm (``MotionDetector.arm_mask``: traced at its lower threshold, with its margin)
        still crosses, at the end, the image border where the one the crown was lost under came in
        (``SeatTrack.arm_entry``): a hand resting anywhere keeps its arm across the border. True when unknown."""
        if t.arm_entry is None or not t.arm_entry.any():
            return True
        return bool(self.motion.arm_mask()[t.arm_entry].any())

    def _fits_a_fall(self, t: SeatTrack, part: np.ndarray) -> bool:
        """Whether a change (low-resolution mask) is no more than a fallen standee changes, within a
        standee's length of where it stood."""
        area = float(part.sum()) * self._cm2_per_pixel(t)
        near = float((part & self._reach(t)).sum()) * self._cm2_per_pixel(t)
        return area <= FALL_CHANGE_MAX_CM2 and near >= 0.85 * area

    def _base_covered_off_its_way(self, t: SeatTrack) -> bool:
        """Whether the base card's place is covered at the end (changed, in the latest frame or in the median of
        the settled frames) although the way the crown was last seen going does not pass over it: a standee
        pivots on its base and lies along the way it fell, so only one fallen forward lies over its base card,
        which lies flat in front of it; one that fell any other way leaves it in view, and what covers it is
        something else (a hand reaching in over the seat)."""
        way = self._fall_way(t)
        if t.base is None or way is None:
            return False
        place = quad_mask((way.shape[0], way.shape[1]), t.base.corners, self.config.motion_scale)
        if not place.any() or float(way[place].mean()) >= 0.5 * self.config.covered_share:
            return False
        shares = [float(changed[place].mean()) for changed in (self.motion.changed_now(), self._changed_at_rest())
                  if changed is not None]
        return max(shares) >= self.config.covered_share

    def _own_part(self, t: SeatTrack, core: np.ndarray) -> np.ndarray:
        """The part of ``core`` (a low-resolution mask) that lies nearer this seat's crown or base place
        than any other seat's, together with what lies nearer a seat whose standee was not seen moving
        before anything from the border reached it: all of ``core`` but what other standees seen moving
        first explain by lying nearer them."""
        ys, xs = np.nonzero(core)
        if len(xs) == 0:
            return core
        points = np.stack([xs, ys], axis=1).astype(np.float64) * self.config.motion_scale
        seats: list[int] = []
        distances: list[np.ndarray] = []
        for seat, other in sorted(self.tracks.items()):
            marks = [m.center for m in (other.crown, other.base) if m is not None]
            if marks:
                seats.append(seat)
                distances.append(np.min([np.linalg.norm(points - m, axis=1) for m in marks], axis=0))
        nearest = np.asarray(seats)[np.argmin(np.stack(distances), axis=0)]
        explained = np.array([s != t.seat and self._went_first(self.tracks[s]) for s in nearest.tolist()], bool)
        own = core.copy()
        own[ys[explained], xs[explained]] = False
        return own

    def _went_first(self, t: SeatTrack) -> bool:
        """The crown was seen moving away from its place before any hand or arm reached its card (or
        in the same frame, tipping out of the view: ``tipped_out_of_view``; or seen falling from its place
        from that frame or before: ``_fall_began``), and was still away from it the last time it was seen."""
        if t.first_move is None or t.last_seen_shift is None or t.last_seen_shift < self.config.moved_cm:
            return False
        if t.arm_first is None or t.first_move < t.arm_first:
            return True
        began = self._fall_began(t)
        return (began is not None and began <= t.arm_first) or self.tipped_out_of_view(t)

    def _fall_began(self, t: SeatTrack) -> int | None:
        """The frame a fall seen from its start began: from its last reading at its place (within a still crown's
        jitter) on, each reading of the crown farther from its place than the one before, the last farther than a
        swing goes (``fallen_cm``); the frame after that last reading at its place. A standee tips slowly at first:
        its crown may be seen leaving its place in the frame its own change first reaches the image border, before
        it has gone a touch's worth (``SeatTrack.first_move``). None when the readings do not show such a fall."""
        jitter = 0.5 * self.config.moved_cm
        away = [(f, math.hypot(x, y)) for f, x, y in t.readings]
        at_place = [i for i, (_, d) in enumerate(away) if d < jitter]
        if not at_place:
            return None
        run = away[at_place[-1]:]
        if len(run) < 3 or run[-1][1] < self.config.fallen_cm:
            return None
        if any(b <= a for (_, a), (_, b) in zip(run, run[1:])):
            return None
        return run[0][0] + 1

    def tipped_out_of_view(self, t: SeatTrack) -> bool:
        """Whether what reached the crown card from the image border, in the very frame its crown was
        first seen moving, is the standee's own change as it tips out of the view: its crown stood within
        a standee's length of the border and was last seen going that way (the line it went along leaves
        the image within a standee's length of its place), and nothing from the border came within a
        hand's width of its card in an earlier frame. A hand reaching in over it passes through that
        margin first, or comes from the side the crown was not seen going."""
        if (t.crown is None or t.first_move is None or t.first_move != t.arm_first or t.last_seen_px is None
                or t.arm_near_since is None or t.arm_near_since < t.arm_first):
            return False
        return self._falls_to_border(t)

    def _seen_falling(self, t: SeatTrack) -> bool:
        """Whether the crown was last seen as far from its place as a fallen crown lies (``fallen_cm``): farther
        than a touched standee swings, so falling, whatever came over it from the border afterwards."""
        return t.last_seen_shift is not None and t.last_seen_shift >= self.config.fallen_cm

    def _falls_to_border(self, t: SeatTrack) -> bool:
        """Whether the standee, fallen the way its crown was last seen going, reaches the image border:
        that line leaves the image within a standee's length of its crown's place."""
        if t.crown is None or t.last_seen_px is None:
            return False
        norm = float(np.linalg.norm(t.last_seen_px))
        if norm < 1.0:
            return False
        way = t.last_seen_px / norm
        size = self.motion.size  # the frames' (width, height)
        # how far the crown's place lies from the image border along the way it went
        reach = math.inf
        for axis in (0, 1):
            if abs(way[axis]) > 1e-6:
                edge = size[axis] if way[axis] > 0 else 0.0
                reach = min(reach, (edge - float(t.crown.center[axis])) / float(way[axis]))
        return reach <= FALL_REACH_CM * self._ppc(t)

    def _reach(self, t: SeatTrack) -> np.ndarray:
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

    def _star_went_on_from(self, t: SeatTrack) -> int | None:
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
                return None if self._star_rests_where_seen() else seat
        return None

    def _star_rests_where_seen(self) -> bool:
        """Whether something star-sized (not a standee's worth: one fallen there changes as much) lies at rest within
        a star's radius and a centimetre of where the star was seen in flight: the star stopped in sight, it went on
        nowhere unseen (the latest "sighting" was something else: a standee's swing, a hand)."""
        at_rest = self._changed_at_rest()
        if at_rest is None:
            return False
        where = near_sightings(at_rest.shape, self.star_track, (STAR_RADIUS_CM + 1.0) * self.calibration.px_per_cm,
                               scale=self.config.motion_scale)
        star = self.motion.star_area
        return any(STAR_SHARE_MIN * star <= a <= STAR_WITH_SHADOW * star for a in self.motion.lying_at_rest(where))

    def _about_still_place(self, t: SeatTrack) -> tuple[float, float] | None:
        """Where the crown's readings lie in most frames (the median of them, cm off its armed place) and how far it
        was read from there in two frames or more: None unless at least ``STILL_PLACE_READINGS`` readings were taken
        and two in three of them lie within half a touch's worth of that place (the crown still in most frames)."""
        if len(t.readings) < STILL_PLACE_READINGS:
            return None
        points = np.array([(x, y) for _, x, y in t.readings], np.float64)
        place = np.median(points, axis=0)
        away = np.linalg.norm(points - place, axis=1)
        if 3 * int((away <= 0.5 * self.config.moved_cm).sum()) < 2 * len(away):
            return None
        return float(np.linalg.norm(place)), in_two_frames(float(a) for a in away)

    def standing(self, ev: SeatEvidence, t: SeatTrack) -> SeatEvidence:
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
        loose = t.registered * 2 > len(t.best_readings) or ev.shift_measured_against == "registered frame"
        if loose and not star_near and self.shuriken_seen and max(moved, final) >= cfg.moved_cm:
            # two doubts: a move only the whole frame's registration measures (a vibrating camera's frames put a
            # still crown a centimetre off), and nothing the star was seen doing near it (a star never seen in flight
            # says nothing of where it went)
            ev.outcome = Outcome.NOTHING
            ev.reason = (f"crown marker moved {max(moved, final):.2f} cm against the registered frame (its base "
                         f"marker unseen), but the shuriken never within {STAR_NEAR_CM:g} cm of it: not the "
                         f"shuriken's doing, unsure")
            ev.confidence = 0.5
            return ev
        about = self._about_still_place(t) if loose and t.confirmed < cfg.moved_cm <= moved < 2 * cfg.moved_cm else None
        if about is not None and about[1] < cfg.moved_cm:
            # the rows around the crown off its armed place alike in most frames read (a camera ringing at about a
            # multiple of the frame rate bends them the same way in every frame; the registration, through the fixed
            # markers far from those rows, does not follow): a still crown read there lies off its place in most
            # frames, and its readings about that place are what it moved
            ev.outcome = Outcome.NOTHING
            ev.reason = (f"crown marker moved {moved:.2f} cm against the registered frame (its base marker unseen), "
                         f"but in most frames it was read {about[0]:.2f} cm off its place, and never more than "
                         f"{about[1]:.2f} cm from there in two frames: the frames' rows there off, too little to "
                         f"be sure")
            ev.confidence = 0.5
            return ev
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
            # a touch's worth read only in frames whose rows around the crown a vibrating camera may have put off by
            # more than a still crown's jitter is as sure as what lies beyond that
            beyond = ev.shift_beyond_doubt_cm
            ev.confidence = float(min(0.97, 0.6 + 0.4 * (beyond - cfg.moved_cm) / cfg.moved_cm))
            if beyond < cfg.moved_cm:
                ev.reason += (f"; but only {beyond:.2f} cm beyond what the rows of the frames it was read in may be off "
                              f"(a vibrating camera): unsure")
                ev.confidence = 0.55
            elif not star_near:
                # the star never seen near it (nor last seen by the standee beside it): a hand, the measure off that much
                # in the frames it was read in (a vibrating camera's rows), or the star unseen (it turns off a standee
                # between two sightings), moves a crown so
                ev.reason += f", but the shuriken never within {STAR_NEAR_CM:g} cm of it: unsure"
                ev.confidence = min(ev.confidence, 0.55)
            elif not t.contact and beyond < TOUCH_SURE_ALONE * cfg.moved_cm:
                # the star seen near but never meeting it, and the crown's move no more than half a touch's worth
                # over a touch: two weak signs, of which a drifting or shaking camera's measure may make the second
                ev.reason += (f", but the shuriken never seen meeting it and the move less than "
                              f"{TOUCH_SURE_ALONE * cfg.moved_cm:.2f} cm: unsure")
                ev.confidence = min(ev.confidence, 0.55)
            return ev
        if final >= 2 * cfg.moved_cm:
            ev.outcome = Outcome.TOUCHED
            ev.reason = f"standee still up but pushed {final:.2f} cm from its place"
            ev.confidence = 0.7
            if not star_near:
                # never seen moving, and nothing the star did can have pushed it: a hand may have, or the frames
                # it was read in at rest be off there (a vibrating camera's rows)
                ev.reason += (f", but never seen moving and the shuriken never within {STAR_NEAR_CM:g} cm of it: "
                              f"unsure")
                ev.confidence = 0.5
            return ev
        ev.outcome = Outcome.NOTHING
        best = sorted(seen for seen, _ in t.best_readings) or [0.0]
        # frames the crown was out of sight in which a touch would not be seen: with no hand over it
        # (tilted away, or under the star), or under a hand while the star flew close
        unseen = max(t.hidden_free, t.hidden_in_flight if near is None or near < STAR_NEAR_CM else 0,
                     t.star_lost_under_arm)
        # the crown marker not decoded at the end, the star near it (lying on it): the part of its card left
        # in view then, followed back through the frames since the star came
        in_view = self._covered_readings(t) if star_near and ev.crown_seen_at_end is not True else []
        covered = self._covered_swing(in_view, t.bent)
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
            swing = self._swing(t, in_view) if near is None or near < LIGHT_TOUCH_REACH_CM else None
            alone = swing is None and in_view and (near is None or near < LIGHT_TOUCH_REACH_CM) \
                and self._swing(t) is not None
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
                if alone:
                    ev.reason += ("; its card's look swung along one line and back, but the part of its card left in "
                                  "view under the star did not follow (the card's look, matched with the star over its "
                                  "print, moved alone): no swing")
            ev.confidence = 0.55
        elif star_near and best[-1] >= cfg.moved_cm:
            # a touch's worth in one frame while the star was close, not confirmed by a second reading
            # or frame: a light touch's swing, sampled at its peak once, looks so
            ev.reason = (f"crown seen {best[-1]:.2f} cm from its place in one frame while the shuriken came close, "
                         f"in no other: unsure")
            ev.confidence = 0.55
        elif star_near and (peak := self._peak_as_star_passed(t)) is not None:
            # more than a still crown jitters in one frame, the frame the star passed within a light touch's reach
            # or the next two: a light touch's swing at 30 frames a second may show at its peak once
            ev.reason = (f"crown seen {peak[0]:.2f} cm from its place in one frame, more than a still crown's jitter "
                         f"({0.5 * cfg.moved_cm:g} cm), just after the shuriken passed {peak[1]:.0f} cm from it, in no "
                         f"other: unsure")
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
        elif t.reach_unseen >= 2:
            ev.reason = (f"crown marker unseen in {t.reach_unseen} frames while the shuriken, out of sight, could have "
                         f"flown to it and back at its speed (moved at most {moved:.2f} cm when seen): unsure")
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

    def _peak_as_star_passed(self, t: SeatTrack) -> tuple[float, float] | None:
        """The crown's farthest reading from its place (cm) and how near the star was (cm), when that reading is more
        than a still crown's jitter, in a frame whose rows are known to such a jitter (not ``SeatTrack.bent``), and
        the star was seen within ``LIGHT_TOUCH_REACH_CM`` of the crown in that frame or the two before (a standee
        rocks as the star leaves it); None otherwise."""
        known = [r for r in t.readings if r[0] not in t.bent]
        if t.crown is None or not known:
            return None
        frame, x, y = max(known, key=lambda r: math.hypot(r[1], r[2]))
        if math.hypot(x, y) < 0.5 * self.config.moved_cm:
            return None
        ppc = self.calibration.px_per_cm
        near = [float(np.linalg.norm(c - t.crown.center)) / ppc for f, centres in self.star_track
                if frame - 2 <= f <= frame for c in centres]
        nearest = min(near, default=math.inf)
        return (math.hypot(x, y), nearest) if nearest < LIGHT_TOUCH_REACH_CM else None

    def _swing(self, t: SeatTrack, in_view: list[tuple[int, float, float]] | None = None) -> tuple[float, float] | None:
        """A light touch's swing of the crown, less than a touch's worth: (how far it swung, the
        farthest it was seen off the swing's line), cm; None when the readings do not show one. A
        standee rocks in its base about an edge of its base, so a touch moves its crown along one
        line (across its card, whichever way the standee faces) and back: two readings at most two
        frames apart, the same way along the line of the farthest reading by at least a still crown's
        jitter, each more along that line than across it, in frames whose rows are known to such a
        jitter (not ``SeatTrack.bent``: a vibrating camera's bent frame puts a still crown off by more);
        still before the star came near (a frame earlier at most: the star hides the crown as it meets
        it), or before the star was first seen when it went on unseen from the standee beside, or before
        it may have met it unseen on its way from the thrower's hand (``_came_unseen``); seen back
        afterwards (within a jitter of its place, or swung the other way); and standing out of what the
        measure adds, which moves a crown's reading any way: at least twice the farthest any reading lies off that line. With
        ``in_view`` (the crown covered at the end by the star lying on it: ``_covered_readings``), two
        readings count only when the part of the card left in view followed in each frame it was read,
        at least half as far: with the star over its print, the card's look is matched on its plain
        margin and what is left of the print, and wanders along the line they hold least, a still
        crown's jitter or more, while that part, matched as it looks at the end, stays still."""
        since = t.star_came
        if since is None and self.star_track:
            since = self.star_track[0][0]
        came = self._came_unseen(t)
        if came is not None and since is not None:
            since = min(since, came)
        jitter = 0.5 * self.config.moved_cm
        if since is None or any(math.hypot(x, y) >= jitter for f, x, y in t.readings if f < since - 1):
            return None
        after = [r for r in t.readings if r[0] >= since - 1]
        known = [r for r in after if r[0] not in t.bent]
        if not known:
            return None
        _, px, py = max(known, key=lambda r: math.hypot(r[1], r[2]))
        norm = math.hypot(px, py)
        if norm < jitter:
            return None
        ux, uy = px / norm, py / norm  # the swing's line

        def on_line(r: tuple[int, float, float]) -> tuple[int, float, float]:
            return r[0], r[1] * ux + r[2] * uy, r[2] * ux - r[1] * uy  # frame, along, across

        off_line = max(abs(on_line(r)[2]) for r in t.readings)
        line = [on_line(r) for r in after]
        part = {f: math.hypot(x, y) for f, x, y in in_view or []}
        best: float | None = None
        for i, ((f1, a1, c1), (f2, a2, c2)) in enumerate(zip(line, line[1:])):
            if f2 - f1 > 2 or a1 * a2 <= 0 or min(abs(a1), abs(a2)) < jitter or {f1, f2} & t.bent:
                continue
            if any(f in part and part[f] < 0.5 * abs(a) for f, a in ((f1, a1), (f2, a2))):
                continue  # the part of the card left in view stayed: the card's look moved alone
            if abs(c1) > 0.5 * abs(a1) or abs(c2) > 0.5 * abs(a2):
                continue
            if max(abs(a1), abs(a2)) < 2 * off_line:
                continue
            if not any(math.hypot(a, c) < jitter or a * a1 < 0 for _, a, c in line[i + 2:]):
                continue
            best = max(best or 0.0, max(abs(a1), abs(a2)))
        return None if best is None else (best, off_line)

    def _came_unseen(self, t: SeatTrack) -> int | None:
        """The earliest frame the star may have met this crown unseen, when it was first seen near it flying away
        from it, its way back from its first two sightings passing within a light touch's reach
        (``LIGHT_TOUCH_REACH_CM``): from the thrower's hand to there it flew unseen (under the thrower's arm, too
        fast), and may have met this standee on the way, then turned. A star slows, never speeds up, in flight:
        at least as fast before as between those sightings, it left this crown at most as many frames before as
        that speed takes over the distance. None otherwise."""
        if len(self.star_track) < 2 or t.crown is None or t.star_came != self.star_track[0][0]:
            return None
        (f0, first), (f1, second) = self.star_track[:2]
        if not first or not second:
            return None
        a, b = nearest_pair(first, second)
        crown = np.asarray(t.crown.center, np.float64)
        step = (b - a) / (f1 - f0)  # px a frame
        speed = float(np.linalg.norm(step))
        away = float(np.linalg.norm(a - crown))
        if speed < 1e-6 or float(np.linalg.norm(b - crown)) <= away:
            return None  # still, or coming towards it: it met it after, if at all
        frames = math.ceil(away / speed)
        if segment_distance(crown, a, a - step * frames) > LIGHT_TOUCH_REACH_CM * self.calibration.px_per_cm:
            return None
        return f0 - frames

    def _covered_readings(self, t: SeatTrack) -> list[tuple[int, float, float]]:
        """Per frame kept since the star was seen (``ThrowJudge._keep_around_crowns``): where the crown was against
        where it stands at the end (cm on the crown's plane), by the part of its card and margin that
        looks at the end as when armed: what the star lying on it leaves in view. Each frame is measured
        against its base card found the same way (else its registered shift). Empty when that part is
        too small or too plain to follow."""
        if t.crown is None or t.armed_patch is None or not t.kept or self.rest_end is None:
            return []
        final = self.rest_end
        size = (final.shape[1], final.shape[0])
        half, search = covered_half(t.crown)
        box = patch_box(t.crown.center, half, size)
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
            bhalf = base_patch_half(t.base)
            bbox = patch_box(t.base.center, bhalf, size)
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

    def _covered_swing(self, readings: list[tuple[int, float, float]],
                       bent: set[int]) -> tuple[float, float, float] | None:
        """A standee rocking under the star that came to rest on its crown: (how far the part of its card
        left in view swung, the farthest it was seen off the swing's line, how far it swung back the
        other way), cm; None without one. Rocking about an edge of its base moves the crown along one
        line and back past where it comes to rest (a damped swing): two readings at most two frames
        apart a touch's worth (``moved_cm``) the same way along the line of the farthest reading, each
        more along it than across, in frames whose rows are known to a still crown's jitter (not in
        ``bent``); later, one the other way by at least a still crown's jitter; and at least twice the
        farthest any reading lies off that line. A star dropped onto a crown that did not move leaves
        that part still. ``readings``: ``_covered_readings``."""
        known = [r for r in readings if r[0] not in bent]
        if not known:
            return None
        jitter = 0.5 * self.config.moved_cm
        _, px, py = max(known, key=lambda r: math.hypot(r[1], r[2]))
        norm = math.hypot(px, py)
        if norm < self.config.moved_cm:
            return None
        ux, uy = px / norm, py / norm
        line = [(f, x * ux + y * uy, y * ux - x * uy) for f, x, y in readings]  # frame, along, across
        off_line = max(abs(c) for _, _, c in line)
        best: tuple[float, float, float] | None = None
        for i, ((f1, a1, c1), (f2, a2, c2)) in enumerate(zip(line, line[1:])):
            if f2 - f1 > 2 or a1 * a2 <= 0 or min(abs(a1), abs(a2)) < self.config.moved_cm or {f1, f2} & bent:
                continue
            if abs(c1) > 0.5 * abs(a1) or abs(c2) > 0.5 * abs(a2) or max(abs(a1), abs(a2)) < 2 * off_line:
                continue
            back = [abs(a) for _, a, c in line[i + 2:] if a * a1 < 0 and abs(a) >= jitter and abs(c) <= abs(a)]
            if back and (best is None or max(abs(a1), abs(a2)) > best[0]):
                best = (max(abs(a1), abs(a2)), off_line, max(back))
        return best


def _largest_piece(mask: np.ndarray) -> int:
    """The pixels of the largest 8-connected piece of a mask (0 when empty)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    return int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0
