"""The judge on a seeded set of synthetic clips across every variation (see vision/synth.py)."""

import os

import pytest

from vision import evaluation, synth

CLIPS = 210
SEED = 7


@pytest.fixture(scope="module")
def results():
    specs = synth.clip_set(CLIPS, seed=SEED)
    return list(evaluation.judge_specs(specs, workers=min(2, os.cpu_count() or 1)))


def test_at_least_99_percent_of_clips_exactly_right(results):
    wrong = [(r.seed, r.truth, r.verdict, r.reason) for r in results if not r.correct]
    assert len(results) == CLIPS
    assert len(wrong) <= CLIPS // 100, wrong


def test_no_knocked_when_nothing_was_hit(results):
    misses = [r for r in results if not r.truth["knocked"] and not r.truth["touched"]]
    assert len(misses) >= 80
    assert [r.seed for r in misses if r.verdict["knocked"]] == []


def test_every_variation_is_in_the_set(results):
    table = evaluation.accuracy_by_tag(results)
    for tag in ("scenario:knock", "scenario:touch", "scenario:multi", "scenario:miss", "scenario:near_miss",
                "hand:before", "hand:thrower_arm", "hand:after", "light:dim", "noise:high", "jpeg:low",
                "lens:barrel", "tilt:strong", "camera:high", "camera:low", "fps:60", "seats:6", "seats:9"):
        assert table[tag][1] >= 10, tag
