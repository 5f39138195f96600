"""What a person reads and hears during a game: words fit for the rule set, cards by their printed names,
no pronoun for a player, each thing said once and in order, one seat numbering."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from controller.devices.opening import open_simulated
from controller.devices.vocabulary import MAX_SEAT, clip_texts, sentence
from controller.record.generator import random_game, seating
from controller.record.story import story
from controller.rules import RuleSet
from controller.rules.advanced import CATALOG
from controller.rules.cards import GODFATHER_TILE, LOOT_VALUES
from controller.table import config as table_config
from controller.table.bots import Bots
from controller.table.referee import Referee, Step
from controller.table.runner import new_record
from controller.table.session import Session
from controller.words import card_list, card_name, money, seat_label, withdraw_call

RAW_ID = re.compile(r"\bphase-\d|\bend-of-round\b|\b(cash|diamond)-\d+|\bfirst-aid\b(?! kit)|\bgodfather\b(?! tile)|\bthe-[a-z]|[a-z]+-[a-z]+-[a-z]+")
PRONOUN = re.compile(r"\b(his|he|him|himself|her|she)\b", re.IGNORECASE)


def played_game(ruleset: str, players: int, seed: int, language: str = "en"):
    """A whole game at a simulated table with bots; its lines, the prompts it gave and what the speaker said."""
    names = [n for n, _ in seating(RuleSet(ruleset), players)]
    config = table_config.from_dict({"game": {"ruleset": ruleset, "players": names}})
    referee = Referee(new_record(config, seed))
    bots = Bots(referee, seed)
    devices, script = open_simulated(config.devices())
    lines: list[str] = []
    session = Session(referee, source=bots, bots=bots, devices=devices, script=script, say=lines.append,
                      echo_speech=language)
    prompts: list[str] = []
    while referee.step is not Step.OVER:
        prompts.append(referee.prompt().text)
        session.play_step()
    session._finale()
    spoken = [sentence(p.clips, language) for p in devices.speaker.played]
    devices.close()
    return session, lines, prompts, spoken


GAMES = [("classic", 5, 3), ("classic-2014", 6, 4), ("yakuzas", 7, 2)]


@pytest.fixture(scope="module", params=GAMES, ids=[g[0] for g in GAMES])
def game(request):
    return (request.param[0], *played_game(*request.param))


def test_banzai_only_in_yakuzas_games(game):
    ruleset, _, lines, prompts, spoken = game
    everything = lines + prompts + spoken
    if ruleset == "yakuzas":
        assert any("Banzai" in line for line in lines + prompts)
    else:
        assert not any("Banzai" in line for line in everything)
        assert any('shout "You lost!"' in line for line in lines)


def test_the_prompts_fit_the_rule_set(game):
    ruleset, _, _, prompts, _ = game
    if ruleset == "classic-2014":  # no Bang! Bang! Bang! card, no shuriken, no intermission in the 2nd edition
        assert not any("show it now" in p or "shuriken" in p or "intermission" in p for p in prompts)
    if ruleset != "yakuzas":
        assert not any("shuriken" in p or "intermission" in p or "gang" in p for p in prompts)
    if ruleset != "classic-2014":
        assert not any("Godfather" in p or "loot in turn" in p for p in prompts)


def test_the_withdrawal_call_fits_the_rule_set():
    for ruleset in ("classic", "classic-2014"):
        assert "Banzai" not in withdraw_call(ruleset) and "You lost!" in withdraw_call(ruleset)
    assert "Banzai" in withdraw_call("yakuzas") and "yakuza" in withdraw_call("yakuzas")


def test_a_game_shows_no_raw_ids_and_no_pronouns(game):
    _, session, lines, _, _ = game
    for line in [*lines, *story(session.referee.game).splitlines()]:
        assert not RAW_ID.search(line), line
        assert not PRONOUN.search(line), line


def test_each_thing_is_said_once(game):
    _, _, _, _, spoken = game
    sentences = [s for item in spoken for s in re.split(r"(?<=[.!?]) ", item)]
    repeats = [(a, k) for k, (a, b) in enumerate(pairwise(sentences)) if a == b and not a[:-1].isalpha()]
    assert not repeats
    for item in spoken:  # one announcement says each seat once
        seats = re.findall(r"Seat \w+(?=:)", item)
        assert len(seats) == len(set(seats)), item


def test_what_a_round_said_comes_before_the_next_rounds_header(game):
    _, _, lines, _, _ = game
    for k, line in enumerate(lines):
        if re.match(r"Round [2-8]: pot", line):
            aims = next(j for j in range(k, len(lines)) if lines[j].startswith("  1, 2, 3: everyone aims"))
            between = lines[k + 1:aims]
            assert not any(s.lstrip().startswith("\u00bb") for s in between), between


def test_every_hit_is_heard():
    _, lines, _, spoken = played_game("classic", 6, 7)
    hits = [line for line in lines if re.match(r"  \w+ hits \w+", line)]
    assert hits and any("wound" in s for s in spoken)


@pytest.mark.parametrize("ruleset", ["classic", "classic-2014", "yakuzas"])
def test_a_replayed_story_names_every_card_as_printed(ruleset):
    advanced = ruleset != "classic-2014"
    told = []
    for seed in range(12):
        _, game = random_game(seed, ruleset, powers=advanced, objects=advanced)
        text = story(game)
        told.append(text)
        for line in text.splitlines():
            assert not RAW_ID.search(line), line
            assert not PRONOUN.search(line), line
            for card in CATALOG:
                assert "-" not in card or card not in line, (card, line)
    text = "\n".join(told)
    if ruleset == "classic-2014":
        assert "a painting" in text and re.search(r"a \$[\d,]+ diamond", text)
    else:
        assert " uses " in text  # the seeded games do use Super Powers and Objects


def test_card_names():
    assert card_name("cash-20000") == "$20,000"
    assert card_name("diamond-5000") == "a $5,000 diamond"
    assert card_name("painting") == "a painting"
    assert card_name("first-aid") == "a first-aid kit"
    assert card_name(GODFATHER_TILE) == "the New Godfather tile"
    assert card_name(10000) == "$10,000"
    assert card_name("bbb") == "Bang! Bang! Bang!"
    assert card_name("the-unbreakable") == "The Unbreakable"
    assert card_name("the-unbreakable", "hu") == "A megtörhetetlen"
    assert card_name("fake-finger", "pt") == "Dedo Falso"
    assert card_name("diamond-5000", "fr") == "un diamant de 5\u00a0000\u00a0$"
    assert money(-5000) == "-$5,000" and money(20000, "pt") == "$20.000"
    for lang in ("en", "pt", "fr", "hu"):
        for card in [*LOOT_VALUES, *CATALOG, GODFATHER_TILE]:
            assert card_name(card, lang) != card, (lang, card)
    with pytest.raises(ValueError, match="unknown language 'de'"):
        card_name("painting", "de")
    pile = ["cash-20000", "cash-20000", "diamond-1000", "diamond-1000", "painting", "painting", "painting", "first-aid"]
    assert card_list(pile) == "$20,000, $20,000, 2 $1,000 diamonds, 3 paintings and a first-aid kit"
    assert card_list(["painting", "clip", "clip"], "hu") == "egy festmény és 2 tár"  # no plural after a numeral
    assert card_list(["painting", "painting"], "fr") == "2 tableaux" and card_list([], "pt") == "nada"


def test_one_seat_numbering_for_the_bases_the_speech_and_the_text():
    from vision.sheet import pieces

    labels = [piece.label for page in pieces() for piece in page]
    spoken = clip_texts("en")
    numbers = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight"]
    for seat in range(MAX_SEAT + 1):
        assert seat_label(seat) == f"seat {seat}"
        assert any(label.startswith(f"base {seat_label(seat)} ") for label in labels)  # printed on the base
        assert spoken[f"seat.{seat}"] == f"seat {numbers[seat]}"  # said
    assert seat_label(3, "hu") == "3-as szék" and seat_label(5, "hu") == "5-ös szék" and seat_label(0, "fr") == "place 0"


def test_the_story_gives_each_player_a_seat_number():
    _, game = random_game(1, "yakuzas", 6)
    header = story(game).splitlines()[1]
    assert header.startswith("Seats, clockwise: Aiko (seat 0, purple gang), Bo (seat 1, ")


def test_the_console_shows_cards_by_their_printed_names():
    from controller.console.views import godfather_view, table_view

    session, _, _, _ = played_game("classic-2014", 4, 1)
    names = table_view(session, 0)["card_names"]
    assert names["cash-20000"] == "$20,000" and names["first-aid"] == "a first-aid kit"
    assert "the-unbreakable" not in names  # the table view holds no advanced-rule card
    assert godfather_view(session, 0, {})["card_names"]["the-unbreakable"] == "The Unbreakable"


def test_two_hits_on_one_seat_are_said_once_and_a_death_replaces_the_wounds():
    from table_kit import table

    from controller.devices.vocabulary import PAUSE
    from controller.rules import events as ev
    from controller.table.referee import Outcome

    session, _ = table("classic", 5, 1)
    players = session.referee.game.players
    players[3].wounds, players[1].wounds = 2, 1
    speaker = session.devices.speaker
    session._tell(Outcome(events=[ev.Hit(0, 3, "bang"), ev.Hit(1, 3, "bbb"), ev.Hit(2, 4, "bang"), ev.Died(4),
                                  ev.Withdrew(1, "cowardice")]))
    assert speaker.played[-1].clips == ("seat.3", "wounds.2", PAUSE, "seat.4", "dead")
    session._tell(Outcome(events=[ev.Withdrew(1, "band-aid")]))  # a yakuza's honour marker turned: a wound
    assert speaker.played[-1].clips == ("seat.1", "wounds.1")
    session.devices.close()
