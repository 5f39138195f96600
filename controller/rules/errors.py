"""Errors the rules engine raises for moves the rules do not allow."""

from __future__ import annotations

from ..errors import RulesError


class IllegalMove(RulesError):
    """A move the rules forbid, named by round, player and rule.

    ``str()`` is the one line a user sees, e.g. ``round 3: Aiko may not aim at Bo: same gang``.
    """

    def __init__(self, round_no: int | None, player: str | None, rule: str) -> None:
        self.round_no = round_no
        self.player = player
        self.rule = rule
        where = f"round {round_no}: " if round_no else ""
        who = f"{player} " if player else ""
        super().__init__(f"{where}{who}{rule}")


class PhaseError(RuntimeError):
    """A call made at the wrong moment of the round (a programming error, not a table one)."""
