"""Whole games played at the simulated table (the demo's path: the runner, bots, simulated devices, the
game log) write a record that replays to the same result: the table and the record never disagree.

The default run plays every player count of every rule set; the ``slow`` run many more seeds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.record import replay, result
from controller.record.generator import seating
from controller.rules import RuleSet
from controller.rules.rulesets import SPECS
from controller.table import config as table_config
from controller.table.runner import Setup, start

COUNTS = [(rs, n) for rs in RuleSet for n in range(SPECS[rs].min_players, SPECS[rs].max_players + 1)]


def play_and_replay(tmp_path: Path, ruleset: RuleSet, players: int, seed: int, *, camera: bool) -> None:
    names = [n for n, _ in seating(ruleset, players)]
    config = table_config.from_dict({"game": {"ruleset": str(ruleset), "players": names, "seed": seed}})
    setup = Setup(config, seed, simulate=True, camera=camera, hub=False)
    log = tmp_path / f"{ruleset}-{players}-{seed}.log"
    referee = start(setup, log_path=log, say=lambda line: None)
    assert referee.game.finished
    assert result(replay(referee.record)) == result(referee.game), f"{ruleset} {players} players, seed {seed}"


@pytest.mark.parametrize("ruleset,players", COUNTS, ids=[f"{rs}-{n}" for rs, n in COUNTS])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_table_record_replays_to_the_same_result(tmp_path, ruleset, players, seed):
    play_and_replay(tmp_path, ruleset, players, seed, camera=False)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset,players,seed", [("classic-2014", 8, 6), ("classic-2014", 7, 15)])
def test_a_clip_taken_in_the_round_of_a_face_down_bang(tmp_path, ruleset, players, seed):
    """Two games whose 2nd edition clip came in a round where its taker's bang was still face down."""
    play_and_replay(tmp_path, RuleSet(ruleset), players, seed, camera=True)


@pytest.mark.slow
@pytest.mark.parametrize("players", [6, 9])
def test_yakuzas_with_the_camera_judging_throws(tmp_path, players):
    play_and_replay(tmp_path, RuleSet.YAKUZAS, players, 4, camera=True)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset,players", COUNTS, ids=[f"{rs}-{n}" for rs, n in COUNTS])
def test_many_table_games_replay_to_the_same_result(tmp_path, ruleset, players):
    for seed in range(100, 125):
        play_and_replay(tmp_path, ruleset, players, seed, camera=False)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset,players", [(rs, SPECS[rs].max_players) for rs in RuleSet],
                         ids=[str(rs) for rs in RuleSet])
def test_table_games_seen_by_the_camera_replay_to_the_same_result(tmp_path, ruleset, players):
    """The camera (throws and aims through the synthetic camera) at the largest table of each rule set; a
    game through the camera takes 30-40 s, so the many seeds above leave it out."""
    play_and_replay(tmp_path, ruleset, players, 100, camera=True)
