"""Building simulated tables for the tests."""

from __future__ import annotations

from controller.devices.opening import open_simulated
from controller.record.generator import seating
from controller.rules import RuleSet
from controller.table import config as table_config
from controller.table.bots import Bots, Temper
from controller.table.referee import Referee, Step
from controller.table.runner import new_record
from controller.table.session import Session


def table(ruleset: str, players: int, seed: int, *, devices: bool = True, camera=None, bank: str = "digital",
          temper: Temper | None = None, game_log=None):
    """A referee, its bots and a session on simulated devices; returns (session, lines said)."""
    rs = RuleSet(ruleset)
    names = [n for n, _ in seating(rs, players)]
    config = table_config.from_dict({"game": {"ruleset": ruleset, "players": names, "bank": bank}})
    referee = Referee(new_record(config, seed), physical_bank=bank == "physical")
    bots = Bots(referee, seed, temper or Temper())
    dev = script = None
    if devices:
        dev, script = open_simulated(config.devices())
    if camera is not None and hasattr(camera, "reachable"):
        bots.reachable = camera.reachable
    lines: list[str] = []
    session = Session(referee, source=bots, bots=bots, devices=dev, script=script, camera=camera,
                      say=lines.append, game_log=game_log)
    return session, lines


class Godfather:
    """The console: keeps what the session shows at the aims step, and answers as the bots would."""

    def __init__(self, session: Session) -> None:
        self.session, self.bots = session, session.bots
        self.shown: list[dict] = []

    def answer(self, prompt):
        if prompt.step is Step.AIMS:
            self.shown.append(dict(self.session.pending or {}))
        return self.bots.answer(prompt)
