"""Throws of the independent renderer (bench/independent_clips.py, development seeds) once judged wrong, rendered
here and judged as a user's clip would be: a star that missed and came to rest on a standee's crown, nothing moved;
a hand gone before the standee fell; standees seen falling as a trace from the border met them."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.motion import MotionDetector
from vision.throws import judge_clip

BENCH = Path(__file__).resolve().parents[2] / "bench" / "independent_clips.py"
_spec = importlib.util.spec_from_file_location("independent_clips", BENCH)
assert _spec and _spec.loader
ic = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("independent_clips", ic)
_spec.loader.exec_module(ic)


def judged(seed: int, hard: bool, tmp_path: Path):
    scene = ic.make_scene("throw", seed, hard)
    assert scene.truth["outcome"] == "miss_crown" and scene.truth["knocked"] == scene.truth["touched"] == []
    return scene, judge_clip(ic.write_clip(scene, tmp_path / f"throw-{seed}"))


@pytest.mark.slow
def test_a_star_lying_still_on_a_crown_in_a_dim_room_is_no_light_touch(tmp_path):
    """840035 (dim and noisy, auto-exposure, a drift on a 2 px shake): the star lies on seat 0's crown. With the
    star over its print, the crown card's look is matched on its margin and what is left of the print and wanders
    0.2 cm along one line, there and back, as a light touch's swing would; the part of the card left in view,
    followed as it looks at the end, stays within 0.01 cm. Not a touch."""
    scene, verdict = judged(840035, True, tmp_path)
    assert "dim" in scene.truth["conditions"]
    seat = verdict.seats[0]
    assert seat.outcome.value == "nothing", seat.reason
    assert "did not follow" in seat.reason
    assert verdict.knocked == [] and verdict.touched == []


@pytest.mark.slow
def test_the_shadow_of_a_star_lying_on_a_crown_is_no_fallen_standee(tmp_path):
    """920012 (clean): the star lies on seat 3's crown, never seen moving; raised there, it casts a soft shadow on
    the table beside the standee, within its fall strip, and the star and its shadow change a fallen standee's
    worth of table in the median of the settled frames. The shadow keeps the table's colour: still up, asking."""
    _, verdict = judged(920012, False, tmp_path)
    seat = verdict.seats[3]
    assert seat.outcome.value == "nothing", seat.reason
    assert "the shadow of a star" in seat.reason and seat.confidence <= 0.5
    assert verdict.knocked == [] and verdict.touched == []


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize("seed, seats, knocked, touched", [(920001, 9, 6, [5]), (920046, 6, 4, [])])
def test_a_standee_seen_falling_from_its_place_went_first_though_its_change_met_a_trace_from_the_border(
        tmp_path, seed, seats, knocked, touched):
    """920001 and 920046 (clean, no hand): the star knocks a standee over; its crown, at its place, is then seen
    going steadily farther in each frame, past where a swing would take it (5.8 and 4.1 cm), while the arm trace
    from the image border (the thrower's arm, the fallen standee's own change reaching the border) first meets its
    card in the frame the crown starts going, or the frame before it has gone a touch's worth. The standee went
    first: no hand covers it, knocked."""
    scene = ic.make_scene("throw", seed, False)
    assert scene.truth["knocked"] == [knocked] and scene.truth["touched"] == touched
    assert "clean" in scene.truth["conditions"] and f"{seats}-seats" in scene.truth["conditions"]
    verdict = judge_clip(ic.write_clip(scene, tmp_path / f"throw-{seed}"))
    seat = verdict.seats[knocked]
    assert seat.outcome.value == "knocked", seat.reason
    assert not seat.arm_over_seat
    assert verdict.knocked == [knocked] and verdict.touched == touched


def test_a_shadow_darkens_every_colour_alike_and_a_thing_lying_there_does_not():
    rng = np.random.default_rng(0)
    table = np.clip(rng.normal((60, 110, 80), 2, (480, 640, 3)), 0, 255).astype(np.uint8)
    motion = MotionDetector(px_per_cm=5.0, fps=60)
    motion.set_reference([table, table, table])
    frame = table.copy()
    frame[100:180, 100:180] = (frame[100:180, 100:180] * 0.6).astype(np.uint8)  # in shadow
    frame[300:380, 300:380] = (40, 40, 150)  # a red card lying there, as dark
    frame[300:380, 100:180] = (frame[300:380, 100:180] * 0.95).astype(np.uint8)  # hardly darker
    motion.update(frame)
    shadow = motion.shadowed()
    assert shadow is not None
    s = motion.scale
    assert shadow[110 // s:170 // s, 110 // s:170 // s].all()
    assert not shadow[310 // s:370 // s, 310 // s:370 // s].any()
    assert not shadow[310 // s:370 // s, 110 // s:170 // s].any()
    assert not shadow[0:80 // s, 0:80 // s].any()
