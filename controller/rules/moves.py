"""The moves of a round: small immutable values pushed onto a :class:`~controller.rules.round.Round`.

As a chess move is pushed onto a board, every input of a round (from a record, the table, a bot or the
random game generator) becomes one of these and goes through :meth:`Round.push`, which applies it or
raises the one-line :class:`~controller.rules.errors.IllegalMove` of the rule it breaks.
:meth:`Round.expects` says which kinds of move are legal now.

Players are seats (indexes in ``Game.players``); cards are :class:`~controller.rules.cards.Card` values or
their names.  Each kind names the field of the game record that holds it (``record_field``), so that a
record holding a move after the round ended early is refused in the record's own words.

Three kinds need nothing from the table (``automatic``): the split of the bills, the end of the picks and
the end of the round.  A driver pushes them as soon as they are the only move expected.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from .advanced import Use
from .cards import Card

CardName = Card | str


@dataclass(frozen=True, slots=True)
class Move:
    """A move of a round."""

    kind: ClassVar[str] = ""
    record_field: ClassVar[str] = ""
    automatic: ClassVar[bool] = False

    def carries_data(self) -> bool:
        """Whether the move says something (an empty withdrawal or show says nothing)."""
        return False


@dataclass(frozen=True, slots=True)
class Announce(Move):
    """A Super Power, Super Kiai or Object announced for its moment (docs/advanced-rules.md)."""

    kind: ClassVar[str] = "use"
    record_field: ClassVar[str] = "powers"
    use: Use = field(default_factory=lambda: Use(0, "", ""))

    def carries_data(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class PlayCards(Move):
    """Phases 1-2: the card each living player puts down (``None``: face down, shown later)."""

    kind: ClassVar[str] = "cards"
    record_field: ClassVar[str] = "cards"
    cards: Mapping[int, CardName | None] = field(default_factory=dict)

    def carries_data(self) -> bool:
        return any(c is not None for c in self.cards.values())


@dataclass(frozen=True, slots=True)
class Aim(Move):
    """Phase 3: each living player's target (``None``: no one), and who pointed late."""

    kind: ClassVar[str] = "aims"
    record_field: ClassVar[str] = "aims"
    aims: Mapping[int, int | None] = field(default_factory=dict)
    late: frozenset[int] = frozenset()

    def carries_data(self) -> bool:
        return bool(self.aims or self.late)


@dataclass(frozen=True, slots=True)
class Privilege(Move):
    """2nd edition: the Godfather orders ``seat`` to aim at ``target`` instead (``seat`` None: he does not)."""

    kind: ClassVar[str] = "privilege"
    record_field: ClassVar[str] = "withdraw"
    seat: int | None = None
    target: int | None = None

    def carries_data(self) -> bool:
        return self.seat is not None


@dataclass(frozen=True, slots=True)
class Withdraw(Move):
    """Phase 4: the players who lay down in time."""

    kind: ClassVar[str] = "withdraw"
    record_field: ClassVar[str] = "withdraw"
    seats: frozenset[int] = frozenset()

    def carries_data(self) -> bool:
        return bool(self.seats)


@dataclass(frozen=True, slots=True)
class Show(Move):
    """Players show cards they put down face down (a shuriken before its throw, the discards at the end)."""

    kind: ClassVar[str] = "show"
    record_field: ClassVar[str] = "cards"
    cards: Mapping[int, CardName] = field(default_factory=dict)

    def carries_data(self) -> bool:
        return bool(self.cards)


@dataclass(frozen=True, slots=True)
class Bbb(Move):
    """Phase 5: the Bang! Bang! Bang! still in play are shown (``shown``: those face down until now) and fire."""

    kind: ClassVar[str] = "bbb"
    record_field: ClassVar[str] = "cards"
    shown: Mapping[int, CardName] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Throw(Move):
    """Phase 5b: a shuriken throw and its physical outcome: the standees knocked over and only touched."""

    kind: ClassVar[str] = "throw"
    record_field: ClassVar[str] = "shuriken"
    thrower: int = 0
    knocked: tuple[int, ...] = ()
    touched: tuple[int, ...] = ()
    target: int | None = None

    def carries_data(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class ThrowsDone(Move):
    """Phase 5b is over: no more shuriken is thrown."""

    kind: ClassVar[str] = "throws-done"
    record_field: ClassVar[str] = "shuriken"


@dataclass(frozen=True, slots=True)
class Reveal(Move):
    """Phase 6: the cards still in play are revealed (``shown``: those face down until now) and act; deaths."""

    kind: ClassVar[str] = "reveal"
    record_field: ClassVar[str] = "cards"
    shown: Mapping[int, CardName] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ShareBills(Move):
    """Phase 7 with bills (``classic``, ``yakuzas``): the split."""

    kind: ClassVar[str] = "share"
    record_field: ClassVar[str] = "picks"
    automatic: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Pick(Move):
    """Phase 7, 2nd edition: ``seat`` takes a loot card or the New Godfather tile."""

    kind: ClassVar[str] = "pick"
    record_field: ClassVar[str] = "picks"
    seat: int = 0
    take: str = ""

    def carries_data(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class EndPicks(Move):
    """Phase 7, 2nd edition: the picks are over (the loot is gone, or no one shares)."""

    kind: ClassVar[str] = "end-picks"
    record_field: ClassVar[str] = "picks"
    automatic: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Finish(Move):
    """The end of the round: end-of-round cards, the cards played are discarded, the dead leave."""

    kind: ClassVar[str] = "finish"
    record_field: ClassVar[str] = "cards"
    automatic: ClassVar[bool] = True


MOVE_KINDS: tuple[type[Move], ...] = (
    Announce, PlayCards, Aim, Privilege, Withdraw, Show, Bbb, Throw, ThrowsDone, Reveal, ShareBills, Pick, EndPicks,
    Finish,
)

__all__ = [
    "Aim",
    "Announce",
    "Bbb",
    "CardName",
    "EndPicks",
    "Finish",
    "MOVE_KINDS",
    "Move",
    "Pick",
    "PlayCards",
    "Privilege",
    "Reveal",
    "ShareBills",
    "Show",
    "Throw",
    "ThrowsDone",
    "Withdraw",
]
