"""The players' own pages (a gang's in Yakuzas, each player's otherwise): each enters its own
players' loot picks and cards, and nothing else; what one enters is seen by the Godfather and by
no other team; every card known, the step goes by itself a moment later; an undo holds it."""

from __future__ import annotations

import json

import pytest
from console_kit import console_table
from starlette.testclient import TestClient

from controller.console import views
from controller.console.server import create_app
from controller.table.referee import Step


@pytest.fixture
def second_edition():
    session, relay = console_table("classic-2014", 5, seed=3, devices=False, cards=False)
    relay.grace = {**relay.grace, "cards": 0.0}
    with TestClient(create_app(relay)) as client:
        yield session, relay, client


def post(client, token, data):
    return client.post(f"/api/input?token={token}", json=data)


def state(client, token):
    return client.get(f"/api/state?token={token}").json()


def play_to(session, step):
    while session.referee.step is not step:
        assert session.referee.step is not Step.OVER
        session.submit(session.bots.answer(session.referee.prompt()))


def test_a_player_enters_only_his_own_card_and_no_other_page_sees_it(second_edition):
    session, relay, client = second_edition
    play_to(session, Step.REVEAL)
    tokens = relay.tokens.teams
    rows = state(client, relay.tokens.godfather)["cards"]
    shown = sorted(rows)
    me, other = shown[0], shown[1]
    mine = state(client, tokens[me])["asks"]
    assert set(mine["cards"]) == {me} and mine["cards"][me]["cards"] == rows[me]["cards"] and mine["pick"] is None
    card = session.bots.card_of(me).value
    # another player's card, a card the rules refuse, an input only the Godfather gives: refused
    reply = post(client, tokens[me], {"kind": "claim", "cards": {other: card}})
    assert reply.status_code == 409 and reply.json()["refused"] == f"{other}'s card is entered on {other}'s page, or by the Godfather"
    reply = post(client, tokens[me], {"kind": "claim", "cards": {me: "shuriken"}})
    assert reply.status_code == 409 and reply.json()["refused"].startswith(f"round 1: {me} cannot show")
    assert post(client, tokens[me], {"kind": "claim", "cards": {"Zed": card}}).json()["refused"] == "'Zed' is not a player"
    assert post(client, relay.tokens.godfather, {"kind": "claim", "cards": {"Zed": card}}).json()["refused"] == "'Zed' is not a player"
    assert post(client, relay.tokens.godfather, {"kind": "claim", "cards": {other: None, "Zed": card}}).json()["refused"] == (
        "'Zed' is not a player")
    for kind in ({"kind": "show", "cards": {me: card}}, {"kind": "undo"}, {"kind": "aims", "aims": {}}):
        assert post(client, tokens[me], kind).status_code == 403
    assert post(client, relay.tokens.teams[me], {"kind": "claim", "cards": {me: card}}).json()["ok"]
    godfather = state(client, relay.tokens.godfather)
    assert godfather["claims"] == {me: {"card": card, "by": me}}
    assert state(client, tokens[me])["asks"]["cards"][me]["entered"] == card
    for name in tokens:
        if name != me:
            assert f'"entered": "{card}"' not in json.dumps(state(client, tokens[name])), name
    assert "claims" not in state(client, "") and "asks" not in state(client, "")
    # taken back on the page (a tap on the card entered)
    assert post(client, tokens[me], {"kind": "claim", "cards": {me: None}}).json()["ok"]
    assert state(client, relay.tokens.godfather)["claims"] == {}


