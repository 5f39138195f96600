"""The aims at the table: the bots point, the synthetic camera films it, the aim reader reads it."""

from __future__ import annotations

import copy

import pytest

from controller.table import config as table_config
from controller.table import inputs as I
from controller.table.bots import Bots
from controller.table.camera import SimulatedCamera
from controller.table.gamelog import GameLog, read
from controller.table.referee import Step
from controller.table.runner import Setup, start
from tests.table.table_kit import table


def quiet(_line: str) -> None:
    pass


class Console:
    """Stands in for the Godfather's console: keeps what the session shows at the aims step and
    answers as the bots would (it is not a ``Bots``, so the session asks it to confirm)."""

    def __init__(self, bots: Bots, session) -> None:
        self.bots, self.session = bots, session
        self.shown: list[tuple[dict, bytes | None]] = []

    def answer(self, prompt):
        if prompt.step is Step.AIMS:
            self.shown.append((self.session.pending, self.session.frame))
        return self.bots.answer(prompt)


class FilmedOnce(SimulatedCamera):
    """The simulated camera, each aim count filmed and read once: a count (the game's seed, its number,
    the seats and where the weapons really point) films the same clip every time, so the games of the
    module that play it share its reading, each given its own copy."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.readings: dict[tuple, object] = {}

    def read_aims(self, *, seats, shooters, candidates, number, truth=None):
        key = (seats, tuple(shooters), tuple(candidates), number,
               None if truth is None else tuple(sorted(truth.items())))
        if key not in self.readings:
            self.readings[key] = super().read_aims(seats=seats, shooters=shooters, candidates=candidates,
                                                   number=number, truth=truth)
        return copy.deepcopy(self.readings[key])


@pytest.fixture(scope="module")
def camera_11():
    """Game 11's camera, shared by the tests that play its first round."""
    return FilmedOnce(11)


def test_the_console_is_shown_the_camera_aims_and_the_frame():
    session, _ = table("yakuzas", 7, seed=5, camera=SimulatedCamera(5))
    console = Console(session.bots, session)
    session.source = console
    players = [p.name for p in session.referee.game.players]
    while not console.shown:
        session.play_step()
    pending, frame = console.shown[0]
    assert set(pending) == {"kind", "aims", "late", "unsure", "refused", "sure", "margins", "aiming_again",
                            "aimed_again"} and pending["kind"] == "aims"
    assert not pending["aiming_again"]  # shown once the camera read every count
    assert not pending["sure"] or (not pending["unsure"] and not pending["refused"])
    assert set(pending["aims"]) == set(players)
    assert all(t is None or t in players for t in pending["aims"].values())
    assert set(pending["late"]) <= set(players) and set(pending["unsure"]) <= set(players)
    assert all(isinstance(why, str) and why for why in pending["refused"].values())
    assert set(pending["refused"]).isdisjoint(pending["unsure"])
    assert all(isinstance(m, float) for m in pending["margins"].values())
    assert frame is not None and frame[:2] == b"\xff\xd8"  # a JPEG, lines of fire drawn


def check_log(log_path, names):
    """Each aims input follows the camera's reading in the log; every sure aim the rules allow stood."""
    logged = read(log_path)
    seen = [s["aims"] for s in logged.seen if "aims" in s]
    confirmed = [i for i in logged.inputs if i.get("kind") == "aims"]
    assert seen and len(seen) == len(confirmed)
    stood = 0
    for camera, entered in zip(seen, confirmed):
        assert set(camera) >= {"round", "aims", "late", "needs_godfather", "confidence", "seats", "refused"}
        for seat, aim in camera["seats"].items():
            name = names[int(seat)]
            if name not in entered["aims"]:
                continue
            if aim["sure"] and name not in camera["refused"]:  # a sure aim the rules allow stands as read
                expected = None if aim["late"] or aim["target"] is None else names[aim["target"]]
                assert entered["aims"][name] == expected, (camera["round"], name, aim)
                assert (name in entered["late"]) == aim["late"]
                stood += 1
            assert aim["reason"]  # the evidence, to replay a dispute
    assert stood >= len(confirmed) * 2  # most aims come from the camera, not from the Godfather
    return seen


def test_simulated_rounds_read_the_aims_through_the_camera_and_log_both(tmp_path):
    log_path = tmp_path / "game.log"
    game_log = GameLog.create(log_path, {"record": {}})
    session, _ = table("classic", 4, seed=8, camera=SimulatedCamera(8), game_log=game_log)
    names = [p.name for p in session.referee.game.players]
    while session.referee.game.rounds_played < 2:
        session.play_step()
    game_log.close()
    assert len(check_log(log_path, names)) == 2


@pytest.mark.slow
def test_a_whole_simulated_game_reads_the_aims_through_the_camera(tmp_path):
    names = ["Aiko", "Bo", "Cy", "Dee", "Eli", "Fay"]
    config = table_config.from_dict({"game": {"ruleset": "yakuzas", "players": names, "seed": 8}})
    log_path = tmp_path / "game.log"
    start(Setup(config, 8, simulate=True, camera=True), log_path=log_path, say=quiet)
    assert len(check_log(log_path, names)) >= 4


