"""How the judge reads a crown in one frame: its decoded marker and its card's look, against its
base card or the registered frame, and when a reading counts."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import NamedTuple, Protocol

import numpy as np

from vision import patches
from vision.calibration import Calibration
from vision.errors import VisionError
from vision.markers import Detection, MarkerDetector
from vision.motion import MotionDetector
from vision.seat_track import JUMP_CM, SeatTrack, box_around
from vision.throw_verdict import JudgeConfig

log = logging.getLogger(__name__)


class CardMove(NamedTuple):
    """A crown card found by its look in one frame."""

    shift: float  # cm on the crown's plane
    registered: bool  # measured against the registered frame (no base card found)
    sharp: bool  # found as sharply as at rest (and the base card it is measured against too)
    px: np.ndarray  # the shift in image px
    most: bool  # three or more of its quarters found, agreeing: most of the card in view


def _armed_crown(t: SeatTrack) -> Detection:
    """The crown of a seat that was standing when armed (only those are examined)."""
    if t.crown is None:
        raise VisionError(f"seat {t.seat}: no crown marker was seen when the judge was armed")
    return t.crown


class JudgeFrame(Protocol):
    """What reading the crowns needs of the judge: its settings, the calibration, the marker detector,
    the motion found, the seats' tracks and the frame being read (its number since arming, whether the
    star was seen yet)."""

    config: JudgeConfig
    calibration: Calibration
    detector: MarkerDetector
    motion: MotionDetector
    tracks: dict[int, SeatTrack]
    _frames: int
    _shuriken_seen: bool


class CrownLooks(JudgeFrame):
    """The judge's readings of the crowns in each examined frame (``ThrowJudge`` is one), and that
    frame's registration, worked out once (``_offset``) with what was found in it."""

    _offset_frame: int
    _frame_offset: tuple[float, float]
    _frame_sure: bool
    _displaced: dict[tuple[int, int, int, int, float], tuple[np.ndarray, patches.Displacement]]

    def _crown_shift(self, t: SeatTrack, frame: np.ndarray, shift: tuple[float, float],
                     crown: Detection) -> tuple[np.ndarray, str]:
        """The crown's displacement from its armed place in cm on its own (horizontal) plane:
        against the seat's base marker when it is seen in the same frame (camera shake and drift
        move both alike), else in the frame registered to the reference."""
        moved = crown.center - _armed_crown(t).center
        against = "registered frame"
        if t.base is not None:
            box = box_around(t.base.center + np.asarray(shift, np.float32), 1.2 * t.base.side_px, (frame.shape[1], frame.shape[0]))
            base = self.detector.detect_in(frame, box, upscale=2).get(t.base.marker_id)
            if base is not None:
                return t.to_cm @ (moved - (base.center - t.base.center)), "base marker"
        return t.to_cm @ (moved - np.asarray(shift, np.float32)), against

    def _away_from_armed(self, t: SeatTrack, from_reference: np.ndarray) -> bool:
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

    def _examine(self, t: SeatTrack, frame: np.ndarray) -> None:
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
        card = None if card_move is None else card_move.shift
        if card is not None:
            t.card_shifts.append(card)
        marker_registered = False
        marker_px: np.ndarray | None = None
        if found is None:
            t.hidden += 1
            shift = None
            if card is None:  # neither decoded nor its card's look found: out of sight
                t.unseen += 1
                t.lost_frames.append(self._frames)
                t.under_arm += under_arm
                t.hidden_free += not under_arm
                # the star seen this frame far from it, and not near it for a swing's time: no touch now
                star_far = t.star_far_now and self._frames > t.watch_until
                t.hidden_in_flight += self._shuriken_seen and not star_far
            if t.lost_under_arm is None and not t.hidden_at_arm:
                t.lost_under_arm = under_arm
                if under_arm and t.card_mask is not None:
                    t.arm_entry = self.motion.arm_entry(t.card_mask)
        else:
            t.hidden_at_arm = False
            moved, against = self._crown_shift(t, frame, offset, found)
            shift = float(np.linalg.norm(moved))
            marker_px = np.linalg.solve(t.to_cm, moved) if abs(np.linalg.det(t.to_cm)) > 1e-12 else None
            marker_registered = against == "registered frame"
            t.shifts.append(shift)
            both = min(shift, card_move.shift) if card_move is not None else 0.0
            if card_move is not None and not card_move.registered and not marker_registered:
                # two readings of this frame, against the base card: what both see is as sure as a
                # shift seen in two frames (a swing the star then covers, or blurs in the next frames,
                # may show in one frame only)
                t.confirmed = max(t.confirmed, both)
            elif both >= 2 * self.config.moved_cm:
                # or against the registered frame by more than registering it can be off, when the
                # fixed markers, the base cards or the crowns vouch for its registration
                self._one_frame(t, both, card_move.px if card_move is not None else marker_px, frame)
        self._confirm_sharp(t, card_move, under_arm, frame)
        seen = card if card is not None else shift  # the card's look is the finer measure
        if seen is None:
            self._note_doubtful(t, doubtful)
        if seen is not None:
            self._note_best(t, seen)
            t.last_seen_frame = self._frames
            t.registered += card_move.registered if card_move is not None else marker_registered
            sure = shift is not None or (card_move is not None and card_move.sharp)
            # the marker decoded where its card's look is found (or alone): no likeness
            decoded = shift is not None and abs(seen - shift) <= JUMP_CM
            self._note_seen(t, seen, sure=sure, decoded=decoded,
                            px=card_move.px if card_move is not None else marker_px)
            self._note_reading(t, card_move.px if card_move is not None else marker_px)
            if seen >= self.config.moved_cm and t.first_move is None:
                t.first_move = self._frames
            if (t.arm_first is not None and t.first_move is None and not under_arm and sure
                    and seen < self.config.moved_cm):
                # the hand or arm that covered its card has gone, and it stands at its place: what
                # covers it later (or reaches it from the border) is another, and whether the
                # standee went before it is judged from then
                t.arm_first = t.arm_near_since = None
                t.lost_under_arm = None
                t.arm_entry = None
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
        found = [moved for _, moved in self._crowns_moved(frame, (float(registered[0]), float(registered[1])),
                                                           self.tracks.values())]
        if len(found) < 3:
            return None
        points = np.array(found)
        error = np.median(points, axis=0)
        agree = int((np.linalg.norm(points - error, axis=1) <= self.config.moved_cm * self.calibration.px_per_cm).sum())
        return error if agree >= 3 and 2 * agree > len(found) else None

    def _crowns_moved(self, frame: np.ndarray, offset: tuple[float, float],
                      tracks: Iterable[SeatTrack]) -> Iterator[tuple[SeatTrack, np.ndarray]]:
        """Of ``tracks``, each whose crown card's look is found in this frame, with how far (image px) it lies from its
        place at rest against ``offset``, the frame's shift."""
        for t in tracks:
            if t.crown_look is None:
                continue
            at = self._displacement(t.crown_look, frame, offset)
            if at is not None:
                yield t, np.asarray(at[0], np.float64) - np.asarray(offset, np.float64)

    def _card_under_arm(self, t: SeatTrack) -> bool:
        """Whether a hand or arm come in from the image border covers a part of the crown card's place."""
        return t.card_mask is not None and bool((self.motion.arm_mask() & t.card_mask).any())

    def _doubtful(self, t: SeatTrack, card_move: CardMove | None, under_arm: bool) -> CardMove | None:
        """The shift of a card found by its look alone while a hand or arm covers a part of its place, by
        fewer than three of its quarters (None otherwise), and either not as sharply as at rest, or as
        sharply but a touch's worth or more off its place before the star came near it: the parts of the
        card still in view may match its pattern elsewhere (a still crown under the thrower's arm was so
        found 2.8 cm off, three frames long; another, most of its card under the thrower's hand before
        the star had left it, 3.7 cm off by two quarters as sharp as at rest, in two frames: a corner of
        white border against a dark edge there looks as theirs do). Such a reading says where the crown
        may be (a standee falling under a hand), never that it moved: the frame counts as one the crown
        was out of sight. Three or more of the card's quarters found there,
        agreeing, are most of the card in view, the hand or arm beside it (or below it: the crown stands
        above the arm reaching past it): what is found is the card. A card found that sharply once the
        star came near is the card too (the blob over it may be the star's own, or an arm it
        ricocheted off)."""
        if card_move is None or not under_arm or card_move.most:
            return None
        if card_move.sharp and (t.star_came is not None or card_move.shift < self.config.moved_cm):
            return None
        return card_move

    def _note_doubtful(self, t: SeatTrack, doubtful: CardMove | None) -> None:
        if doubtful is None:
            t.pending_seen = None
            return
        self._note_seen(t, doubtful.shift, sure=False, px=doubtful.px)
        if doubtful.shift >= self.config.moved_cm and t.first_move is None:
            t.first_move = self._frames

    def _look(self, t: SeatTrack, frame: np.ndarray, *, star_passed: bool = True) -> None:
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
            if star_passed:
                t.lost_frames.append(self._frames)
            return
        t.card_shifts.append(card_move.shift)
        self._note_best(t, card_move.shift)
        t.last_seen_frame = self._frames
        t.registered += card_move.registered
        self._note_seen(t, card_move.shift, sure=card_move.sharp, px=card_move.px)
        self._note_reading(t, card_move.px)
        self._confirm_sharp(t, card_move, self._card_under_arm(t), frame)
        if card_move.shift >= self.config.moved_cm and t.first_move is None:
            t.first_move = self._frames

    def _note_reading(self, t: SeatTrack, px: np.ndarray | None) -> None:
        """This frame's crown displacement (image px), kept in cm on the crown's plane, and whether the frame's rows
        around the crown may be off by more than a still crown's jitter (``SeatTrack.bent``)."""
        if px is None:
            return
        moved = t.to_cm @ np.asarray(px, np.float64)
        t.readings.append((self._frames, float(moved[0]), float(moved[1])))
        self._note_bent(t)

    def _note_bent(self, t: SeatTrack) -> None:
        """This frame among ``SeatTrack.bent`` when its rows around the crown may be off by more than a still crown's
        jitter once registered (``_rows_doubt``)."""
        if self._beyond_jitter(self._rows_doubt(t)) > 0.0:
            t.bent.add(self._frames)

    def _beyond_jitter(self, doubt: float) -> float:
        """How far (cm) beyond a still crown's jitter, which the thresholds hold already, rows in ``doubt`` by that
        much (``_rows_doubt``) may be off; 0 when no farther."""
        return max(0.0, doubt - 0.5 * self.config.moved_cm)

    @staticmethod
    def _note_seen(t: SeatTrack, shift: float, *, sure: bool, decoded: bool = False,
                   px: np.ndarray | None = None) -> None:
        """Where the crown was last seen. A reading of the card's look alone (``decoded`` false: no marker
        decoded there) that puts the crown back more than ``JUMP_CM`` nearer its place than where it was last
        seen counts once a second one agrees with it: a fallen standee's picture lying where the card stood can
        look like a part of the card, even as sharply as the card at rest (two of its quarters), while a
        decoded marker is never a likeness. Readings moving away (a swing, a fall: several cm a frame) count
        as they come."""
        if not decoded:
            pending, t.pending_seen = t.pending_seen, shift
            if t.comes_back(shift) and (pending is None or abs(shift - pending) > JUMP_CM):
                return
        else:
            t.pending_seen = None
        t.last_seen_shift = shift
        t.last_seen_px = px
        t.last_seen_sure = sure

    def _confirm_sharp(self, t: SeatTrack, card_move: CardMove | None, under_arm: bool, frame: np.ndarray) -> None:
        """A card found as sharply as at rest, its quarters agreeing to a pixel, is the card: its shift
        in this one frame counts (against the base card, or by more than registering the whole
        frame can be off). Not while a hand or arm covers a part of its place before the star came
        near it (within ``STAR_NEAR_CM``): the part in view can match as sharply a few millimetres off
        (the thrower's hand over his own still crown, 0.33 cm in one frame, the star far away), and
        nothing had come that could move it; such a shift counts only when a second frame shows it too."""
        if under_arm and t.star_came is None:
            return
        if card_move is not None and card_move.sharp and not card_move.registered:
            t.confirmed = max(t.confirmed, card_move.shift)
        elif card_move is not None and card_move.sharp and card_move.shift >= 2 * self.config.moved_cm:
            self._one_frame(t, card_move.shift, card_move.px, frame)

    def _one_frame(self, t: SeatTrack, shift: float, px: np.ndarray | None, frame: np.ndarray) -> None:
        """A crown seen surely moved in one frame, measured against the registered frame: a touch when
        the frame's registration is vouched for at the crown's rows, else only a doubt (the frame may be
        off there, and every crown read in it with it): so too when another crown in nearly the same rows
        seems to move alike in this frame (``_rows_moved_alike``)."""
        if self._frame_sure and self._rows_sure(self._rows_doubt(t)) and not self._rows_moved_alike(t, px, frame):
            t.confirmed = max(t.confirmed, shift)
        else:
            t.unvouched = max(t.unvouched, shift)

    def _rows_moved_alike(self, t: SeatTrack, px: np.ndarray | None, frame: np.ndarray) -> bool:
        """Whether another standing crown whose rows lie within two of this crown's marker sides of its own, by its
        card's look in this frame against the registered frame, seems moved at least half as far the same way (within
        half this crown's move, image px ``px``): a vibrating camera's rolling shutter bends the frame along its rows,
        and a bend that the fixed markers, far from those rows, do not follow moves every crown there alike; no star
        moves two standees alike."""
        if px is None:
            return False
        moved = np.asarray(px, np.float64)
        size = float(np.linalg.norm(moved))
        crown = _armed_crown(t)
        rows = [other for other in self.tracks.values() if other is not t and other.crown is not None
                and abs(float(other.crown.center[1]) - float(crown.center[1])) <= 2 * crown.side_px]
        return any(float(np.linalg.norm(theirs - moved)) <= 0.5 * size and float(np.linalg.norm(theirs)) >= 0.5 * size
                   for _, theirs in self._crowns_moved(frame, self._offset(frame), rows))

    def _note_best(self, t: SeatTrack, seen: float) -> None:
        """This frame's finest reading of the crown's shift (``SeatTrack.best_readings``: a touch's worth in two
        frames is a touch). A touch's worth read where the frame's rows around the crown are not known to a
        touch's worth (``_rows_sure``) is only a doubt: a vibrating camera's bent frame, straightened by a bend the
        fixed markers far from the crown follow, can put a still crown that far off in any frame, and two such
        frames are no swing. Each reading kept is also kept less what its frame's rows may be off beyond a still
        crown's jitter: how sure a touch read in such frames is."""
        doubt = self._rows_doubt(t)
        if seen >= self.config.moved_cm and not self._rows_sure(doubt):
            t.unvouched = max(t.unvouched, seen)
        else:
            t.best_readings.append((seen, seen - self._beyond_jitter(doubt)))

    def _rows_sure(self, doubt: float) -> bool:
        """Whether rows in ``doubt`` by that much (``_rows_doubt``) are registered to a touch's worth."""
        return doubt <= self.config.moved_cm

    def _rows_doubt(self, t: SeatTrack) -> float:
        """How far (cm on the crown's plane) the rows of this frame around the crown may be off once registered: a
        frame a vibrating camera's rolling shutter bent is straightened by a bend through the fixed markers, which
        other bends may follow as well and part from between them, and fixed markers found clearly off the frame's
        shift say their rows moved otherwise (``Anchors.row_doubt``)."""
        anchors = self.motion.anchors
        if anchors is None:
            return 0.0
        doubt = anchors.row_doubt(int(round(float(_armed_crown(t).center[1]) + float(self.motion.shift[1]))))
        return t.most_cm_per_px * doubt

    def _card_move(self, t: SeatTrack, frame: np.ndarray, offset: tuple[float, float],
                   min_score: float = patches.MIN_SCORE) -> CardMove | None:
        """The crown card's displacement found by correlating its look at rest, against the base card
        found the same way (else the registered frame), as a ``CardMove``; None if unseen."""
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
        return CardMove(float(np.linalg.norm(t.to_cm @ moved)), base is None, sharp, np.asarray(moved, np.float64),
                        crown[1] >= 3)
