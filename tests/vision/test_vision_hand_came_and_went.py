"""A hand that reached over a seat and went away before the throw, then the standee knocked over towards the image
border: a clip of the independent renderer (bench/independent_clips.py, a development seed), rendered here and
judged as a user's clip would be."""

import importlib.util
import sys
from pathlib import Path

from vision.throws import judge_clip

BENCH = Path(__file__).resolve().parents[2] / "bench" / "independent_clips.py"
_spec = importlib.util.spec_from_file_location("independent_clips", BENCH)
assert _spec and _spec.loader
ic = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("independent_clips", ic)
_spec.loader.exec_module(ic)


def test_a_hand_gone_before_the_standee_fell_is_not_what_covers_it_at_the_end(tmp_path):
    """820008 (blurred and shaken, a drift on a 2 px shake): another player's hand reaches over seat 2's card and
    goes while the thrower winds up; the star then knocks seat 2's standee over, and it lies reaching the image
    border, a change from the border over its card as a hand's would be. Its crown was seen at its place after the
    hand went and seen moving before the fallen standee's change reached its card: the standee went first, not
    covered by a hand; knocked."""
    scene = ic.make_scene("throw", 820008, True)
    assert scene.truth["knocked"] == [2] and "hand-over-seat" in scene.truth["conditions"]
    verdict = judge_clip(ic.write_clip(scene, tmp_path / "throw-820008"))
    seat = verdict.seats[2]
    assert seat.outcome.value == "knocked", seat.reason
    assert not seat.arm_over_seat
    assert verdict.knocked == [2] and verdict.touched == []
