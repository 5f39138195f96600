"""The judge on a tilt source that cannot read a seat at first, and on the sensor hub's simulator."""

import threading
from dataclasses import replace

import pytest

from controller.devices import (
    SeatStatus,
    StandeeJudge,
    TiltEvent,
    load_config,
    open_devices,
)
from controller.devices.clock import ManualClock
from controller.devices.judge import POLL_UNKNOWN
from controller.devices.recording import (
    RecordingCountLights,
    RecordingSeatLights,
    RecordingSpeaker,
)
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


def test_the_bridges_errors_reach_the_controller_as_its_hub_error(monkeypatch):
    """The bridge knows nothing of the controller; its adapter turns BridgeError into controller.errors.HubError."""
    from controller.devices import hub_backend
    from controller.errors import CashNGunsError, HubError
    from firmware_bridge.errors import BridgeError
    from firmware_bridge.errors import HubError as BridgeHubError

    def refuse(*args, **kwargs):
        raise BridgeHubError("the hub at /dev/ttyACM0 speaks protocol 2")

    monkeypatch.setattr(hub_backend, "HubDriver", refuse)
    with pytest.raises(HubError, match="hub at /dev/ttyACM0: the hub at /dev/ttyACM0 speaks protocol 2") as caught:
        hub_backend.HubBackend("/dev/ttyACM0", seats=6)
    assert isinstance(caught.value, CashNGunsError) and isinstance(caught.value.__cause__, BridgeError)


def test_a_hub_backend_that_cannot_be_loaded_is_one_line(monkeypatch):
    import sys

    from controller.errors import HubError

    monkeypatch.setitem(sys.modules, "controller.devices.hub_backend", None)  # as without pyserial
    config = replace(load_config(), backend="hub", seats=6, sound=replace(load_config().sound, output="none"))
    with pytest.raises(HubError, match="the hub backend cannot be loaded") as caught:
        open_devices(config, clock=ManualClock())
    assert "\n" not in str(caught.value)


def test_the_bridge_does_not_import_the_controller():
    import subprocess
    import sys

    code = (
        "import sys, firmware_bridge.driver, firmware_bridge.sim, firmware_bridge.__main__\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'controller'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
