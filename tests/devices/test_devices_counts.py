"""The "1, 2, 3" count: LEDs and speaker in order, at the configured pace."""

import pytest

from controller.devices.clock import ManualClock
from controller.devices.counts import CountSequencer
from controller.devices.recording import RecordingCountLights, RecordingSpeaker
from controller.devices.vocabulary import CLIP_KEYS


def sequencer(interval=0.8):
    clock = ManualClock(10.0)
    lights = RecordingCountLights(clock=clock)
    speaker = RecordingSpeaker(clock=clock, known=CLIP_KEYS)
    return clock, lights, speaker, CountSequencer(clock=clock, count_lights=lights, speaker=speaker, interval=interval)


def test_counts_are_given_in_order_at_the_pace():
    clock, lights, speaker, counts = sequencer()
    given = []
    run = counts.start(on_count=lambda n, t: given.append((n, t)))
    clock.advance(5.0)
    assert run.times == pytest.approx((10.0, 10.8, 11.6))
    assert given == [(1, 10.0), (2, pytest.approx(10.8)), (3, pytest.approx(11.6))]
    assert [(p.time, p.clips) for p in speaker.played] == [
        (10.0, ("number.1",)),
        (pytest.approx(10.8), ("number.2",)),
        (pytest.approx(11.6), ("number.3",)),
    ]
    assert [(c.time, c.count) for c in lights.counted] == [
        (10.0, 1),
        (pytest.approx(10.8), 2),
        (pytest.approx(11.6), 3),
        (pytest.approx(12.4), 0),
    ]


def test_nothing_is_given_before_its_time():
    clock, lights, speaker, counts = sequencer(interval=1.0)
    counts.start(at=12.0, lights_off_after_three=0.5)
    clock.advance_to(12.999)
    assert [p.clips for p in speaker.played] == [("number.1",)]
    clock.advance_to(14.0)
    assert [c.count for c in lights.counted] == [1, 2, 3]
    clock.advance_to(14.5)
    assert lights.counted[-1].count == 0 and lights.counted[-1].time == 14.5


def test_a_cancelled_count_stops():
    clock, lights, speaker, counts = sequencer()
    run = counts.start()
    clock.advance(0.9)
    run.cancel()
    clock.advance(5.0)
    assert [p.clips for p in speaker.played] == [("number.1",), ("number.2",)]
