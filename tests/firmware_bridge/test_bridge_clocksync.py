"""Clock sync: widening the 32-bit stamps, and the fit under delivery jitter."""

from __future__ import annotations

import random

import pytest

from firmware_bridge.clocksync import WRAP, ClockSync


def test_widen_across_the_wrap_and_back():
    sync = ClockSync()
    assert sync.widen(WRAP - 10) == WRAP - 10
    assert sync.widen(5) == WRAP + 5
    assert sync.widen(WRAP - 20) == WRAP - 20  # an older, queued stamp
    assert sync.widen(100) == WRAP + 100


def test_mapping_needs_a_sample():
    with pytest.raises(RuntimeError, match="no clock sample"):
        ClockSync().to_host(0)


@pytest.mark.parametrize("drift_ppm", [-80.0, 0.0, 50.0])
def test_fit_under_0_to_5_ms_jitter_each_way(drift_ppm):
    """Queries every 100 ms; each way delayed 0.2 ms + uniform 0..5 ms."""
    rng = random.Random(int(drift_ppm))
    rate = 1e6 * (1 + drift_ppm * 1e-6)
    start = WRAP - 4_000_000  # wraps during the run
    host0 = 1000.0
    sync = ClockSync()
    errors = []
    for i in range(300):
        sent = host0 + i * 0.1
        at_hub = sent + 0.0002 + rng.uniform(0, 0.005)
        received = at_hub + 0.0002 + rng.uniform(0, 0.005)
        sync.add_sample(sent, received, int(start + (at_hub - host0) * rate) % WRAP)
        if i >= 20:  # an event at a random time since the last query
            true = sent + rng.uniform(0, 0.1)
            errors.append(abs(sync.to_host(int(start + (true - host0) * rate) % WRAP) - true))
    errors.sort()
    assert errors[int(len(errors) * 0.99)] < 0.001
