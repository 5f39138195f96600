"""A seat the shuriken passed close to, whose crown the camera could not follow well, makes the
verdict ask the Godfather instead of reporting "nothing" with confidence."""

import numpy as np
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



def _stub(monkeypatch, judge, *, decoded=False, card=None, arm=None, changed=None):
    """The judge's readings stubbed: the crown marker decoded or not, the card's look found as
    ``card`` ((shift cm, against the registered frame, as sharp as at rest) or None), a hand or arm
    over ``arm`` and what changed at the end (low-resolution masks; None: nothing)."""
    shape = judge.motion.changed_now().shape
    if not decoded:
        monkeypatch.setattr(judge.detector, "detect_in", lambda *a, **k: {})
        monkeypatch.setattr(judge, "_find", lambda *a, **k: None)
    monkeypatch.setattr(judge, "_card_move", lambda *a, **k: card)
    monkeypatch.setattr(judge.motion, "arm_mask", lambda: np.zeros(shape, bool) if arm is None else arm)
    monkeypatch.setattr(judge.motion, "changed_now", lambda: np.zeros(shape, bool) if changed is None else changed)


def test_a_weak_likeness_of_a_card_under_a_hand_is_no_move(armed, monkeypatch):
    """A still crown under the thrower's arm: the parts of its card still in view matched its
    pattern 2.8 cm off, frame after frame. Such readings say where the crown may be (a standee
    falling under a hand), never that it moved: the frames count as out of sight."""
    judge, seat = armed
    t = judge.tracks[seat]
    t.reset()
    _stub(monkeypatch, judge, card=(2.8, True, False), arm=t.card_mask.copy())  # weak: not as sharp as at rest
    frame = np.zeros(judge._shape, np.uint8)
    for _ in range(3):
        judge._examine(t, frame)
    judge._look(t, frame)
    assert t.best_shifts == [] and t.card_shifts == [] and t.unseen == 3 and t.under_arm == 3
    assert t.last_seen_shift == pytest.approx(2.8) and t.first_move is not None
    monkeypatch.undo()  # the hand gone, the crown found at its place at the end
    ev = judge._seat_evidence(t)
    assert ev.crown_seen_at_end and ev.outcome is Outcome.NOTHING and ev.max_shift_cm < 0.1
    # the same card found as sharply as at rest under the hand: the card itself, moved
    t.reset()
    _stub(monkeypatch, judge, card=(0.9, False, True), arm=t.card_mask.copy())
    for _ in range(2):
        judge._examine(t, frame)
    monkeypatch.undo()
    assert judge._seat_evidence(t).outcome is Outcome.TOUCHED


def test_a_crown_last_seen_away_and_not_found_at_its_unchanged_place_asks(armed, monkeypatch):
    """A dim room: a standee fell, its crown last seen 3.3 cm from its place, and at the end
    neither its marker nor its card's look is found, while its card's place changed too little to
    show. Not found where it stood is not "up and covered": the Godfather looks."""
    judge, seat = armed
    t = judge.tracks[seat]
    t.reset()
    t.examined, t.first_move = 6, 3
    ThrowJudge._note_seen(t, 0.7, sure=True)
    ThrowJudge._note_seen(t, 3.3, sure=False)
    t.best_shifts[:] = [0.7, 3.3]
    _stub(monkeypatch, judge)
    ev = judge._seat_evidence(t)
    assert ev.crown_seen_at_end is False and ev.crown_card_changed == 0.0
    assert ev.outcome is not Outcome.KNOCKED and ev.confidence < JudgeConfig().ask_godfather_below
    assert "never back" in ev.reason


def test_a_crown_seen_back_by_a_weak_likeness_only_over_a_fall_asks(armed, monkeypatch):
    """A fallen standee's picture lying still where its crown card stood matched a part of the card
    in two frames in a row: "seen back at its place, then covered" rests on that alone while a
    fall's worth of table changed. Seen back surely (decoded, or as sharp as at rest), it is up."""
    judge, seat = armed
    t = judge.tracks[seat]
    changed = t.card_mask | t.fall_mask  # the card's place and the whole strip along its fall line
    for sure, asks in ((False, True), (True, False)):
        t.reset()
        t.examined, t.first_move = 6, 2
        ThrowJudge._note_seen(t, 3.4, sure=True)
        ThrowJudge._note_seen(t, 0.2, sure=sure)
        if not sure:
            ThrowJudge._note_seen(t, 0.2, sure=False)  # a second weak reading agrees
        assert t.last_seen_shift == pytest.approx(0.2)
        t.best_shifts[:] = [3.3, 3.4, 0.2]  # a swing (or a fall) seen in two frames
        _stub(monkeypatch, judge, changed=changed)
        ev = judge._seat_evidence(t)
        monkeypatch.undo()
        assert ev.outcome is Outcome.TOUCHED and ev.changed_area_cm2 >= JudgeConfig().fallen_area_cm2
        assert (ev.confidence < JudgeConfig().ask_godfather_below) is asks, ev.reason


def test_the_star_s_unseen_path_past_a_crown_not_seen_either_asks(armed):
    """The star is out of sight for a few frames (a dim room, a star of the table's colour) and
    seen again on the far side of a standee whose crown nothing showed moving: its path between
    the two sightings passed within a star's reach of the crown, so a touch may have gone unseen."""

    judge, seat = armed
    t = judge.tracks[seat]
    t.reset()
    ppc = judge.calibration.px_per_cm
    centre = t.crown.center.astype(np.float64)
    judge._shuriken_seen = True
    judge._frames = 10
    judge._star_track = [(10, [centre + np.array([-8.0, -1.0]) * ppc])]  # 8 cm before the crown
    judge._frames = 14  # three frames without it
    after = centre + np.array([9.0, 1.0]) * ppc
    judge._star_back([np.array((float(after[0]), float(after[1])))])
    assert t.passed_unseen_cm is not None and t.passed_unseen_cm < 1.0
    ev = judge._seat_evidence(t)
    assert ev.outcome is Outcome.NOTHING and ev.confidence < JudgeConfig().ask_godfather_below
    assert "out of sight" in ev.reason
    t.last_seen_frame = 14  # seen as the star came back (still): a swing started unseen would show
    assert judge._seat_evidence(t).confidence >= JudgeConfig().ask_godfather_below
    t.last_seen_frame = -1
    # the crown seen in those frames (still): the path says nothing more
    t.reset()
    t.last_seen_frame = 12
    judge._star_back([np.array((float(after[0]), float(after[1])))])
    assert t.passed_unseen_cm is None
    judge._shuriken_seen, judge._star_track, judge._frames = False, [], 0
