"""A seat the shuriken passed close to, whose crown the camera could not follow well, makes the
verdict ask the Godfather instead of reporting "nothing" with confidence."""

import pytest

from vision import synth
from vision.calibration import calibrate
from vision.synth import Scenario
from vision.throws import JudgeConfig, Outcome, ThrowJudge

CLEAN = dict(light=0.9, noise_sigma=2.0, jpeg_quality=85, fps=30, blur_sigma=0.6, print_black=10, print_white=235,
             tilt_deg=5.0, lens_k1=0.03)


@pytest.fixture(scope="module")
def armed():
    spec = synth.random_spec(5, scenario=Scenario.MISS, **CLEAN)
    frames = list(synth.render_clip(spec).frames())[:JudgeConfig().reference_frames]
    judge = ThrowJudge(calibrate(frames, spec.seats, setup=False), seats=spec.seats, thrower=spec.thrower,
                       fps=spec.fps)
    judge.arm(frames)
    seat = next(s for s, t in judge.tracks.items() if t.crown is not None and s != spec.thrower)
    return judge, seat


def _evidence(judge, seat, *, shifts, star_cm, hidden_in_flight=0):
    t = judge.tracks[seat]
    t.reset()
    t.shifts[:] = shifts
    t.best_shifts[:] = shifts  # the finer of the marker's and the card's measures, per frame
    t.examined = len(shifts) + hidden_in_flight
    t.hidden = t.hidden_in_flight = t.unseen = hidden_in_flight
    t.star_nearest_px = None if star_cm is None else star_cm * judge.calibration.px_per_cm
    return judge._seat_evidence(t)


def test_crown_shift_between_jitter_and_touch_near_the_star_asks(armed):
    judge, seat = armed
    ev = _evidence(judge, seat, shifts=[0.22, 0.22, 0.05], star_cm=6.0)
    assert ev.outcome is Outcome.NOTHING and ev.confidence < JudgeConfig().ask_godfather_below
    assert "unsure" in ev.reason and ev.star_nearest_cm == pytest.approx(6.0, abs=0.1)


def test_same_shift_far_from_the_star_is_jitter(armed):
    judge, seat = armed
    ev = _evidence(judge, seat, shifts=[0.22, 0.22, 0.05], star_cm=60.0)
    assert ev.outcome is Outcome.NOTHING and ev.confidence >= JudgeConfig().ask_godfather_below


def test_crown_out_of_sight_while_the_star_flew_close_asks(armed):
    judge, seat = armed
    ev = _evidence(judge, seat, shifts=[0.02, 0.03], star_cm=9.0, hidden_in_flight=4)
    assert ev.outcome is Outcome.NOTHING and ev.confidence < JudgeConfig().ask_godfather_below
    assert "a touch would not be seen" in ev.reason


def test_still_crown_seen_throughout_is_sure(armed):
    judge, seat = armed
    ev = _evidence(judge, seat, shifts=[0.02, 0.03, 0.01], star_cm=9.0)
    assert ev.outcome is Outcome.NOTHING and ev.confidence >= 0.9


def test_a_swing_both_readings_saw_in_one_frame_is_a_touch(armed):
    """The star covers the crown right after touching it: the swing shows in one frame only, but
    the decoded marker and the card's look both measured it there."""
    judge, seat = armed
    t = judge.tracks[seat]
    ev = _evidence(judge, seat, shifts=[0.02, 0.9], star_cm=1.0, hidden_in_flight=5)
    assert ev.outcome is Outcome.NOTHING  # one frame of one reading: not enough
    t.confirmed = 0.9
    ev = judge._seat_evidence(t)
    assert ev.outcome is Outcome.TOUCHED and ev.max_shift_cm == pytest.approx(0.9)
