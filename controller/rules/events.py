"""What happened in a round, as the engine saw it, for logs, announcements and the story.

Players are named by seat index (their position in the clockwise ``players`` list).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True, slots=True)
class Revealed:
    """Phase 1: a pile was revealed; ``pot`` is what lies on the table now."""

    pile: tuple[int | str, ...]
    pot: int


@dataclass(frozen=True, slots=True)
class LostCard:
    """A player pointed late, or his target lay down: his card is discarded unplayed."""

    seat: int
    reason: str  # "late" or "target withdrew"


@dataclass(frozen=True, slots=True)
class PrivilegeUsed:
    godfather: int
    seat: int
    old_target: int
    new_target: int


@dataclass(frozen=True, slots=True)
class Withdrew:
    seat: int
    token: str  # "cowardice", "finger", "band-aid" (a wound), "fake-finger" or "none" (2nd edition)


@dataclass(frozen=True, slots=True)
class Retargeted:
    """A tanto whose target lay down moves on to the next player still in the share."""

    seat: int
    old_target: int
    new_target: int


@dataclass(frozen=True, slots=True)
class Hit:
    """``source`` hit ``target`` with ``card`` ("bang", "bbb", "tanto", "shuriken", "laser", "grenade",
    "blast"): ``wounds`` wounds before the target's protections, ``taken`` the wounds it left after
    them (Dragon Skin) (phases 5, 5b, 6, deaths)."""

    source: int
    target: int
    card: str
    wounds: int = 1
    taken: int = 1


@dataclass(frozen=True, slots=True)
class Thrown:
    """A shuriken throw and its effect; ``failed`` says why it did nothing, else None."""

    thrower: int
    knocked: tuple[int, ...]
    touched: tuple[int, ...]
    wounded: tuple[int, ...]
    failed: str | None


@dataclass(frozen=True, slots=True)
class ShurikenKept:
    """No gangster was standing: the shuriken goes back to hand, a cling is discarded."""

    seat: int
    discarded: Card | None


@dataclass(frozen=True, slots=True)
class Died:
    seat: int


@dataclass(frozen=True, slots=True)
class Shared:
    """Bills: each sharer got ``share``; ``parts`` lists each sharer's bills."""

    sharers: tuple[int, ...]
    share: int
    parts: tuple[tuple[int, ...], ...]
    left: tuple[int | str, ...]


@dataclass(frozen=True, slots=True)
class Picked:
    """2nd edition: a sharer took a loot card or the New Godfather tile."""

    seat: int
    take: str


@dataclass(frozen=True, slots=True)
class CardUsed:
    """A Super Power, Super Kiai or Object was used (advanced rules); ``note`` says what it did."""

    seat: int
    card: str
    when: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Protected:
    """A hit on ``seat`` was cancelled (Samurai, Kevlar) or cut down (Dragon Skin)."""

    seat: int
    card: str
    source: int | None
    what: str


@dataclass(frozen=True, slots=True)
class Exploded:
    """The Insane was shot: his grenade wounds ``victims`` and the round ends."""

    seat: int
    victims: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The round ended early, at the end of ``moment``: no share."""

    reason: str  # "grenade" or "smoke-grenade"
    moment: str


Event = (
    Revealed
    | LostCard
    | PrivilegeUsed
    | Withdrew
    | Retargeted
    | Hit
    | Thrown
    | ShurikenKept
    | Died
    | Shared
    | Picked
    | CardUsed
    | Protected
    | Exploded
    | RoundEnded
)
