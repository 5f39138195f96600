"""Small builders for test records: a few lines per scenario."""

from __future__ import annotations

import copy
import json

from controller.errors import CashNGunsError
from controller.record import from_dict, new_game, play_round, replay, result
from controller.record.replay import round_moves
from controller.rules import IllegalMove
from controller.rules import moves as mv

# Names tell the gang in yakuzas tests: P1 is a purple yakuza, Y1 yellow, R1 red.
YAKUZA_NAMES = {
    6: ["P1", "Y1", "R1", "P2", "Y2", "R2"],
    7: ["P1", "Y1", "P2", "R1", "P3", "Y2", "R2"],
    8: ["P1", "Y1", "R1", "Y2", "P2", "R2", "Y3", "R3"],
    9: ["P1", "Y1", "R1", "P2", "Y2", "R2", "P3", "Y3", "R3"],
}
GANG = {"P": "purple", "Y": "yellow", "R": "red"}
CLASSIC_PILE = [20000, 10000, 10000, 5000, 5000]
YAKUZA_PILE = [20000, 10000, 10000, 10000, 5000, 5000, 5000, 5000]
LOOT_2014 = ["cash-20000", "cash-10000", "cash-5000", "diamond-1000", "painting", "cash-20000", "cash-10000", "cash-5000"]


def players(ruleset: str, n: int, names: list[str] | None = None) -> list[dict]:
    if ruleset == "yakuzas":
        names = names or YAKUZA_NAMES[n]
        return [{"name": x, "gang": GANG[x[0]]} for x in names]
    names = names or ["A", "B", "C", "D", "E", "F", "G", "H"][:n]
    return [{"name": x} for x in names]


def record(ruleset: str, n: int, rounds: list[dict], *, loot=None, names=None, options=None) -> dict:
    if loot is None:
        pile = {"classic": CLASSIC_PILE, "yakuzas": YAKUZA_PILE, "classic-2014": LOOT_2014}[ruleset]
        loot = [list(pile) for _ in rounds] or [list(pile)]
    data = {"format": "cashnguns-record/1", "ruleset": ruleset, "players": players(ruleset, n, names), "loot": loot, "rounds": rounds}
    if options:
        data["options"] = options
    return data


def rnd(cards: dict, aims: dict, withdraw=(), late=(), shuriken=(), **extra) -> dict:
    out = {"cards": cards, "aims": aims, "withdraw": list(withdraw), "late": list(late)}
    if shuriken:
        out["shuriken"] = list(shuriken)
    out.update(extra)
    return out


def all_cards(names, card="clic", **special) -> dict:
    return {n: special.get(n, card) for n in names}


def play(data: dict):
    """Replay a record dict; returns (game, result).

    A classic-2014 round given without ``picks`` gets them filled in: each sharer in
    turn takes the first loot card on the table.
    """
    data = json.loads(json.dumps(data))
    if data["ruleset"] == "classic-2014":
        fill_picks(data)
    game = replay(from_dict(data))
    return game, result(game)


def fill_picks(data: dict) -> None:
    record = from_dict(data)
    game = new_game(record)
    for k, rr in enumerate(record.rounds):
        if "picks" not in data["rounds"][k]:
            probe = copy.deepcopy(game)
            rr.picks = []
            try:
                play_round(probe, rr)
            except IllegalMove:
                taken = []
                rnd = _to_share(copy.deepcopy(game), rr)
                while (turn := rnd.pick_turn()) is not None:
                    take = rnd.game.table[0]
                    rnd.push(mv.Pick(turn, take))
                    taken.append({"player": rnd.game.players[turn].name, "take": take})
                rr.picks = taken
                data["rounds"][k]["picks"] = taken
        play_round(game, rr)


def _to_share(game, rr):
    """Play a recorded 2nd edition round up to its picks: its moves pushed, as a replay does."""
    moves = round_moves(game, rr, game.rounds_played + 1)
    rnd = game.begin_round()
    for move in moves:
        if isinstance(move, (mv.Pick, mv.EndPicks)):
            break
        rnd.push(move)
    return rnd


def illegal(data: dict) -> str:
    """Replay a record that must be refused; returns the one-line reason."""
    try:
        play(data)
    except CashNGunsError as exc:
        message = str(exc)
        assert "\n" not in message
        return message
    raise AssertionError("the record was accepted")
