"""The aim reader: lines of fire on the table plane, in time or late, and seats it asks about."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision import aim_evaluation, aim_synth
from vision.aims import AimConfig, line_target

TUNING_SEEDS = range(100, 104)  # a few clips of the set the thresholds were tuned on
HELD_OUT_SEED = 9_000_000  # the never-tuned set's seeds start here (see bench/bench_aims.py)


def specs(seeds, **overrides):
    return [aim_synth.random_spec(seed, fps=30, **overrides) for seed in seeds]


def test_the_closest_standee_to_the_line_is_the_target():
    standees = {0: np.array([0.0, -25.0]), 1: np.array([25.0, 0.0]), 2: np.array([0.0, 25.0]),
                3: np.array([-25.0, 0.0])}
    foot = np.array([0.0, -32.0])
    target, margin = line_target(foot, math.radians(90), standees, shooter=0)
    assert target == 2 and margin > 30
    target, _ = line_target(foot, math.atan2(32.0, 25.0), standees, shooter=0)
    assert target == 1
    # behind the weapon: not a target, however close to the line's extension
    target, _ = line_target(np.array([0.0, 0.0]), math.radians(-90), {1: np.array([0.0, 20.0]),
                                                                     2: np.array([30.0, -30.0])}, shooter=0)
    assert target == 2


def test_the_truth_follows_the_spec_definition():
    spec = aim_synth.random_spec(5, fps=30)
    standees = aim_synth.standee_positions(spec)
    for plan in spec.weapons:
        if plan.target is None:
            continue
        foot = np.array(plan.foot)
        to = standees[plan.target] - foot
        direction = math.atan2(to[1], to[0]) + math.radians(plan.aim_error_deg)
        assert aim_synth.true_target(foot, direction, standees, plan.seat)[0] == plan.target


def test_a_small_seeded_set_is_read_right_and_never_wrong_without_asking():
    report = aim_evaluation.evaluate(specs(TUNING_SEEDS))
    total = report.total
    assert total.clips == len(TUNING_SEEDS) and total.aims >= 20 and total.clips_unread == 0
    assert total.wrong_unasked == 0, report.failures
    assert total.right_sure >= 0.7 * total.aims, report.as_json()["total"]


def test_every_behaviour_is_drawn():
    behaviours = {w.behaviour for spec in aim_synth.clip_set(40, seed=3) for w in spec.weapons}
    assert behaviours >= {"in_time", "late", "switch", "hidden_arm", "never_hidden", "never_waving"}


def test_a_late_pointer_is_late_and_a_hidden_weapon_asks():
    spec = aim_synth.random_spec(41, fps=30, seats=6, behaviours=["late", "in_time", "never_hidden", "in_time",
                                                                  "in_time", "in_time"])
    report = aim_evaluation.evaluate([spec])
    assert report.total.clips_unread == 0, report.failures
    behaviours = report.by_behaviour
    assert behaviours["late"].late_right == 1 or behaviours["late"].asked == 1
    assert behaviours["never_hidden"].asked == 1
    assert report.total.wrong_unasked == 0, report.failures


@pytest.mark.slow
def test_the_never_tuned_set_is_right_and_never_wrong_without_asking():
    report = aim_evaluation.evaluate(specs(range(HELD_OUT_SEED, HELD_OUT_SEED + 24)), AimConfig())
    total = report.total
    assert total.wrong_unasked == 0, report.failures
    assert total.false_late == 0
    assert total.right >= 0.85 * total.aims, report.as_json()["total"]


def test_a_weapon_at_rest_before_the_three_keeps_its_aim_under_an_arm():
    """Covered at the deadline but at rest on its target from before the "3" and not seen moving after:
    the aim is kept (sure), and no clip of a few makes it wrong."""
    kept = 0
    for seed in range(7_100_000, 7_100_002):
        spec = aim_synth.random_spec(seed, fps=30, seats=5, behaviours=["hidden_arm", "in_time", "in_time",
                                                                         "in_time", "in_time"])
        report = aim_evaluation.evaluate([spec])
        assert report.total.wrong_unasked == 0, report.failures
        kept += report.by_behaviour["hidden_arm"].right_sure
    assert kept >= 1


def test_a_late_pointer_first_seen_at_rest_is_late_when_its_place_was_bare_at_the_deadline():
    late_sure = 0
    for seed in range(7_200_000, 7_200_002):
        spec = aim_synth.random_spec(seed, fps=30, seats=5, behaviours=["late", "in_time", "late", "in_time",
                                                                         "in_time"])
        report = aim_evaluation.evaluate([spec])
        assert report.total.wrong_unasked == 0 and report.total.false_late == 0, report.failures
        late_sure += report.by_behaviour["late"].right_sure
    assert late_sure >= 1
