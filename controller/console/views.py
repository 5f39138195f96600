"""What each console page may see, as JSON, and the choices the Godfather is offered.

Three kinds of page see the table: the Godfather's (everything the table shows, plus the
choices of the step, what waits for his decision and what he may undo), a gang's or a
player's own (the table, plus the Super Powers, Super Kiai and Objects its own players keep,
and what its own players may enter now: :func:`team_asks`), and the table view (no token:
what anyone at the table sees).  Nothing secret is ever put in a view not
entitled to it: secrets are added by :func:`team_view` for that team only.

The choices come from the engine: a card is offered when the referee accepts it (tried on a
copy of the game), and a step whose only possible answer is known is answered by the console
(:func:`only_answer`), so the Godfather taps only what the table decided.
"""

from __future__ import annotations

import copy
import time
from typing import Any

from ..rules.advanced import CATALOG, Deck, deck_cards
from ..rules.cards import GANG_ORDER, GODFATHER_TILE, Role
from ..table import inputs as I
from ..table.referee import Referee, Refused, Step
from ..table.session import Session
from ..table.undo import describe
from ..words import card_name
from . import labels
from .loot import split_plan
from .tokens import GODFATHER, TABLE, TEAM

# The fields of each card's use, as the page draws its form (docs/advanced-rules.md, 9.2):
# (field, kind, how many or None, required).  Kinds: player, players, card, cards, bool,
# markers / took / gave (one value for each of the chosen targets), heal, redirect.
FORMS: dict[str, list[tuple[str, str, int | None, bool]]] = {
    "you-dont-need-it-anymore": [("from", "player", 1, False), ("weapon", "player", 1, False),
                                 ("played", "card", 1, False), ("target", "player", 1, False)],
    "the-specialist": [("discard", "cards", None, False)],
    "the-shotgun": [("targets", "players", 2, False), ("markers", "markers", None, False),
                    ("take_back", "bool", None, False), ("discard", "cards", None, False)],
    "ninja": [("seat", "players", 2, True)],
    "kamikaze": [("targets", "players", None, False)],
    "ronin": [("discard", "cards", None, False)],
    "geisha": [("redirect", "redirect", None, True)],
    "first-aid-kit": [("heal", "heal", None, True)],
    "kevlar": [("from", "player", 1, False)],
    "clip": [("discard", "cards", None, False), ("drop_shotgun", "bool", None, False)],
    "deringer": [("target", "player", 1, False)],
    "bludgeon": [("target", "player", 1, True)],
    "x-ray-sunglasses": [("targets", "players", 2, True)],
    "magnet": [("targets", "players", 2, True), ("took", "took", None, True), ("gave", "gave", None, True)],
}
FIELD_LABELS = {
    "from": "from", "weapon": "the second weapon's owner", "played": "the card played", "target": "at",
    "discard": "cards discarded", "targets": "players", "markers": "the markers", "take_back": "takes the card played back",
    "seat": "sits between", "redirect": "new targets", "heal": "wounds healed", "drop_shotgun": "puts the Shotgun down",
    "took": "took", "gave": "gave",
}


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
        if rnd is not None and p.alive and p.seat in rnd.position:
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
    split_done = rnd is None or prompt.step in (Step.PICKS, Step.DISCARDS) or rnd.over
    return {
        "version": version,
        "role": TABLE,
        "ruleset": str(game.ruleset),
        "round": prompt.round,
        "step": prompt.step.value,
        "prompt": prompt.text,
        "players": players,
        "order": [game.players[s].name for s in game.order],
        "pot": 0 if split_done or rnd is None else rnd.pot,
        "table": list(game.table),
        "money": money,
        "scores": game.scores(),
        "godfather": game.players[game.godfather].name if str(game.ruleset) == "classic-2014" else None,
        "count": session.count_shown,
        "intermission_left": (
            max(0, round(session.intermission_ends - time.time())) if session.intermission_ends is not None else None
        ),
        "log": [labels.tell(line) for line in session.lines[-60:]],
        "summary": [labels.tell(line) for line in round_story(session.lines, prompt.round - 1)],
        "finished": game.finished,
        "winners": list(game.winners),
        "card_names": _card_names(game),
        "words": labels.labels(str(game.ruleset)),
    }


