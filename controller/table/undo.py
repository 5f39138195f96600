"""Undoing the last input: the game is replayed through the engine without it.

The table keeps, since the session started, the inputs it accepted.  The last one the
Godfather gave can be taken back until the next count starts (the aiming count, the
withdrawal count): the referee is rebuilt from where the session started and replays
every input but that one, so the game is exactly what it would have been had the input
never been given.  Inputs the console gave by itself (a step with only one possible
answer) go with the input that led to them.  The game log records the undo
(``{"seq": n, "undo": k}``), and reading the log drops the undone input, so ``resume``
gives the same game.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from . import inputs as I
from .referee import Referee


@dataclass(frozen=True)
class Entry:
    """An accepted input; ``auto``: given by the console itself (a step with one possible answer)."""

    input: I.Input
    seq: int | None = None  # its line in the game log, if logged
    auto: bool = False


@dataclass
class History:
    """The inputs accepted since the session started, and how far back an undo may go."""

    origin: Referee
    entries: list[Entry] = field(default_factory=list)
    floor: int = 0  # inputs before this index are final (a count started after them)

    @classmethod
    def start(cls, referee: Referee) -> History:
        return cls(copy.deepcopy(referee))

    def accepted(self, inp: I.Input, *, seq: int | None = None, auto: bool = False) -> None:
        self.entries.append(Entry(inp, seq, auto))

    def seal(self) -> None:
        """A count starts: every input so far is final."""
        self.floor = len(self.entries)

    @property
    def count(self) -> int:
        """How many inputs were accepted (the number an undo names, so a repeated undo is harmless)."""
        return len(self.entries)

    def last(self) -> Entry | None:
        """The input an undo would take back (the last one the Godfather gave), if any may be."""
        k = self._cut()
        return self.entries[k] if k is not None else None

    def why_not(self) -> str | None:
        """Why nothing can be undone now (``None``: the last input can)."""
        if self._cut() is not None:
            return None
        return "nothing to undo: the count has started since the last input" if self.entries else "nothing to undo yet"

    def _cut(self) -> int | None:
        k = len(self.entries)
        while k > self.floor and self.entries[k - 1].auto:
            k -= 1
        return k - 1 if k > self.floor else None

    def undo(self) -> tuple[Referee, list[Entry]]:
        """The referee replayed without the last input (and the console's own inputs after it),
        and the entries taken back.  Raises ``ValueError`` when nothing may be undone."""
        k = self._cut()
        if k is None:
            raise ValueError(self.why_not())
        replayed = copy.deepcopy(self.origin)
        for entry in self.entries[:k]:
            replayed.submit(entry.input)
        dropped = self.entries[k:]
        del self.entries[k:]
        return replayed, dropped


def adopt(referee: Referee, replayed: Referee) -> None:
    """Make ``referee`` (which others hold on to: the bots, the console) the replayed game."""
    referee.__dict__.update(replayed.__dict__)


def describe(inp: I.Input) -> str:
    """An input in words a player knows, for the log of the game."""
    if isinstance(inp, I.Throw):
        return f"{inp.thrower}'s shuriken throw"
    if isinstance(inp, I.Pick):
        return f"{inp.player}'s pick"
    if isinstance(inp, I.Picks):
        if len(inp.picks) == 1:
            return f"{inp.picks[0].get('player', 'a player')}'s pick"
        return "the loot picks"
    if isinstance(inp, I.UseCard):
        return f"{inp.use.get('player', 'a player')}'s card use"
    if isinstance(inp, I.Privilege):
        return "the Godfather's order" if inp.player else "the Godfather's choice to give no order"
    return {
        I.Pile: "the pile", I.CardsDown: "the cards put down", I.Aims: "the aims", I.Withdrawals: "the withdrawals",
        I.Show: "the cards shown", I.ThrowsDone: "the end of the throws", I.Resume: "the end of the intermission",
    }.get(type(inp), inp.kind)
