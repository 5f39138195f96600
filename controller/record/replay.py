"""Replaying a record through the rules engine, and the result object of ``replay --json``."""

from __future__ import annotations

from ..rules import Game, RuleSet
from ..rules.cards import GANG_ORDER
from ..rules.game import Round, table_order
from .schema import Record, RoundRecord


def new_game(record: Record) -> Game:
    return Game(
        record.ruleset,
        record.players,
        record.loot,
        free_seating=bool(record.options.get("free_seating")),
    )


def play_round(game: Game, rr: RoundRecord) -> Round:
    """Play one recorded round through the engine, phase by phase; returns it finished."""
    seat = game.seat_of
    rnd = game.begin_round()
    rnd.play_cards({seat(n): c for n, c in rr.cards.items()})
    rnd.aim(
        {seat(n): (None if t is None else seat(t)) for n, t in rr.aims.items()},
        late=[seat(n) for n in rr.late],
    )
    if rr.privilege is not None:
        rnd.privilege(seat(rr.privilege["player"]), seat(rr.privilege["target"]))
    rnd.withdraw(seat(n) for n in rr.withdraw)
    rnd.bang_bang_bang()
    if game.is_yakuzas:
        for throw in rr.shuriken:
            rnd.throw(
                seat(throw.thrower),
                [seat(n) for n in throw.knocked],
                [seat(n) for n in throw.touched],
                target=None if throw.target is None else seat(throw.target),
            )
        rnd.end_throws()
    rnd.reveal()
    if game.spec.uses_bills:
        rnd.share_bills()
    else:
        for pick in rr.picks:
            rnd.pick(seat(pick["player"]), pick["take"])
        rnd.end_picks()
    rnd.finish()
    return rnd


def replay(record: Record) -> Game:
    """The game a record describes; raises IllegalMove (or RecordError) on the first broken rule."""
    game = new_game(record)
    for rr in record.rounds:
        play_round(game, rr)
    return game


def result(game: Game) -> dict:
    """The ``--json`` result object of game-record.md."""
    names = [p.name for p in game.players]
    players = {}
    for p in game.players:
        entry = {"alive": p.alive, "wounds": p.wounds, "cowardice": p.cowardice}
        if game.is_yakuzas:
            entry["honor"] = "finger" if p.finger else "none"
        players[p.name] = entry
    if game.is_yakuzas:
        money = {str(g): game.gang_money[g] for g in GANG_ORDER}
    else:
        money = {p.name: p.money for p in game.players}
    rounds = [
        {
            "pot": s.pot,
            "sharers": [names[i] for i in s.sharers],
            "share": s.share if game.ruleset is not RuleSet.CLASSIC_2014 else 0,
            "left": list(s.left),
        }
        for s in game.history
    ]
    return {
        "ruleset": str(game.ruleset),
        "rounds_played": game.rounds_played,
        "finished": game.finished,
        "winners": list(game.winners) if game.finished else [],
        "players": players,
        "money": money,
        "scores": game.scores(),
        "table": table_order(game.table),
        "rounds": rounds,
    }
