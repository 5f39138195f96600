"""Hostile files given to `replay`, `resume` and `play`: every one works or is refused with one line and exit 2.

The seeded samples of mutations here were fixed before any fix was made to pass them; hypothesis widens them.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.record.generator import random_record
import hostile_kit as H

MIB = 1024 * 1024


def replay_file(path: Path, *extra: str) -> tuple[int, str, str]:
    return H.run(["replay", str(path), *extra])


# -- replay: files past the limits -----------------------------------------------------------------


def _classic() -> dict:
    return random_record(5, "classic", 4).to_dict()


HOSTILE_TEXT = {
    "nested 5,000 deep": ("[" * 5000 + "]" * 5000, "nested deeper than 32 levels"),
    "nested 5,000 deep inside an object": ('{"format": ' + "[" * 5000 + "]" * 5000 + "}", "nested deeper than 32 levels"),
    "a number of 5,001 digits": ('{"format": 1' + "1" * 5000 + "}", "a number of 5001 characters"),
    "a float of 5,001 digits": ('{"format": 1.' + "1" * 4999 + "}", "a number of 5001 characters"),
    "NaN": ('{"format": NaN}', "NaN is not a JSON number"),
    "a lone surrogate in a name": (
        json.dumps({**_classic(), "players": [{"name": "\ud800"}, *_classic()["players"][1:]]}),
        "lone surrogate",
    ),
    "a lone surrogate in a key": ('{"\\udfff": 1}', "lone surrogate"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_TEXT))
@pytest.mark.parametrize("mode", [[], ["--json"]])
def test_replay_refuses_hostile_json_in_one_line(tmp_path, case, mode):
    text, message = HOSTILE_TEXT[case]
    path = tmp_path / "hostile.record.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    code, out, err = replay_file(path, *mode)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and str(path) in err, err


def test_replay_refuses_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "latin1.record.json"
    path.write_bytes(b'{"format": "caf\xe9"}')
    code, _, err = replay_file(path)
    assert code == 2 and err.strip() == f"{path}: not UTF-8 text (byte 16)"


def test_replay_refuses_a_95_mb_record_without_reading_it(tmp_path):
    path = tmp_path / "huge.record.json"
    with path.open("wb") as handle:
        handle.truncate(95 * MIB)  # sparse: 95 MB of size, no disk
    tracemalloc.start()
    try:
        code, _, err = replay_file(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2 and err.strip() == f"{path}: 95.0 MB, more than a record can be (4.0 MB)"
    assert peak < 2 * MIB


def test_replay_of_dev_zero_reads_a_bounded_amount():
    tracemalloc.start()
    try:
        code, _, err = replay_file(Path("/dev/zero"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2 and err.strip() == "/dev/zero: more than a record can be (4.0 MB)"
    assert peak < 12 * MIB  # the limit, read once, and its decoding at most


def test_replay_of_a_folder(tmp_path):
    code, _, err = replay_file(tmp_path)
    assert code == 2 and err.strip() == f"{tmp_path}: is a folder, not a record"


# -- replay: one-field mutations of valid records with powers and objects ---------------------------


RECORDS = H.valid_records()


def test_the_named_mutations_are_refused(tmp_path):
    yakuzas = RECORDS[0]
    gang = next(iter(yakuzas["setup"]["powers"]["dealt"]))
    player = next(iter(yakuzas["setup"]["objects"]["kept"]))
    cases = {
        "dealt a number": (H.mutate(yakuzas, ("setup", "powers", "dealt", gang), 5), f"setup: powers: dealt: {gang}"),
        "kept a list": (H.mutate(yakuzas, ("setup", "objects", "kept", player), ["x"]), f"setup: objects: kept: {player}"),
        "an unknown gang dealt": (H.rename_key(yakuzas, ("setup", "powers", "dealt", gang), "white"), "'white' is not a gang"),
        "a gang with one player": (H.mutate(yakuzas, ("players", 1, "gang"), "purple"), "setup: powers: dealt"),
        "a gang that is not one": (H.mutate(yakuzas, ("players", 0, "gang"), "x"), "expected a gang"),
    }
    for what, (data, message) in cases.items():
        code, _, err = replay_file(H.write(tmp_path / "m.record.json", data))
        assert code == 2 and err.count("\n") == 1 and message in err, (what, err)


@pytest.mark.parametrize("index", range(len(RECORDS)))
def test_one_field_mutations_work_or_are_refused(tmp_path, index):
    """A seeded sample of the one-field mutations of each record (all of them: the slow test below)."""
    for what, data in H.sample(RECORDS[index], 150, seed=index):
        code, _, err = replay_file(H.write(tmp_path / "m.record.json", data))
        H.check_refused_or_done(code, err, what)


@pytest.mark.slow
def test_every_one_field_mutation_works_or_is_refused(tmp_path):
    count = 0
    for record in RECORDS:
        for what, data in H.mutations(record):
            code, _, err = replay_file(H.write(tmp_path / "m.record.json", data), "--json")
            H.check_refused_or_done(code, err, what)
            count += 1
    assert count > 30_000


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_records_work_or_are_refused(data):
    record = data.draw(st.sampled_from(RECORDS))
    every = list(H.paths(record))
    edits = data.draw(st.lists(st.tuples(st.sampled_from(every), json_values), min_size=1, max_size=3))
    for path, value in edits:
        try:
            record = H.mutate(record, path, value)
        except (KeyError, IndexError, TypeError):  # an earlier edit removed the place
            continue
    mode = data.draw(st.sampled_from([[], ["--json"]]))
    with tempfile.TemporaryDirectory() as folder:
        code, _, err = replay_file(H.write(Path(folder) / "f.record.json", record), *mode)
    H.check_refused_or_done(code, err, repr(edits))


@settings(max_examples=100, deadline=None)
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_fuzzed_bytes_are_refused(raw):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "b.record.json"
        path.write_bytes(raw)
        code, _, err = replay_file(path)
    H.check_refused_or_done(code, err, repr(raw))
    assert code == 2


# -- resume: damaged game logs ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_log(tmp_path_factory) -> Path:
    """The game log of a whole simulated game (classic, 4 players), its record written elsewhere."""
    folder = tmp_path_factory.mktemp("game")
    code, _, err = H.run(["demo", "--fast", "--ruleset", "classic", "--players", "4", "--no-camera",
                          "--record", str(folder / "records" / "g.record.json"), "--log", str(folder / "logs" / "g.log")])
    assert code == 0, err
    return folder / "logs" / "g.log"


def _lines(log: Path) -> list[bytes]:
    return log.read_bytes().split(b"\n")[:-1]


def _log_with(tmp_path: Path, log: Path, lines: list[bytes]) -> Path:
    path = tmp_path / "damaged.log"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _cut_short(log: Path, inputs: int) -> list[bytes]:
    """The header and the lines up to the ``inputs``-th input: an unfinished game."""
    kept, seen = [], 0
    for line in _lines(log):
        kept.append(line)
        if b'"input"' in line:
            seen += 1
            if seen == inputs:
                break
    return kept


BAD_LINES = {
    "null": (b"null", "not an entry"),
    "a number": (b"5", "not an entry"),
    "a string": (b'"input"', "not an entry"),
    "seq not a number": (b'{"seq": "7", "input": {"kind": "cards"}}', "seq is not a whole number"),
    "input not an object": (b'{"seq": 7, "input": 5}', "the input is not an object"),
    "invalid UTF-8": (b'{"seq": 7, "input": {"kind": "\xff"}}', "not UTF-8 text"),
    "not JSON": (b'{"seq": 7, "inp', "not valid JSON"),
    "nested 5,000 deep": (b"[" * 5000 + b"]" * 5000, "nested deeper"),
    "a huge number": (b'{"seq": 1' + b"1" * 5000 + b', "seen": {}}', "a number of 5001 characters"),
}


@pytest.mark.parametrize("case", sorted(BAD_LINES))
def test_resume_refuses_a_damaged_line_in_one_line(tmp_path, finished_log, case):
    bad, message = BAD_LINES[case]
    lines = _cut_short(finished_log, 6)
    path = _log_with(tmp_path, finished_log, [*lines[:4], bad, *lines[4:]])
    code, _, err = H.run(["resume", str(path), "--fast"])
    assert code == 2 and err.count("\n") == 1, err
    assert f"{path}: line 5:" in err and message in err, err


def _header_with(finished_log: Path, edit) -> bytes:
    header = json.loads(_lines(finished_log)[0])
    edit(header)
    return json.dumps(header, ensure_ascii=True).encode()


BAD_HEADERS = {
    "seed a string": lambda h: h.__setitem__("seed", "s"),
    "simulate a string": lambda h: h.__setitem__("simulate", "yes"),
    "no table": lambda h: h.pop("table"),
    "table a list": lambda h: h.__setitem__("table", []),
    "players a string": lambda h: h["table"].__setitem__("players", "AB"),
    "players of numbers": lambda h: h["table"].__setitem__("players", [[1, None]] * 4),
    "ruleset unknown": lambda h: h["table"].__setitem__("ruleset", "poker"),
    "options a list": lambda h: h["table"].__setitem__("options", []),
    "record a number": lambda h: h.__setitem__("record", 5),
    "record_path a number": lambda h: h.__setitem__("record_path", 5),
    "console a list": lambda h: h.__setitem__("console", []),
    "a name twice": lambda h: h["table"].__setitem__("players", [["A", None]] * 4),
}


@pytest.mark.parametrize("case", sorted(BAD_HEADERS))
def test_resume_refuses_a_bad_header_in_one_line(tmp_path, finished_log, case):
    lines = _cut_short(finished_log, 6)
    path = _log_with(tmp_path, finished_log, [_header_with(finished_log, BAD_HEADERS[case]), *lines[1:]])
    code, _, err = H.run(["resume", str(path), "--fast"])
    assert code == 2 and err.count("\n") == 1 and f"{path}: line 1:" in err, err


def test_resume_keeps_the_record_path_play_was_given(tmp_path, finished_log):
    path = _log_with(tmp_path, finished_log, _cut_short(finished_log, 10))
    record = Path(json.loads(_lines(finished_log)[0])["record_path"])
    assert record.parent.name == "records" and record.parent != path.parent
    record.unlink()
    code, out, err = H.run(["resume", str(path), "--fast"])
    assert code == 0, err
    assert record.is_file() and f"Game record written to {record}" in out
    assert not (tmp_path / "damaged.record.json").exists()


def test_resume_salvage_goes_on_from_the_last_good_input(tmp_path, finished_log):
    lines = _cut_short(finished_log, 12)
    inputs_before = sum(b'"input"' in line for line in lines[:8])
    path = _log_with(tmp_path, finished_log, [*lines[:8], b'{"seq": 9, "input": nul', *lines[8:]])
    code, _, err = H.run(["resume", str(path), "--fast"])
    assert code == 2 and "line 9: not valid JSON" in err  # never skipped silently
    code, out, err = H.run(["resume", "--salvage", str(path), "--fast", "--record", str(tmp_path / "s.record.json")])
    assert code == 0, err
    told = next(line for line in out.splitlines() if line.startswith("Salvaged"))
    dropped = len(lines) - 8 + 1
    assert f"kept {inputs_before} inputs; dropped {dropped} line(s) from line 9: not valid JSON" in told
    (aside,) = tmp_path.glob("damaged.log.damaged-*")
    assert aside.read_bytes().count(b"\n") == len(lines) + 1
    assert f"after {inputs_before} inputs" in out


def test_resume_salvage_drops_an_input_that_does_not_replay(tmp_path, finished_log):
    lines = _cut_short(finished_log, 12)
    number = next(k for k, line in enumerate(lines) if k > 3 and b'"input"' in line)
    entry = json.loads(lines[number])
    entry["input"] = {"kind": "aims", "aims": {"Nobody": "Nothing"}}
    path = _log_with(tmp_path, finished_log, [*lines[:number], json.dumps(entry).encode(), *lines[number + 1:]])
    code, _, err = H.run(["resume", str(path), "--fast"])
    assert code == 2 and f"line {number + 1}: input" in err and "cannot be replayed" in err, err
    code, out, err = H.run(["resume", "--salvage", str(path), "--fast", "--record", str(tmp_path / "s.record.json")])
    assert code == 0, err
    assert f"dropped {len(lines) - number} line(s) from line {number + 1}: input" in out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_logs_resume_or_are_refused(finished_log, data):
    lines = _cut_short(finished_log, data.draw(st.integers(1, 40)))
    k = data.draw(st.integers(0, len(lines) - 1))
    how = data.draw(st.sampled_from(["value", "bytes", "field"]))
    if how == "value":
        lines[k] = json.dumps(data.draw(json_values), ensure_ascii=True).encode()
    elif how == "bytes":
        lines[k] = data.draw(st.binary(max_size=40)).replace(b"\n", b"")
    else:
        entry = json.loads(lines[k])
        place = data.draw(st.sampled_from(list(H.paths(entry))))
        lines[k] = json.dumps(H.mutate(entry, place, data.draw(json_values)), ensure_ascii=True).encode()
    salvage = data.draw(st.booleans())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.log"
        path.write_bytes(b"\n".join(lines) + b"\n")
        argv = ["resume", str(path), "--fast", "--record", str(Path(folder) / "r.record.json")]
        code, _, err = H.run(argv + (["--salvage"] if salvage else []))
    H.check_refused_or_done(code, err, f"line {k + 1} ({how}): {lines[k][:80]!r}")


# -- play: a damaged unfinished game never blocks the table -------------------------------------------


def _table(tmp_path: Path, games: Path) -> Path:
    config = tmp_path / "table.toml"
    config.write_text(f'[game]\nruleset = "classic"\nplayers = ["Ann", "Bob", "Cid", "Dot"]\n[log]\ndir = "{games}"\n')
    return config


@pytest.mark.parametrize("damage", ["a bad line in the middle", "a bad header", "an input that does not replay"])
def test_play_moves_a_damaged_unfinished_log_aside_and_starts_a_new_game(tmp_path, finished_log, damage):
    games = tmp_path / "games"
    games.mkdir()
    lines = _cut_short(finished_log, 10)
    if damage == "a bad line in the middle":
        lines.insert(5, b"null")
    elif damage == "a bad header":
        lines[0] = b'{"format": "cashnguns-log/1", "seed": "s"}'
    else:
        entry = json.loads(lines[6])
        entry["input"] = {"kind": "nothing"}
        lines[6] = json.dumps(entry).encode()
    (games / "old.log").write_bytes(b"\n".join(lines) + b"\n")
    code, out, err = H.run(["play", "--config", str(_table(tmp_path, games)), "--simulate", "--fast"])
    assert code == 0, err
    told = [line for line in out.splitlines() if "old.log" in line]
    assert len(told) == 1 and "cannot be resumed" in told[0] and "moved aside" in told[0], out
    assert "starting a new game" in told[0]
    assert not (games / "old.log").exists() and len(list(games.glob("old.log.damaged-*"))) == 1
    assert "Game over after round" in out


def test_play_goes_on_with_an_unfinished_game(tmp_path, finished_log):
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(finished_log, games / "left.log")
    (games / "left.log").write_bytes(b"\n".join(_cut_short(finished_log, 10)) + b"\n")
    code, out, err = H.run(["play", "--config", str(_table(tmp_path, games)), "--simulate", "--fast",
                            "--record", str(tmp_path / "r.record.json")])
    assert code == 0, err
    assert f"Going on with the game in {games / 'left.log'} at round" in out


def test_play_refuses_a_record_folder_before_going_on_with_an_unfinished_game(tmp_path, finished_log):
    """Found before the game, not once it is over (its record then has nowhere to go)."""
    games = tmp_path / "games"
    games.mkdir()
    (games / "left.log").write_bytes(b"\n".join(_cut_short(finished_log, 10)) + b"\n")
    folder = tmp_path / "records"
    folder.mkdir()
    code, out, err = H.run(["play", "--config", str(_table(tmp_path, games)), "--simulate", "--fast", "--record", str(folder)])
    assert code == 2 and out == ""
    assert err == f"--record: {folder} is a folder: give the path of a file to write\n"
    assert (games / "left.log").read_bytes() == b"\n".join(_cut_short(finished_log, 10)) + b"\n"



def test_play_refuses_a_record_under_a_file_before_going_on_with_an_unfinished_game(tmp_path, finished_log):
    """A place that cannot be written is found before the game goes on, not once it is over."""
    games = tmp_path / "games"
    games.mkdir()
    left = b"\n".join(_cut_short(finished_log, 10)) + b"\n"
    (games / "left.log").write_bytes(left)
    (tmp_path / "a-file").write_text("")
    record = tmp_path / "a-file" / "r.record.json"
    code, out, err = H.run(["play", "--config", str(_table(tmp_path, games)), "--simulate", "--fast", "--record", str(record)])
    assert code == 2 and out == ""
    assert err == f"--record: cannot write {record}: a file is where a folder must be\n"
    assert (games / "left.log").read_bytes() == left


def test_resume_checks_where_the_game_was_started_to_write_its_record_before_it_goes_on(tmp_path):
    code, _, err = H.run(["demo", "--fast", "--ruleset", "classic", "--players", "4", "--no-camera",
                          "--record", str(tmp_path / "records" / "g.record.json"), "--log", str(tmp_path / "g.log")])
    assert code == 0, err
    left = _log_with(tmp_path, tmp_path / "g.log", _cut_short(tmp_path / "g.log", 10))
    kept = left.read_bytes()
    shutil.rmtree(tmp_path / "records")
    (tmp_path / "records").write_text("")  # a file where its folder was
    code, out, err = H.run(["resume", str(left), "--fast"])
    assert code == 2 and "Round" not in out
    assert err == (f"the game record: cannot write {tmp_path / 'records' / 'g.record.json'}: a file is where a folder "
                   "must be (give another: --record PATH)\n")
    assert left.read_bytes() == kept
    code, out, err = H.run(["resume", str(left), "--fast", "--record", str(tmp_path / "elsewhere.record.json")])
    assert code == 0, err

# -- configurations ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players,message",
    [
        ('["Ann", "Bob", "Ann", "Dot"]', "'Ann' is listed twice (seats 0 and 2)"),
        ('["Ann", "Bob", "ann", "Dot"]', "'ann' is listed twice (seats 0 and 2)"),
        ('["Ann", "Bob", "' + "x" * 300 + '", "Dot"]', "seat 2: 'xxxxxxxxxxxxxxxxxxxxxxxx'... is longer than 24 characters"),
        ('["Ann", "Bob", "", "Dot"]', "seat 2: an empty name"),
        ('["Ann", "Bob", "C\\u0007d", "Dot"]', "do not print"),
        ('["Ann", "Bob", "Cid", 5]', "a list of player names"),
    ],
)
def test_a_bad_name_in_the_configuration_is_one_line(tmp_path, players, message):
    config = tmp_path / "table.toml"
    config.write_text(f'[game]\nruleset = "classic"\nplayers = {players}\n[log]\ndir = "{tmp_path}"\n')
    code, _, err = H.run(["play", "--config", str(config), "--simulate", "--fast"])
    assert code == 2 and err.count("\n") == 1 and message in err and str(config) in err, err


GAME = '[game]\nruleset = "classic"\nplayers = ["Ann", "Bob", "Cid", "Dot"]\n'


@pytest.mark.parametrize(
    "text,message",
    [
        ("a = " + "[" * 5000 + "]" * 5000, "nested deeper than 32 levels"),
        ("[game]\nruleset = 5\n", "game.ruleset"),
        ("game = 5\n", "game: must be a [game] section"),
        (GAME + '[camera]\ncalibration = 5\n', "camera.calibration"),
        (GAME + '[camera]\nask_godfather_below = "high"\n', "camera.ask_godfather_below"),
        (GAME + '[log]\ndir = 5\n', "log.dir"),
        (GAME + '[console]\nhost = []\n', "console.host"),
        (GAME + '[sound]\noutput = 5\n', "sound.output"),
        (GAME + '[tilt]\npins = "GPIO5"\n', "tilt.pins"),
        ("[game]\nplayers = [\"\xff\"]\n", "not UTF-8 text"),
        (GAME + '[tilt]\npins = [4, 5, 6, 99]\n', "tilt sensor of seat 3: 99 is not a GPIO of the Pi's 40-pin header"),
        (GAME + '[tilt]\npins = [4, 5, 6, -1]\n', "tilt sensor of seat 3: -1 is not a GPIO"),
        (GAME + '[tilt]\npins = [[4], 5, 6, 7]\n', "tilt sensor of seat 0: [4] is not a GPIO"),
        (GAME + '[timing]\ncount_interval = nan\n', "timing.count_interval must be a non-negative number of seconds"),
        (GAME + '[timing]\ncount_interval = 1e300\n', "timing.count_interval must be a non-negative number of seconds"),
        (GAME + '[console]\nprot = 8081\n', "console.prot: unknown key (known: host, port)"),
        (GAME + 'sead = 3\n', "game.sead: unknown key"),
        (GAME + '[log]\ndirectory = "/tmp"\n', "log.directory: unknown key (known: dir)"),
        (GAME + '[console]\nport = true\n', "console.port: a TCP port number"),
        ("[game]\nseed = " + "9" * 5000 + "\n", "a number longer than 40 digits"),
        ("[game]\nseed = " + "9" * 41 + "\n", "a number longer than 40 digits"),
    ],
)
def test_a_broken_configuration_is_one_line(tmp_path, text, message):
    config = tmp_path / "table.toml"
    config.write_bytes(text.encode("latin-1") if "\xff" in text else text.encode())
    code, _, err = H.run(["play", "--config", str(config), "--simulate", "--fast"])
    assert code == 2 and err.count("\n") == 1 and message in err, err


def test_a_huge_configuration_is_refused_unread(tmp_path):
    config = tmp_path / "table.toml"
    with config.open("wb") as handle:
        handle.truncate(50 * MIB)
    code, _, err = H.run(["play", "--config", str(config)])
    assert code == 2 and err.strip() == f"{config}: 50.0 MB, more than a configuration file can be (256 kB)"


def test_game_logs_are_readable_by_the_table_user_only(finished_log, tmp_path):
    assert finished_log.stat().st_mode & 0o777 == 0o600
    lines = _cut_short(finished_log, 8)
    path = _log_with(tmp_path, finished_log, [*lines[:5], b"null", *lines[5:]])
    code, _, err = H.run(["resume", "--salvage", str(path), "--fast", "--record", str(tmp_path / "r.record.json")])
    assert code == 0, err
    assert path.stat().st_mode & 0o777 == 0o600


def test_the_notice_of_a_log_moved_aside_reaches_the_console(tmp_path, monkeypatch):
    """What the table says before a new game (a damaged log moved aside) is in the session's lines, which the
    console shows, and is printed once."""
    from controller.table import config as table_config
    from controller.table import runner

    sessions = []
    opened = runner.open_table

    def keep(*args, **kwargs):
        session, closers = opened(*args, **kwargs)
        sessions.append(session)
        return session, closers

    monkeypatch.setattr(runner, "open_table", keep)
    config = table_config.from_dict({"game": {"ruleset": "classic", "players": ["Ann", "Bob", "Cid", "Dot"], "seed": 3}})
    printed: list[str] = []
    notice = "The unfinished game in old.log cannot be resumed (line 6: not an object): moved aside; starting a new game."
    runner.start(runner.Setup(config, 3, simulate=True, camera=False), log_path=tmp_path / "game.log",
                 say=printed.append, notices=(notice,))
    assert sessions and notice in sessions[0].lines
    assert printed.count(notice) == 1


def test_a_byte_order_mark_before_a_record_or_a_configuration_is_read_past(tmp_path):
    record = tmp_path / "game.record.json"
    record.write_bytes(b"\xef\xbb\xbf" + json.dumps(H.valid_records()[3]).encode())
    code, out, err = H.run(["replay", "--json", str(record)])
    assert code == 0 and err == "", err
    config = tmp_path / "table.toml"
    config.write_bytes(b"\xef\xbb\xbf" + (GAME + "[tilt]\npins = [4, 5, 6, 99]\n").encode())
    code, _, err = H.run(["play", "--config", str(config), "--simulate", "--fast"])
    assert code == 2 and "tilt sensor of seat 3" in err  # read past the mark, to the real fault


def test_a_named_pipe_nobody_writes_to_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)
    code, _, err = H.run(["replay", str(fifo)])
    assert code == 2 and err.count("\n") == 1 and str(fifo) in err


def test_a_pipe_with_a_writer_is_read(tmp_path):
    read, write = os.pipe()
    data = json.dumps(H.valid_records()[3]).encode()
    writer = threading.Thread(target=lambda: (time.sleep(0.2), os.write(write, data), os.close(write)))
    writer.start()
    try:
        code, out, err = H.run(["replay", "--json", f"/dev/fd/{read}"])
    finally:
        writer.join()
        os.close(read)
    assert code == 0 and err == "", err


@pytest.mark.parametrize("name", ["\u001b[2Jx", "Bo\nCy", "\u202eoB", " ", "Eve "])
def test_replay_refuses_a_name_that_does_not_print_as_itself(tmp_path, name):
    """A name with a control character would clear the terminal or break the story's lines when it is told."""
    text = json.dumps(_classic()).replace('"Dee"', json.dumps(name))
    path = tmp_path / "name.record.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = replay_file(path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "players: seat 3:" in err and "do not print" in err, err


def test_replay_names_where_a_cut_record_ends(tmp_path):
    path = tmp_path / "cut.record.json"
    path.write_text('{"format": "cashnguns-record/1", "ruleset": "clas', encoding="utf-8")
    code, out, err = replay_file(path)
    assert code == 2 and out == ""
    assert err == f"{path}: not valid JSON: Unterminated string starting at (line 1, column 45)\n"
