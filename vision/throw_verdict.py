"""The Shuriken throw judge's verdict: per seat, what the camera saw and its outcome, and the
judge's settings."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Outcome(Enum):
    KNOCKED = "knocked"
    TOUCHED = "touched"
    NOTHING = "nothing"


class State(Enum):
    IDLE = "idle"  # not armed yet
    ARMED = "armed"
    MOTION = "motion"
    JUDGED = "judged"


@dataclass(frozen=True)
class JudgeConfig:
    reference_frames: int = 3
    calibration_frames: int = 15  # without a calibration, markers not found in the reference frames: looked for in
    # the median of this many first frames
    motion_scale: int = 4  # motion detection works at 1/scale of the frame size
    settle_s: float = 0.3  # this long without motion ends a throw
    timeout_s: float = 20.0  # armed this long without a throw: a miss
    max_throw_s: float = 6.0  # motion this long without settling: judged anyway, with low confidence
    arm_wait_s: float = 2.5  # a still hand or arm in view: waited for this long before judging without it
    moved_cm: float = 0.3  # crown displacement that counts as a touch: twice the largest jitter of still crowns
    fallen_cm: float = 3.0  # crown this far from its place at the end: the standee is not up any more
    turned_deg: float = 25.0
    shrunk_ratio: float = 0.6  # crown area at the end below this share of the armed one: turned away
    ask_godfather_below: float = 0.6
    final_frames: int = 3  # settled frames looked at for the final state
    fallen_area_cm2: float = 35.0  # changed table area along a standee's fall line that a fallen standee leaves
    covered_share: float = 0.25  # share of the crown card that must differ for the crown to be hidden, not unread


@dataclass
class SeatEvidence:
    """What the camera saw at one seat, for the verdict and for fusion with the tilt sensors."""

    seat: int
    outcome: Outcome = Outcome.NOTHING
    confidence: float = 1.0
    standing_when_armed: bool = True
    crown_seen_at_end: bool | None = None  # None: the seat was not looked at (nothing moved there)
    base_seen_at_end: bool | None = None  # None: not looked at, or no base marker known
    max_shift_cm: float = 0.0  # largest crown displacement seen in two or more frames (the finer measure each
    # frame), or in one frame surely: by both the decoded marker and the card's look, or the card's look as sharp as at rest
    shift_beyond_doubt_cm: float = 0.0  # the same, each frame's reading less what its rows around the crown may be off
    # beyond a still crown's jitter (a vibrating camera's bent frames)
    max_marker_shift_cm: float = 0.0  # the same, of the decoded crown marker's centre
    max_card_shift_cm: float = 0.0  # the same, of the crown card found by correlation with its look at rest
    last_seen_shift_cm: float | None = None  # the crown's displacement the last time it was seen
    final_card_shift_cm: float | None = None  # the crown card's displacement at the end, by its look
    final_shift_cm: float | None = None
    final_turn_deg: float | None = None
    shuriken_contact: bool = False  # the shuriken's blob met the standee in the image
    star_nearest_cm: float | None = None  # closest the shuriken's blob came to the crown, cm on the table
    frames_examined: int = 0
    frames_crown_hidden: int = 0
    first_change_s: float | None = None  # seconds after arming when the crown first moved or was lost
    shift_measured_against: str | None = None  # "base marker" or "registered frame" (table coordinates)
    crown_card_changed: float | None = None  # share of the crown card's place that differs at the end (the latest
    # frame or the median of the settled frames, whichever shows more)
    changed_area_cm2: float | None = None  # changed table area along the standee's fall line at the end
    arm_over_seat: bool = False  # a hand or arm covered the seat at the end
    covered_swing_cm: float | None = None  # the crown covered at the end: how far the part of its card in view swung
    reason: str = "nothing moved there"

    def as_json(self) -> dict[str, Any]:
        return {k: (v.value if isinstance(v, Outcome) else v) for k, v in self.__dict__.items()}


@dataclass
class Verdict:
    knocked: list[int]
    touched: list[int]
    seats: dict[int, SeatEvidence]
    confidence: float  # the lowest seat confidence
    needs_godfather: bool  # confidence too low: the Godfather decides
    reason: str
    shuriken_seen: bool
    frames: int

    def as_json(self) -> dict[str, list[int]]:
        """The seat lists: ``{"knocked": [...], "touched": [...]}``."""
        return {"knocked": sorted(self.knocked), "touched": sorted(self.touched)}

    def details(self) -> dict[str, Any]:
        return {**self.as_json(), "confidence": round(self.confidence, 3), "needs_godfather": self.needs_godfather,
                "reason": self.reason, "shuriken_seen": self.shuriken_seen, "frames": self.frames,
                "seats": {str(s): e.as_json() for s, e in self.seats.items()}}