def _card_names(game: Any, *, advanced: bool = False) -> dict[str, str]:
    """What a page shows for each bill and loot card id of this game, and for the Godfather each
    advanced-rule card id too (controller.words: the names printed on the cards)."""
    ids: list[object] = [*game.spec.loot_deck, GODFATHER_TILE, *(CATALOG if advanced else ())]
    return {str(card): card_name(card) for card in ids}


def round_story(lines: list[str], number: int) -> list[str]:
    """The lines of round ``number`` in the game's log (empty if it is not there)."""
    start = next((k for k in range(len(lines) - 1, -1, -1) if lines[k].startswith(f"Round {number}:")), None)
    if start is None:
        return []
    end = next((k for k in range(start + 1, len(lines)) if lines[k].startswith(("Round ", "Intermission", "Game over"))),
               len(lines))
    return lines[start:end]


def godfather_view(session: Session, version: int, links: dict[str, str]) -> dict[str, Any]:
    """The Godfather's page: the table, the step's choices, what waits for his decision, what he may undo."""
    view = table_view(session, version)
    referee = session.referee
    prompt = referee.prompt()
    view["role"] = GODFATHER
    view["who"] = prompt.players
    view["options"] = prompt.options
    view["expects"] = referee.expected_inputs()
    view["pending"] = session.pending
    view["cards"] = card_choices(session)
    view["next_cards"] = next_choices(session)
    view["split"] = split_plan(referee)
    view["sensors"] = _sensors(session)
    view["teams"] = [{"team": t, "url": url} for t, url in links.items()]
    view["uses"] = _card_forms(session)
    view["card_names"] = _card_names(referee.game, advanced=True)
    view["inputs"] = session.history.count
    why_not = session.why_no_undo()
    last = session.history.last() if why_not is None else None
    view["undo"] = {"can": last is not None, "what": describe(last.input) if last else why_not}
    view["auto"] = only_answer(session) is not None
    view["camera"] = _camera(session)
    return view


def _camera(session: Session) -> dict[str, Any]:
    """Whether the Godfather cues the camera before each throw, whom it watches now, and why it gave
    no verdict on the last throw cued (one line), if it did not."""
    watch = session.watch
    return {
        "throws": session.watches_throws(),
        "watching": None if watch is None else {"thrower": watch.thrower, "target": watch.target},
        "note": session.camera_note,
    }


def _card_forms(session: Session) -> dict[str, dict[str, Any]]:
    """The advanced-rule cards of this game's decks, each with its moments and its form (who holds
    which stays secret: a player announces his card, the Godfather enters the use)."""
    game = session.referee.game
    decks = []
    if game.super_powers:
        decks += [Deck.POWER] + ([Deck.KIAI] if game.is_yakuzas else [])
    if game.objects:
        decks += [Deck.GANGSTER_OBJECT] + ([Deck.YAKUZA_OBJECT] if game.is_yakuzas else [])
    return {
        card: {
            "name": CATALOG[card].name,
            "moments": list(CATALOG[card].moments),
            "fields": [{"key": k, "kind": kind, "count": n, "required": req, "label": FIELD_LABELS[k]}
                       for k, kind, n, req in FORMS.get(card, [])],
        }
        for deck in decks for card in deck_cards(deck, game.ruleset) if CATALOG[card].moments
    }


def team_view(session: Session, version: int, team: str) -> dict[str, Any]:
    """A gang's (or a player's) page: the table, and the cards its own players keep."""
    view = table_view(session, version)
    game = session.referee.game
    view["role"] = TEAM
    view["team"] = team
    view["team_players"] = [p.name for p in game.players if team_of(session, p.seat) == team]
    secrets = []
    for p in game.players:
        if team_of(session, p.seat) != team:
            continue
        secrets.append(
            {
                "player": p.name,
                "power": p.power,
                "object": p.object,
                "names": {c: labels.advanced(c) for c in (p.power, p.object) if c},
                "used": sorted(p.spent | (p.revealed & {c for c in (p.power, p.object) if c})),
            }
        )
    view["secrets"] = secrets
    return view


