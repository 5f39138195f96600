"""Seat LEDs (PWMLED, LED, RGBLED) and count LEDs on mock pins, patterns stepped by a manual clock."""

from dataclasses import replace

import pytest

from controller.devices import SeatStatus, StandeeJudge, TiltEvent, load_config
from controller.devices.clock import ManualClock
from controller.devices.lamps import PinCountLights, PinSeatLights
from controller.devices.patterns import GANG_COLOURS, PATTERNS, STATUS_COLOURS
from controller.devices.recording import RecordingCountLights, RecordingSeatLights, RecordingSpeaker
from controller.devices.simulation import ClockedMockFactory
from controller.devices.timing import Timing


def levels_over(clock: ManualClock, lamp, seconds: float, step: float = 0.01) -> list[float]:
    samples = []
    for _ in range(round(seconds / step)):
        samples.append(round(lamp.level, 3))
        clock.advance(step)
    return samples


def expected_levels(status: SeatStatus, seconds: float, step: float = 0.01) -> list[float]:
    steps = PATTERNS[status].steps
    period = sum(s for _, s in steps)
    levels = []
    for i in range(round(seconds / step)):
        t = (i * step + step / 2) % period if period != float("inf") else 0.0
        for level, duration in steps:
            if t < duration:
                levels.append(level)
                break
            t -= duration
    return levels


@pytest.mark.parametrize("status", list(SeatStatus))
def test_every_status_plays_its_pattern_on_a_pwm_led(status):
    clock = ManualClock()
    factory = ClockedMockFactory(clock)
    lights = PinSeatLights([23, 24], kind="pwm", clock=clock, pin_factory=factory)
    lights.show(1, status)
    clock.advance(0.005)  # sample mid-step
    assert lights.status(1) is status
    assert levels_over(clock, lights.lamp(1), 3.0) == expected_levels(status, 3.0)
    assert factory.pin(23).state == 0  # the other seat is untouched


def test_statuses_look_different_even_on_plain_on_off_leds():
    clock = ManualClock()
    lights = PinSeatLights([23], kind="led", clock=clock, pin_factory=ClockedMockFactory(clock))
    looks = {}
    for status in SeatStatus:
        lights.show(0, status)
        clock.advance(0.005)
        looks[status] = tuple(levels_over(clock, lights.lamp(0), 2.0))
    dark = {SeatStatus.OFF, SeatStatus.DEAD}
    assert len({looks[s] for s in SeatStatus if s not in dark}) == len(SeatStatus) - len(dark)
    assert looks[SeatStatus.OFF] == looks[SeatStatus.DEAD] == (0.0,) * 200


def test_showing_the_same_status_again_keeps_the_blink_in_phase():
    clock = ManualClock()
    factory = ClockedMockFactory(clock)
    lights = PinSeatLights([23], kind="pwm", clock=clock, pin_factory=factory)
    lights.show(0, SeatStatus.MUST_STAND_UP)
    clock.advance(0.15)
    lights.show(0, SeatStatus.MUST_STAND_UP)
    assert lights.lamp(0).level == 0.0  # still in the "off" half, not restarted


def test_rgb_seat_leds_show_the_gang_colour_in_the_share_and_status_colours_otherwise():
    clock = ManualClock()
    factory = ClockedMockFactory(clock)
    lights = PinSeatLights([(23, 24, 25)], kind="rgb", clock=clock, pin_factory=factory)
    lights.show(0, SeatStatus.IN_SHARE, gang="purple")
    assert lights.lamp(0).device.value == GANG_COLOURS["purple"]
    assert [factory.pin(p).state for p in (23, 24, 25)] == list(GANG_COLOURS["purple"])
    lights.show(0, SeatStatus.MUST_STAND_UP, gang="purple")
    assert lights.lamp(0).device.value == STATUS_COLOURS[SeatStatus.MUST_STAND_UP]
    with pytest.raises(ValueError, match="unknown gang colour 'green'"):
        lights.show(0, SeatStatus.IN_SHARE, gang="green")
    with pytest.raises(ValueError, match="seat 3 has no LED"):
        lights.show(3, SeatStatus.IN_SHARE)


def test_wrong_pin_shapes_are_named():
    clock = ManualClock()
    factory = ClockedMockFactory(clock)
    with pytest.raises(ValueError, match="an RGB LED needs three pins"):
        PinSeatLights([23], kind="rgb", clock=clock, pin_factory=factory)
    with pytest.raises(ValueError, match="unknown LED kind 'neon'"):
        PinSeatLights([23], kind="neon", clock=clock, pin_factory=factory)


def test_count_leds_light_up_to_the_count():
    clock = ManualClock()
    factory = ClockedMockFactory(clock)
    counts = PinCountLights([9, 10, 11], pin_factory=factory)
    seen = []
    for n in (0, 1, 2, 3, 0):
        counts.show(n)
        seen.append(counts.lit())
    assert seen == [[False] * 3, [True, False, False], [True, True, False], [True] * 3, [False] * 3]
    assert factory.pin(11).state == 0


class FakeHubTilt:
    """Any tilt source will do: here, events pushed by hand, as a hub would send them."""

    def __init__(self):
        self.callbacks = []

    def on_event(self, callback):
        self.callbacks.append(callback)

    def upright(self, seat):
        return True

    def send(self, event):
        for callback in self.callbacks:
            callback(event)

    def close(self):
        pass


def test_the_judge_drives_any_seat_lights_and_tilt_source():
    clock = ManualClock()
    tilt = FakeHubTilt()
    lights = RecordingSeatLights(clock=clock, seats=2)
    judge = StandeeJudge(
        tilt=tilt,
        lights=lights,
        count_lights=RecordingCountLights(clock=clock),
        speaker=RecordingSpeaker(clock=clock),
        clock=clock,
        timing=Timing(),
        seats=2,
    )
    judge.set_status(0, SeatStatus.IN_SHARE, gang="yellow")
    count = judge.withdrawal_count([0, 1])
    clock.advance_to(1.0)
    tilt.send(TiltEvent(0, False, 0.99))  # a hub's event arrives after its edge time
    clock.advance_to(count.verdict_at)
    assert count.result.withdrew == (0,)
    assert [(s.time, s.seat, s.status, s.gang) for s in lights.shown if s.seat == 0] == [
        (0.0, 0, SeatStatus.OFF, None),
        (0.0, 0, SeatStatus.IN_SHARE, "yellow"),
        (pytest.approx(0.99 + 0.075), 0, SeatStatus.WITHDREW, "yellow"),
    ]


def test_pin_lights_follow_the_judge_on_a_simulated_table():
    from controller.devices.simulation import StandeeMove
    from controller.devices.opening import open_simulated

    config = replace(load_config(), seats=2)
    devices, script = open_simulated(config)
    devices.judge.set_status(0, SeatStatus.IN_SHARE)
    devices.judge.set_status(1, SeatStatus.HIT)
    assert devices.lights.status(0) is SeatStatus.IN_SHARE
    assert devices.lights.status(1) is SeatStatus.MUST_LIE_DOWN
    script.play([StandeeMove(1.0, 1, False)], until=1.2)
    assert devices.lights.status(1) is SeatStatus.HIT
