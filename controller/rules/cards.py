"""Cards, roles, gangs and loot: the static pieces of the three rule sets."""

from __future__ import annotations

from enum import Enum


class Card(str, Enum):
    """A bullet card a player puts face down in phase 2."""

    CLIC = "clic"
    BANG = "bang"
    BBB = "bbb"  # Bang! Bang! Bang!
    CLING = "cling"
    TANTO = "tanto"
    SHURIKEN = "shuriken"

    def __str__(self) -> str:
        return self.value


class Role(Enum):
    GANGSTER = "gangster"
    YAKUZA = "yakuza"


class Gang(str, Enum):
    """Yakuzas gangs, in the order results list them."""

    PURPLE = "purple"
    YELLOW = "yellow"
    RED = "red"

    def __str__(self) -> str:
        return self.value


GANG_ORDER = (Gang.PURPLE, Gang.YELLOW, Gang.RED)

# 2nd edition loot card ids (game-record.md) and what each is worth in money.
# Listed highest first: by value, cash before diamonds of the same value.
LOOT_VALUES: dict[str, int] = {
    "cash-20000": 20000,
    "cash-10000": 10000,
    "diamond-10000": 10000,
    "cash-5000": 5000,
    "diamond-5000": 5000,
    "diamond-1000": 1000,
    "painting": 0,
    "clip": 0,
    "first-aid": 0,
}
LOOT_RANK = {card: rank for rank, card in enumerate(LOOT_VALUES)}  # 0 is highest
GODFATHER_TILE = "godfather"
Item = int | str  # what lies on the table: a bill (classic, yakuzas) or a loot card id (classic-2014)

# Paintings score by how many one player holds (rulings.md).
PAINTING_SCORES = (0, 4000, 12000, 30000, 60000, 100000, 150000, 200000, 300000, 400000, 500000)
DIAMOND_BONUS = 60000


def is_diamond(card_id: str) -> bool:
    return card_id.startswith("diamond-")


def painting_score(count: int) -> int:
    return PAINTING_SCORES[min(count, len(PAINTING_SCORES) - 1)]
