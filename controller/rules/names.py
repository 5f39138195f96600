"""Cards and moments as a player knows them, in English: the names the engine's refusals and notes show.

The rules engine names a card by what is printed on it ("The Kid", "Bang! Bang! Bang!", "a $5,000
diamond"), never by its record id ("the-kid", "bbb", "diamond-5000"), and a moment of the round
as the rules say it ("phase 5b", "the end of the round").  :mod:`controller.words` shows the same
names for English and adds the other languages.
"""

from __future__ import annotations

from .advanced import CATALOG, printed
from .cards import GODFATHER_TILE, LOOT_VALUES, is_diamond

__all__ = ["BULLET_NAMES", "LOOT_NAMES", "card_label", "dollars", "moment_label", "use_label"]

# Bullet cards and what hits (rules.md, advanced-rules.md), as printed or said at the table.
BULLET_NAMES: dict[str, str] = {
    "clic": "Clic Clic Clic",
    "bang": "Bang!",
    "bbb": "Bang! Bang! Bang!",
    "cling": "Cling Cling Cling",
    "tanto": "tanto",
    "shuriken": "shuriken",
    "laser": "Laser Beam",
    "grenade": "grenade",
    "blast": "Kamikaze blast",
}

# 2nd edition loot cards without a value, and the New Godfather tile.
LOOT_NAMES: dict[str, str] = {
    "painting": "a painting",
    "clip": "a clip",
    "first-aid": "a first-aid kit",
    GODFATHER_TILE: "the New Godfather tile",
}


def dollars(value: int) -> str:
    """An amount in English: "$20,000", "-$5,000"."""
    return f"{'-' if value < 0 else ''}${abs(value):,}"


def card_label(card: object) -> str:
    """A card by its printed name: a bill (an int), a loot card, a bullet card (a :class:`Card` or its
    id), a Super Power, Super Kiai or Object.  An unknown id (a broken record's) is shown as it is."""
    if isinstance(card, int) and not isinstance(card, bool):
        return dollars(card)
    key = str(getattr(card, "value", card))
    if key in LOOT_VALUES and key.startswith("cash-"):
        return dollars(LOOT_VALUES[key])
    if key in LOOT_VALUES and is_diamond(key):
        return f"a {dollars(LOOT_VALUES[key])} diamond"
    if key in LOOT_NAMES:
        return LOOT_NAMES[key]
    if key in BULLET_NAMES:
        return BULLET_NAMES[key]
    if key in CATALOG:
        return CATALOG[key].name
    return key


def moment_label(moment: object) -> str:
    """A moment of a round as the rules name it: "phase-5b" is "phase 5b", "end-of-round" "the end of the round"."""
    text = str(moment)
    if text.startswith("phase-"):
        return "phase " + text[len("phase-"):]
    return {"deaths": "the deaths", "end-of-round": "the end of the round"}.get(text, text.replace("-", " "))


def use_label(card: object) -> str:
    """A Super Power, Super Kiai or Object announced for use: "clip" is the Object "Clip" here, not a loot card."""
    return printed(card) if str(card) in CATALOG else card_label(card)