def team_asks(session: Session, team: str, claims: dict[str, str]) -> dict[str, Any]:
    """What a team's page may enter now, for its own players only: the loot card taken when it is
    one of them to take, and each one's card when the table asks for it (``entered``: the card
    entered so far on a page)."""
    referee = session.referee
    game = referee.game
    prompt = referee.prompt()
    own = {p.name for p in game.players if team_of(session, p.seat) == team}
    out: dict[str, Any] = {"pick": None, "cards": {}, "step": prompt.step.value}
    if referee.round is None or game.finished:
        return out
    if prompt.step is Step.PICKS and prompt.players and prompt.players[0] in own:
        items = list(dict.fromkeys(prompt.options.get("table", [])))
        out["pick"] = {"player": prompt.players[0], "items": items, "tile": bool(prompt.options.get("tile")),
                       "seen": session.history.count}
    out["cards"] = {n: {"cards": list(c["cards"]), "later": bool(c.get("later")), "entered": claims.get(n)}
                    for n, c in asked_cards(session).items() if n in own}
    return out


def asked_cards(session: Session) -> dict[str, dict[str, Any]]:
    """The players whose card the table asks for now (a page may enter it), each with the cards
    the rules allow: the next card at the throws, a Bang! Bang! Bang! at its step, the card
    shown or discarded."""
    step = session.referee.step
    if step is Step.THROWS:
        return next_choices(session)
    if step is Step.BBB:
        return {n: {"cards": ["bbb"]} for n, c in card_choices(session).items() if "bbb" in c["cards"]}
    if step in (Step.REVEAL, Step.DISCARDS):
        return card_choices(session)
    return {}


# -- the cards a player may show ------------------------------------------------------------


def card_choices(session: Session) -> dict[str, dict[str, Any]]:
    """For each player who shows a card at this step: the cards the rules let him show, and the
    likely one (the only legal one, else the one he holds most of), preselected on the page.

    At phase 6 the cards to be discarded unseen at the end of the round come too (``later``), so
    the Godfather enters every card once."""
    referee = session.referee
    prompt = referee.prompt()
    if referee.round is None or prompt.step not in (Step.BBB, Step.THROWS, Step.REVEAL, Step.DISCARDS):
        return {}
    key = (prompt.round, prompt.step, session.history.count, session.undos)
    cache = getattr(session, "_console_choices", None)
    if cache is not None and cache[0] == key:
        cached: dict[str, dict[str, Any]] = cache[1]
        return cached
    out = _choices(referee)
    if prompt.step is Step.REVEAL:
        out.update(_later(referee, set(prompt.players)))
    session._console_choices = (key, out)  # type: ignore[attr-defined]
    return out


def next_choices(session: Session) -> dict[str, dict[str, Any]]:
    """At the shuriken step: the cards phase 6 will ask for (and those discarded unseen), so that
    "no more throws" and the cards shown are entered with one tap."""
    referee = session.referee
    if referee.step is not Step.THROWS or session.pending is not None:
        return {}
    key = (referee.prompt().round, session.history.count, session.undos)
    cache = getattr(session, "_console_next", None)
    if cache is not None and cache[0] == key:
        cached: dict[str, dict[str, Any]] = cache[1]
        return cached
    after = copy.deepcopy(referee)
    out: dict[str, dict[str, Any]] = {}
    try:
        after.submit(I.ThrowsDone())
    except Refused:
        pass
    else:
        if after.step is Step.REVEAL:
            out = _choices(after)
            out.update(_later(after, set(after.prompt().players)))
    session._console_next = (key, out)  # type: ignore[attr-defined]
    return out


def _hand(referee: Referee, name: str) -> dict[str, int]:
    game = referee.game
    return {str(c): n for c, n in game.players[game.seat_of(name)].hand.items() if n > 0}


def _choices(referee: Referee) -> dict[str, dict[str, Any]]:
    prompt = referee.prompt()
    game = referee.game
    rnd = referee.round
    hidden = set(rnd.hidden_cards()) if rnd is not None else set()
    hands = {n: _hand(referee, n) for n in prompt.players if game.seat_of(n) in hidden}
    if prompt.step in (Step.REVEAL, Step.DISCARDS):
        legal = _legal_together(referee, prompt.round, hands)
    else:  # shown one by one: each card tried alone
        legal = {n: [c for c in sorted(h) if _accepted(referee, prompt.round, {n: c}, n)] for n, h in hands.items()}
    return {n: {"cards": cards, "likely": max(cards, key=lambda c: hands[n][c]) if cards else None} for n, cards in legal.items()}


