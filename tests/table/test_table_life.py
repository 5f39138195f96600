"""A real table's life: started after a power cut at any moment, resuming only games of its own
kind, waiting for its devices before a count, ending a game without cutting the speaker."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from controller.__main__ import _console_factory
from controller.console import tokens as console_tokens
from controller.table import config as table_config
from controller.table.gamelog import GameLog
from controller.table.runner import Setup, new_record, setup_from_header, unfinished_log

ROOT = Path(__file__).resolve().parents[2]


def _real_config(tmp_path: Path, port: int = 0) -> Path:
    """A real table (mock pins when run with GPIOZERO_PIN_FACTORY=mock), silent, logging in ``tmp_path/games``."""
    path = tmp_path / "real.toml"
    games = tmp_path / "games"
    games.mkdir(exist_ok=True)
    path.write_text('[game]\nruleset = "classic"\nplayers = ["Ann", "Bob", "Cid", "Dot"]\n'
                    f'[console]\nhost = "127.0.0.1"\nport = {port}\n[log]\ndir = "{games}"\n'
                    '[sound]\noutput = "none"\n')
    return path


def _header_only_log(config_path: Path, *, simulate: bool, name: str = "left.log") -> Path:
    """A game log as ``start`` leaves it when the power goes just after writing its header."""
    config = table_config.load(config_path)
    setup = Setup(config, 7, simulate=simulate, camera=False, hub=False,
                  console=None if simulate else console_tokens.Tokens.new(["Ann", "Bob", "Cid", "Dot"]).to_json())
    path = config.log_dir / name
    GameLog.create(path, setup.header(new_record(config, 7))).close()
    return path


def _play_until_link(args: list[str], cwd: Path, *, timeout: float = 30.0) -> tuple[subprocess.Popen, str, list[str]]:
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "controller", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        found = re.search(r"console: (http://\S+/godfather\?token=\S+)", line)
        if found:
            return proc, found.group(1), seen
    proc.kill()
    proc.wait()
    raise AssertionError("no Godfather's link: " + "".join(seen))


# -- a power cut while the table starts ------------------------------------------------------------


def test_a_resumed_game_without_its_token_file_gets_new_links_and_says_so(tmp_path):
    config_path = _real_config(tmp_path)
    log_path = _header_only_log(config_path, simulate=False)
    header = json.loads(log_path.read_text().splitlines()[0])
    setup, _ = setup_from_header(header, log_path)
    assert setup.console is True and not console_tokens.file_for(log_path).exists()
    factory = _console_factory(setup, log_path, table_config.load(config_path))
    assert factory is not None
    kept, _, _ = console_tokens.load(console_tokens.file_for(log_path))  # saved at once: a second cut keeps them
    assert set(kept.teams) == {"Ann", "Bob", "Cid", "Dot"}


def test_a_new_games_token_file_is_written_before_its_game_log(tmp_path):
    config_path = _real_config(tmp_path)
    config = table_config.load(config_path)
    log_path = config.log_dir / "new.log"
    setup = Setup(config, 7, simulate=False, camera=False,
                  console=console_tokens.Tokens.new(["Ann", "Bob", "Cid", "Dot"]).to_json())
    assert _console_factory(setup, log_path) is not None
    assert not log_path.exists()
    kept, host, _ = console_tokens.load(console_tokens.file_for(log_path))
    assert kept.godfather == setup.console["godfather"] and host == "127.0.0.1"


def test_play_after_a_power_cut_at_the_start_goes_on_with_new_links(tmp_path):
    config_path = _real_config(tmp_path)
    log_path = _header_only_log(config_path, simulate=False)
    proc, link, seen = _play_until_link(["play", "--config", str(config_path)], tmp_path)
    try:
        told = "".join(seen)
        assert f"Going on with the game in {log_path}" in told
        said = [line for line in seen if "new links" in line]
        assert len(said) == 1 and str(console_tokens.file_for(log_path)) in said[0], told
        token = link.split("token=")[1]
        assert json.loads(console_tokens.file_for(log_path).read_text())["godfather"] == token
    finally:
        proc.kill()
        proc.wait()


# -- play resumes only a game of its own kind ----------------------------------------------------------


def test_unfinished_log_takes_only_a_game_of_the_kind_asked(tmp_path):
    config_path = _real_config(tmp_path)
    simulated = _header_only_log(config_path, simulate=True, name="simulated.log")
    real = _header_only_log(config_path, simulate=False, name="real.log")
    os.utime(simulated, (time.time() + 10, time.time() + 10))  # the newest
    games = tmp_path / "games"
    assert unfinished_log(games, simulate=False) == (real, None)
    assert unfinished_log(games, simulate=True) == (simulated, None)
    assert unfinished_log(games) == (simulated, None)
    real.unlink()
    assert unfinished_log(games, simulate=False) is None


def test_real_play_leaves_an_unfinished_simulated_game_alone(tmp_path):
    config_path = _real_config(tmp_path)
    simulated = _header_only_log(config_path, simulate=True, name="simulated.log")
    before = simulated.read_bytes()
    proc, _, seen = _play_until_link(["play", "--config", str(config_path)], tmp_path)
    try:
        assert not any("Going on with the game" in line for line in seen), "".join(seen)
        assert simulated.read_bytes() == before
    finally:
        proc.kill()
        proc.wait()
