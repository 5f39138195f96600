"""A player's weapons in a round and the hits they make: what every part of the engine shares.

A :class:`Weapon` is a gun (or a yakuza's tanto and shuriken) with the card put down for it this round;
a :class:`Shot` is one hit about to land.  Every hit of a round goes through one pipeline
(:meth:`~controller.rules.round.Round.land`), where the protections and the "first wound" Objects act.
"""

from __future__ import annotations

from dataclasses import dataclass

from .advanced import Use
from .cards import Card

PISTOL_CARDS = frozenset({Card.CLIC, Card.BANG, Card.BBB})
YAKUZA_CARDS = frozenset({Card.CLING, Card.TANTO, Card.SHURIKEN})
EXPLOSIONS = frozenset({"grenade", "blast"})


@dataclass(eq=False, slots=True)
class Weapon:
    """A gun (or a yakuza's tanto and shuriken) with the card put down for it this round."""

    owner: int
    yakuza: bool  # tanto reach and shuriken throws
    card: Card | None  # the card put down (None: face down, not shown yet)
    effect: Card | None  # what it does: the card, or a blank for a card of the other kit (Magnet)
    hand: dict[Card, int]  # the hand the card came from, for a card taken back
    second: bool = False  # the second weapon of You Don't Need It Anymore
    target: int | None = None
    pair: tuple[int, int] | None = None  # the Shotgun aimed at two adjacent players
    markers: dict[int, str] | None = None  # the Shotgun's wound markers: seat -> "wound" / "blank"
    jam: Use | None = None  # the Shotgun use that says what a jam does
    step: int = 0  # +1: the tanto points left, -1: right
    live: bool = True
    throws: int = 0
    returned: bool = False  # the card went back to the hand (shuriken kept, Ronin, a jam)
    requested: int | None = None  # the second weapon's aim, from its use
    hand_when_down: dict[Card, int] | None = None  # a face-down card: the hand it was chosen from


@dataclass(slots=True)
class Shot:
    """One hit about to land: a card, a blast, a burst..."""

    source: int | None
    target: int
    card: str  # "bang", "bbb", "tanto", "shuriken", "laser", "grenade", "blast"
    weapon: Weapon | None = None
    damage: int = 1
    extra: bool = False  # a second victim (Magic Bullet, Dark Tanto): no Object on it
    taken: int = 0  # the wounds it left after the target's protections


def blank_of(yakuza: bool) -> Card:
    return Card.CLING if yakuza else Card.CLIC
