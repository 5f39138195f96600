"""Whole games refereed at a simulated table: bots, mock pins, the tilt judge, the referee."""

from __future__ import annotations

import pytest

from controller.devices.interfaces import SeatStatus
from controller.record import replay, result
from controller.table.referee import Step
from table_kit import table

GAMES = [("classic", 4), ("classic", 6), ("classic-2014", 4), ("classic-2014", 8), ("yakuzas", 6), ("yakuzas", 7),
         ("yakuzas", 8), ("yakuzas", 9)]


@pytest.mark.parametrize("ruleset,players", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_whole_simulated_game(ruleset, players, seed):
    session, lines = table(ruleset, players, seed)
    session.run()
    referee = session.referee
    assert referee.step is Step.OVER and referee.game.finished
    # the record the table wrote replays to the same game
    assert result(replay(referee.record)) == result(referee.game)
    # the seat LEDs follow the game: the dead are dark, the living stand
    judge = session.devices.judge
    for p in referee.game.players:
        assert judge.shown(p.seat) is (SeatStatus.DEAD if not p.alive else SeatStatus.IN_SHARE) or not p.alive
    assert not judge.pending()
    assert any(line.startswith("Round 1: pot") for line in lines)
    assert lines[-1].startswith(("Winner", "No one"))
    session.devices.close()


def test_withdrawals_come_from_the_tilt_sensors():
    session, lines = table("classic", 6, 3)
    session.run()
    record = session.referee.record
    withdrew = sum(len(r.withdraw) for r in record.rounds)
    assert withdrew > 0  # the bots lay down, the judge saw it in time
    assert any("too late" in line for line in lines)  # and some were too late
    session.devices.close()


def test_physical_bank_piles_entered_by_the_godfather():
    session, _ = table("classic", 5, 4, bank="physical")
    session.run()
    record = session.referee.record
    assert len(record.loot) == len(record.rounds)
    assert result(replay(record)) == result(session.referee.game)
    session.devices.close()


def test_game_without_devices_the_godfather_enters_everything():
    session, _ = table("yakuzas", 9, 5, devices=False)
    session.run()
    assert session.referee.game.finished
