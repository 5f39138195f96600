"""A console on a simulated table, for the tests."""

from __future__ import annotations

import random

from controller.console.relay import ConsoleSource, Relay
from controller.console.tokens import Tokens
from controller.console.views import teams
from controller.devices.opening import open_simulated
from controller.record.generator import deal_cards, seating
from controller.rules import RuleSet
from controller.table import config as table_config
from controller.table.bots import Bots
from controller.table.referee import Referee
from controller.table.runner import new_record
from controller.table.session import Session


def console_table(ruleset="yakuzas", players=9, seed=5, *, cards=True, devices=True, camera=None, game_log=None,
                  cards_after=0.0, names=None, temper=None):
    """A session whose Godfather is the console (bots only act the players' physical moves)."""
    rs = RuleSet(ruleset)
    seated = seating(rs, players)
    if names is not None:
        seated = [(new, gang) for new, (_, gang) in zip(names, seated)]
    options = {"super_powers": cards, "objects": cards} if rs is not RuleSet.CLASSIC_2014 else {}
    game = {"ruleset": ruleset, "players": [n for n, _ in seated], **options}
    if rs is RuleSet.YAKUZAS and names is not None:
        game["gangs"] = [str(g) for _, g in seated]
    config = table_config.from_dict({"game": game})
    record = new_record(config, seed)
    if options.get("super_powers"):
        record.setup = deal_cards(random.Random(seed), rs, record.players, powers=True, objects=True)
    referee = Referee(record)
    bots = Bots(referee, seed, reachable=getattr(camera, "reachable", None), **({"temper": temper} if temper else {}))
    dev = script = None
    if devices:
        dev, script = open_simulated(config.devices())
    session = Session(referee, source=None, bots=bots, devices=dev, script=script,
                      camera=camera, game_log=game_log, say=lambda line: None)
    tokens = Tokens.new(teams(session))
    relay = Relay(session, tokens, base_url="http://testserver")
    session.source = ConsoleSource(relay, cards_after=cards_after)
    return session, relay
