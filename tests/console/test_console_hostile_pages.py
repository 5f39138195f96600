"""Hostile inputs to the players' own pages and to the console's newer inputs (the split entered at
once, the cards entered on a page, undo, "wait"): wrong types, huge bodies, unknown names, replays
and a flood are each refused with one line in words, never a traceback, and the console goes on
answering; nothing changes but what a legal input changes."""

from __future__ import annotations

import copy
import json
import time

import pytest
from console_kit import console_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from controller.console.relay import CLAIMS_PER_ROUND
from controller.console.server import create_app
from controller.console.views import card_choices
from controller.table.gamelog import GameLog, read
from controller.table.referee import Step


@pytest.fixture
def reveal(tmp_path):
    """A 2nd edition game at a reveal where some card is unknown, logged, served."""
    session, relay = console_table("classic-2014", 5, seed=3, devices=False, cards=False)
    session.game_log = GameLog.create(tmp_path / "game.log", {"record": session.referee.record.to_dict()})
    for _ in range(400):
        prompt = session.referee.prompt()
        if prompt.step is Step.REVEAL and any(len(c["cards"]) > 1 for c in card_choices(session).values()):
            break
        if prompt.step is Step.AIMS:
            session.history.seal()
        assert session.try_submit(session.bots.answer(prompt)) is None
    with TestClient(create_app(relay)) as client:
        yield session, relay, client
    session.game_log.close()


def snapshot(session):
    referee = session.referee
    return json.dumps([referee.step.value, referee.prompt().round, referee.record.to_dict(),
                       [p.__dict__ for p in copy.deepcopy(referee.game.players)], session.history.count],
                      default=str, sort_keys=True)


def post(client, token, data):
    return client.post(f"/api/input?token={token}", content=data if isinstance(data, bytes) else json.dumps(data))


def one_line(reply) -> str:
    assert reply.status_code in (400, 403, 409, 413), (reply.status_code, reply.text)
    reason = reply.json()["refused"]
    assert isinstance(reason, str) and 0 < len(reason) < 240 and "\n" not in reason and "Traceback" not in reason, reason
    return reason


BAD_TEAM_INPUTS = [
    {"kind": "pick", "player": ["Aiko"], "take": "painting"}, {"kind": "pick", "player": "Aiko", "take": {"x": 1}},
    {"kind": "pick", "player": "Aiko"}, {"kind": "pick", "player": "Zed", "take": "painting"},
    {"kind": "pick", "player": "A" * 5000, "take": "painting"}, {"kind": "pick", "player": "Aiko", "take": "painting", "seen": -1},
    {"kind": "pick", "player": "Aiko", "take": "painting", "seen": "x"}, {"kind": "pick", "player": "Aiko", "take": True},
    {"kind": "claim", "cards": []}, {"kind": "claim", "cards": {"Aiko": 5}}, {"kind": "claim", "cards": {"Zed\n": "bang"}},
    {"kind": "claim", "cards": {"Aiko": ["bang"]}}, {"kind": "claim"}, {"kind": "claim", "cards": {str(k): "bang" for k in range(100)}},
    {"kind": "claim", "cards": {"Aiko": "bang"}, "extra": 1}, {"kind": "picks", "picks": []}, {"kind": "undo"},
    {"kind": "wait"}, {"kind": "undo", "count": 10**12}, {"kind": None}, {"kind": "claim\x00"}, [], "claim", 7, None,
]


@pytest.mark.parametrize("data", BAD_TEAM_INPUTS)
def test_a_players_page_sending_nonsense_is_refused_in_one_line(reveal, data):
    session, relay, client = reveal
    before = snapshot(session)
    one_line(post(client, relay.tokens.teams["Aiko"], data))
    assert snapshot(session) == before and relay.faults == 0


BAD_GODFATHER_INPUTS = [
    {"kind": "picks", "picks": "Aiko"}, {"kind": "picks", "picks": [["Aiko", "painting"]]},
    {"kind": "picks", "picks": [{"player": "Aiko"}]}, {"kind": "picks", "picks": [{"player": "Aiko", "take": "painting", "x": 1}]},
    {"kind": "picks", "picks": [{"player": "Aiko", "take": 5}]}, {"kind": "picks", "picks": [{"player": "Zed", "take": "painting"}]},
    {"kind": "picks", "picks": [{"player": "Aiko", "take": "painting"}] * 65}, {"kind": "picks"},
    {"kind": "picks", "picks": [{"player": "Aiko", "take": "painting"}]},  # not the time for the loot
    {"kind": "undo", "count": -3}, {"kind": "undo", "count": 1.5}, {"kind": "undo", "count": True}, {"kind": "undo", "count": 999},
    {"kind": "wait", "x": 1}, {"kind": "wait"},  # the cards are down already: nothing to wait for
    {"kind": "claim", "cards": {"Aiko": "shuriken"}}, {"kind": "claim", "cards": {"Zed": "bang"}},
]


