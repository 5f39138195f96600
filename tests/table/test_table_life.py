"""A real table's life: started after a power cut at any moment, resuming only games of its own
kind, waiting for its devices before a count, ending a game without cutting the speaker."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from controller.__main__ import _console_factory
from controller.console import tokens as console_tokens
from controller.devices.opening import open_devices
from controller.table import config as table_config
from controller.table.bots import Bots
from controller.table.gamelog import GameLog
from controller.table.referee import Referee, Step
from controller.table.runner import Setup, new_record, open_table, setup_from_header, unfinished_log
from controller.table.session import Session

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


@pytest.mark.parametrize("tokens", [None, b"", b"{\"godfather\": 3", b"\x00" * 70000])
def test_a_resumed_game_without_a_usable_token_file_gets_new_links_and_says_so(tmp_path, tokens, monkeypatch):
    config_path = _real_config(tmp_path)
    log_path = _header_only_log(config_path, simulate=False)
    where = console_tokens.file_for(log_path)
    if tokens is not None:
        where.write_bytes(tokens)
    header = json.loads(log_path.read_text().splitlines()[0])
    setup, _ = setup_from_header(header, log_path)
    assert setup.console is True
    import controller.console.server as server

    served = []
    monkeypatch.setattr(server, "serve", lambda session, tokens, **kw: served.append(tokens) or ("source", "stop"))
    factory = _console_factory(setup, log_path, table_config.load(config_path))
    assert factory is not None
    kept, _, _ = console_tokens.load(where)  # saved at once: a second cut keeps them
    assert set(kept.teams) == {"Ann", "Bob", "Cid", "Dot"}
    said: list[str] = []

    class Told:
        def say(self, line: str) -> None:
            said.append(line)
    factory(Told())
    assert len(said) == 1 and str(where) in said[0] and "new links" in said[0] and "\n" not in said[0]
    assert served == [kept]


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


# -- a real table waits for its devices before a count; a resumed count is told first -------------------

NAMES = ["Ann", "Bob", "Cid", "Dot"]


class Stop(Exception):
    """Ends a session's run where the test has seen what it needs."""


class Godfather:
    """The console's part: the answers a test gives, and where it stops."""

    def __init__(self, session_of=lambda: None) -> None:
        self.asked: list[tuple[Step, dict | None]] = []
        self.session_of = session_of

    def answer(self, prompt):
        session = self.session_of()
        self.asked.append((prompt.step, None if session is None else session.pending))
        raise Stop


def _referee_at(step: Step, config) -> Referee:
    """A game at round 1's ``step``, as a resumed game replays it."""
    referee = Referee(new_record(config, 5))
    bots = Bots(referee, 5)
    while referee.step is not step:
        referee.submit(bots.answer(referee.prompt()))
    return referee


def _game_config(**devices):
    return table_config.from_dict({"game": {"ruleset": "classic", "players": NAMES},
                                   "timing": {"count_interval": 0.1, "withdraw_after_three": 0.1},
                                   "sound": {"output": "none"}, **devices})


def test_a_count_waits_until_the_sensor_hub_has_connected():
    from firmware_bridge.sim import SimHub

    config = _game_config()
    hub = SimHub(transport="sim", seats=4, seed=1).start()  # every standee upright
    devices = open_devices(replace(config.devices(), backend="hub", hub_url=hub.url))  # not waited for
    try:
        referee = _referee_at(Step.WITHDRAW, config)
        godfather = Godfather()
        lines: list[str] = []
        session = Session(referee, source=godfather, devices=devices, say=lines.append)
        godfather.session_of = lambda: session
        try:
            session.play_step()  # the withdrawal count, nobody lies down
        except Stop:
            pass
        assert all(devices.judge.upright(seat) for seat in range(4))
        assert not any("Check by eye" in line for line in lines), lines  # no standee read down before the count
        assert referee.step is not Step.WITHDRAW and not godfather.asked  # the sensors' verdict, nobody asked
        assert referee.round is not None and not referee.round.withdrew
    finally:
        devices.close()
        hub.close()


@pytest.mark.parametrize("step,what,call", [(Step.WITHDRAW, "the withdrawal count", "lie down to withdraw"),
                                             (Step.AIMS, "the aiming count", "everyone aims")])
def test_a_game_resumed_at_a_count_tells_the_table_before_it_counts(monkeypatch, step, what, call):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    config = _game_config()
    devices = open_devices(config.devices())  # a real clock, mock pins: every standee reads upright
    try:
        for pin in config.devices().tilt_pins[:4]:
            devices.pin_factory.pin(pin).drive_low()
        referee = _referee_at(step, config)
        lines: list[str] = []
        session = Session(referee, source=Godfather(), devices=devices, say=lines.append)
        session.resume_lead = 0.3
        started = devices.clock.now()
        try:
            session.run()
        except Stop:
            pass
        played = list(devices.speaker.played)
        told = next(i for i, line in enumerate(lines) if f"The game goes on at {what}" in line)
        called = next(i for i, line in enumerate(lines) if call in line)
        assert told < called
        assert played[0].clips == ("stand_up",)
        counted = [p.time for p in played if p.clips == ("number.1",)]
        assert counted and counted[0] - started >= 0.3, played
    finally:
        devices.close()


