"""The table's commands answer a wrong input with one line and exit code 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from controller.__main__ import main


@pytest.mark.parametrize(
    "argv,message",
    [
        (["play", "--config", "/no/such/table.toml"], "no such configuration file"),
        (["resume", "/no/such/game.log"], "no such game log"),
        (["demo", "--ruleset", "classic-2014", "--players", "2"], "classic-2014 is for 4-8 players"),
    ],
)
def test_bad_input_one_line_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_broken_configuration_is_named(tmp_path, capsys):
    path = tmp_path / "table.toml"
    path.write_text('[game]\nruleset = "yakuzas"\nplayers = ["A", "B"]\n')
    assert main(["play", "--config", str(path)]) == 2
    assert capsys.readouterr().err.strip() == f"{path}: game.players: yakuzas is for 6-9 players, not 2"


def test_selftest_options_pass_through():
    proc = subprocess.run([sys.executable, "-m", "controller", "selftest", "--help"], capture_output=True, text=True,
                          env={"GPIOZERO_PIN_FACTORY": "mock", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0 and "blink each seat LED" in proc.stdout
