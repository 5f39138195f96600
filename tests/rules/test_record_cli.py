"""``python -m controller replay``: results, the story, and one clear line for every broken record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.__main__ import main
from controller.record.generator import random_record
from rules_kit import YAKUZA_NAMES, all_cards, record, rnd

EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "examples" / "yakuzas-tanto-retarget.record.json"
Y6 = YAKUZA_NAMES[6]
Y6_AIMS = {"P1": "Y1", "Y1": "R1", "R1": "P2", "P2": "Y2", "Y2": "R2", "R2": "P1"}


def y6(**cards):
    return all_cards(Y6, "clic", P1="cling", P2="cling", **cards)


def run_replay(tmp_path, data, *extra) -> tuple[int, str, str]:
    path = tmp_path / "game.record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    proc = subprocess.run(
        [sys.executable, "-m", "controller", "replay", str(path), *extra], capture_output=True, text=True, check=False
    )
    return proc.returncode, proc.stdout, proc.stderr


BROKEN = {
    "malformed JSON": ('{"format": "cashnguns-record/1", ', "not valid JSON"),
    "wrong seating": (record("yakuzas", 6, [], names=["P1", "P2", "Y1", "R1", "Y2", "R2"]), "P2 may not sit at seat 1"),
    "card not in hand": (
        record("yakuzas", 6, [rnd(y6(Y1="tanto"), Y6_AIMS)]),
        "round 1: Y1 has no tanto card in hand",
    ),
    "aim at own gang": (
        record("yakuzas", 6, [rnd(y6(), {**Y6_AIMS, "Y1": "Y2"})]),
        "round 1: Y1 may not aim at Y2: same gang",
    ),
    "tanto at a non-neighbour": (
        record("yakuzas", 6, [rnd(y6(), {**Y6_AIMS, "P1": "R1"})]),
        "round 1: P1 may not aim a tanto at R1: not a neighbour",
    ),
    "a dead player acting": (
        record(
            "classic",
            4,
            [
                rnd(all_cards("ABCD", B="bang", C="bang", D="bbb"), {"A": "B", "B": "A", "C": "A", "D": "A"}),
                rnd(all_cards("BCD"), {"B": "C", "C": "D", "D": "B"}),
                rnd(all_cards("ABCD"), {"A": "B", "B": "C", "C": "D", "D": "B"}),
            ],
        ),
        "round 3: A is dead and may not play a card",
    ),
    "a throw without a shuriken": (
        record("yakuzas", 6, [rnd(y6(), Y6_AIMS, shuriken=[{"thrower": "P1", "knocked": ["R1"], "touched": []}])]),
        "round 1: P1 did not play a shuriken and may not throw",
    ),
    "a pick out of turn": (
        record("classic-2014", 4, [rnd(all_cards("ABCD"), {"A": "B", "B": "C", "C": "D", "D": "A"}, picks=[{"player": "C", "take": "painting"}])]),
        "round 1: C picked out of turn: it is A's turn",
    ),
    "unknown player": (
        record("classic", 4, [rnd({**all_cards("ABCD"), "Zed": "clic"}, {"A": "B", "B": "C", "C": "D", "D": "A"})]),
        "round 1: cards: 'Zed' is not a player",
    ),
    "wrong format": ({"format": "pgn", "ruleset": "classic"}, "format: expected 'cashnguns-record/1'"),
    "no card": (record("classic", 4, [rnd(all_cards("ABC"), {"A": "B", "B": "C", "C": "D", "D": "A"})]), "round 1: D put down no card"),
    "round after the end": (None, "round 9: the game ended after round 8"),
    "powers without the option": (
        record("classic", 4, [rnd(all_cards("ABCD"), {"A": "B", "B": "C", "C": "D", "D": "A"}, powers=[{"player": "A", "card": "the-kid"}])]),
        "round 1: powers: needs the super_powers option",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_record_exit_2_one_line(tmp_path, case):
    data, message = BROKEN[case]
    if data is None:
        finished = random_record(3, "classic", 5)
        while len(finished.rounds) < 8:
            finished = random_record(len(finished.rounds) + 100, "classic", 5)
        data = finished.to_dict()
        data["rounds"].append(data["rounds"][-1])
        data["loot"] = data["loot"][:8]
    code, out, err = run_replay(tmp_path, data, "--json")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err, err


def test_missing_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert "no such record" in err and err.count("\n") == 1


def test_a_game_log_given_to_replay_points_to_resume(tmp_path, capsys):
    from controller.table.gamelog import GameLog

    log = GameLog.create(tmp_path / "table.log", {"record": random_record(5, "yakuzas", 9).to_dict()})
    log.input({"kind": "aims"})
    log.close()
    assert main(["replay", str(tmp_path / "table.log")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "a game log, not a game record" in err and f"cashnguns resume {tmp_path / 'table.log'}" in err, err


def test_story_without_json(capsys):
    assert main(["replay", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Round 1: pot $70,000" in out
    assert "Ivo withdraws and takes a cowardice token." in out
    assert "Hana's tanto moves on from Ivo to Jun." in out
    assert "Split: Hana, Kit, Max and Ned get $10,000 each" in out
    assert "yellow: money $10,000, score $5,000" in out


def story(tmp_path, capsys, rec) -> str:
    """What `replay` tells of ``rec`` (written to a file first), once it ended well."""
    path = tmp_path / "g.record.json"
    path.write_text(rec.dumps())
    assert main(["replay", str(path)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("ruleset", ["classic", "classic-2014", "yakuzas"])
def test_story_of_a_whole_game(tmp_path, capsys, ruleset):
    rec = random_record(11, ruleset)
    out = story(tmp_path, capsys, rec)
    assert out.count("Round ") >= len(rec.rounds)
    assert "Game over after round" in out
    assert ("Winner" in out) or ("No one wins." in out)


@pytest.mark.parametrize("ruleset", ["classic", "classic-2014", "yakuzas"])
def test_the_story_tells_each_rounds_aims_under_its_header(tmp_path, capsys, ruleset):
    """"Cy loses the card played: the target withdrew" is followed only with the aims: each round tells
    them, every living player's, as recorded (a late one as pointed late), right under the round's header."""
    rec = random_record(12, ruleset)
    lines = story(tmp_path, capsys, rec).splitlines()
    for number, rr in enumerate(rec.rounds, start=1):
        header = next(k for k, line in enumerate(lines) if line.startswith(f"Round {number}: "))
        told = [f"{n} pointed late" if n in rr.late else f"{n} at {t or 'no one'}" for n, t in rr.aims.items()]
        assert lines[header + 1] == f"  Aims: {', '.join(told)}.", (number, lines[header: header + 2])
    assert sum(line.startswith("  Aims: ") for line in lines) == len(rec.rounds)


def test_a_withdrawal_in_the_2nd_edition_takes_no_token_and_is_told_plainly(tmp_path, capsys):
    rec = random_record(12, "classic-2014")
    out = story(tmp_path, capsys, rec)
    withdrew = [n for rr in rec.rounds for n in rr.withdraw]
    assert withdrew and all(f"  {n} withdraws.\n" in out for n in withdrew)
    assert "withdraws and" not in out


@pytest.mark.parametrize("ruleset", ["classic", "classic-2014", "yakuzas"])
def test_the_2nd_editions_story_says_who_is_godfather_in_round_1(tmp_path, capsys, ruleset):
    rec = random_record(13, ruleset)
    lines = story(tmp_path, capsys, rec).splitlines()
    if ruleset == "classic-2014":  # the rules: round 1's Godfather is the first player listed
        assert lines[2] == f"The Godfather in round 1: {rec.players[0][0]}."
    else:
        assert not any("Godfather in round 1" in line for line in lines)


def test_demo_writes_a_record_that_replays(tmp_path, capsys):
    target = tmp_path / "demo.record.json"
    assert main(["demo", "--seed", "5", "--fast", "--no-camera", "--record", str(target)]) == 0
    out = capsys.readouterr().out
    assert str(target) in out.splitlines()[-1]
    assert main(["replay", str(target), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["finished"] and res["ruleset"] == "yakuzas" and len(res["players"]) == 9


def test_demo_refuses_bad_player_count(capsys):
    assert main(["demo", "--ruleset", "classic", "--players", "9"]) == 2
    assert "classic is for 4-6 players" in capsys.readouterr().err
