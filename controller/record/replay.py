"""Replaying a record through the rules engine, and the result object of ``replay --json``."""

from __future__ import annotations

from typing import Any

from ..errors import RecordError
from ..rules import Game, RuleSet, Use
from ..rules import moves as mv
from ..rules.advanced import CATALOG, check_setup
from ..rules.cards import GANG_ORDER
from ..rules.game import table_order
from ..rules.round import Round
from .schema import Record, RoundRecord

# How each field of a card use names players: converted to seats for the engine.
_ONE, _MANY, _KEYS, _MAP = "one", "many", "keys", "map"
NAME_FIELDS = {
    "target": _ONE,
    "from": _ONE,
    "weapon": _ONE,
    "targets": _MANY,
    "seat": _MANY,
    "markers": _KEYS,
    "heal": _KEYS,
    "took": _KEYS,
    "gave": _KEYS,
    "redirect": _MAP,
}


def new_game(record: Record) -> Game:
    powers = bool(record.options.get("super_powers"))
    objects = bool(record.options.get("objects"))
    setup = None
    if powers or objects or record.setup:
        part = record.setup
        setup = check_setup(
            RuleSet(record.ruleset),
            record.players,
            super_powers=powers,
            objects=objects,
            dealt={k: v.get("dealt") for k, v in part.items() if v.get("dealt") is not None},
            kept={k: v.get("kept") for k, v in part.items()},
        )
    return Game(
        record.ruleset,
        record.players,
        record.loot,
        free_seating=bool(record.options.get("free_seating")),
        setup=setup,
        super_powers=powers,
        objects=objects,
    )


def _uses(game: Game, rr: RoundRecord, number: int) -> list[Use]:
    uses = []
    for key, entries in (("powers", rr.powers), ("objects", rr.objects)):
        for j, entry in enumerate(entries, start=1):
            where = f"round {number}: {key} {j}"
            use = use_from_entry(game, entry, where)
            if CATALOG[use.card].is_object != (key == "objects"):
                right = "objects" if CATALOG[use.card].is_object else "powers"
                raise RecordError(f"{where}: {use.card} belongs in the {right} list")
            uses.append(use)
    return uses


def use_from_entry(game: Game, entry: object, where: str) -> Use:
    """A card use as a record (or the console) writes it: ``player``, ``card``, ``when`` (which may be left out
    for a card with one moment) and the card's own fields, with player names."""
    if not isinstance(entry, dict) or not isinstance(entry.get("player"), str):
        raise RecordError(f"{where}: a card use names its player")
    card = entry.get("card")
    spec = CATALOG.get(card) if isinstance(card, str) else None
    if spec is None:
        raise RecordError(f"{where}: {entry.get('card')!r} is not a card")
    when = entry.get("when")
    if when is not None and not isinstance(when, str):
        raise RecordError(f"{where}: when is a moment name, not {when!r}")
    if when is None:
        if len(spec.moments) != 1:
            raise RecordError(f"{where}: when is needed for {spec.id} (one of {', '.join(spec.moments)})")
        when = spec.moments[0]
    fields = {
        name: seats_of(game, value, NAME_FIELDS.get(name), f"{where}: {name}")
        for name, value in entry.items()
        if name not in ("player", "card", "when")
    }
    return Use(_seat(game, entry["player"], where), spec.id, when, fields)


def seats_of(game: Game, value: Any, kind: str | None, where: str) -> Any:
    """Player names in a card use's field, as seats (``kind``: how the field names players)."""
    if kind is None:
        return value

    def seat(name: object) -> int:
        if not isinstance(name, str):
            raise RecordError(f"{where}: expected a player name, got {name!r}")
        return _seat(game, name, where)

    if kind == _ONE:
        return None if value is None else seat(value)
    if kind == _MANY:
        if not isinstance(value, list):
            raise RecordError(f"{where}: expected a list of player names")
        return [seat(v) for v in value]
    if not isinstance(value, dict):
        raise RecordError(f"{where}: expected an object keyed by player names")
    if kind == _KEYS:
        return {seat(k): v for k, v in value.items()}
    return {seat(k): seat(v) for k, v in value.items()}


