"""HubBackend as the controller sees it: tilt source, seat and count lights,
errors a user can act on; and the install command."""

from __future__ import annotations

import ast
import asyncio
import logging
import threading
import time

import pytest
from bridge_helpers import wait_for

from controller.devices.hub_backend import HubBackend, pattern_steps
from controller.devices.interfaces import SeatStatus
from controller.devices.patterns import PATTERNS
from controller.errors import HubError
from firmware_bridge import FIRMWARE_DIR
from firmware_bridge import __main__ as cli
from firmware_bridge.sim import SimHub


@pytest.fixture
def table():
    with SimHub(transport="sim", seed=1) as sim:
        hub = HubBackend(sim.url, seats=6)
        try:
            assert hub.wait_connected(20)
            yield sim, hub
        finally:
            hub.close()


def test_changes_debounced_dated_by_first_edge_under_the_clock_lock(table):
    sim, hub = table
    got = []
    lock_held = []

    def callback(event):
        lock_held.append(hub.clock.lock._is_owned())
        got.append(event)

    hub.tilt.on_event(callback)
    assert hub.tilt.upright(3) is True
    for level in (False, True, False):  # chatter within the 15 ms debounce
        sim.stand(3, level)
        time.sleep(0.002)
    wait_for(lambda: got, what="the lay-down")
    time.sleep(0.1)
    assert [(e.seat, e.up) for e in got] == [(3, False)]
    assert abs(got[0].time - sim.hub_to_host(sim.recorded[0][2])) < 0.05
    assert lock_held == [True]
    assert hub.tilt.upright(3) is False


def test_seat_lights_play_the_controllers_patterns(table):
    sim, hub = table
    hub.lights.show(1, SeatStatus.IN_SHARE)
    hub.lights.show(2, SeatStatus.IN_SHARE, gang="red")
    hub.lights.show(4, SeatStatus.HIT)
    wait_for(lambda: sim.seat_colour(1) == (96, 96, 96), what="seat 1 white")
    wait_for(lambda: sim.seat_colour(2) == (96, 0, 0), what="seat 2 in its gang's red")
    seen = set()
    wait_for(lambda: seen.add(sim.seat_colour(4)) or len(seen) == 2, what="seat 4 blinking")
    assert seen == {(96, 0, 0), (0, 0, 0)}
    assert hub.lights.status(4) is SeatStatus.HIT


def test_pattern_steps_carry_levels_and_milliseconds():
    assert pattern_steps(PATTERNS[SeatStatus.IN_SHARE]) == ((255, 0),)
    assert pattern_steps(PATTERNS[SeatStatus.HIT]) == ((255, 500), (0, 500))
    for status in SeatStatus:
        assert pattern_steps(PATTERNS[status])  # every status has a pattern the hub can play


def test_count_lights(table):
    sim, hub = table
    for count, mask in ((1, 0b001), (3, 0b111), (0, 0)):
        hub.count_lights.show(count)
        wait_for(lambda mask=mask: sim.count_mask == mask, what=f"count {count}")


def test_close_turns_every_light_off():
    with SimHub(transport="sim", seed=4) as sim:
        hub = HubBackend(sim.url, seats=3)
        assert hub.wait_connected(20)
        hub.lights.show(0, SeatStatus.IN_SHARE)
        hub.count_lights.show(2)
        wait_for(lambda: sim.count_mask == 0b011 and sim.seat_colour(0) != (0, 0, 0), what="lights on")
        hub.close()
        assert sim.count_mask == 0 and sim.seat_colour(0) == (0, 0, 0)
        assert not hub.driver.connected


def test_events_handed_to_an_asyncio_loop():
    async def scenario(sim: SimHub) -> list[tuple[int, bool, bool]]:
        loop = asyncio.get_running_loop()
        hub = HubBackend(sim.url, seats=9, loop=loop)
        try:
            await loop.run_in_executor(None, hub.wait_connected, 20)
            got: list[tuple[int, bool, bool]] = []
            arrived = asyncio.Event()

            def on_event(event):
                got.append((event.seat, event.up, threading.current_thread() is threading.main_thread()))
                arrived.set()

            hub.tilt.on_event(on_event)
            sim.stand(7, False)
            await asyncio.wait_for(arrived.wait(), 20)
            return got
        finally:
            hub.close()

    with SimHub(transport="sim", seed=6) as sim:
        assert asyncio.run(scenario(sim)) == [(7, False, True)]