# -- the real table's speaker is checked at the start, said on the console too --------------------------


def test_a_real_table_with_a_silent_speaker_says_so_at_the_start(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "aplay").write_text("#!/bin/sh\necho 'aplay: main:831: audio open error: No such device' >&2\nexit 1\n")
    (bin_dir / "aplay").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    config = table_config.from_dict({"game": {"ruleset": "classic", "players": NAMES},
                                     "sound": {"output": "aplay", "engine": "tones", "cache_dir": str(tmp_path / "s")}})
    setup = Setup(config, 5, simulate=False, camera=False)
    lines: list[str] = []
    session, closers = open_table(setup, Referee(new_record(config, 5)), game_log=None, say=lines.append,
                                  progress=None, pace=0.0, console=lambda session: (Godfather(), lambda: None))
    try:
        said = [line for line in session.lines if "The speaker is silent" in line]
        assert len(said) == 1 and "audio open error" in said[0] and said == [line for line in lines if "silent" in line]
    finally:
        for close in reversed(closers):
            close()


# -- the game's end: the speaker is heard to the end, the console stays up on the final state ---------------


def test_the_finale_lets_the_last_split_and_the_winners_be_heard_to_their_end(tmp_path, monkeypatch):
    from controller.devices.sounds import SoundLibrary
    from controller.devices.speakers import AplaySpeaker
    from controller.devices.vocabulary import CLIP_KEYS
    from table_kit import table

    heard = tmp_path / "heard"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "aplay").write_text(f'#!/bin/sh\necho "start $*" >> {heard}\nsleep 0.3\necho "end $*" >> {heard}\n')
    (bin_dir / "aplay").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    session, _ = table("classic", 4, 1)
    session.run()
    assert session.referee.step is Step.OVER and session.referee.game.winners
    speaker = AplaySpeaker(SoundLibrary("en", "tones", {k: tmp_path / f"{k}.wav" for k in CLIP_KEYS}))
    session.devices.speaker = speaker
    speaker.play(["split", "seat.1"])  # the last round's split, as the last input's outcome says it
    session._finale()
    speaker.close()  # the table closes
    session.devices.close()
    lines = heard.read_text().splitlines()
    assert [line.split()[0] for line in lines] == ["start", "end", "start", "end"], lines
    assert "split.wav" in lines[1] and "winner" in lines[3]


def test_a_real_tables_console_stays_up_on_the_final_state_after_the_record_is_written(tmp_path, monkeypatch):
    from controller.table import runner

    events: list[tuple[str, float]] = []

    class OverSession:
        lines: list[str] = []

        def run(self, on_over=None) -> None:
            events.append(("over", time.monotonic()))
            if on_over is not None:
                on_over()

        def close(self) -> None:
            events.append(("table closed", time.monotonic()))

        def say(self, line: str) -> None:
            events.append(("said: " + line, time.monotonic()))

        def changed(self) -> None:
            pass

    def open_over(setup, referee, **kwargs):
        return OverSession(), [lambda: events.append(("console stopped", time.monotonic()))]

    monkeypatch.setattr(runner, "open_table", open_over)
    config = _game_config()
    for simulate in (False, True):
        events.clear()
        log = GameLog.create(tmp_path / f"game-{simulate}.log", {"record": {}})
        runner._play(Setup(config, 5, simulate=simulate, camera=False), Referee(new_record(config, 5)), log,
                     say=print, progress=None, pace=0.0, console=None,
                     on_over=lambda referee: events.append(("record written", time.monotonic())), final_hold=0.3)
        log.close()
        kinds = [kind.split(":")[0] for kind, _ in events]
        if simulate:
            assert kinds == ["over", "record written", "table closed", "console stopped"]
        else:
            assert kinds == ["over", "record written", "said", "table closed", "console stopped"]
            assert "final scores" in events[2][0]
            assert events[4][1] - events[1][1] >= 0.3


# -- a count waits for the sensors: not for a seat the Godfather took over, and no undo meanwhile ---------