def test_every_card_entered_the_step_goes_by_itself_and_an_undo_holds_it(second_edition):
    session, relay, client = second_edition
    play_to(session, Step.REVEAL)
    rows = state(client, relay.tokens.godfather)["cards"]
    truth = {n: session.bots.card_of(n).value for n in rows}
    names = sorted(rows)
    for name in names[:-1]:
        assert post(client, relay.tokens.teams[name], {"kind": "claim", "cards": {name: truth[name]}}).json()["ok"]
        assert relay.claimed_answer() is None or len(rows[names[-1]]["cards"]) == 1  # one card still unknown
    last = names[-1]
    assert post(client, relay.tokens.teams[last], {"kind": "claim", "cards": {last: truth[last]}}).json()["ok"]
    show, _due = relay.claimed_answer()
    assert show.cards == {n: truth[n] for n in rows if not rows[n].get("later")}
    assert state(client, relay.tokens.godfather)["claims_in"] is not None
    count = session.history.count
    relay.stopped = False
    session.source.answer(session.referee.prompt())  # the console's side: the cards go by themselves
    assert session.referee.step is not Step.REVEAL and session.history.count == count + 1
    assert session.history.entries[-1].input.cards == show.cards and not session.history.entries[-1].auto
    # undone: the entries stay (they preselect the Godfather's rows), but nothing goes by itself
    assert post(client, relay.tokens.godfather, {"kind": "undo", "count": count + 1}).json()["ok"]
    assert session.referee.step is Step.REVEAL
    assert set(state(client, relay.tokens.godfather)["claims"]) == set(names)
    assert relay.claimed_answer() is None
    # a card entered again (corrected) lifts the hold
    assert post(client, relay.tokens.teams[last], {"kind": "claim", "cards": {last: truth[last]}}).json()["ok"]
    assert relay.claimed_answer() is not None


def test_a_player_takes_his_own_loot_once_and_only_in_his_turn(second_edition):
    session, relay, client = second_edition
    play_to(session, Step.PICKS)
    tokens = relay.tokens.teams
    picker = session.referee.prompt().players[0]
    others = [n for n in tokens if n != picker]
    assert all(state(client, tokens[n])["asks"]["pick"] is None for n in others)
    pick = state(client, tokens[picker])["asks"]["pick"]
    assert pick["player"] == picker and pick["items"]
    take = pick["items"][0]
    reply = post(client, tokens[others[0]], {"kind": "pick", "player": picker, "take": take, "seen": pick["seen"]})
    assert reply.status_code == 409 and reply.json()["refused"] == f"{picker} takes on {picker}'s page, or the Godfather enters it"
    reply = post(client, tokens[picker], {"kind": "pick", "player": picker, "take": take, "seen": pick["seen"]})
    assert reply.json()["ok"], reply.json()
    count = session.history.count
    # the same tap sent again (a retry after a lost answer) takes nothing more
    reply = post(client, tokens[picker], {"kind": "pick", "player": picker, "take": take, "seen": pick["seen"]})
    assert reply.status_code == 409 and "moved on" in reply.json()["refused"] and session.history.count == count
    # the Godfather can still enter (or undo) any pick
    assert post(client, relay.tokens.godfather, {"kind": "undo", "count": count}).json()["ok"]
    assert session.referee.prompt().players == [picker]


def test_a_gang_enters_the_cards_of_its_own_players_only():
    session, relay = console_table("yakuzas", 6, seed=101, devices=False, cards=False)
    with TestClient(create_app(relay)) as client:
        while session.referee.step not in (Step.REVEAL, Step.DISCARDS, Step.THROWS) or session.pending is not None:
            session.submit(session.bots.answer(session.referee.prompt()))
        players = session.referee.game.players
        entered = 0
        for gang, token in relay.tokens.teams.items():
            asks = state(client, token)["asks"]
            entered += len(asks["cards"])
            assert set(asks["cards"]) <= {p.name for p in players if str(p.gang) == gang}
            for name, row in asks["cards"].items():
                assert post(client, token, {"kind": "claim", "cards": {name: row["cards"][0]}}).json()["ok"]
            stranger = next(p for p in players if str(p.gang) != gang)
            reply = post(client, token, {"kind": "claim", "cards": {stranger.name: "clic"}})
            assert reply.status_code == 409
            assert reply.json()["refused"] == f"{stranger.name}'s card is entered on {stranger.gang}'s page, or by the Godfather"
        assert entered and set(state(client, relay.tokens.godfather)["claims"]) == set(views.asked_cards(relay.session))
