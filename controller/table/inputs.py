"""What the table tells the referee: one dataclass per kind of input, each one JSON-able.

Inputs come from the Godfather's console, from the sensors (the withdrawal count, the
camera) or from bots standing in for the players; the referee treats them all the same,
and the game log stores them as they are.  Players are named, as in a game record.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from ..errors import TableInputError


@dataclass(frozen=True)
class Input:
    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True)
class Pile(Input):
    """Physical bank: the bills (or loot cards) revealed this round, entered by the Godfather."""

    kind: ClassVar[str] = "pile"
    items: list[int | str] = field(default_factory=list)


@dataclass(frozen=True)
class CardsDown(Input):
    """Every living player has put a card face down.  ``cards`` may name some (a bot's, or a card
    shown at once); the others stay face down until shown."""

    kind: ClassVar[str] = "cards"
    cards: dict[str, str | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Aims(Input):
    """The aims after the aiming count: each living player's target (``None``: no one), and who was late."""

    kind: ClassVar[str] = "aims"
    aims: dict[str, str | None] = field(default_factory=dict)
    late: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Privilege(Input):
    """2nd edition: the Godfather orders ``player`` to aim at ``target`` (both ``None``: he does not)."""

    kind: ClassVar[str] = "privilege"
    player: str | None = None
    target: str | None = None


@dataclass(frozen=True)
class Withdrawals(Input):
    """The withdrawal count's result: who lay down in time; ``too_late`` stay in the share.

    ``source`` is ``sensors`` (the tilt judge) or ``godfather`` (entered, or a sensor overridden).
    """

    kind: ClassVar[str] = "withdraw"
    withdrew: list[str] = field(default_factory=list)
    too_late: list[str] = field(default_factory=list)
    source: str = "sensors"


@dataclass(frozen=True)
class Show(Input):
    """Players show the cards they put face down (Bang! Bang! Bang!, a shuriken, phase 6, the discards)."""

    kind: ClassVar[str] = "show"
    cards: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Throw(Input):
    """A shuriken throw and what it did: the standees knocked over and only touched.

    ``source``: ``camera`` (judged), ``godfather`` (entered, or the camera overruled);
    ``confidence`` is the camera's.
    """

    kind: ClassVar[str] = "throw"
    thrower: str = ""
    target: str | None = None
    knocked: list[str] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)
    source: str = "godfather"
    confidence: float | None = None


@dataclass(frozen=True)
class ThrowsDone(Input):
    """No more shuriken is thrown this round."""

    kind: ClassVar[str] = "throws-done"


@dataclass(frozen=True)
class Pick(Input):
    """2nd edition: ``player`` takes a loot card (or ``godfather``, the New Godfather tile)."""

    kind: ClassVar[str] = "pick"
    player: str = ""
    take: str = ""


@dataclass(frozen=True)
class Picks(Input):
    """2nd edition: several loot picks in turn, entered at once (the split): each ``{"player", "take"}``."""

    kind: ClassVar[str] = "picks"
    picks: list[dict[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class UseCard(Input):
    """A Super Power, Super Kiai or Object announced (the record's use entry: player, card, when, fields)."""

    kind: ClassVar[str] = "use"
    use: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Resume(Input):
    """The table is ready to go on: the intermission is over."""

    kind: ClassVar[str] = "resume"


KINDS: dict[str, type[Input]] = {
    cls.kind: cls for cls in (Pile, CardsDown, Aims, Privilege, Withdrawals, Show, Throw, ThrowsDone, Pick, Picks, UseCard, Resume)
}


class BadInput(TableInputError):
    """An input that is not even well formed; ``str()`` names what is wrong."""


def from_json(data: Any) -> Input:
    """The input a JSON object describes (from the console or the game log)."""
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        raise BadInput(f"unknown input kind {data.get('kind') if isinstance(data, dict) else data!r}")
    cls = KINDS[data["kind"]]
    fields = {k: v for k, v in data.items() if k != "kind"}
    try:
        return cls(**fields)
    except TypeError as exc:
        raise BadInput(f"{data['kind']}: {exc}") from None
