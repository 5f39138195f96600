"""The engine's refusals and notes speak as players do: a player by name, never "he" or "his"; a card by its printed
name ("The Kid", "Bang! Bang! Bang!"), never by its record id ("the-kid", "bbb"); a moment as "phase 5b", not
"phase-5b".

The lines come from every illegal book case (tests/data/book_cases) and from a seeded fuzz of illegal records:
random legal games with one thing broken (a card, an aim, a use of the advanced rules, a pick).
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

from controller.__main__ import main
from controller.errors import CashNGunsError
from controller.record import from_dict, replay
from controller.record.generator import Style, random_game
from controller.rules import RuleSet
from controller.rules.advanced import CATALOG, MOMENTS
from controller.rules.events import CardUsed
from controller.rules.names import card_label, moment_label, use_label
from controller.words import card_name, moment_name

PRONOUN = re.compile(r"\b(he|his|him|himself|she|her)\b", re.IGNORECASE)
RAW_ID = re.compile(r"\bthe-[a-z]|\bbbb\b|\bclic\b|\bcash-\d|\bdiamond-\d|\bphase-\d|\bend-of-round\b|\b[a-z]+-[a-z]+-[a-z]+\b")
CASES_DIR = Path(__file__).resolve().parent.parent / "data" / "book_cases"
BULLETS = ["clic", "bang", "bbb", "cling", "tanto", "shuriken", "painting", "cash-20000", "diamond-5000"]


QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")


def wrong_words(line: str) -> list[str]:
    """Pronouns and record ids in ``line``; a value quoted from a broken record (\"cash-20000\" is not a card) is
    the input shown as it is, not a name."""
    line = QUOTED.sub('"…"', line)
    return [m.group(0) for m in PRONOUN.finditer(line)] + [m.group(0) for m in RAW_ID.finditer(line)]


def refusal(data: dict) -> str | None:
    try:
        replay(from_dict(json.loads(json.dumps(data))))
    except CashNGunsError as exc:
        return str(exc)
    return None


def test_the_patterns_catch_what_they_must():
    for bad in ("may not use the-kid: he does not hold it", "his bbb did not fire", "at phase-5b", "a clic card",
                "may not take cash-20000", "it-does-not-even-hurt", "no one aims at her", "may not aim at himself"):
        assert wrong_words(bad), bad
    for good in ("round 1: Bo may not use The Kid: Bo does not hold it", "Eve's Bang! Bang! Bang! did not fire",
                 "at phase 5b", "a Clic Clic Clic card", "may not take $20,000", "It Does Not Even Hurt",
                 "Hera may not aim a tanto at Shea", "the end of the round"):
        assert not wrong_words(good), good


def test_the_engine_names_cards_as_the_words_do():
    for card in [*CATALOG, *BULLETS, "first-aid", "godfather", 20000]:
        assert card_label(card) == card_name(card)
        assert not RAW_ID.search(card_label(card)), card
    for card in CATALOG:
        assert use_label(card) == CATALOG[card].name
    for moment in MOMENTS:
        assert moment_label(moment) == moment_name(moment)
        assert not RAW_ID.search(moment_label(moment))


ILLEGAL_CASES = sorted(p.name.removesuffix(".record.json") for p in CASES_DIR.glob("illegal-*.record.json"))


@pytest.mark.parametrize("name", ILLEGAL_CASES)
def test_book_case_refusals_name_players_and_cards(name):
    line = refusal(json.loads((CASES_DIR / f"{name}.record.json").read_text(encoding="utf-8")))
    assert line is not None, f"{name} was accepted"
    assert not wrong_words(line), f"{name}: {line}"


def _break(data: dict, rng: random.Random) -> None:
    """One thing in a legal record made (most likely) illegal."""
    rounds = data["rounds"]
    rr = rng.choice(rounds)
    names = [p["name"] for p in data["players"]]
    who = rng.choice(names)
    kind = rng.randrange(8)
    if kind == 0:
        rr["cards"][rng.choice(list(rr["cards"]) or names)] = rng.choice(BULLETS)
    elif kind == 1:
        rr["aims"][who] = rng.choice([who, *names])
    elif kind == 2:
        rr.setdefault("late", []).append(who)
        rr["aims"][who] = rng.choice(names)
    elif kind in (3, 4):
        held = [(name, card) for part in ("powers", "objects")
                for name, card in ((data.get("setup") or {}).get(part) or {}).get("kept", {}).items() if card]
        card = rng.choice(list(CATALOG))
        if held and rng.random() < 0.8:  # mostly a card the player holds, at a wrong moment or with wrong fields
            who, card = rng.choice(held)
        part = "objects" if CATALOG[card].is_object else "powers"
        entry: dict = {"player": who, "card": card, "when": rng.choice(MOMENTS)}
        if rng.random() < 0.5:
            entry.update(rng.choice([{"seat": rng.sample(names, 2)}, {"targets": rng.sample(names, 2)},
                                     {"heal": {rng.choice(names): rng.randint(0, 3)}}, {"target": rng.choice(names)},
                                     {"discard": [rng.choice(BULLETS)]}, {"from": rng.choice(names)}]))
        rr.setdefault(part, []).append(entry)
    elif kind == 5:
        uses = rr.get("powers", []) + rr.get("objects", [])
        if uses:
            entry = rng.choice(uses)
            entry["when"] = rng.choice(MOMENTS)
    elif kind == 6:
        rr.setdefault("withdraw", []).append(rng.choice(names))
    else:
        rr.setdefault("shuriken", []).append({"thrower": who, "knocked": [rng.choice(names)], "touched": []})


SEEDS = range(240)


def test_fuzzed_refusals_and_notes_name_players_and_cards():
    lines: list[str] = []
    notes: list[str] = []
    combos = [(RuleSet.YAKUZAS, True, True), (RuleSet.CLASSIC, True, True), (RuleSet.CLASSIC, False, False),
              (RuleSet.CLASSIC_2014, False, False), (RuleSet.YAKUZAS, True, False), (RuleSet.YAKUZAS, False, True)]
    for seed in SEEDS:
        ruleset, powers, objects = combos[seed % len(combos)]
        record, played = random_game(seed, ruleset, powers=powers, objects=objects, style=Style(use_card=0.6))
        notes += [e.note for summary in played.history for e in summary.events if isinstance(e, CardUsed)]
        rng = random.Random(seed)
        for _ in range(5):
            data = copy.deepcopy(record.to_dict())
            _break(data, rng)
            line = refusal(data)
            if line is not None:
                lines.append(line)
    assert len(lines) > 500  # most broken records are refused
    bad = [line for line in lines if wrong_words(line)]
    assert not bad, "\n".join(sorted(set(bad))[:20])
    assert len(notes) > 100
    bad_notes = [note for note in notes if wrong_words(note)]
    assert not bad_notes, "\n".join(sorted(set(bad_notes))[:20])


@pytest.mark.parametrize(
    ("name", "last_line"),
    [
        ("yakuzas-round-8-one-gang-left-scores-decide", "No one shares; lost with the last round: $10,000"),
        ("classic-full-game-shared-win", "lost with the last round: $20,000, $20,000 and $5,000."),
    ],
)
def test_bills_not_handed_out_after_round_8_are_lost(name: str, last_line: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    """rulings.md: 'Bills not handed out stay for the next round; after the last round they are lost.'"""
    assert main(["replay", str(CASES_DIR / f"{name}.record.json")]) == 0
    text = capsys.readouterr().out
    rounds = text.split("\nRound ")
    for earlier in rounds[:-1]:
        assert "lost with the last round" not in earlier
    last = rounds[-1]
    assert last.startswith("8:")
    assert "left on the table" not in last
    if last_line is not None:
        assert last_line in last
