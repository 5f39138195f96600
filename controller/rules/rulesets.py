"""The three rule sets: player counts, decks, loot and Yakuzas seating (rulings.md)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from .cards import Card, Gang, Role

ROUNDS = 8


class RuleSet(str, Enum):
    CLASSIC = "classic"
    CLASSIC_2014 = "classic-2014"
    YAKUZAS = "yakuzas"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class RuleSetSpec:
    ruleset: RuleSet
    min_players: int
    max_players: int
    pile_size: int
    loot_deck: Counter[int | str] = field(hash=False)  # every bill or loot card of the game

    @property
    def uses_bills(self) -> bool:
        return self.ruleset is not RuleSet.CLASSIC_2014


GANGSTER_DECK = {Card.CLIC: 5, Card.BANG: 2, Card.BBB: 1}
YAKUZA_DECK = {Card.CLING: 5, Card.TANTO: 2, Card.SHURIKEN: 1}
DECK_2014 = {Card.CLIC: 5, Card.BANG: 3}

SPECS: dict[RuleSet, RuleSetSpec] = {
    RuleSet.CLASSIC: RuleSetSpec(
        RuleSet.CLASSIC, 4, 6, 5, Counter({5000: 15, 10000: 15, 20000: 10})
    ),
    RuleSet.CLASSIC_2014: RuleSetSpec(
        RuleSet.CLASSIC_2014,
        4,
        8,
        8,
        Counter(
            {
                "cash-5000": 15,
                "cash-10000": 15,
                "cash-20000": 10,
                "diamond-1000": 5,
                "diamond-5000": 3,
                "diamond-10000": 1,
                "painting": 10,
                "clip": 3,
                "first-aid": 2,
            }
        ),
    ),
    RuleSet.YAKUZAS: RuleSetSpec(
        RuleSet.YAKUZAS, 6, 9, 8, Counter({5000: 25, 10000: 24, 20000: 15})
    ),
}

# Yakuzas: gang sizes (purple, yellow, red) and clockwise seating by player count.
GANG_SIZES: dict[int, dict[Gang, int]] = {
    6: {Gang.PURPLE: 2, Gang.YELLOW: 2, Gang.RED: 2},
    7: {Gang.PURPLE: 3, Gang.YELLOW: 2, Gang.RED: 2},
    8: {Gang.PURPLE: 2, Gang.YELLOW: 3, Gang.RED: 3},
    9: {Gang.PURPLE: 3, Gang.YELLOW: 3, Gang.RED: 3},
}
_LETTER = {"P": Gang.PURPLE, "Y": Gang.YELLOW, "R": Gang.RED}
SEATINGS: dict[int, tuple[Gang, ...]] = {
    n: tuple(_LETTER[c] for c in pattern)
    for n, pattern in {6: "PYRPYR", 7: "PYPRPYR", 8: "PYRYPRYR", 9: "PYRPYRPYR"}.items()
}


def role_of(ruleset: RuleSet, gang: Gang | None) -> Role:
    return Role.YAKUZA if ruleset is RuleSet.YAKUZAS and gang is Gang.PURPLE else Role.GANGSTER


def starting_hand(ruleset: RuleSet, role: Role) -> dict[Card, int]:
    if ruleset is RuleSet.CLASSIC_2014:
        return dict(DECK_2014)
    return dict(YAKUZA_DECK if role is Role.YAKUZA else GANGSTER_DECK)


def dead_member_penalty(gang_size: int) -> int:
    """Yakuzas: what each dead member costs his gang at the end."""
    return 20000 if gang_size <= 2 else 30000
