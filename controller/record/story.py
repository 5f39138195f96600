"""The readable story of a game, round by round, as ``replay`` prints it without ``--json``."""

from __future__ import annotations

from ..rules import Game, RuleSet
from ..rules import events as ev
from ..rules.cards import GANG_ORDER, GODFATHER_TILE
from ..rules.game import table_order

TOKENS = {
    "cowardice": "takes a cowardice token",
    "finger": "takes an honour marker, finger side up",
    "band-aid": "turns his honour marker to the band-aid: one wound",
    "fake-finger": "discards his honour marker with a fake finger: no wound",
    "none": "lies down",
}
CARD_NAMES = {
    "bang": "Bang!",
    "tanto": "tanto",
    "bbb": "Bang! Bang! Bang!",
    "shuriken": "shuriken",
    "laser": "laser burst",
    "grenade": "grenade",
    "blast": "Kamikaze blast",
}


def money(value: int | None) -> str:
    if value is None:
        return "dead"
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,}"


def items(values) -> str:
    values = list(values)
    if not values:
        return "nothing"
    return " ".join(v if isinstance(v, str) else f"{v:,}" for v in table_order(values))


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def event_line(game: Game, e, number: int = 0) -> str | None:
    """One event of a round, told in a line (``None`` for events the story leaves out)."""
    name = [p.name for p in game.players]
    if isinstance(e, ev.Revealed):
        return f"Round {number}: pot {money(e.pot)} (new pile: {items(e.pile)})"
    if isinstance(e, ev.LostCard):
        why = "pointed late" if e.reason == "late" else "his target withdrew"
        return f"  {name[e.seat]} loses his card: {why}."
    if isinstance(e, ev.PrivilegeUsed):
        return (
            f"  The Godfather, {name[e.godfather]}, orders {name[e.seat]} to aim at "
            f"{name[e.new_target]} instead of {name[e.old_target]}."
        )
    if isinstance(e, ev.Withdrew):
        return f"  {name[e.seat]} withdraws and {TOKENS[e.token]}."
    if isinstance(e, ev.Retargeted):
        return f"  {name[e.seat]}'s tanto moves on from {name[e.old_target]} to {name[e.new_target]}."
    if isinstance(e, ev.Hit):
        if e.card in ("shuriken", "grenade"):
            return None
        more = f", {e.wounds} wounds" if e.wounds > 1 else ""
        return f"  {name[e.source]} hits {name[e.target]} ({CARD_NAMES[e.card]}{more})."
    if isinstance(e, ev.CardUsed):
        return f"  {name[e.seat]} uses {e.card}" + (f": {e.note}." if e.note else ".")
    if isinstance(e, ev.Protected):
        return f"  {name[e.seat]}'s {e.card} stops {e.what}" + (f" from {name[e.source]}." if e.source is not None else ".")
    if isinstance(e, ev.Exploded):
        victims = _join([name[s] for s in e.victims]) or "no one"
        return f"  {name[e.seat]}'s grenade explodes: wounded: {victims}."
    if isinstance(e, ev.RoundEnded):
        return f"  The round ends at the end of {e.moment} ({e.reason}): no share."
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
            f"  {name[e.seat]} has no gangster to throw at: his shuriken goes back to his hand"
            f" and he discards a {e.discarded}."
        )
    if isinstance(e, ev.Died):
        return f"  {name[e.seat]} dies."
    if isinstance(e, ev.Shared):
        if e.share:
            parts = " / ".join("+".join(f"{b:,}" for b in part) for part in e.parts)
            return (
                f"  Split: {_join([name[s] for s in e.sharers])} get {money(e.share)} each ({parts});"
                f" left on the table: {items(e.left)}."
            )
        if e.sharers:
            return (
                f"  Split: {_join([name[s] for s in e.sharers])} cannot share the pot equally;"
                f" left on the table: {items(e.left)}."
            )
        return f"  No one shares; left on the table: {items(e.left)}."
    if isinstance(e, ev.Picked):
        took = "the New Godfather tile" if e.take == GODFATHER_TILE else e.take
        return f"  {name[e.seat]} takes {took}."
    return None


def round_lines(game: Game, summary) -> list[str]:
    """The story of one finished round."""
    lines = [line for e in summary.events if (line := event_line(game, e, summary.number)) is not None]
    if game.ruleset is RuleSet.CLASSIC_2014 and summary.sharers == ():
        lines.append(f"  No one shares; left on the table: {items(summary.left)}.")
    if game.is_yakuzas and summary.number == 4 and not (game.finished and game.rounds_played == 4):
        lines.append("  Intermission: the gangs meet for 5 minutes.")
    return lines


def story(game: Game) -> str:
    lines = [f"Cash'n Guns, {game.ruleset}, {len(game.players)} players."]
    seats = []
    for p in game.players:
        seats.append(f"{p.name} ({p.gang})" if p.gang else p.name)
    lines.append("Seats, clockwise: " + ", ".join(seats) + ".")
    for summary in game.history:
        lines.extend(round_lines(game, summary))
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
