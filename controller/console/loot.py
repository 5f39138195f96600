"""The 2nd edition's split as the Godfather enters it: who picks in turn, and the likely picks.

The sharers take one loot card (or the New Godfather tile) each, in turn, until the loot is
gone (rulings.md, phase 7).  The Godfather's page shows the whole split at once: the turns,
each filled with the card that picker most likely takes, so he taps only where the table did
otherwise.  The likely card is the one worth most to that picker now (:func:`worth`): its
money, a painting by what it adds to the paintings he holds, a diamond a little more than its
money (the diamond bonus), a first-aid kit for a wounded player; the tile is never guessed.
The page fills the turns from these preferences (``console.js``: ``lootPlan``), each picker
taking the first card of his list still on the table; a picker the Godfather entered with another
kind of card than guessed is guessed that kind for the rest of the split.
"""

from __future__ import annotations

from typing import Any

from ..rules.cards import LOOT_RANK, LOOT_VALUES, is_diamond, painting_score
from ..rules.players import clockwise_from
from ..table.referee import Referee, Step

DIAMOND_EDGE = 2000  # what a diamond's share of the $60,000 bonus is taken to add to its money
FIRST_AID = 8000  # a wound less, to a wounded player
CLIP = 1000  # a used bang back


def worth(card: str, *, paintings: int, wounded: bool) -> int:
    """What ``card`` is worth to a player who holds ``paintings`` paintings (and is ``wounded``)."""
    if card == "painting":
        return painting_score(paintings + 1) - painting_score(paintings)
    if card == "first-aid":
        return FIRST_AID if wounded else 0
    if card == "clip":
        return CLIP
    return LOOT_VALUES.get(card, 0) + (DIAMOND_EDGE if is_diamond(card) else 0)


def split_plan(referee: Referee) -> dict[str, Any] | None:
    """At the picks: the pickers in turn from the one whose turn it is (one lap), and each one's
    cards from the likeliest taken to the least; ``None`` at any other step."""
    rnd = referee.round
    if referee.step is not Step.PICKS or rnd is None:
        return None
    turn = rnd.pick_turn()
    if turn is None:
        return None
    game = referee.game
    sharers = set(rnd.sharers())
    lap = [s for s in clockwise_from(game.godfather, len(game.players)) if s in sharers]
    k = lap.index(turn)
    lap = lap[k:] + lap[:k]
    kinds = sorted({str(item) for item in game.table}, key=lambda c: LOOT_RANK.get(c, len(LOOT_RANK)))
    prefer = {}
    for seat in lap:
        p = game.players[seat]
        held = p.loot.count("painting")
        ranked = sorted(kinds, key=lambda c: -worth(c, paintings=held, wounded=p.wounds > 0))  # stable: by rank on ties
        prefer[p.name] = ranked
    return {"lap": [game.players[s].name for s in lap], "prefer": prefer}