@pytest.mark.parametrize("data", BAD_GODFATHER_INPUTS)
def test_the_newer_inputs_refuse_nonsense_in_one_line(reveal, data):
    session, relay, client = reveal
    before = snapshot(session)
    one_line(post(client, relay.tokens.godfather, data))
    assert snapshot(session) == before and relay.faults == 0


def test_huge_and_broken_bodies_from_a_players_page(reveal):
    session, relay, client = reveal
    before = snapshot(session)
    token = relay.tokens.teams["Bo"]
    for body in (b"{" + b" " * 40000 + b"}", b"[" * 20000 + b"]" * 20000, b"\xff\xfe", b"", b'{"kind": "claim", "cards": {'):
        one_line(post(client, token, body))
    assert snapshot(session) == before


def test_replays_change_nothing_twice(reveal):
    session, relay, client = reveal
    name = next(n for n, c in card_choices(session).items() if len(c["cards"]) > 1)
    card = str(session.bots.card_of(name))
    token = relay.tokens.teams[name]
    lines = len(read(session.game_log.path).seen)
    for _ in range(5):  # the same entry sent again and again: accepted once, logged once
        assert post(client, token, {"kind": "claim", "cards": {name: card}}).json()["ok"]
    assert len(read(session.game_log.path).seen) == lines + 1
    # the same undo twice: the second is refused
    count = session.history.count
    assert session.try_submit(session.bots.answer(session.referee.prompt())) is None  # the cards shown
    before = snapshot(session)
    assert post(client, relay.tokens.godfather, {"kind": "undo", "count": count + 1}).json()["ok"]
    assert session.history.count == count and session.referee.step is Step.REVEAL
    assert one_line(post(client, relay.tokens.godfather, {"kind": "undo", "count": count + 1})) == (
        "that input was already taken back, or another came after it")
    assert snapshot(session) != before and session.history.count == count


def test_a_flood_from_a_players_page_is_cut_off_and_the_console_goes_on(reveal):
    session, relay, client = reveal
    name = next(n for n, c in card_choices(session).items() if len(c["cards"]) > 1)
    cards = card_choices(session)[name]["cards"]
    token = relay.tokens.teams[name]
    lines = len(read(session.game_log.path).seen)
    start = time.monotonic()
    answers = [post(client, token, {"kind": "claim", "cards": {name: cards[k % len(cards)]}}) for k in range(400)]
    assert all(a.status_code in (200, 409) for a in answers)
    refused = {one_line(a) for a in answers if a.status_code == 409}
    assert refused == {f"round {session.referee.prompt().round}: {name}'s page entered {CLAIMS_PER_ROUND} cards this round "
                       "already: the Godfather enters the rest"}
    assert len(read(session.game_log.path).seen) - lines <= CLAIMS_PER_ROUND  # the log is not filled by it
    assert time.monotonic() - start < 60  # no lock-up (a generous bound: 400 requests on a shared machine)
    # the Godfather still answers and still enters the card
    assert client.get(f"/api/state?token={relay.tokens.godfather}").status_code == 200
    assert post(client, relay.tokens.godfather, {"kind": "claim", "cards": {name: cards[0]}}).json()["ok"]


names = st.sampled_from(["Aiko", "Bo", "Cy", "Dee", "Eli", "Zed", "", "aiko", "Aiko\x00", "A" * 300])
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True), names,
                    st.sampled_from(["clic", "bang", "painting", "cash-5000", "godfather", "diamond-1000"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(names, inner, max_size=4)),
                      max_leaves=10)
newer = st.builds(lambda kind, extra: {"kind": kind, **extra},
                  st.sampled_from(["pick", "picks", "claim", "undo", "wait"]),
                  st.dictionaries(st.sampled_from(["player", "take", "cards", "picks", "seen", "count", "x"]), values, max_size=4))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=newer, who=st.sampled_from(["godfather", "Aiko", "Cy"]))
def test_fuzzed_newer_inputs_are_answered_in_one_line(reveal, data, who):
    session, relay, client = reveal
    token = relay.tokens.godfather if who == "godfather" else relay.tokens.teams[who]
    reply = post(client, token, data)
    assert reply.status_code in (200, 400, 403, 409), reply.text
    if reply.status_code != 200:
        one_line(reply)
    assert relay.faults == 0
