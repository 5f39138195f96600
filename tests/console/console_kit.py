"""A console on a simulated table, for the tests."""

from __future__ import annotations

import random

from controller.console.hub import ConsoleSource, Hub, Tokens
from controller.console.views import teams
from controller.devices.opening import open_simulated
from controller.record.generator import deal_cards, seating
from controller.rules import RuleSet
from controller.table import config as table_config
from controller.table.bots import Bots
from controller.table.referee import Referee
from controller.table.runner import new_record
from controller.table.session import Session


def console_table(ruleset="yakuzas", players=9, seed=5, *, cards=True, devices=True, camera=None):
    """A session whose Godfather is the console (bots only act the players' physical moves)."""
    rs = RuleSet(ruleset)
    names = [n for n, _ in seating(rs, players)]
    options = {"super_powers": cards, "objects": cards} if rs is not RuleSet.CLASSIC_2014 else {}
    config = table_config.from_dict({"game": {"ruleset": ruleset, "players": names, **options}})
    record = new_record(config, seed)
    if options.get("super_powers"):
        record.setup = deal_cards(random.Random(seed), rs, record.players, powers=True, objects=True)
    referee = Referee(record)
    bots = Bots(referee, seed, reachable=getattr(camera, "reachable", None))
    dev = script = None
    if devices:
        dev, script = open_simulated(config.devices())
    session = Session(referee, source=None, bots=bots, devices=dev, script=script,
                      camera=camera, say=lambda line: None)
    tokens = Tokens.new(teams(session))
    hub = Hub(session, tokens, base_url="http://testserver")
    session.source = ConsoleSource(hub)
    return session, hub