def test_the_story_names_the_seats_the_godfather_enters_and_what_he_entered(tmp_path, camera_11):
    """Each seat asked is named with why (the camera unsure, or the rule refusing the aim read), and the
    aims entered for them are told, as confirmed."""
    log_path = tmp_path / "game.log"
    game_log = GameLog.create(log_path, {"record": {}})
    session, lines = table("yakuzas", 9, seed=11, camera=camera_11, game_log=game_log)
    while session.referee.game.rounds_played < 1:
        session.play_step()
    game_log.close()
    confirmed = [i for i in read(log_path).inputs if i.get("kind") == "aims"]
    asked_lines = [n for n, line in enumerate(lines) if line.startswith("  The Godfather enters the aims of ")]
    assert asked_lines, lines
    for n in asked_lines:
        entered = lines[n + 1]
        assert entered.startswith("  The Godfather enters: "), lines[n: n + 2]
        told = dict(part.split(" at ", 1) if " at " in part else (part.removesuffix(" pointed late"), "late")
                    for part in entered.removeprefix("  The Godfather enters: ").removesuffix(".").split(", "))
        reasons = lines[n].removeprefix("  The Godfather enters the aims of ").removesuffix(".")
        assert all(f"{name} (" in reasons for name in told)
        aims = confirmed[sum(line.startswith("Round ") for line in lines[:n])]  # round 1 has no header here
        for name, target in told.items():
            assert target == ("late" if name in aims["late"] else aims["aims"][name] or "no one")


def test_a_negative_seed_films_its_throws_and_aims():
    camera = SimulatedCamera(-5)
    assert camera.judge(thrower=0, seats=6, number=1, truth=([2], [])) is not None
    assert camera.read_aims(seats=4, shooters=[0, 1, 2, 3], candidates=[0, 1, 2, 3], number=2,
                            truth={0: (1, False), 1: (2, False), 2: (3, False), 3: (0, False)}) is not None


def _entered(line: str) -> dict[str, str]:
    parts = line.removeprefix("  The Godfather enters: ").removesuffix(".").split(", ")
    return dict(p.split(" at ", 1) if " at " in p else (p.removesuffix(" pointed late"), "late") for p in parts)


def test_without_a_camera_the_story_tells_every_aim_the_godfather_enters(tmp_path):
    """No camera reads the count: the story tells each round's aims as confirmed, every shooter in the
    order of the table, before what they did ("loses the card played: the target withdrew" needs them)."""
    log_path = tmp_path / "game.log"
    game_log = GameLog.create(log_path, {"record": {}})
    session, lines = table("classic", 6, seed=3, game_log=game_log)
    while session.referee.game.rounds_played < 3:
        session.play_step()
    game_log.close()
    confirmed = [i for i in read(log_path).inputs if i.get("kind") == "aims"]
    told = [_entered(line) for line in lines if line.startswith("  The Godfather enters: ")]
    assert len(told) == len(confirmed) >= 3
    for said, aims in zip(told, confirmed):
        assert list(said) == list(aims["aims"])
        assert said == {n: "late" if n in aims["late"] else (t or "no one") for n, t in aims["aims"].items()}


def test_an_aim_the_godfather_corrects_on_the_console_is_told(camera_11):
    """With a camera, the aims confirmed from the console (not the bots' own path) are told where they
    differ from the camera's reading: the seats it was unsure of, and a sure aim the Godfather changed."""
    session, lines = table("yakuzas", 9, seed=11, camera=camera_11)
    bots = session.bots
    changed: list[tuple[str, str, set[str]]] = []  # the shooter changed, his new target, the seats asked

    class Correcting(Console):
        def answer(self, prompt):
            if prompt.step is not Step.AIMS:
                return bots.answer(prompt)
            pending, entered = self.session.pending, bots.answer(prompt)
            aims = {n: (entered.aims.get(n) if n in pending["unsure"] or n in pending["refused"]
                        else None if n in pending["late"] else t) for n, t in pending["aims"].items()}
            late = [n for n in pending["late"] if n not in pending["unsure"]]
            targets = prompt.options["targets"]
            shooter = next(n for n in aims if n not in late and n not in pending["unsure"] and n not in pending["refused"]
                           and any(t != aims[n] for t in targets[n]))
            aims[shooter] = next(t for t in targets[shooter] if t != aims[shooter])
            changed.append((shooter, aims[shooter], set(pending["unsure"]) | set(pending["refused"])))
            return I.Aims(aims, late)

    session.source = Correcting(bots, session)
    while session.referee.game.rounds_played < 1:
        session.play_step()
    read_at = next(n for n, line in enumerate(lines) if line.startswith("  The camera reads: "))
    said = next(line for line in lines[read_at:] if line.startswith("  The Godfather enters: "))
    shooter, target, asked = changed[0]
    told = _entered(said)
    assert set(told) == {shooter} | asked and told[shooter] == target
