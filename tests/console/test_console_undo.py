"""Undo: the last input is taken back until the next count starts; the engine replays the game
without it, the game log records the undo, and ``resume`` gives the same game."""

from __future__ import annotations

import json
import stat

from console_kit import console_table

from controller.table import inputs as I
from controller.table.gamelog import GameLog, read
from controller.table.referee import Referee, Step


def state_of(referee: Referee) -> str:
    return json.dumps([referee.step.value, referee.prompt().round, referee.record.to_dict(),
                       [(p.name, p.wounds, p.money, p.alive, sorted(p.hand.items())) for p in referee.game.players],
                       referee.game.table], default=str)


def test_undo_replays_the_game_without_the_input_and_resume_gives_the_same_game(tmp_path):
    log_path = tmp_path / "game.log"
    session, relay = console_table("classic-2014", 5, seed=3, devices=False, cards=False)
    record = session.referee.record
    game_log = GameLog.create(log_path, {"record": record.to_dict()})
    session.game_log = game_log
    bots = session.bots
    assert session.undo() == "nothing to undo yet"
    states = []
    undone = 0
    while session.referee.prompt().round <= 2:
        prompt = session.referee.prompt()
        if prompt.step is Step.AIMS and session._counted != prompt.round:
            session._counted = prompt.round
            session.history.seal()  # the aiming count
        states.append(state_of(session.referee))
        count = session.history.count
        truth = bots.answer(prompt)
        if prompt.step in (Step.REVEAL, Step.PICKS, Step.PRIVILEGE):  # a wrong input first, then taken back
            wrong = _wrong(session, prompt, truth)
            if wrong is not None and session.try_submit(wrong) is None:
                assert session.referee.step is not prompt.step or session.history.count == count + 1
                assert relay.submit({"kind": "undo", "count": count}) == "that input was already taken back, or another came after it"
                assert relay.submit({"kind": "undo", "count": count + 1}) is None
                assert relay.submit({"kind": "undo", "count": count + 1}) == "that input was already taken back, or another came after it"
                assert state_of(session.referee) == states[-1]
                undone += 1
        assert session.try_submit(truth) is None
    assert undone >= 3
    # the count started: what came before it is final
    session.history.seal()
    assert session.undo() == "nothing to undo: the count has started since the last input"
    game_log.close()
    logged = read(log_path)
    assert sum(1 for line in log_path.read_text().splitlines() if '"undo"' in line) == undone
    again = Referee(new_record_like(record))
    for data in logged.inputs:
        again.submit(I.from_json(data))
    assert state_of(again) == state_of(session.referee)
    assert stat.S_IMODE(log_path.stat().st_mode) == 0o600


def new_record_like(record):
    import copy

    fresh = copy.deepcopy(record)
    fresh.rounds = []
    return fresh


def _wrong(session, prompt, truth):
    if prompt.step is Step.REVEAL and truth.cards:
        name = next(iter(truth.cards))
        hand = [str(c) for c, n in session.referee.game.players[session.referee.game.seat_of(name)].hand.items() if n > 0]
        other = next((c for c in hand if c != truth.cards[name] and c not in ("bbb", "shuriken")), None)
        return I.Show({**truth.cards, name: other}) if other else None
    if prompt.step is Step.PICKS:
        items = [t for t in prompt.options["table"] if t != truth.take]
        return I.Pick(truth.player, items[0]) if items else None
    if prompt.step is Step.PRIVILEGE:
        orders = {n: t for n, t in prompt.options["orders"].items() if t}
        if truth.player is None and orders:
            n = min(orders)
            return I.Privilege(n, orders[n][0])
        return I.Privilege() if truth.player is not None else None
    return None


def test_a_log_whose_undo_does_not_name_the_last_input_is_refused(tmp_path):
    path = tmp_path / "bad.log"
    game_log = GameLog.create(path, {"x": 1})
    a = game_log.input({"kind": "cards", "cards": {}})
    game_log.input({"kind": "aims", "aims": {}})
    game_log.undo(a)
    game_log.close()
    import pytest

    from controller.table.gamelog import LogError

    with pytest.raises(LogError, match="line 4: undoes input 1, which is not the last one"):
        read(path)


def test_the_session_does_not_count_again_after_an_undo():
    session, _relay = console_table("yakuzas", 6, seed=11, devices=True, cards=False)
    session.source = session.bots
    said = []
    session.say = said.append
    while session.referee.step is not Step.PRIVILEGE and session.referee.step is not Step.WITHDRAW:
        if session.referee.step is Step.AIMS:
            session._counted = session.referee.prompt().round  # the count was given
            session.history.seal()
        session.submit(session.bots.answer(session.referee.prompt()))
    assert session.undo() is None and session.referee.step is Step.AIMS
    assert any(line.startswith("  Undone: the aims") for line in said)
    counts = sum(1 for line in said if "everyone aims" in line)
    session.play_step()  # the aims again: no new count
    assert sum(1 for line in said if "everyone aims" in line) == counts


def test_a_game_over_is_final_nothing_is_undone_and_the_page_offers_no_undo(tmp_path):
    """The record is written as soon as the game is over: an undo then would make the log and the
    record two different games (and resume would go on with a game already over)."""
    from controller.console.views import godfather_view

    session, relay = console_table("classic", 4, seed=3, devices=False, cards=False)
    log_path = tmp_path / "game.log"
    game_log = GameLog.create(log_path, {"record": session.referee.record.to_dict()})
    session.game_log = game_log
    while session.referee.step is not Step.OVER:
        prompt = session.referee.prompt()
        if prompt.step is Step.AIMS and session._counted != prompt.round:
            session._counted = prompt.round
            session.history.seal()  # the aiming count
        assert session.try_submit(session.bots.answer(prompt)) is None
    over = "the game is over: nothing can be undone"
    # the last input is in, given by the console's thread: the game's own thread has not ended the game yet
    assert relay.submit({"kind": "undo", "count": session.history.count}) == over
    assert session.undo() == over and session.referee.step is Step.OVER
    assert godfather_view(session, 0, {})["undo"] == {"can": False, "what": over}
    session.run()  # the game's own thread ends it
    assert session.undo() == over
    game_log.close()
    assert '"undo"' not in log_path.read_text()
