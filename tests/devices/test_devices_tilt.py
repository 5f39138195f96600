"""Tilt sensors on mock pins: pull-up wiring, debouncing on the clock, backend edge times."""

import threading

import pytest
from gpiozero.pins.mock import MockFactory

from controller.devices.clock import ManualClock, MonotonicClock
from controller.devices.simulation import ClockedMockFactory, ScriptedTable, StandeeMove
from controller.devices.tilt import PinTiltSensors

DEBOUNCE = 0.015


def sensors(pins=(4, 17)):
    clock = ManualClock()
    factory = ClockedMockFactory(clock)
    tilt = PinTiltSensors(list(pins), clock=clock, debounce=DEBOUNCE, pin_factory=factory)
    events = []
    tilt.on_event(events.append)
    return clock, factory, tilt, events


def test_an_upright_standee_pulls_the_input_low():
    clock, factory, tilt, events = sensors()
    assert factory.pin(4).pull == "up"
    assert tilt.upright(0) is False  # nothing closes the switch: the pull-up reads high
    factory.pin(4).drive_low()
    clock.advance(DEBOUNCE)
    assert tilt.upright(0) is True
    assert [(e.seat, e.up, e.time) for e in events] == [(0, True, 0.0)]
    assert tilt.upright(5) is None


def test_a_bouncing_change_gives_one_event_dated_by_its_first_edge():
    clock, factory, tilt, events = sensors()
    table = ScriptedTable(factory, [4, 17])
    table.play([StandeeMove(1.0, 1, True, bounce=6, bounce_gap=0.002)], until=2.0)
    assert [(e.seat, e.up, e.time) for e in events] == [(1, True, 1.0)]


def test_a_glitch_shorter_than_the_debounce_gives_no_event():
    clock, factory, tilt, events = sensors()
    table = ScriptedTable(factory, [4, 17])
    table.play([StandeeMove(1.0, 0, True), StandeeMove(1.005, 0, False)], until=2.0)
    assert events == []


def test_the_state_read_after_the_debounce_decides():
    clock, factory, tilt, events = sensors()
    table = ScriptedTable(factory, [4, 17])
    table.play([StandeeMove(1.0, 0, True), StandeeMove(1.1, 0, False), StandeeMove(1.105, 0, True)], until=2.0)
    assert [(e.up, e.time) for e in events] == [(True, 1.0)]  # the second burst ended where it began


def test_edges_from_a_backend_with_its_own_ticks_are_mapped_onto_the_clock():
    clock = ManualClock(500.0)
    factory = MockFactory()  # ticks are time.monotonic(), unrelated to the controller clock
    try:
        tilt = PinTiltSensors([4], clock=clock, debounce=DEBOUNCE, pin_factory=factory)
        events = []
        tilt.on_event(events.append)
        factory.pin(4).drive_low()
        clock.advance(DEBOUNCE)
        assert events[0].up and events[0].time == pytest.approx(500.0, abs=0.01)
    finally:
        factory.close()


def test_real_clock_timers_run_on_their_own():
    clock = MonotonicClock()
    try:
        factory = ClockedMockFactory(clock)
        tilt = PinTiltSensors([4], clock=clock, debounce=0.001, pin_factory=factory)
        got = threading.Event()
        tilt.on_event(lambda event: got.set())
        factory.pin(4).drive_low()
        assert got.wait(2.0)
    finally:
        clock.close()


def test_closing_releases_the_pins():
    clock, factory, tilt, events = sensors()
    tilt.close()
    PinTiltSensors([4, 17], clock=clock, debounce=DEBOUNCE, pin_factory=factory).close()


def test_field_callbacks_get_the_same_changes_as_event_callbacks():
    clock, factory, tilt, events = sensors()
    changes = []
    tilt.on_change_fields(lambda seat, up, time: changes.append((seat, up, time)))
    table = ScriptedTable(factory, [4, 17])
    table.play([StandeeMove(1.0, 1, True, bounce=3), StandeeMove(2.0, 1, False)], until=3.0)
    assert changes == [(e.seat, e.up, e.time) for e in events] == [(1, True, 1.0), (1, False, 2.0)]
