"""What the engine knows of each player and of the table between rounds: hands, wounds, tokens, loot,
the advanced rules' cards; a round's summary; the money on the table.

Players are referred to by seat: their index in the clockwise ``players`` list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .cards import LOOT_RANK, LOOT_VALUES, Card, Gang, Item, Role
from .events import Event

CARDS: dict[str, Card] = {**{c.value: c for c in Card}, **{c: c for c in Card}}
MAX_WOUNDS = 3


def card_of(value: object) -> Card | None:
    """The card a name (or a card) stands for, or None."""
    return CARDS.get(value) if isinstance(value, str) else None


@dataclass
class Kit:
    """A dead player's weapon and remaining cards, taken with You Don't Need It Anymore."""

    source: int  # the dead player's seat
    yakuza: bool  # a tanto and a shuriken, played under the yakuza rules
    hand: dict[Card, int]
    shotgun: bool = False


@dataclass
class PlayerState:
    name: str
    seat: int
    gang: Gang | None
    role: Role
    hand: dict[Card, int]
    wounds: int = 0
    cowardice: int = 0
    finger: bool = False  # an honour marker, finger side up (yakuzas)
    alive: bool = True
    money: int = 0  # classic: bills collected; classic-2014: cash and diamond values
    loot: list[str] = field(default_factory=list)  # classic-2014: loot cards taken
    discarded: Counter[Card] = field(default_factory=Counter)  # cards used or lost so far
    # -- advanced rules --
    power: str | None = None  # the Super Power or Super Kiai kept
    object: str | None = None  # the Object kept
    revealed: set[str] = field(default_factory=set)  # cards shown (permanent ones act from then on)
    spent: set[str] = field(default_factory=set)  # one-use cards used up
    ever_wounded: bool = False  # for the Kevlar: "your first wound"
    dragon_until: int | None = None  # Angry Dragon: dies for good at the end of this round
    kit: Kit | None = None  # a second weapon (You Don't Need It Anymore)
    shotgun_dropped: bool = False  # put the Shotgun down for good (to use the Clip)

    def holds(self, card: str) -> bool:
        return card in (self.power, self.object)

    def has(self, card: str) -> bool:
        """A permanent card shown, or a visible Object revealed and not used up."""
        return card in self.revealed and card not in self.spent

    @property
    def shotgun(self) -> bool:
        return "the-shotgun" in self.revealed and not self.shotgun_dropped

    @property
    def counts_as_dead(self) -> bool:
        """Dead, or living on an Angry Dragon: either way out of the end-of-game checks."""
        return not self.alive or self.dragon_until is not None


@dataclass(frozen=True)
class RoundSummary:
    number: int
    pot: int
    sharers: tuple[int, ...]
    share: int
    left: tuple[Item, ...]
    events: tuple[Event, ...]


def table_order(items: Iterable[Item]) -> list[Item]:
    """Bills or loot cards, highest first."""
    listed = list(items)
    if listed and isinstance(listed[0], str):
        return sorted(listed, key=lambda card: LOOT_RANK[str(card)])
    return sorted(listed, key=int, reverse=True)


def table_value(items: Sequence[Item]) -> int:
    """Money on the table: bills, or the cash and diamond values of loot cards."""
    return sum(LOOT_VALUES[item] if isinstance(item, str) else item for item in items)


def clockwise_from(seat: int, n: int) -> list[int]:
    return [(seat + k) % n for k in range(n)]
