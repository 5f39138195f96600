"""The judge on a tilt source that cannot read a seat at first, and on the sensor hub's simulator."""

import threading
from dataclasses import replace

import pytest

from controller.devices import SeatStatus, StandeeJudge, TiltEvent, load_config, open_devices
from controller.devices.clock import ManualClock
from controller.devices.judge import POLL_UNKNOWN
from controller.devices.recording import RecordingCountLights, RecordingSeatLights, RecordingSpeaker
from controller.devices.timing import Timing


class LateTilt:
    """A source that knows nothing until it 'connects', like a hub still opening its port."""

    def __init__(self):
        self.state = None
        self.callbacks = []

    def on_event(self, callback):
        self.callbacks.append(callback)

    def upright(self, seat):
        return self.state

    def close(self):
        pass


def judge_on(tilt, clock):
    return StandeeJudge(
        tilt=tilt,
        lights=RecordingSeatLights(clock=clock, seats=2),
        count_lights=RecordingCountLights(clock=clock),
        speaker=RecordingSpeaker(clock=clock),
        clock=clock,
        timing=Timing(),
        seats=2,
    )


def test_seats_the_source_cannot_read_yet_are_asked_again():
    clock, tilt = ManualClock(), LateTilt()
    judge = judge_on(tilt, clock)
    judge.set_status(0, SeatStatus.IN_SHARE)
    assert judge.upright(0) is None and judge.pending() == {0: SeatStatus.MUST_STAND_UP}
    tilt.state = True  # connected: every standee reads upright
    clock.advance(POLL_UNKNOWN)
    assert judge.upright(0) is True and judge.pending() == {}


def test_a_first_event_settles_an_unknown_seat():
    clock, tilt = ManualClock(), LateTilt()
    judge = judge_on(tilt, clock)
    clock.advance(0.01)
    for callback in tilt.callbacks:
        callback(TiltEvent(1, True, 0.01))
    clock.advance(0.1)
    assert judge.upright(1) is True


def test_the_sensor_hub_plugs_in_through_the_configuration():
    sim_module = pytest.importorskip("firmware_bridge.sim")
    with sim_module.SimHub(transport="sim", seed=1, debounce_us=1000) as sim:
        config = load_config()
        config = replace(config, backend="hub", hub_url=sim.url, sound=replace(config.sound, output="none"))
        with open_devices(config) as devices:
            changed = threading.Event()
            devices.judge.on_change(lambda event: changed.set() if not event.up else None)
            devices.judge.set_status(0, SeatStatus.IN_SHARE)
            connected = threading.Event()
            devices.judge.when_ready(connected.set)  # seat 0 reads upright once the hub answers
            assert connected.wait(10), "the hub simulator never connected"
            sim.stand(0, False)
            assert changed.wait(10), "no lay-down came through the hub"
            assert devices.judge.upright(0) is False
            assert devices.judge.shown(0) is SeatStatus.MUST_STAND_UP
