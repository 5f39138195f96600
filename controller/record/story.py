"""The readable story of a game, round by round, as ``replay`` prints it without ``--json``."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ..rules import ROUNDS, Game, RuleSet
from ..rules import events as ev
from ..rules.cards import GANG_ORDER, Item
from ..rules.events import Event
from ..rules.game import RoundSummary, table_order
from ..words import card_list, card_name, join, moment_name, seat_label
from ..words import money as _money
from .schema import Record

TOKENS = {
    "cowardice": "takes a cowardice token",
    "finger": "takes an honour marker, finger side up",
    "band-aid": "turns the honour marker held to the band-aid side: one wound",
    "fake-finger": "discards the honour marker held with a Fake Finger: no wound",
}


def money(value: int | None) -> str:
    return _money(value)


def items(values: Iterable[Item]) -> str:
    """Bills or loot cards as a player reads them, highest first: "$20,000, a $5,000 diamond and a painting"."""
    return card_list(table_order(list(values)))


_join = join


def _left(values: Iterable[Item], number: int) -> str:
    """What was not handed out: it stays on the table, except after the last round, when it is lost."""
    values = list(values)
    if number == ROUNDS and values:
        return f"lost with the last round: {items(values)}"
    return f"left on the table: {items(values)}"


_MOMENT = re.compile(r"\bphase-\w+|\bend-of-round\b")


def event_line(game: Game, e: Event, number: int = 0) -> str | None:
    """One event of a round, told in a line (``None`` for events the story leaves out)."""
    name = [p.name for p in game.players]
    if isinstance(e, ev.Revealed):
        return f"Round {number}: pot {money(e.pot)} (new pile: {items(e.pile)})"
    if isinstance(e, ev.LostCard):
        why = "pointed late" if e.reason == "late" else "the target withdrew"
        return f"  {name[e.seat]} loses the card played: {why}."
    if isinstance(e, ev.PrivilegeUsed):
        return (
            f"  The Godfather, {name[e.godfather]}, orders {name[e.seat]} to aim at "
            f"{name[e.new_target]} instead of {name[e.old_target]}."
        )
    if isinstance(e, ev.Withdrew):
        if e.token == "none":  # 2nd edition: lying down takes no token
            return f"  {name[e.seat]} withdraws."
        return f"  {name[e.seat]} withdraws and {TOKENS[e.token]}."
    if isinstance(e, ev.Retargeted):
        return f"  {name[e.seat]}'s tanto moves on from {name[e.old_target]} to {name[e.new_target]}."
    if isinstance(e, ev.Hit):
        if e.card in ("shuriken", "grenade"):
            return None
        more = ", no wound" if e.taken == 0 else f", {e.taken} wounds" if e.taken > 1 else ""
        return f"  {name[e.source]} hits {name[e.target]} ({card_name(e.card)}{more})."
    if isinstance(e, ev.CardUsed):
        note = _MOMENT.sub(lambda m: moment_name(m.group(0)), e.note)  # "phase-5b" is "phase 5b"
        return f"  {name[e.seat]} uses {card_name(e.card)}" + (f": {note}." if note else ".")
    if isinstance(e, ev.Protected):
        stopped = card_name(e.what)
        if stopped.endswith(" wound(s)") and stopped.split()[0].isdigit():  # Dragon Skin: "2 wound(s)"
            count = int(stopped.split()[0])
            stopped = f"{count} wound" + ("s" if count != 1 else "")
        return f"  {name[e.seat]}'s {card_name(e.card)} stops {stopped}" + (f" from {name[e.source]}." if e.source is not None else ".")
    if isinstance(e, ev.Exploded):
        victims = _join([name[s] for s in e.victims]) or "no one"
        return f"  {name[e.seat]}'s grenade explodes: wounded: {victims}."
    if isinstance(e, ev.RoundEnded):
        return f"  The round ends at the end of {moment_name(e.moment)} ({card_name(e.reason)}): no share."
    if isinstance(e, ev.Thrown):
        what = []
        if e.knocked:
            what.append("knocks over " + _join([name[s] for s in e.knocked]))
        if e.touched:
            what.append("touches " + _join([name[s] for s in e.touched]))
        did = " and ".join(what) or "hits nothing"
        if e.failed:
            outcome = f"the throw fails ({e.failed})"
        elif e.wounded:
            outcome = "wounded: " + _join([name[s] for s in e.wounded])
        else:
            outcome = "no one is hurt"
        return f"  {name[e.thrower]} throws a shuriken, {did}: {outcome}."
    if isinstance(e, ev.ShurikenKept):
        return (
            f"  {name[e.seat]} has no gangster to throw at: the shuriken goes back to {name[e.seat]}'s hand"
            f" and a {card_name(e.discarded) if e.discarded else 'card'} is discarded."
        )
    if isinstance(e, ev.Died):
        return f"  {name[e.seat]} dies."
    if isinstance(e, ev.Shared):
        if e.share:
            parts = " / ".join(" + ".join(money(b) for b in part) for part in e.parts)
            return (
                f"  Split: {_join([name[s] for s in e.sharers])} get {money(e.share)} each ({parts});"
                f" {_left(e.left, number)}."
            )
        if e.sharers:
            return (
                f"  Split: {_join([name[s] for s in e.sharers])} cannot share the pot equally;"
                f" {_left(e.left, number)}."
            )
        return f"  No one shares; {_left(e.left, number)}."
    if isinstance(e, ev.Picked):
        return f"  {name[e.seat]} takes {card_name(e.take)}."
    return None


def round_lines(game: Game, summary: RoundSummary) -> list[str]:
    """The story of one finished round."""
    lines = [line for e in summary.events if (line := event_line(game, e, summary.number)) is not None]
    if game.ruleset is RuleSet.CLASSIC_2014 and summary.sharers == ():
        lines.append(f"  No one shares; {_left(summary.left, summary.number)}.")
    if game.is_yakuzas and summary.number == 4 and not (game.finished and game.rounds_played == 4):
        lines.append("  Intermission: the gangs meet for 5 minutes.")
    return lines


def aims_line(aims: Mapping[str, str | None], late: Iterable[str]) -> str:
    """A round's aims as the story tells them: "  Aims: Aiko at Bo, Bo pointed late, Cy at no one."."""
    late = set(late)
    told = [f"{n} pointed late" if n in late else f"{n} at {t or 'no one'}" for n, t in aims.items()]
    return f"  Aims: {', '.join(told)}."


