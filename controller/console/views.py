"""What each console page may see, as JSON.

Three kinds of page see the table: the Godfather's (everything the table shows, plus the
choices of the step and the pending verdicts), a gang's (the table, plus the Super Powers,
Super Kiai and Objects its own players keep), and the table view (no token: what anyone at
the table sees).  Nothing secret is ever put in a view not entitled to it: secrets are added
by :func:`team_view` for that team only.
"""

from __future__ import annotations

import time
from typing import Any

from ..rules.advanced import CATALOG, Deck, deck_cards
from ..rules.cards import GANG_ORDER, GODFATHER_TILE, Role
from ..table.referee import EXPECTED, Step
from ..table.session import Session
from ..words import card_name

GODFATHER = "godfather"


def teams(session: Session) -> list[str]:
    """The teams that keep secrets: the gangs (Yakuzas) or the players (other rule sets)."""
    game = session.referee.game
    return [str(g) for g in GANG_ORDER] if game.is_yakuzas else [p.name for p in game.players]


def team_of(session: Session, seat: int) -> str:
    p = session.referee.game.players[seat]
    return str(p.gang) if p.gang is not None else p.name


def table_view(session: Session, version: int) -> dict[str, Any]:
    """What anyone at the table sees."""
    referee = session.referee
    game = referee.game
    rnd = referee.round
    prompt = referee.prompt()
    players = []
    for p in game.players:
        entry: dict[str, Any] = {
            "name": p.name,
            "seat": p.seat,
            "gang": str(p.gang) if p.gang else None,
            "yakuza": p.role is Role.YAKUZA,
            "alive": p.alive,
            "wounds": p.wounds,
            "cowardice": p.cowardice,
            "honor": "finger" if p.finger else "none",
            "status": "dead" if not p.alive else "standing",
            "aim": None,
            "card": None,
            "late": False,
        }
        if rnd is not None and p.alive and p.seat in rnd._pos:
            weapon = rnd.primary.get(p.seat)
            if weapon is not None:
                entry["aim"] = game.players[weapon.target].name if weapon.target is not None else None
                entry["card"] = str(weapon.card) if weapon.card is not None else None
            entry["late"] = p.seat in rnd.late
            if p.seat in rnd.withdrew:
                entry["status"] = "withdrew"
            elif p.seat in rnd.out:
                entry["status"] = "hit"
            elif p.seat in rnd.wounded:
                entry["status"] = "wounded"
            else:
                entry["status"] = "in share"
        players.append(entry)
    money = {str(g): game.gang_money[g] for g in GANG_ORDER} if game.is_yakuzas else {p.name: p.money for p in game.players}
    return {
        "version": version,
        "role": "table",
        "ruleset": str(game.ruleset),
        "round": prompt.round,
        "step": prompt.step.value,
        "prompt": prompt.text,
        "players": players,
        "order": [game.players[s].name for s in game.order],
        "pot": rnd.pot if rnd is not None else 0,
        "table": list(game.table),
        "money": money,
        "scores": game.scores(),
        "godfather": game.players[game.godfather].name if str(game.ruleset) == "classic-2014" else None,
        "count": session.count_shown,
        "intermission_left": (
            max(0, round(session.intermission_ends - time.time())) if session.intermission_ends is not None else None
        ),
        "log": session.lines[-40:],
        "finished": game.finished,
        "winners": list(game.winners),
        "card_names": _card_names(game),
    }


def _card_names(game, *, advanced: bool = False) -> dict[str, str]:
    """What a page shows for each bill and loot card id of this game, and for the Godfather each
    advanced-rule card id too (controller.words: the names printed on the cards)."""
    ids: list[object] = [*game.spec.loot_deck, GODFATHER_TILE, *(CATALOG if advanced else ())]
    return {str(card): card_name(card) for card in ids}


def godfather_view(session: Session, version: int, links: dict[str, str]) -> dict[str, Any]:
    """The Godfather's page: the table, the step's choices, what waits for his decision."""
    view = table_view(session, version)
    referee = session.referee
    prompt = referee.prompt()
    view["role"] = GODFATHER
    view["who"] = prompt.players
    view["options"] = prompt.options
    view["expects"] = [cls.kind for cls in EXPECTED[prompt.step]]
    view["pending"] = session.pending
    view["cards"] = _hand_choices(session) if prompt.step in (Step.BBB, Step.THROWS, Step.REVEAL, Step.DISCARDS) else {}
    view["sensors"] = _sensors(session)
    view["teams"] = [{"team": t, "url": url} for t, url in links.items()]
    view["uses"] = _card_moments(session)
    view["card_names"] = _card_names(referee.game, advanced=True)
    return view


def _card_moments(session: Session) -> dict[str, list[str]]:
    """The advanced-rule cards of this game's decks, with the moments each is used at (who holds
    which stays secret: a player announces his card, the Godfather enters the use)."""
    game = session.referee.game
    decks = []
    if game.super_powers:
        decks += [Deck.POWER] + ([Deck.KIAI] if game.is_yakuzas else [])
    if game.objects:
        decks += [Deck.GANGSTER_OBJECT] + ([Deck.YAKUZA_OBJECT] if game.is_yakuzas else [])
    return {card: list(CATALOG[card].moments) for deck in decks for card in deck_cards(deck, game.ruleset)
            if CATALOG[card].moments}


def team_view(session: Session, version: int, team: str) -> dict[str, Any]:
    """A gang's (or a player's) page: the table, and the cards its own players keep."""
    view = table_view(session, version)
    game = session.referee.game
    view["role"] = "team"
    view["team"] = team
    secrets = []
    for p in game.players:
        if team_of(session, p.seat) != team:
            continue
        secrets.append(
            {
                "player": p.name,
                "power": p.power,
                "object": p.object,
                "used": sorted(p.spent | (p.revealed & {c for c in (p.power, p.object) if c})),
            }
        )
    view["secrets"] = secrets
    return view


def _hand_choices(session: Session) -> dict[str, list[str]]:
    """For each player who shows a card at this step: the cards his hand can still show."""
    referee = session.referee
    rnd = referee.round
    if rnd is None:
        return {}
    game = referee.game
    hidden = set(rnd.hidden_cards())
    out = {}
    for name in referee.prompt().players:
        seat = game.seat_of(name)
        if seat in hidden:
            hand = game.players[seat].hand
            out[name] = sorted(str(c) for c, n in hand.items() if n > 0)
    return out


def _sensors(session: Session) -> dict[str, Any]:
    devices = session.devices
    if devices is None:
        return {"present": False, "faults": {}, "overridden": []}
    names = session.referee.names
    faults = {names([seat])[0]: sorted(k.value for k in kinds) for seat, kinds in devices.judge.faults().items() if kinds}
    return {"present": True, "faults": faults, "overridden": names(sorted(session.overridden))}
