"""Words a player knows, for what the engine names by id: cards, loot, card-use moments, fields."""

from __future__ import annotations

import re

from ..rules.advanced import CATALOG
from ..words import card_name

# The names come from controller.words, the one place that names a card for a person.
CARDS = {card_id: card_name(card_id) for card_id in ("clic", "bang", "bbb", "cling", "tanto", "shuriken")}
LOOT = {
    card_id: card_name(card_id)
    for card_id in ("cash-5000", "cash-10000", "cash-20000", "diamond-1000", "diamond-5000", "diamond-10000",
                    "painting", "clip", "first-aid", "godfather")
}
MOMENTS = {
    "phase-1": "at the start (phase 1)", "phase-2": "choosing cards (phase 2)", "phase-3": "aiming (phase 3)",
    "phase-4": "before the withdrawal (phase 4)", "phase-5": "Bang! Bang! Bang! (phase 5)",
    "phase-5b": "shuriken (phase 5b)", "phase-6": "the shots (phase 6)", "deaths": "the deaths",
    "phase-7": "the split (phase 7)", "end-of-round": "the end of the round",
}
STEPS = {
    "pile": "The pile", "cards": "Cards down", "aims": "Aims", "privilege": "The Godfather's order",
    "withdraw": "Withdrawals", "bbb": "Bang! Bang! Bang!", "throws": "Shuriken", "reveal": "Cards shown",
    "picks": "Loot picks", "discards": "Cards discarded", "intermission": "Intermission", "over": "Game over",
}
STATUS = {"in share": "in the share", "withdrew": "withdrew", "hit": "hit", "wounded": "wounded", "dead": "dead",
          "standing": "standing"}


def card(value: str) -> str:
    return CARDS.get(value, value)


def loot(value: object) -> str:
    return card_name(value)


def advanced(card_id: str) -> str:
    return card_name(card_id) if card_id in CATALOG else card_id


def labels(ruleset: str) -> dict[str, dict[str, str]]:
    """The labels every page may need (the advanced cards' names go only to the pages that may see them)."""
    return {"cards": dict(CARDS), "loot": dict(LOOT) if ruleset == "classic-2014" else {}, "moments": dict(MOMENTS), "steps": dict(STEPS),
            "status": dict(STATUS)}


_IDS = {**{k: v for k, v in LOOT.items() if k != "godfather"}, **{k: v for k, v in CARDS.items() if k != "bang"},
        **{k: card_name(k) for k in CATALOG}}
_ID = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, _IDS), key=len, reverse=True)) + r")(?![\w-])")


def tell(line: str) -> str:
    """A line of the game's story with the engine's ids (``diamond-5000``, ``clic``) in words."""
    return _ID.sub(lambda m: _IDS[m.group(1)], line)
