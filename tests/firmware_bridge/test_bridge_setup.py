"""Installing and watching a hub as the install guide does it: mpremote from the virtual
environment, and a port that only one program may hold at a time."""

from __future__ import annotations

import logging
import stat
from pathlib import Path

import pytest
import serial
from bridge_helpers import wait_for

from firmware_bridge import __main__ as cli
from firmware_bridge.driver import HubDriver, open_port, port_in_use
from firmware_bridge.sim import SimHub


def _fake_run(calls: list[list[str]]):
    return lambda argv: calls.append(argv) or type("R", (), {"returncode": 0})()


def test_install_runs_the_mpremote_beside_its_python_when_it_is_not_on_the_path(monkeypatch, tmp_path: Path):
    """`.venv/bin/python -m firmware_bridge install` (sudo -u, no activated environment) finds `.venv/bin/mpremote`."""
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    mpremote = bin_dir / "mpremote"
    mpremote.write_text("#!/bin/sh\n")
    mpremote.chmod(mpremote.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(cli.sys, "executable", str(bin_dir / "python"))
    monkeypatch.setattr(cli.shutil, "which", lambda name: None)
    monkeypatch.setattr(cli, "stop_running_hub", lambda port: True)
    calls: list[list[str]] = []
    monkeypatch.setattr(cli.subprocess, "run", _fake_run(calls))
    assert cli.main(["install", "--port", "/dev/ttyACM0"]) == 0
    (argv,) = calls
    assert argv[:3] == [str(mpremote), "connect", "/dev/ttyACM0"]


def test_install_runs_mpremote_as_a_module_of_its_python_when_only_the_module_is_there(monkeypatch, tmp_path: Path):
    monkeypatch.setattr(cli.sys, "executable", str(tmp_path / "python"))
    monkeypatch.setattr(cli.shutil, "which", lambda name: None)
    monkeypatch.setattr(cli.importlib.util, "find_spec", lambda name: object() if name == "mpremote" else None)
    monkeypatch.setattr(cli, "stop_running_hub", lambda port: True)
    calls: list[list[str]] = []
    monkeypatch.setattr(cli.subprocess, "run", _fake_run(calls))
    assert cli.main(["install", "--port", "/dev/ttyACM0"]) == 0
    assert calls[0][:5] == [str(tmp_path / "python"), "-m", "mpremote", "connect", "/dev/ttyACM0"]


def test_install_without_any_mpremote_names_the_pip_to_use(monkeypatch, tmp_path: Path, capsys):
    monkeypatch.setattr(cli.sys, "executable", str(tmp_path / "python"))
    monkeypatch.setattr(cli.shutil, "which", lambda name: None)
    monkeypatch.setattr(cli.importlib.util, "find_spec", lambda name: None)
    assert cli.main(["install", "--port", "/dev/ttyACM0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{tmp_path / 'pip'} install mpremote" in err


@pytest.fixture
def held_port():
    """A simulated hub on a pty, its port held by one program (the table's service)."""
    with SimHub(transport="pty", seed=5) as sim:
        holder = open_port(sim.url, baudrate=115_200, timeout=0.1)
        try:
            yield sim.url
        finally:
            holder.close()


def test_a_second_program_on_the_hub_s_port_is_refused(held_port: str):
    with pytest.raises(serial.SerialException) as caught:
        open_port(held_port, baudrate=115_200, timeout=0.1)
    assert port_in_use(caught.value)


def test_hub_watch_on_a_port_in_use_says_so_in_one_line(held_port: str, capsys):
    assert cli.main(["watch", held_port]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and held_port in err and "in use by another program" in err and "stop it first" in err


def test_install_on_a_port_in_use_stops_before_touching_the_pico(held_port: str, monkeypatch, capsys):
    calls: list[list[str]] = []
    monkeypatch.setattr(cli, "find_mpremote", lambda: ["mpremote"])
    monkeypatch.setattr(cli.subprocess, "run", _fake_run(calls))
    assert cli.main(["install", "--port", held_port]) == 2
    assert calls == []
    assert "in use by another program" in capsys.readouterr().err


def test_the_driver_names_a_port_in_use_and_takes_it_when_freed(caplog):
    with SimHub(transport="pty", seed=6) as sim:
        holder = open_port(sim.url, baudrate=115_200, timeout=0.1)
        driver = HubDriver(sim.url, seats=3, on_change=lambda change: None, reconnect_interval=0.1)
        with caplog.at_level(logging.WARNING, logger="firmware_bridge.driver"):
            driver.start()
            try:
                wait_for(lambda: any("in use by another program" in r.message for r in caplog.records), 5, "the warning")
                holder.close()
                assert driver.wait_connected(10)
            finally:
                driver.close()
                holder.close()
