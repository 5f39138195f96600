"""The 2nd edition's split entered at once: one input for every pick of the round, taken back by
one undo; the turns and the likely picks the Godfather's page fills in; the cards entered on the
pages kept in the game log, so that a resumed game's console has them again."""

from __future__ import annotations

import copy

import pytest
from console_kit import console_table

from controller.console.loot import split_plan, worth
from controller.console.relay import Relay
from controller.console.tokens import Tokens
from controller.console.views import card_choices, teams
from controller.table import inputs as I
from controller.table.bots import Bots, Temper
from controller.table.gamelog import GameLog, read
from controller.table.referee import Step


def to_step(session, step, *, rounds=8):
    """Play the bots' answers until ``step`` (with a choice to make), or fail."""
    referee, bots = session.referee, session.bots
    while referee.step is not Step.OVER and referee.prompt().round <= rounds:
        prompt = referee.prompt()
        if prompt.step is step and (step is not Step.PICKS or len(true_split(session)) > 2):
            return prompt
        if prompt.step is Step.AIMS:
            session.history.seal()
        assert session.try_submit(bots.answer(prompt)) is None
    pytest.fail(f"the game never reached {step.value}")


def true_split(session):
    referee = copy.deepcopy(session.referee)
    bots = Bots(referee, session.bots.seed, session.bots.temper)
    number, out = referee.prompt().round, []
    while referee.step is Step.PICKS and referee.prompt().round == number and referee.prompt().players:
        pick = bots.answer(referee.prompt())
        out.append({"player": pick.player, "take": str(pick.take)})
        referee.submit(pick)
    return out


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_the_split_goes_as_one_input_and_one_undo_takes_it_back(seed):
    session, relay = console_table("classic-2014", 5, seed=seed, devices=False, cards=False,
                                   temper=Temper(pick_styles=("cash", "paintings", "random")))
    prompt = to_step(session, Step.PICKS)
    picks = true_split(session)
    before = (copy.deepcopy(session.referee.game.table), [p.money for p in session.referee.game.players])
    count = session.history.count
    # out of turn, a card not on the table, one pick too many: refused, nothing changed
    number = prompt.round
    other = next(n for n in session.referee.names(range(5)) if n != picks[0]["player"])
    for wrong in ([dict(picks[0], player=other)] + picks[1:], [dict(picks[0], take="no-such-card")] + picks[1:],
                  picks + [picks[-1]], [{"player": "Nobody", "take": "painting"}]):
        reason = relay.submit({"kind": "picks", "picks": wrong})
        assert reason is not None and reason.startswith((f"round {number}: ", "'Nobody' is not a player")), reason
        assert "\n" not in reason and len(reason) < 200
    assert session.history.count == count and session.referee.step is Step.PICKS
    assert relay.submit({"kind": "picks", "picks": picks, "seen": count}) is None
    assert session.history.count == count + 1 and session.referee.step is not Step.PICKS
    written = session.referee.record.rounds[number - 1] if len(session.referee.record.rounds) >= number else session.referee.state.rr
    assert [dict(p) for p in written.picks] == picks
    # one undo: every pick of the split is taken back
    assert relay.submit({"kind": "undo", "count": count + 1}) is None
    assert session.referee.step is Step.PICKS and session.referee.prompt().players == [picks[0]["player"]]
    assert (session.referee.game.table, [p.money for p in session.referee.game.players]) == before
    # the same split sent twice (a page that did not see the first go): the second is refused
    assert relay.submit({"kind": "picks", "picks": picks, "seen": count}) is None
    assert relay.submit({"kind": "picks", "picks": picks, "seen": count}) == "the table moved on since that page was drawn: look again"


def test_the_turns_start_with_the_picker_and_the_likely_card_is_the_one_worth_most():
    session, _relay = console_table("classic-2014", 5, seed=3, devices=False, cards=False)
    to_step(session, Step.PICKS)
    referee = session.referee
    plan = split_plan(referee)
    rnd = referee.round
    assert plan["lap"][0] == referee.prompt().players[0]
    assert sorted(plan["lap"]) == sorted(referee.names(rnd.sharers()))
    on_table = {str(c) for c in referee.game.table}
    for name, cards in plan["prefer"].items():
        assert set(cards) == on_table
        p = referee.game.players[referee.game.seat_of(name)]
        values = [worth(c, paintings=p.loot.count("painting"), wounded=p.wounds > 0) for c in cards]
        assert values == sorted(values, reverse=True)
    # a painting is worth more to a player who holds paintings already
    assert worth("painting", paintings=0, wounded=False) < worth("cash-5000", paintings=0, wounded=False)
    assert worth("painting", paintings=2, wounded=False) > worth("cash-10000", paintings=2, wounded=False)
    assert worth("first-aid", paintings=0, wounded=True) > worth("first-aid", paintings=0, wounded=False)
    assert split_plan(copy.deepcopy(referee)) == plan
    # no split at another step
    session2, _ = console_table("classic-2014", 5, seed=3, devices=False, cards=False)
    assert split_plan(session2.referee) is None


def test_cards_entered_on_the_pages_survive_a_resume(tmp_path):
    log_path = tmp_path / "game.log"
    session, relay = console_table("classic-2014", 5, seed=3, devices=False, cards=False)
    game_log = GameLog.create(log_path, {"record": session.referee.record.to_dict()})
    session.game_log = game_log
    bots = session.bots
    for _ in range(400):  # to a reveal where a card is still unknown
        prompt = session.referee.prompt()
        choices = card_choices(session) if prompt.step is Step.REVEAL else {}
        if any(len(c["cards"]) > 1 for c in choices.values()):
            break
        if prompt.step is Step.AIMS:
            session.history.seal()
        assert session.try_submit(bots.answer(prompt)) is None
    name = next(n for n, c in choices.items() if len(c["cards"]) > 1)
    card = str(bots.card_of(name))
    other = next(n for n in choices if n != name)
    assert relay.submit({"kind": "claim", "cards": {name: card}}, team=name) is None
    assert relay.submit({"kind": "claim", "cards": {other: choices[other]["cards"][0]}}, team=other) is None
    assert relay.submit({"kind": "claim", "cards": {other: None}}, team=other) is None  # taken back
    game_log.close()
    # the table restarts: the game replayed from its log, the console made again
    again, _ = console_table("classic-2014", 5, seed=3, devices=False, cards=False)
    for data in read(log_path).inputs:
        again.referee.submit(I.from_json(data))
    reopened, _logged = GameLog.reopen(log_path)
    try:
        again.game_log = reopened
        relay2 = Relay(again, Tokens.new(teams(again)))
        assert relay2.current_claims() == {name: (card, name)}
        view = relay2.view("godfather", None)
        assert view["claims"] == {name: {"card": card, "by": name}}
    finally:
        reopened.close()


def test_the_countdowns_are_as_of_now_for_a_page_that_reconnects():
    import time

    session, relay = console_table("classic-2014", 5, seed=3, devices=False, cards=False)
    relay.cards_due = time.time() + 10.0
    first = relay.view("godfather", None)
    time.sleep(0.4)
    again = relay.view("godfather", None)  # the same state (nothing changed), asked later
    assert again["version"] == first["version"] and 9.0 < again["cards_in"] <= first["cards_in"] - 0.3
    relay.cards_held = True
    relay.changed()
    assert relay.view("godfather", None)["cards_in"] is None
