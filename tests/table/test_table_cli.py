"""The table's commands answer a wrong input with one line and exit code 2."""

from __future__ import annotations

import errno
import io
import logging
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.__main__ import DELEGATED, build_parser, main


@pytest.mark.parametrize(
    "argv,message",
    [
        (["play", "--config", "/no/such/table.toml"], "no such configuration file"),
        (["resume", "/no/such/game.log"], "no such game log"),
        (["demo", "--ruleset", "classic-2014", "--players", "2"], "classic-2014 is for 4-8 players"),
        (["demo", "--ruleset", "classic", "--players", "0"], "classic is for 4-6 players, not 0"),
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
    proc = subprocess.run(check=False, args=[sys.executable, "-m", "controller", "selftest", "--help"], capture_output=True, text=True,
                          env={"GPIOZERO_PIN_FACTORY": "mock", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0 and "Blink each seat LED" in proc.stdout


# -- Ctrl-C --------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def _interrupt(argv: list[str], *, after: str, cwd: Path, env: dict | None = None) -> tuple[int, str, str]:
    """Start ``cashnguns argv``, wait until its output shows ``after``, send it SIGINT (Ctrl-C)."""
    # Ctrl-C reaches the command as at a terminal even when the tests themselves run in the background
    # (a shell's background job starts with SIGINT ignored, and a child inherits that).
    proc = subprocess.Popen([sys.executable, "-m", "controller", *argv], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if after in line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, "".join(seen) + out, err


def test_ctrl_c_stops_the_demo_with_one_line_that_says_how_to_go_on(tmp_path):
    record = tmp_path / "g.record.json"
    code, out, err = _interrupt(["demo", "--no-camera", "--record", str(record)], after="lie down to withdraw", cwd=tmp_path)
    assert code == 130 and "Traceback" not in err, err
    assert err.strip() == f"Stopped. The game is kept in its log: go on with: cashnguns resume {tmp_path / 'g.log'}"
    assert f"Game log: {tmp_path / 'g.log'}" in out
    code, out, err = _resume_fast(tmp_path / "g.log")
    assert code == 0 and f"Game record written to {record}" in out, err


def _resume_fast(log: Path) -> tuple[int, str, str]:
    proc = subprocess.run(check=False, args=[sys.executable, "-m", "controller", "resume", str(log), "--fast"], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def test_ctrl_c_stops_play_and_resume(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text(f'[game]\nruleset = "classic"\nplayers = ["Ann", "Bob", "Cid", "Dot"]\nseed = 4\n'
                      f'[log]\ndir = "{tmp_path / "games"}"\n')
    code, out, err = _interrupt(["play", "--config", str(config), "--simulate"], after="lie down to withdraw", cwd=tmp_path)
    log = tmp_path / "games" / "cashnguns-classic-4.log"
    assert code == 130 and "Traceback" not in err, err
    assert f"Game log: {log} (if the table stops, go on with: cashnguns resume {log})" in out
    assert err.strip().endswith(f"go on with: cashnguns resume {log}") and err.strip().count("\n") == 0
    code, _, err = _interrupt(["resume", str(log)], after="1, 2, 3:", cwd=tmp_path)
    assert code == 130 and "Traceback" not in err and err.strip().endswith(f"cashnguns resume {log}"), err


def test_ctrl_c_before_the_first_move_leaves_no_game(tmp_path):
    code, _, err = _interrupt(["demo", "--hub", "--record", str(tmp_path / "h.record.json")], after="Game log:",
                                cwd=tmp_path)
    assert code == 130 and "Traceback" not in err, err
    assert err.strip() in ("Stopped before the first move: there is no game to go on with.",
                           f"Stopped. The game is kept in its log: go on with: cashnguns resume {tmp_path / 'h.log'}")


def test_ctrl_c_stops_selftest_in_one_line(tmp_path):
    code, _, err = _interrupt(["selftest", "--mock", "--sound", "none", "--watch", "60", "--step", "0"],
                                after="tilt sensors for", cwd=tmp_path, env={"GPIOZERO_PIN_FACTORY": "mock"})
    assert code == 130 and err.strip() == "Stopped." and "Traceback" not in err


# -- help -------------------------------------------------------------------------------------------------

def _options(parser):
    for action in parser._actions:
        if action.option_strings and action.help != "==SUPPRESS==" and "-h" not in action.option_strings:
            yield action


def test_every_option_has_help_with_its_default():
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, __import__("argparse")._SubParsersAction)).choices
    assert set(DELEGATED) <= set(commands)
    for name, sub in commands.items():
        text = " ".join(sub.format_help().split())
        for action in _options(sub):
            assert action.help, f"{name} {action.option_strings[0]} has no help"
            if action.default not in (None, False):
                assert f"(default: {action.default})" in text, f"{name} {action.option_strings[0]}: no default shown"
            elif action.default is None:
                assert "default" in action.help, f"{name} {action.option_strings[0]}: say what happens without it"


def test_every_vision_option_has_help():
    import argparse

    from vision.__main__ import build_parser as vision_parser

    commands = next(a for a in vision_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name, sub in commands.items():
        for action in sub._actions:
            if "-h" not in action.option_strings:
                assert action.help, f"vision {name} {action.option_strings or action.dest} has no help"


@pytest.mark.parametrize("argv", [["vision", "--help"], ["vision", "judge", "--help"], ["hub", "watch", "--help"],
                                  ["hub", "--help"], ["selftest", "--help"]])
def test_the_commands_of_the_lower_packages_show_the_command_typed(argv, capsys):
    assert main(argv) == 0
    usage = capsys.readouterr().out.split("\n", 1)[0]
    assert usage.startswith(f"usage: cashnguns {' '.join(argv[:-1])} "), usage


def test_a_usage_error_of_a_lower_package_names_the_command_typed(capsys):
    assert main(["vision", "judge"]) == 2
    err = capsys.readouterr().err
    assert err == "cashnguns vision judge: the following arguments are required: clip (try --help)\n"


@pytest.mark.parametrize("argv, line", [
    (["demo", "--players", "abc"], "cashnguns demo: --players: 'abc' is not a whole number (try --help)"),
    (["demo", "--seed", "1e300"], "cashnguns demo: --seed: '1e300' is not a whole number (try --help)"),
    (["demo", "--fast", "--bogus"], "cashnguns demo: unrecognized arguments: --bogus (try --help)"),
    (["play", "--config"], "cashnguns play: --config: needs a value after it (try --help)"),
    (["--bogus"], "cashnguns: unrecognized arguments: --bogus (try --help)"),  # not "COMMAND is required"
    (["-v", "--bogus", "demo"], "cashnguns: unrecognized arguments: --bogus (try --help)"),
    (["vision", "--bogus"], "cashnguns vision: unrecognized arguments: --bogus (try --help)"),
    (["hub", "--bogus", "sim"], "cashnguns hub: unrecognized arguments: --bogus (try --help)"),
    (["replay"], "cashnguns replay: the following arguments are required: record (try --help)"),
    (["resume", "x.log", "--salve"], "cashnguns resume: unrecognized arguments: --salve (try --help)"),
    (["vision", "synth", "out", "--count", "NaN"],
     "cashnguns vision synth: --count: 'NaN' is not a whole number from 1 to 100000 (try --help)"),
    (["vision", "markers", "--bogus"], "cashnguns vision markers: unrecognized arguments: --bogus (try --help)"),
    (["hub", "sim", "--seats", "x"], "cashnguns hub sim: --seats: 'x' is not a whole number from 1 to 9 (try --help)"),
    (["hub", "watch"], "cashnguns hub watch: the following arguments are required: url (try --help)"),
    (["selftest", "--step", "abc"], "cashnguns selftest: --step: 'abc' is not a number of seconds from 0 to 10 (try --help)"),
])
def test_a_bad_option_is_one_line_naming_the_command_and_the_option(argv, line, capsys):
    try:
        code = main(argv)
    except SystemExit as exit:  # the controller's own commands exit from the parser
        code = exit.code
    assert code == 2
    assert capsys.readouterr().err == line + "\n"


def test_selftest_help_is_plain_and_says_what_the_tilt_switch_tells(capsys):
    from controller.devices.selftest import main as selftest

    assert selftest(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "``" not in text and "--lang" in text and "(default: 0.4)" in text
    assert "an empty base, or a base lifted off the table and held upright, reads U" in text


# -- selftest without aplay ---------------------------------------------------------------------------------


def test_selftest_on_mock_pins_without_aplay_lists_the_sounds(monkeypatch, capsys):
    from controller.devices import selftest

    monkeypatch.setattr(selftest.shutil, "which", lambda name: None)
    assert selftest.main(["--mock", "--step", "0", "--watch", "0"]) == 0
    out = capsys.readouterr().out
    assert "aplay not found (ALSA's alsa-utils): on mock pins the sounds are listed, not played" in out
    assert "sound none" in out and "selftest passed" in out


def test_selftest_on_a_pi_without_aplay_keeps_the_error(monkeypatch, capsys):
    from controller.devices import selftest

    opened = []

    def open_devices(config, mock_pins=None):  # real pins: the speaker is opened as configured
        opened.append(config)
        raise RuntimeError("aplay not found: install alsa-utils, or set sound.output to \"buzzer\" or \"none\"")

    monkeypatch.setattr(selftest.shutil, "which", lambda name: None)
    monkeypatch.setattr(selftest, "open_devices", open_devices)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert selftest.main(["--step", "0", "--watch", "0"]) == 2
    assert opened and opened[0].sound.output == "aplay"
    assert capsys.readouterr().err.startswith("selftest: aplay not found")


# -- commands reachable through cashnguns ----------------------------------------------------------------------


def test_vision_and_hub_commands_run_through_cashnguns(tmp_path, capsys):
    from vision.__main__ import build_parser as vision_parser

    assert main(["vision", "--help"]) == 0
    assert main(["hub", "--help"]) == 0
    assert main(["vision", "synth", str(tmp_path / "clips"), "--count", "1", "--seed", "3"]) == 0
    assert (tmp_path / "clips").is_dir() and any((tmp_path / "clips").iterdir())
    readme = (ROOT / "README.md").read_text()
    subcommands = next(a for a in vision_parser()._actions if isinstance(a, __import__("argparse")._SubParsersAction))
    for name in subcommands.choices:
        assert f"`cashnguns vision {name}" in readme, f"README: add cashnguns vision {name}"
    for name in ("install", "sim", "watch"):
        assert f"`cashnguns hub {name}" in readme
    for name in ("demo", "play", "resume", "replay", "selftest"):
        assert f"`cashnguns {name}" in readme


def test_vision_and_the_hub_do_not_import_the_controller():
    for package in ("vision", "firmware_bridge"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            assert "from controller" not in text and "import controller" not in text, path


def test_the_console_script_is_cashnguns():
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["cashnguns"] == "controller.__main__:main"


def test_an_internal_error_is_one_line(monkeypatch, capsys):
    import controller.__main__ as cli

    monkeypatch.setattr(cli, "_replay", lambda args: {}["boom"])
    assert main(["replay", "x.json"]) == 70
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error (KeyError" in err


# -- the demo's folder, header and ending ----------------------------------------------------------------------


def test_the_demo_writes_into_the_games_folder_and_says_so(tmp_path, monkeypatch, capsys):
    import controller.__main__ as cli

    monkeypatch.setattr(cli, "demo_folder", lambda: tmp_path / "demos")
    monkeypatch.chdir(tmp_path / ".." if False else tmp_path)
    assert main(["demo", "--fast", "--no-camera", "--ruleset", "yakuzas", "--players", "7", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    record = tmp_path / "demos" / "cashnguns-yakuzas-seed5.record.json"
    log = tmp_path / "demos" / "cashnguns-yakuzas-seed5.log"
    assert record.is_file() and log.is_file()
    assert f"Game log: {log}" in out and f"Game record written to {record}" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demos"]  # nothing in the current folder
    lines = out.splitlines()
    assert lines[0] == "Cash'n Guns, yakuzas, 7 players; seed 5."
    assert lines[1].startswith("Seats, clockwise: ") and "(seat 0, purple gang)" in lines[1] and "yellow gang" in lines[1]
    ending = lines[lines.index(next(line for line in lines if line.startswith("Game over after round"))):]
    for gang in ("purple", "yellow", "red"):
        (line,) = [each for each in ending if each.startswith(f"  {gang}: money ")]
        assert ", score " in line and "[" in line  # its members
    assert not any("Game finished" in line for line in lines)
    # a second demo with the same seed does not overwrite the first
    assert main(["demo", "--fast", "--no-camera", "--ruleset", "classic", "--players", "4", "--seed", "5"]) == 0
    assert main(["demo", "--fast", "--no-camera", "--ruleset", "classic", "--players", "4", "--seed", "5"]) == 0
    assert (tmp_path / "demos" / "cashnguns-classic-seed5-2.record.json").is_file()


def test_the_demo_names_itself_in_its_errors(tmp_path, capsys):
    log = tmp_path / "kept.log"
    log.write_text("a game log\n")
    assert main(["demo", "--fast", "--no-camera", "--log", str(log), "--record", str(tmp_path / "r.json")]) == 2
    assert capsys.readouterr().err == (f"demo: {log}: a game log is already there (go on with it: cashnguns resume {log}; "
                                       "or give another --log)\n")


def test_logs_and_lgpio_files_are_ignored():
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "*.log" in ignored and ".lgd-nfy*" in ignored


def test_the_glossary_explains_the_words_and_is_linked():
    glossary = (ROOT / "docs" / "glossary.md").read_text()
    for word in ("Honour marker, finger side up", "Pointed late", "The tanto moves on", '"Banzai!"', "Privilege",
                 "Cowardice token", "Score", "Game log", "Tilt sensor", "Seed", "Split"):
        assert f"**{word}**" in glossary, word
    assert "(docs/glossary.md)" in (ROOT / "README.md").read_text()


def _subcommands(parser):
    return next(a for a in parser._actions if isinstance(a, __import__("argparse")._SubParsersAction)).choices


def test_vision_and_hub_options_have_help_with_their_defaults(monkeypatch):
    from firmware_bridge.__main__ import main as hub_main
    from vision.__main__ import build_parser as vision_parser

    commands = _subcommands(vision_parser())
    checked = {f"vision {name}": commands[name] for name in ("calibrate", "markers", "judge", "synth")}
    from firmware_bridge.cli import OneLineParser

    captured = {}

    def fake_parse(self, args=None, namespace=None):  # the hub builds its parser inside main: catch it there
        captured["hub"] = self
        raise SystemExit(0)

    monkeypatch.setattr(OneLineParser, "parse_args", fake_parse)
    with pytest.raises(SystemExit):
        hub_main([])
    monkeypatch.undo()
    checked.update({f"hub {name}": sub for name, sub in _subcommands(captured["hub"]).items()})
    for name, sub in checked.items():
        for action in sub._actions:
            if "-h" in action.option_strings:
                continue
            what = f"{name} {(action.option_strings or [action.dest])[0]}"
            assert action.help, f"{what} has no help"
            if action.option_strings and action.default not in (None, False):
                assert "default" in action.help, f"{what}: its default is not said"


@pytest.mark.parametrize("option", ["--record", "--log"])
def test_a_folder_as_the_record_or_the_log_is_refused_before_the_game(tmp_path, capsys, option):
    paths = {"--record": str(tmp_path / "game.record.json"), "--log": str(tmp_path / "game.log")}
    paths[option] = str(tmp_path)
    argv = ["demo", "--fast", "--no-camera", "--ruleset", "classic", "--players", "4", "--record", paths["--record"],
            "--log", paths["--log"]]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == f"{option}: {tmp_path} is a folder: give the path of a file to write\n"
    assert "Round 1" not in captured.out


def test_resume_refuses_a_folder_as_the_record(tmp_path, capsys):
    assert main(["resume", str(tmp_path / "game.log"), "--record", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"--record: {tmp_path} is a folder: give the path of a file to write\n"



@pytest.mark.parametrize("option", ["--record", "--log"])
@pytest.mark.parametrize("under", ["a-file", "a-file/sub"])
def test_a_record_or_log_under_a_file_is_refused_before_the_game(tmp_path, capsys, option, under):
    (tmp_path / "a-file").write_text("")
    paths = {"--record": tmp_path / "game.record.json", "--log": tmp_path / "game.log"}
    paths[option] = tmp_path / under / "x"
    assert main(["demo", "--fast", "--no-camera", "--ruleset", "classic", "--players", "4",
                 "--record", str(paths["--record"]), "--log", str(paths["--log"])]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"{option}: cannot write {paths[option]}: a file is where a folder must be\n"
    assert "Round 1" not in captured.out and not paths["--log"].exists()


def test_a_read_only_place_is_named_and_an_existing_file_is_left_as_it_was(tmp_path, monkeypatch):
    from controller.__main__ import unwritable

    there = tmp_path / "old.record.json"
    there.write_text("kept")
    assert unwritable(there) is None and there.read_text() == "kept"
    assert unwritable(tmp_path / "new" / "r.json") is None and list((tmp_path / "new").iterdir()) == []

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr("tempfile.mkstemp", read_only)
    assert unwritable(tmp_path / "r.json") == f"cannot write {tmp_path / 'r.json'}: {os.strerror(errno.EROFS)}"


@pytest.mark.skipif(os.geteuid() == 0, reason="every folder can be written by root")
def test_a_folder_without_the_right_to_write_is_refused_before_the_game(tmp_path, capsys):
    (tmp_path / "locked").mkdir(mode=0o555)
    record = tmp_path / "locked" / "game.record.json"
    assert main(["demo", "--fast", "--no-camera", "--record", str(record), "--log", str(tmp_path / "g.log")]) == 2
    assert capsys.readouterr().err == f"--record: cannot write {record}: Permission denied\n"

def test_a_table_that_cannot_open_offers_no_game_to_resume(tmp_path, monkeypatch, capsys):
    from controller.errors import DeviceError
    from controller.table import runner

    def open_table(*args, **kwargs):
        raise DeviceError("no GPIO pins here (not a Raspberry Pi)")

    monkeypatch.setattr(runner, "open_table", open_table)
    log = tmp_path / "table.log"
    assert main(["play", "--log", str(log), "--record", str(tmp_path / "table.record.json")]) == 2
    out, err = capsys.readouterr()
    assert "Game log" not in out and "resume" not in out, out
    assert err.count("\n") == 1 and "no GPIO pins here" in err and "nothing to resume" in err, err
    assert not log.exists()



@pytest.mark.parametrize("why", ["no GPIO pins here (not a Raspberry Pi)", "aplay not found"])
def test_play_announces_no_seed_and_no_seats_for_a_game_it_then_refuses(tmp_path, monkeypatch, capsys, why):
    from controller.errors import DeviceError
    from controller.table import runner

    def open_table(*args, **kwargs):
        raise DeviceError(why)

    monkeypatch.setattr(runner, "open_table", open_table)
    assert main(["play", "--log", str(tmp_path / "t.log"), "--record", str(tmp_path / "t.record.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and why in err

class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _logged(handler: logging.Handler, level: int, text: str) -> str:
    handler.handle(logging.LogRecord("controller.table.gamelog", level, __file__, 1, text, None, None))
    stream = handler.stream  # type: ignore[attr-defined]
    return stream.getvalue()


def test_log_lines_at_a_terminal_are_words_a_player_knows():
    from firmware_bridge.cli import log_handler

    assert _logged(log_handler(stream=_Terminal()), logging.WARNING, "g.log: dropping a line") == "warning: g.log: dropping a line\n"
    assert _logged(log_handler(stream=_Terminal()), logging.INFO, "hub connected") == "hub connected\n"


@pytest.mark.parametrize("terminal, verbose", [(False, False), (True, True)])
def test_log_lines_in_a_file_or_verbose_keep_the_time_and_the_logger(terminal, verbose):
    from firmware_bridge.cli import log_handler

    line = _logged(log_handler(verbose, stream=_Terminal() if terminal else io.StringIO()), logging.WARNING, "g.log: dropping")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING controller\.table\.gamelog: g\.log: dropping\n", line), line