def story(game: Game, record: Record | None = None) -> str:
    """The game round by round; with its ``record``, each round's aims too (the engine's events do not hold
    them: "loses the card played: the target withdrew" needs them)."""
    lines = [f"Cash'n Guns, {game.ruleset}, {len(game.players)} players."]
    seats = []
    for p in game.players:  # the seat numbers the speaker says, as on the standee bases
        seats.append(f"{p.name} ({seat_label(p.seat)}, {p.gang} gang)" if p.gang else f"{p.name} ({seat_label(p.seat)})")
    lines.append("Seats, clockwise: " + ", ".join(seats) + ".")
    if game.ruleset is RuleSet.CLASSIC_2014:
        lines.append(f"The Godfather in round 1: {game.players[0].name}.")
    for summary in game.history:
        told = round_lines(game, summary)
        rounds = record.rounds if record is not None else []
        if 0 < summary.number <= len(rounds):
            rr = rounds[summary.number - 1]
            header = next((k for k, line in enumerate(told) if line.startswith(f"Round {summary.number}:")), -1)
            told.insert(header + 1, aims_line(rr.aims, rr.late))
        lines.extend(told)
    lines.append("")
    lines.extend(ending_lines(game))
    return "\n".join(lines)


def ending_lines(game: Game) -> list[str]:
    """Where a game ended (or stands): money and score of each gang (with its members) or player, the winners."""
    state = "over" if game.finished else "in progress"
    lines = [f"Game {state} after round {game.rounds_played}."]
    scores = game.scores()
    if game.is_yakuzas:
        for gang in GANG_ORDER:
            members = [p for p in game.players if p.gang is gang]
            people = ", ".join(f"{p.name}{'' if p.alive else ' (dead)'}" for p in members)
            lines.append(
                f"  {gang}: money {money(game.gang_money[gang])}, score {money(scores[str(gang)])}  [{people}]"
            )
    else:
        for p in game.players:
            detail = f"wounds {p.wounds}"
            if game.ruleset is RuleSet.CLASSIC:
                detail += f", cowardice {p.cowardice}"
            lines.append(f"  {p.name}: money {money(p.money)}, score {money(scores[p.name])}  ({detail})")
    if game.finished:
        if game.winners:
            lines.append(("Winners: " if len(game.winners) > 1 else "Winner: ") + _join(game.winners) + ".")
        else:
            lines.append("No one wins.")
    return lines