def use_to_dict(use: Use, names: list[str]) -> dict[str, Any]:
    """A use, as a record entry: seats back to player names."""
    out: dict[str, Any] = {"player": names[use.player], "card": use.card, "when": use.when}
    for key, value in use.fields.items():
        kind = NAME_FIELDS.get(key)
        if kind is None or value is None:
            out[key] = value
        elif kind == _ONE:
            out[key] = names[value]
        elif kind == _MANY:
            out[key] = [names[v] for v in value]
        elif kind == _KEYS:
            out[key] = {names[k]: v for k, v in value.items()}
        else:
            out[key] = {names[k]: names[v] for k, v in value.items()}
    return out


def _seat(game: Game, name: str, where: str) -> int:
    seat = game.find(name)
    if seat is None:
        raise RecordError(f"{where}: {name!r} is not a player")
    return seat


def round_moves(game: Game, rr: RoundRecord, number: int) -> list[mv.Move]:
    """The moves a recorded round holds, in the order they were made (names turned into seats).

    The split, the end of the picks and the end of the round, which the record does not write, are included.
    """
    where = f"round {number}"

    def seat(name: str, field: str) -> int:
        return _seat(game, name, f"{where}: {field}")

    moves: list[mv.Move] = [mv.Announce(use) for use in _uses(game, rr, number)]
    moves.append(mv.PlayCards({seat(n, "cards"): c for n, c in rr.cards.items()}))
    moves.append(
        mv.Aim(
            {seat(n, "aims"): (None if t is None else seat(t, "aims")) for n, t in rr.aims.items()},
            frozenset(seat(n, "late") for n in rr.late),
        )
    )
    if game.ruleset is RuleSet.CLASSIC_2014:
        order = rr.privilege
        if order is None:
            moves.append(mv.Privilege())
        else:
            moves.append(mv.Privilege(seat(order["player"], "privilege"), seat(order["target"], "privilege")))
    moves.append(mv.Withdraw(frozenset(seat(n, "withdraw") for n in rr.withdraw)))
    moves.append(mv.Bbb())
    if game.is_yakuzas:
        for throw in rr.shuriken:
            moves.append(
                mv.Throw(
                    seat(throw.thrower, "shuriken"),
                    tuple(seat(n, "shuriken") for n in throw.knocked),
                    tuple(seat(n, "shuriken") for n in throw.touched),
                    None if throw.target is None else seat(throw.target, "shuriken"),
                )
            )
        moves.append(mv.ThrowsDone())
    moves.append(mv.Reveal())
    if game.spec.uses_bills:
        moves.append(mv.ShareBills())
    else:
        moves += [mv.Pick(seat(p["player"], "picks"), p["take"]) for p in rr.picks]
        moves.append(mv.EndPicks())
    moves.append(mv.Finish())
    return moves


def play_round(game: Game, rr: RoundRecord) -> Round:
    """Play one recorded round through the engine: each of its moves is pushed; returns it finished."""
    number = game.rounds_played + 1
    for key, option in (("powers", "super_powers"), ("objects", "objects")):
        if getattr(rr, key) and not getattr(game, option):
            raise RecordError(f"round {number}: {key}: needs the {option} option")
    moves = round_moves(game, rr, number)
    rnd = game.begin_round()
    for move in moves:
        rnd.push(move)
    return rnd


def replay(record: Record) -> Game:
    """The game a record describes; raises IllegalMove (or RecordError) on the first broken rule."""
    game = new_game(record)
    for rr in record.rounds:
        play_round(game, rr)
    return game


def result(game: Game) -> dict[str, Any]:
    """The ``--json`` result object of game-record.md."""
    names = [p.name for p in game.players]
    players: dict[str, dict[str, Any]] = {}
    for p in game.players:
        entry: dict[str, Any] = {"alive": p.alive, "wounds": p.wounds, "cowardice": p.cowardice}
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