def test_errors_name_the_seat_and_the_hub(table):
    _, hub = table
    with pytest.raises(ValueError, match=r"seat 6 is outside 0\.\.5 \(hub at sim://"):
        hub.lights.show(6, SeatStatus.DEAD)
    with pytest.raises(ValueError, match="seat -1"):
        hub.tilt.upright(-1)
    with pytest.raises(ValueError, match="count 4 is outside"):
        hub.count_lights.show(4)
    with pytest.raises(HubError, match="seats=10"):
        HubBackend("sim://x", seats=10)
    with pytest.raises(HubError, match="devices.hub_url"):
        HubBackend("", seats=9)


def test_a_missing_port_is_retried_and_reported_once(tmp_path, caplog):
    caplog.set_level(logging.DEBUG, "firmware_bridge")
    port = tmp_path / "ttyACM9"
    hub = HubBackend(str(port), seats=9)
    try:
        wait_for(lambda: any("cannot open" in r.message for r in caplog.records), what="the warning")
        time.sleep(1.3)  # at least one more attempt
        opens = [r for r in caplog.records if "cannot open" in r.message]
        assert len(opens) >= 2
        assert [r.levelno for r in opens].count(logging.WARNING) == 1
        assert str(port) in opens[0].message
        assert hub.tilt.upright(0) is None
    finally:
        hub.close()


def test_install_without_mpremote_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.setattr(cli.shutil, "which", lambda name: None)
    assert cli.main(["install", "--port", "/dev/ttyACM0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "mpremote is not installed" in err


def test_install_stops_a_running_hub_then_runs_mpremote_with_every_firmware_file(monkeypatch):
    calls = []
    stopped = []
    monkeypatch.setattr(cli, "stop_running_hub", lambda port: stopped.append(port) or True)
    monkeypatch.setattr(cli.shutil, "which", lambda name: "/usr/bin/mpremote")
    monkeypatch.setattr(cli.subprocess, "run", lambda argv: calls.append(argv) or type("R", (), {"returncode": 0})())
    assert cli.main(["install", "--port", "/dev/ttyACM0"]) == 0
    assert stopped == ["/dev/ttyACM0"]
    (argv,) = calls
    assert argv[:4] == ["/usr/bin/mpremote", "connect", "/dev/ttyACM0", "cp"]
    assert argv[-3:] == [":", "+", "reset"]
    assert {p.rsplit("/", 1)[-1] for p in argv[4:-3]} == set(cli.FIRMWARE_FILES)
    assert {p.name for p in FIRMWARE_DIR.glob("*.py")} == set(cli.FIRMWARE_FILES)


@pytest.mark.parametrize("name", cli.FIRMWARE_FILES)
def test_firmware_stays_within_micropython(name):
    """No CPython-only modules, annotations or dataclasses in the files the Pico runs."""
    tree = ast.parse((FIRMWARE_DIR / name).read_text())
    allowed = {"hub_proto", "hub_link", "hub_tilt", "hub_lights", "hub_clock", "hub_core", "hub_board",
               "io", "machine", "micropython", "neopixel", "os", "select", "struct", "sys", "time"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert {a.name for a in node.names} <= allowed, ast.dump(node)
        elif isinstance(node, ast.ImportFrom):
            assert node.module in allowed, node.module
        assert not isinstance(node, (ast.AnnAssign, ast.arg)) or getattr(node, "annotation", None) is None
        assert not isinstance(node, (ast.FunctionDef,)) or node.returns is None


def test_the_exit_message_hands_the_pico_back_to_its_repl():
    with SimHub(transport="pty", seed=3) as sim:
        cli.stop_running_hub(sim.url)
        assert sim.firmware_exited
