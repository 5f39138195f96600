"""Random legal games, from a seed: for the demo, the tests and the benchmark.

The generator plays through the rules engine itself, choosing among the moves
the engine offers (legal aims, legal throw targets, whose pick it is), so every
record it writes is legal by construction; replaying it must give the same game.
Withdrawals, late pointing, misses and wild throws are drawn too, so the records
exercise every rule.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules import Game, RuleSet
from ..rules.cards import GODFATHER_TILE
from ..rules.rulesets import ROUNDS, SEATINGS, SPECS
from .schema import Record, RoundRecord, Throw

NAMES = ("Aiko", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo")


@dataclass(frozen=True)
class Style:
    """How the random players behave (probabilities per decision)."""

    late: float = 0.04
    withdraw: float = 0.22
    privilege: float = 0.3
    miss: float = 0.12  # a throw hits nothing
    wild: float = 0.12  # a throw also hits another standee (a neighbour, a yakuza...)
    touch_only: float = 0.2  # the target is only touched
    tile: float = 0.15  # a sharer takes the New Godfather tile when it is free


def deal_loot(rng: random.Random, ruleset: RuleSet) -> list[list]:
    spec = SPECS[ruleset]
    deck = [item for item, count in sorted(spec.loot_deck.items(), key=lambda kv: str(kv[0])) for _ in range(count)]
    rng.shuffle(deck)
    size = spec.pile_size
    return [deck[k * size : (k + 1) * size] for k in range(ROUNDS)]


def seating(ruleset: RuleSet, players: int) -> list[tuple[str, str | None]]:
    if ruleset is RuleSet.YAKUZAS:
        return [(NAMES[k], str(g)) for k, g in enumerate(SEATINGS[players])]
    return [(NAMES[k], None) for k in range(players)]


def random_record(
    seed: int,
    ruleset: RuleSet | str = RuleSet.YAKUZAS,
    players: int | None = None,
    *,
    rounds: int = ROUNDS,
    style: Style = Style(),
) -> Record:
    """A random legal game of up to ``rounds`` rounds (fewer if it ends early)."""
    return random_game(seed, ruleset, players, rounds=rounds, style=style)[0]


def random_game(
    seed: int,
    ruleset: RuleSet | str = RuleSet.YAKUZAS,
    players: int | None = None,
    *,
    rounds: int = ROUNDS,
    style: Style = Style(),
) -> tuple[Record, Game]:
    """A random legal game's record, and the engine's game it was played in."""
    ruleset = RuleSet(ruleset)
    spec = SPECS[ruleset]
    rng = random.Random(f"{ruleset}:{players}:{seed}")
    if players is None:
        players = rng.randint(spec.min_players, spec.max_players)
    record = Record(str(ruleset), seating(ruleset, players), deal_loot(rng, ruleset))
    game = Game(ruleset, record.players, record.loot)
    while not game.finished and game.rounds_played < rounds:
        record.rounds.append(_play_random_round(game, rng, style))
    return record, game


def _play_random_round(game: Game, rng: random.Random, style: Style) -> RoundRecord:
    names = [p.name for p in game.players]
    rnd = game.begin_round()
    seated = rnd.seated

    cards = {}
    for s in seated:
        hand = game.players[s].hand
        cards[s] = rng.choice([c for c, n in hand.items() for _ in range(n)])
    rnd.play_cards(cards)

    late = [s for s in seated if rng.random() < style.late]
    aims: dict[int, int | None] = {}
    for s in seated:
        legal = rnd.legal_targets(s)
        aims[s] = None if s in late or not legal else rng.choice(legal)
    rnd.aim(aims, late=late)

    privilege = None
    if game.ruleset is RuleSet.CLASSIC_2014 and rng.random() < style.privilege:
        ordered = [s for s in seated if s != game.godfather and aims[s] is not None]
        if ordered:
            s = rng.choice(ordered)
            others = [t for t in rnd.legal_targets(s) if t != aims[s]]
            if others:
                t = rng.choice(others)
                rnd.privilege(s, t)
                privilege = {"player": names[s], "target": names[t]}

    withdraw = [s for s in seated if rng.random() < style.withdraw]
    rnd.withdraw(withdraw)
    rnd.bang_bang_bang()

    throws = []
    if game.is_yakuzas:
        while True:
            pending = rnd.pending_throwers()
            if not pending or not rnd.standing_gangsters():
                break
            thrower = rng.choice(pending)
            target = rng.choice(rnd.throw_targets(thrower))
            knocked: list[int] = []
            touched: list[int] = []
            roll = rng.random()
            if roll >= style.miss:
                (touched if rng.random() < style.touch_only else knocked).append(target)
                if rng.random() < style.wild:
                    others = [s for s in seated if s not in (thrower, target)]
                    (touched if rng.random() < 0.5 else knocked).append(rng.choice(others))
            rnd.throw(thrower, knocked, touched, target=target)
            throws.append(
                Throw(names[thrower], [names[s] for s in knocked], [names[s] for s in touched], names[target])
            )
        rnd.end_throws()

    rnd.reveal()
    picks = []
    if game.spec.uses_bills:
        rnd.share_bills()
    else:
        tile_free = True
        while (turn := rnd.pick_turn()) is not None:
            if tile_free and rng.random() < style.tile:
                take = GODFATHER_TILE
                tile_free = False
            else:
                take = rng.choice(game.table)
            rnd.pick(turn, take)
            picks.append({"player": names[turn], "take": take})
        rnd.end_picks()
    rnd.finish()

    return RoundRecord(
        cards={names[s]: str(c) for s, c in cards.items()},
        aims={names[s]: (None if t is None else names[t]) for s, t in aims.items()},
        late=[names[s] for s in late],
        withdraw=[names[s] for s in withdraw],
        shuriken=throws,
        privilege=privilege,
        picks=picks,
    )


__all__ = ["Style", "random_game", "random_record", "deal_loot", "seating"]
