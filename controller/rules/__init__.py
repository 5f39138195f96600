"""The rules engine: pure, deterministic, and the only place the rules live.

>>> from controller.rules import Game
>>> game = Game("classic", [("Ana", None), ("Ben", None), ("Cal", None), ("Dee", None)],
...             [[20000, 10000, 10000, 5000, 5000]])
>>> rnd = game.begin_round()
>>> rnd.pot
50000
"""

from .advanced import Setup, Use
from .cards import Card, Gang, Role
from .errors import IllegalMove, PhaseError
from .game import Game, PlayerState, RoundSummary
from .round import Phase, Round
from .rulesets import ROUNDS, RuleSet

__all__ = [
    "Card",
    "Gang",
    "Role",
    "IllegalMove",
    "PhaseError",
    "Game",
    "Phase",
    "PlayerState",
    "Round",
    "RoundSummary",
    "ROUNDS",
    "RuleSet",
    "Setup",
    "Use",
]