def _later(referee: Referee, now: set[str]) -> dict[str, dict[str, Any]]:
    """The cards still face down that are not shown now: discarded unseen at the end of the round."""
    out = {}
    rnd = referee.round
    for name in referee.names(rnd.hidden_cards() if rnd is not None else []):
        if name not in now:
            hand = _hand(referee, name)
            cards = sorted(hand)
            out[name] = {"cards": cards, "likely": max(cards, key=lambda c: hand[c]) if cards else None, "later": True}
    return out


def _accepted(referee: Referee, number: int, cards: dict[str, str], name: str) -> bool:
    """Whether the referee takes ``cards`` shown, as far as ``name``'s card is concerned."""
    try:
        referee.check(I.Show(cards))
    except Refused as refusal:
        return not str(refusal).startswith(f"round {number}: {name} ")
    return True


def _legal_together(referee: Referee, number: int, hands: dict[str, dict[str, int]]) -> dict[str, list[str]]:
    """Cards shown all at once (phase 6, the discards): find one legal card for each player first,
    then try each other card of each player with the others' legal ones."""
    order = {n: sorted(h, key=lambda c: -h[c]) for n, h in hands.items()}
    ruled_out: dict[str, set[str]] = {n: set() for n in hands}
    fill: dict[str, str] = {}
    for _ in range(sum(len(h) for h in hands.values()) + 1):
        fill = {n: next((c for c in order[n] if c not in ruled_out[n]), order[n][0]) for n in hands if order[n]}
        try:
            referee.check(I.Show(fill))
            break
        except Refused as refusal:
            text = str(refusal)
            culprit = next((n for n in fill if text.startswith(f"round {number}: {n} ")), None)
            if culprit is None or fill[culprit] in ruled_out[culprit]:
                break
            ruled_out[culprit].add(fill[culprit])
    legal: dict[str, list[str]] = {}
    for name, cards in order.items():
        legal[name] = sorted(c for c in cards if c not in ruled_out[name]
                             and (c == fill.get(name) or _accepted(referee, number, {**fill, name: c}, name)))
    return legal


# -- steps with one possible answer ----------------------------------------------------------


def only_answer(session: Session) -> I.Input | None:
    """The input of a step that has only one possible answer (the console gives it), else ``None``."""
    with session.lock:
        referee = session.referee
        prompt = referee.prompt()
        step = prompt.step
        game = referee.game
        if step is Step.CARDS:
            phase_1 = game.super_powers or game.objects  # card uses come before the cards go down
            return None if phase_1 else I.CardsDown({})
        if step is Step.PRIVILEGE:
            return None if any(prompt.options.get("orders", {}).values()) else I.Privilege()
        if step in (Step.BBB, Step.REVEAL, Step.DISCARDS):
            choices = card_choices(session)
            if step is Step.BBB:
                return None if any(c["cards"] for c in choices.values()) else I.Show({})
            now = {n: c for n, c in choices.items() if not c.get("later")}
            if all(len(c["cards"]) == 1 for c in now.values()):
                return I.Show({n: c["cards"][0] for n, c in now.items()})
            return None
        if step is Step.THROWS:
            if session.pending is not None:
                return None
            choices = card_choices(session)
            can = [n for n in prompt.players if n not in choices or "shuriken" in choices[n]["cards"]]
            return None if can else I.ThrowsDone()
        if step is Step.PICKS:
            if not prompt.players:
                return None
            takes = set(map(str, prompt.options.get("table", []))) | ({"godfather"} if prompt.options.get("tile") else set())
            if len(takes) == 1:
                take = next(iter(takes))
                item = next((t for t in prompt.options.get("table", []) if str(t) == take), take)
                return I.Pick(prompt.players[0], item)
        return None


def _sensors(session: Session) -> dict[str, Any]:
    devices = session.devices
    if devices is None:
        return {"present": False, "faults": {}, "overridden": []}
    names = session.referee.names
    faults = {names([seat])[0]: sorted(k.value for k in kinds) for seat, kinds in devices.judge.faults().items() if kinds}
    return {"present": True, "faults": faults, "overridden": names(sorted(session.overridden))}
