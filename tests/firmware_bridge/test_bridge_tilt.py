"""The firmware's debouncing, the same rule as the controller's pin backend:
the first edge of a burst dates the change, the level one debounce time later
decides it.  Settling (wobbles under 60 ms) is left to the controller's judge."""

from __future__ import annotations

import pytest

DEBOUNCE = 15_000


@pytest.fixture
def seat(fw):
    levels = [True]
    reports: list[tuple[int, bool, int]] = []
    tilt = fw.tilt.Tilt(lambda: list(levels), 1, DEBOUNCE, lambda s, up, t: reports.append((s, up, t)))

    def run(script: list[tuple[int, bool]], until: int) -> list[tuple[int, bool, int]]:
        """script: (time_us, upright) level changes; sampled every 1000 us."""
        changes = dict(script)
        for t in range(0, until, 1000):
            if t in changes:
                levels[0] = changes[t]
            tilt.sample(t)
        return reports

    return run


def test_lay_down_with_chatter_reported_once_at_first_edge(seat):
    script = [(10_000, False), (12_000, True), (14_000, False), (17_000, True), (19_000, False)]
    assert seat(script, 200_000) == [(0, False, 10_000)]


def test_bounce_back_within_the_debounce_is_no_change(seat):
    assert seat([(10_000, False), (20_000, True)], 200_000) == []


def test_a_short_wobble_is_reported_for_the_judge_to_settle(seat):
    assert seat([(10_000, False), (40_000, True)], 200_000) == [(0, False, 10_000), (0, True, 40_000)]


def test_decided_one_debounce_after_the_first_edge(seat):
    assert seat([(10_000, False)], 25_000) == []
    assert seat([], 26_000) == [(0, False, 10_000)]


def test_mask_reports_the_debounced_states(fw):
    levels = [True, False, True]
    tilt = fw.tilt.Tilt(lambda: list(levels), 3, DEBOUNCE, lambda *a: None)
    assert tilt.mask() == 0b101
    levels[0] = False
    tilt.sample(0)
    assert tilt.mask() == 0b101
    tilt.sample(DEBOUNCE)
    assert tilt.mask() == 0b100