def _count_waiting_for(monkeypatch, *, unread: set[int]):
    """A real table (mock pins, every standee up) at round 1's withdrawal count, the aims given by the
    console; the sensors of ``unread`` seats not read yet."""
    from controller.table import session as session_module

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(session_module, "SENSORS_GRACE_SECONDS", 0.1)
    config = _game_config()
    devices = open_devices(config.devices())
    for pin in config.devices().tilt_pins[:4]:
        devices.pin_factory.pin(pin).drive_low()
    upright = devices.judge.upright
    monkeypatch.setattr(devices.judge, "upright", lambda seat: None if seat in unread else upright(seat))
    referee = _referee_at(Step.AIMS, config)
    godfather = Godfather()
    lines: list[str] = []
    session = Session(referee, source=godfather, devices=devices, say=lines.append)
    godfather.session_of = lambda: session
    session._counted = 1  # the aiming count was given
    session.submit(Bots(referee, 5).answer(referee.prompt()))  # the aims, from the console: it may be undone
    assert referee.step is Step.WITHDRAW and session.history.why_not() is None
    return session, devices, godfather, lines


def _step_in_thread(session):
    import threading

    def step() -> None:
        try:
            session.play_step()
        except Stop:
            pass

    thread = threading.Thread(target=step, daemon=True)
    thread.start()
    return thread


def _said(lines: list[str], words: str, within: float = 2.0) -> str:
    """The first line said with ``words`` in it, waited for (``within`` seconds at most)."""
    deadline = time.monotonic() + within
    while not any(words in line for line in lines):
        assert time.monotonic() < deadline, f"never said: {words}"
        time.sleep(0.02)
    return next(line for line in lines if words in line)


def test_a_count_does_not_wait_for_a_sensor_the_godfather_took_over(monkeypatch):
    unread = {1}
    session, devices, godfather, lines = _count_waiting_for(monkeypatch, unread=unread)
    try:
        thread = _step_in_thread(session)
        waiting = _said(lines, "waits for the tilt sensors of Bob")
        assert "the Godfather takes their sensors over on the console" in waiting
        session.override_sensor(1, by_godfather=True)  # Bob's sensor: the Godfather judges it by eye
        thread.join(timeout=3.0)
        assert not thread.is_alive()
        (step, pending), = godfather.asked
        assert step is Step.WITHDRAW and pending is not None and "Bob" in pending["check"]["seats"]
    finally:
        unread.clear()
        devices.close()


def test_no_undo_comes_in_while_a_count_waits_for_the_sensors(monkeypatch):
    """The count's step is final once it waits: the count never runs for a step taken back meanwhile."""
    unread = {1}
    session, devices, godfather, lines = _count_waiting_for(monkeypatch, unread=unread)
    try:
        thread = _step_in_thread(session)
        _said(lines, "waits for the tilt sensors")
        assert session.undo() == "nothing to undo: the count has started since the last input"
        unread.clear()  # the hub answers
        thread.join(timeout=3.0)
        assert not thread.is_alive()
        assert [step for step, _ in godfather.asked] in ([], [Step.WITHDRAW])
        assert session.referee.step is not Step.AIMS and session.history.count >= 1
    finally:
        unread.clear()
        devices.close()


def test_a_count_asked_after_an_undo_came_first_is_not_given(monkeypatch):
    """The game's thread read the step, the console's undo came before the count started: no count."""
    session, devices, godfather, lines = _count_waiting_for(monkeypatch, unread=set())
    try:
        undone: list[str | None] = []
        session.progress = lambda text: undone.append(session.undo()) if not undone else None  # just after the read
        counts: list[object] = []
        withdrawal_count = devices.judge.withdrawal_count
        monkeypatch.setattr(devices.judge, "withdrawal_count", lambda seats: counts.append(seats) or withdrawal_count(seats))
        session.play_step()
        assert undone == [None] and session.referee.step is Step.AIMS
        assert not counts and not godfather.asked  # the count of a step taken back is not given
    finally:
        devices.close()


# -- the end of a game and the command line around it --------------------------------------------------


def _game_over(config) -> Referee:
    referee = Referee(new_record(config, 5))
    bots = Bots(referee, 5)
    while referee.step is not Step.OVER:
        referee.submit(bots.answer(referee.prompt()))
    return referee


def test_the_game_is_over_in_its_log_before_the_finale_is_heard():
    """A Ctrl-C during the winners' announcement leaves a finished game, not one to resume."""
    from table_kit import table

    session, lines = table("classic", 4, 1)
    events: list[str] = []
    session.devices.speaker.finish = lambda timeout: events.append("finale heard")
    session.run(on_over=lambda: events.append(f"over, after {len(lines)} lines"))
    session.devices.close()
    assert events[0] == f"over, after {len(lines)} lines"  # after the scores (the record's lines come last)
    assert events.count("finale heard") >= 1


