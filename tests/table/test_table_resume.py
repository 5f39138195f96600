"""Never lose a game: the game log, and a controller killed mid-game and resumed."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.record import result
from controller.table import config as table_config
from controller.table.gamelog import GameLog, LogError, read
from controller.table.runner import Setup, new_record, resume, start

ROOT = Path(__file__).resolve().parents[2]


def demo_setup(seed: int, players: int = 9, camera: bool = False) -> Setup:
    names = ["Aiko", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo"][:players]
    config = table_config.from_dict({"game": {"ruleset": "yakuzas", "players": names, "seed": seed}})
    return Setup(config, seed, simulate=True, camera=camera)


def quiet(_line: str) -> None:
    pass


def test_every_input_is_logged_and_the_log_rebuilds_the_game(tmp_path):
    log_path = tmp_path / "game.log"
    referee = start(demo_setup(31), log_path=log_path, say=quiet)
    logged = read(log_path)
    assert len(logged.inputs) > 40 and logged.seen  # inputs, and what the tilt sensors saw
    again = resume(log_path, say=quiet, play=False)
    assert again.step.value == "over"
    assert result(again.game) == result(referee.game)
    assert again.record.dumps() == referee.record.dumps()


def test_a_line_cut_short_by_a_crash_is_dropped(tmp_path):
    log_path = tmp_path / "game.log"
    start(demo_setup(32), log_path=log_path, say=quiet)
    lines = log_path.read_bytes().splitlines(keepends=True)
    cut = b"".join(lines[:25]) + lines[25][:10]  # the 25th input was being written
    log_path.write_bytes(cut)
    assert len(read(log_path).inputs) == sum(b'"input"' in line for line in lines[1:25])
    game_log, logged = GameLog.reopen(log_path)
    game_log.close()
    assert log_path.read_bytes() == b"".join(lines[:25])


def test_one_controller_at_a_time(tmp_path):
    log_path = tmp_path / "game.log"
    first = GameLog.create(log_path, {"record": {}})
    with pytest.raises(LogError, match="another controller is writing this game log"):
        GameLog.reopen(log_path)
    first.close()
    with pytest.raises(LogError, match="a game log is already there"):
        GameLog.create(log_path, {})


def test_broken_logs_are_refused_with_one_line(tmp_path):
    bad = tmp_path / "bad.log"
    bad.write_text('{"format": "something else"}\n')
    with pytest.raises(LogError, match="line 1: not a cashnguns-log/1 game log"):
        read(bad)
    with pytest.raises(LogError, match="no such game log"):
        read(tmp_path / "missing.log")
    proc = subprocess.run([sys.executable, "-m", "controller", "resume", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _run_until_killed(args, log_path: Path, kill_at_line: int | None, cwd) -> int | None:
    """Run the controller; SIGKILL it once its log reaches ``kill_at_line`` lines (``None``: let it finish)."""
    proc = subprocess.Popen([sys.executable, "-m", "controller", *args], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if kill_at_line is not None and _lines(log_path) >= kill_at_line:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            return None
        time.sleep(0.002)
    if proc.poll() is None:
        proc.kill()
        raise AssertionError("the controller did not finish")
    return proc.returncode


@pytest.mark.parametrize("seed,camera", [pytest.param(41, True, marks=pytest.mark.slow), (42, False)])
def test_killed_mid_game_and_resumed_gives_the_same_record(tmp_path, seed, camera):
    expected_log = tmp_path / "whole.log"
    expected = start(demo_setup(seed, camera=camera), log_path=expected_log, say=quiet)
    rng = random.Random(seed)
    total = _lines(expected_log)
    log_path, record_path = tmp_path / "killed.log", tmp_path / "killed.record.json"
    flags = ["--fast"] + ([] if camera else ["--no-camera"])
    # kill it at random moments of the game (measured in lines of its log), then resume, again and again
    kill_points = sorted(rng.sample(range(2, total - 1), 4))
    code = _run_until_killed(["demo", "--seed", str(seed), "--log", str(log_path), "--record", str(record_path), *flags],
                             log_path, kill_points[0], tmp_path)
    kills = 0
    for point in kill_points[1:] + [None]:
        if code is not None:
            break
        kills += 1
        code = _run_until_killed(["resume", str(log_path), "--record", str(record_path), "--fast"], log_path, point, tmp_path)
    assert code == 0
    assert kills == 4
    assert json.loads(record_path.read_text()) == json.loads(expected.record.dumps())


TABLE_TOML = """
[game]
ruleset = "yakuzas"
players = ["Aiko", "Bo", "Cy", "Dee", "Eli", "Fay"]
[devices]
backend = "hub"
hub_url = "socket://hub.local:7000"
[sound]
output = "none"
[camera]
source = "webcam:3"
calibration = "calibration.json"
[console]
port = 8123
"""


def _real_game_log(tmp_path: Path, config: table_config.TableConfig) -> Path:
    """The log of a real table's game (no input yet), started with ``config``."""
    from controller.table.runner import new_record

    setup = Setup(config, 77, simulate=False, camera=True)
    log_path = tmp_path / "table.log"
    GameLog.create(log_path, setup.header(new_record(config, 77))).close()
    return log_path


