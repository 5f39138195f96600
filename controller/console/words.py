"""Words a player knows, for what the engine names by id: cards, loot, card-use moments, fields."""

from __future__ import annotations

import re

from ..rules.advanced import CATALOG

CARDS = {
    "clic": "Click!", "bang": "Bang!", "bbb": "Bang! Bang! Bang!", "cling": "Cling!",
    "tanto": "Tanto", "shuriken": "Shuriken",
}
LOOT = {
    "cash-5000": "$5,000 cash", "cash-10000": "$10,000 cash", "cash-20000": "$20,000 cash",
    "diamond-1000": "$1,000 diamond", "diamond-5000": "$5,000 diamond", "diamond-10000": "$10,000 diamond",
    "painting": "Painting", "clip": "Clip", "first-aid": "First aid", "godfather": "the New Godfather tile",
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
    if isinstance(value, int):
        return f"${value:,}"
    return LOOT.get(str(value), str(value))


def advanced(card_id: str) -> str:
    spec = CATALOG.get(card_id)
    return spec.name if spec else card_id


def labels(ruleset: str) -> dict[str, dict[str, str]]:
    """The labels every page may need (the advanced cards' names go only to the pages that may see them)."""
    return {"cards": dict(CARDS), "loot": dict(LOOT) if ruleset == "classic-2014" else {}, "moments": dict(MOMENTS), "steps": dict(STEPS),
            "status": dict(STATUS)}


_IDS = {**{k: v for k, v in LOOT.items() if k != "godfather"}, **{k: v for k, v in CARDS.items() if k != "bang"},
        **{k: s.name for k, s in CATALOG.items()}}
_ID = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, _IDS), key=len, reverse=True)) + r")(?![\w-])")


def tell(line: str) -> str:
    """A line of the game's story with the engine's ids (``diamond-5000``, ``clic``) in words."""
    return _ID.sub(lambda m: _IDS[m.group(1)], line)