@pytest.mark.parametrize("command", ["play", "resume"])
def test_ctrl_c_after_the_game_is_over_is_a_normal_end(tmp_path, monkeypatch, capsys, command):
    from controller.__main__ import main
    from controller.table import runner

    config_path = _real_config(tmp_path)
    config = table_config.load(config_path)
    log_path = _header_only_log(config_path, simulate=True, name="sim.log")

    def over_then_ctrl_c(*args, on_over, **kwargs):
        on_over(_game_over(config))  # the record is written
        raise KeyboardInterrupt  # during the final display, or as the table closes

    monkeypatch.setattr(runner, "start" if command == "play" else "resume", over_then_ctrl_c)
    argv = (["play", "--config", str(config_path), "--simulate", "--log", str(tmp_path / "new.log")]
            if command == "play" else ["resume", str(log_path)])
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "Game record written to" in out and "go on with" not in err and "Stopped" not in err


def test_play_on_a_log_already_there_leaves_its_links_alone(tmp_path, capsys):
    """The unfinished game's console tokens are not overwritten: its phones' links stay good."""
    from controller.__main__ import main

    config_path = _real_config(tmp_path)
    log_path = _header_only_log(config_path, simulate=False)
    tokens = console_tokens.file_for(log_path)
    console_tokens.save(tokens, console_tokens.Tokens.new(NAMES), host="127.0.0.1", port=8000)
    before = tokens.read_bytes()
    assert main(["play", "--config", str(config_path), "--log", str(log_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{log_path}: a game log is already there" in err and "resume" in err
    assert tokens.read_bytes() == before and log_path.is_file()


def test_a_write_error_in_a_resumed_game_is_one_line_and_the_log_is_kept(tmp_path, monkeypatch, capsys):
    """Not damage: the healthy log is not moved aside, and no new game starts over it."""
    from controller.__main__ import main
    from controller.table import runner
    from controller.table.gamelog import LogError

    config_path = _real_config(tmp_path)
    log_path = _header_only_log(config_path, simulate=False)

    def goes_on_then_the_card_fails(path, **kwargs):
        if kwargs.get("on_going") is not None:
            kwargs["on_going"]()  # read back and replayed: the game goes on
        raise LogError(f"{path}: cannot write the game log: Input/output error")

    def no_new_game(*args, **kwargs):
        raise AssertionError("a new game was started")

    monkeypatch.setattr(runner, "resume", goes_on_then_the_card_fails)
    monkeypatch.setattr(runner, "start", no_new_game)
    assert main(["play", "--config", str(config_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write the game log" in err and f"cashnguns resume {log_path}" in err
    assert log_path.is_file() and [p.name for p in log_path.parent.glob("*.log")] == [log_path.name]


def test_a_game_stopped_before_its_over_line_is_ended_by_resume_not_resumed_again_and_again(tmp_path):
    """Its last input is in the log, not its over line (a power cut then): resuming it writes the record
    and the over line, so the next `play` starts a new game instead of resuming it once more."""
    from controller.table.runner import resume

    config_path = _real_config(tmp_path)
    config = table_config.load(config_path)
    log_path = config.log_dir / "ended.log"
    referee = Referee(new_record(config, 5))
    game_log = GameLog.create(log_path, Setup(config, 5, simulate=True, camera=False).header(referee.record))
    bots = Bots(referee, 5)
    while referee.step is not Step.OVER:
        inp = bots.answer(referee.prompt())
        game_log.input(inp.to_json())
        referee.submit(inp)
    game_log.close()
    assert unfinished_log(config.log_dir, simulate=True) == (log_path, None)
    again = resume(log_path, say=lambda line: None)
    assert again.step is Step.OVER
    assert unfinished_log(config.log_dir, simulate=True) is None


@pytest.mark.parametrize("started_with_console, asked_console, said", [
    (True, False, "the Godfather enters its inputs on the console (it was started with --console)"),
    (False, True, "the bots play it, the Godfather's part too (it was started without --console)"),
    (True, True, None), (False, False, None)])
def test_play_simulate_says_when_the_game_it_goes_on_with_was_started_otherwise(
        tmp_path, monkeypatch, capsys, started_with_console, asked_console, said):
    import controller.__main__ as cli

    config_path = _real_config(tmp_path)
    config = table_config.load(config_path)
    tokens = console_tokens.Tokens.new(["Ann", "Bob", "Cid", "Dot"]).to_json() if started_with_console else None
    path = config.log_dir / "left.log"
    GameLog.create(path, Setup(config, 7, simulate=True, camera=False, hub=False, console=tokens)
                   .header(new_record(config, 7))).close()
    went_on: list[Path] = []
    monkeypatch.setattr(cli, "_go_on", lambda log_path, **kw: went_on.append(log_path) or 0)
    assert cli.main(["play", "--simulate", "--config", str(config_path), *(["--console"] if asked_console else [])]) == 0
    out = capsys.readouterr().out
    assert went_on == [path]
    if said is None:
        assert "goes on as it was started" not in out
    else:
        assert out == f"The unfinished simulated game in {path} goes on as it was started: {said}.\n"
