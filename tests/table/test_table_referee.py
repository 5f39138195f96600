"""The referee refuses every wrong input, at every step, with a reason, and changes nothing."""

from __future__ import annotations

import copy

import pytest

from controller.table import inputs as I
from controller.table.referee import Refused, Step
from table_kit import table


def advance_to(session, step, *, round_no=None):
    """Play a simulated table until the referee waits for ``step``."""
    referee = session.referee
    for _ in range(500):
        if referee.step is step and (round_no is None or referee.prompt().round >= round_no):
            return referee.prompt()
        session.play_step()
    raise AssertionError(f"never reached {step}")


def refused(referee, inp) -> str:
    before = copy.deepcopy(referee.state)
    with pytest.raises(Refused) as info:
        referee.submit(inp)
    assert referee.state.step is before.step and referee.game.rounds_played == before.game.rounds_played
    message = str(info.value)
    assert message and "\n" not in message
    return message


def test_wrong_kind_of_input_at_each_step():
    session, _ = table("yakuzas", 9, 11, devices=False)
    referee = session.referee
    seen = set()
    while referee.step is not Step.OVER:
        wrong = I.Pick("Aiko", "cash-5000") if referee.step is not Step.PICKS else I.ThrowsDone()
        assert "expected" in refused(referee, wrong)
        seen.add(referee.step)
        session.play_step()
    assert {Step.CARDS, Step.AIMS, Step.WITHDRAW, Step.BBB, Step.THROWS, Step.REVEAL, Step.DISCARDS} <= seen
    assert "expected nothing more" in refused(referee, I.Resume())


def test_illegal_inputs_refused_with_the_rule():
    session, _ = table("yakuzas", 9, 12, devices=False)
    referee = session.referee
    prompt = advance_to(session, Step.AIMS)
    aims = {n: (t[0] if t else None) for n, t in prompt.options["targets"].items()}
    assert refused(referee, I.Aims({**aims, "Bo": "Eli"})) == "round 1: Bo may not aim at Eli: same gang"
    assert refused(referee, I.Aims({**aims, "Aiko": "Cy"})) == "round 1: Aiko may not aim a tanto at Cy: not a neighbour"
    assert "'Zed' is not a player" in refused(referee, I.Aims({**aims, "Zed": "Bo"}))
    assert referee.check_aim("Bo", "Eli") == "may not aim at Eli: same gang"
    assert referee.check_aim("Bo", "Cy") is None
    referee.submit(I.Aims(aims))
    assert "is dead" in refused(referee, I.Withdrawals(["Nobody"])) or "not a player" in refused(referee, I.Withdrawals(["Nobody"]))
    referee.submit(I.Withdrawals([]))
    assert "only a Bang! Bang! Bang! is shown" in refused(referee, I.Show({"Bo": "clic"}))
    referee.submit(I.Show({}))
    assert "did not play a shuriken" in refused(referee, I.Throw("Bo", knocked=["Cy"])) or "has no shuriken" in refused(
        referee, I.Throw("Bo", knocked=["Cy"])
    )


def test_reveal_and_discards_must_be_true_to_the_hand():
    session, _ = table("classic", 5, 13, devices=False)
    referee = session.referee
    prompt = advance_to(session, Step.REVEAL)
    who = prompt.players[0]
    assert "has no shuriken card in hand" in refused(referee, I.Show({who: "shuriken"}))
    assert "has not shown the card played" in refused(referee, I.Show({}))


def test_picks_out_of_turn_refused():
    session, _ = table("classic-2014", 5, 14, devices=False)
    referee = session.referee
    prompt = advance_to(session, Step.PICKS)
    turn = prompt.players[0]
    other = next(n for n in ["A", "Aiko", "Bo", "Cy", "Dee", "Eli"] if n in [p.name for p in referee.game.players] and n != turn)
    message = refused(referee, I.Pick(other, prompt.options["table"][0]))
    assert "out of turn" in message or "not a sharer" in message
    assert "not on the table" in refused(referee, I.Pick(turn, "no-such-card"))


def test_card_use_through_the_console():
    from controller.record.generator import seating
    from controller.rules.rulesets import RuleSet
    from controller.table import config as table_config
    from controller.table.referee import Referee
    from controller.table.runner import new_record

    names = [n for n, _ in seating(RuleSet.YAKUZAS, 9)]
    config = table_config.from_dict({"game": {"ruleset": "yakuzas", "players": names, "super_powers": True}})
    record = new_record(config, 3)
    record.setup = {"powers": {"kept": {"Bo": "the-kid", "Aiko": "samurai"}}}
    referee = Referee(record)
    assert "may not use The Kid: Cy does not hold it" in refused(referee, I.UseCard({"player": "Cy", "card": "the-kid", "when": "phase-1"}))
    referee.submit(I.UseCard({"player": "Bo", "card": "the-kid", "when": "phase-1"}))
    assert referee.record.rounds == [] and referee.state.rr.powers[0]["card"] == "the-kid"