def test_a_resumed_table_keeps_its_hardware_from_the_file_it_was_started_with(tmp_path, monkeypatch):
    """The game comes from the log; the devices, the camera and the console from the configuration
    the game was started with (a hub, a webcam), read again, not the defaults."""
    toml = tmp_path / "table.toml"
    toml.write_text(TABLE_TOML)
    log_path = _real_game_log(tmp_path, table_config.load(toml))
    monkeypatch.chdir(tmp_path.parent)  # the file is found by its full path, wherever resume runs
    setups: list[Setup] = []
    resume(log_path, say=quiet, play=False, on_setup=setups.append)
    config = setups[0].config
    assert config.camera.source == "webcam:3" and config.camera.calibration == tmp_path / "calibration.json"
    assert config.devices().backend == "hub" and config.devices().hub_url == "socket://hub.local:7000"
    assert config.console_port == 8123 and [p for p, _ in config.players][:2] == ["Aiko", "Bo"]


@pytest.mark.parametrize("damage", ["gone", "broken"])
def test_a_resumed_real_table_whose_file_cannot_be_read_is_refused_in_one_line(tmp_path, damage):
    """Not the default devices: on a Pi their unwired pins read steadily, and the counts would judge them."""
    toml = tmp_path / "table.toml"
    toml.write_text(TABLE_TOML)
    log_path = _real_game_log(tmp_path, table_config.load(toml))
    if damage == "gone":
        toml.unlink()
    else:
        toml.write_text(TABLE_TOML + "[timing]\ncount_interval = 'x'\n")
    said: list[str] = []
    setups: list[Setup] = []
    with pytest.raises(table_config.ConfigError) as refused:
        resume(log_path, say=said.append, play=False, on_setup=setups.append)
    line = str(refused.value)
    assert "\n" not in line and str(log_path) in line and "cannot be read again" in line and "--config FILE" in line
    assert not setups and not said


def test_a_resumed_simulated_game_whose_file_is_gone_says_so_and_goes_on(tmp_path):
    toml = tmp_path / "table.toml"
    toml.write_text(TABLE_TOML)
    config = table_config.load(toml)
    log_path = tmp_path / "sim.log"
    GameLog.create(log_path, Setup(config, 77, simulate=True, camera=True).header(new_record(config, 77))).close()
    toml.unlink()
    said: list[str] = []
    setups: list[Setup] = []
    resume(log_path, say=said.append, play=False, on_setup=setups.append)
    assert setups[0].config.camera.source == "none"
    assert any("cannot be read again" in line and "--config" in line for line in said), said
    log_path = _real_game_log(tmp_path, config)  # a real table's file gone, given with --config: it goes on
    other = tmp_path / "other.toml"  # given with --config: its hardware, the log's game
    other.write_text(TABLE_TOML.replace("webcam:3", "picamera").replace('"Aiko"', '"Zed"'))
    setups.clear()
    resume(log_path, say=quiet, play=False, on_setup=setups.append, table=table_config.load(other))
    assert setups[0].config.camera.source == "picamera" and setups[0].config.players[0][0] == "Aiko"
