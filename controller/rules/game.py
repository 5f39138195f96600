"""The rules engine: one game, played round by round, phase by phase (rulings.md).

Pure: no I/O, no clock, no randomness.  A :class:`Game` holds the table between
rounds; :meth:`Game.begin_round` returns a :class:`~.round.Round` that takes the table's
inputs in the rule book's order (cards, aims, the Godfather's privilege,
withdrawals, Bang! Bang! Bang!, shuriken throws, the reveal, the split or the
picks) and answers the questions asked while a round is played (who may aim at
whom, who is in the share, who throws next and at whom, whose pick it is).
Every refusal is an :class:`~controller.rules.errors.IllegalMove` naming round,
player and rule.  Game records, the controller and the console all drive this
one class.

Players are referred to by seat: their index in the clockwise ``players`` list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .advanced import Setup
from .cards import (
    DIAMOND_BONUS,
    GANG_ORDER,
    Gang,
    Item,
    is_diamond,
    painting_score,
)
from .errors import IllegalMove, PhaseError
from .players import CARDS, MAX_WOUNDS, Kit, PlayerState, RoundSummary, clockwise_from, table_order, table_value
from .round import Round
from .rulesets import (
    GANG_SIZES,
    ROUNDS,
    SEATINGS,
    SPECS,
    RuleSet,
    dead_member_penalty,
    role_of,
    starting_hand,
)

MAX_NAME = 24


class Game:
    """A game of one rule set, from its seating and loot piles."""

    def __init__(
        self,
        ruleset: RuleSet | str,
        players: Sequence[tuple[str, Gang | str | None]],
        loot: Sequence[Sequence[Item]],
        *,
        free_seating: bool = False,
        setup: Setup | None = None,
        super_powers: bool = False,
        objects: bool = False,
    ) -> None:
        self.ruleset = RuleSet(ruleset)
        self.spec = SPECS[self.ruleset]
        self.players: list[PlayerState] = self._seat(players, free_seating)
        self._seats = {p.name: p.seat for p in self.players}
        self.order: list[int] = [p.seat for p in self.players]  # clockwise; the Ninja changes it
        self.setup = setup or Setup()
        self.super_powers = super_powers or bool(self.setup.powers)
        self.objects = objects or bool(self.setup.objects)
        for seat, card in self.setup.powers.items():
            self.players[seat].power = card
        for seat, card in self.setup.objects.items():
            self.players[seat].object = card
        self.first_death_round: int | None = None
        self.piles: list[tuple[Item, ...]] = self._check_loot(loot)
        self.gang_size: Counter[Gang] = Counter(p.gang for p in self.players if p.gang)
        self.gang_money: dict[Gang, int] = {g: 0 for g in GANG_ORDER} if self.is_yakuzas else {}
        self.table: list[Item] = []
        self.rounds_played = 0
        self.godfather = 0  # 2nd edition: round 1's Godfather is the first player listed
        self.finished = False
        self.winners: list[str] = []
        self.history: list[RoundSummary] = []
        self.current: Round | None = None  # the Round being played

    # -- setup ---------------------------------------------------------------

    @property
    def is_yakuzas(self) -> bool:
        return self.ruleset is RuleSet.YAKUZAS

    def _seat(self, players: Sequence[tuple[str, Gang | str | None]], free_seating: bool) -> list[PlayerState]:
        spec = self.spec
        n = len(players)
        if not spec.min_players <= n <= spec.max_players:
            raise IllegalMove(
                None, None, f"players: {self.ruleset} is for {spec.min_players}-{spec.max_players} players, not {n}"
            )
        seen: set[str] = set()
        states = []
        for seat, (name, gang) in enumerate(players):
            if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
                raise IllegalMove(None, None, f"players: seat {seat}: a name is 1-{MAX_NAME} characters, not {name!r}")
            if not name.isprintable() or name != name.strip():
                # a name is printed in the story and said at the table: a control character would act on the
                # terminal (clear it, move the cursor, break a line) and spaces around it would not show
                raise IllegalMove(None, None, f"players: seat {seat}: {name!r} has spaces around it or characters that do not print")
            if name in seen:
                raise IllegalMove(None, None, f"players: {name} is listed twice")
            seen.add(name)
            if self.ruleset is RuleSet.YAKUZAS:
                try:
                    gang = Gang(gang)
                except ValueError:
                    raise IllegalMove(
                        None, name, f"needs a gang (purple, yellow or red), not {gang!r}"
                    ) from None
            elif gang is not None:
                raise IllegalMove(None, name, f"may not have a gang in {self.ruleset}")
            role = role_of(self.ruleset, gang)
            states.append(PlayerState(name, seat, gang, role, starting_hand(self.ruleset, role)))
        if self.ruleset is RuleSet.YAKUZAS:
            sizes = Counter(p.gang for p in states)
            wanted = GANG_SIZES[n]
            for gang in GANG_ORDER:
                if sizes[gang] != wanted[gang]:
                    raise IllegalMove(
                        None, None, f"players: the {gang} gang has {wanted[gang]} players at {n}, not {sizes[gang]}"
                    )
            if not free_seating:
                pattern = SEATINGS[n]
                for p in states:
                    if p.gang is not pattern[p.seat]:
                        order = " ".join(str(g)[0].upper() for g in pattern)
                        raise IllegalMove(
                            None,
                            p.name,
                            f"may not sit at seat {p.seat} ({p.gang}): {n}-player seating is {order} clockwise "
                            '(or set "free_seating")',
                        )
        return states

    def add_pile(self, pile: Sequence[Item]) -> None:
        """A physical bank: the pile revealed for the next round, as the Godfather counts it."""
        if len(self.piles) > self.rounds_played:
            raise IllegalMove(self.rounds_played + 1, None, "this round's pile is already on the table")
        self.piles = self._check_loot([*self.piles, tuple(pile)])

    def _check_loot(self, loot: Sequence[Sequence[Item]]) -> list[tuple[Item, ...]]:
        spec = self.spec
        if len(loot) > ROUNDS:
            raise IllegalMove(None, None, f"loot: at most {ROUNDS} piles, not {len(loot)}")
        total: Counter[Item] = Counter()
        piles = []
        for k, pile in enumerate(loot, start=1):
            pile = tuple(pile)
            if len(pile) != spec.pile_size:
                raise IllegalMove(None, None, f"loot: pile {k} has {len(pile)} items, a {self.ruleset} pile has {spec.pile_size}")
            for item in pile:
                if isinstance(item, bool) or item not in spec.loot_deck:
                    kinds = ", ".join(str(x) for x in spec.loot_deck)
                    raise IllegalMove(None, None, f"loot: pile {k}: {item!r} is not one of {kinds}")
            total.update(pile)
            for item, count in total.items():
                if count > spec.loot_deck[item]:
                    raise IllegalMove(
                        None, None, f"loot: pile {k} makes {count} x {item}; the {self.ruleset} deck has {spec.loot_deck[item]}"
                    )
            piles.append(pile)
        return piles

    # -- queries -------------------------------------------------------------

    def seat_of(self, name: str) -> int:
        """The seat of the player called ``name`` (a ``KeyError`` if there is none: ask :meth:`find` first)."""
        return self._seats[name]

    def find(self, name: object) -> int | None:
        """The seat of the player called ``name``, or None if no player has that name."""
        return self._seats.get(name) if isinstance(name, str) else None

    def living(self) -> list[int]:
        """Living players' seats, clockwise from the first seat of the current seating."""
        players = self.players
        return [s for s in self.order if players[s].alive]

    def scores(self) -> dict[str, int | None]:
        """The end-of-game score as if the game ended now: by gang (yakuzas) or player (None if dead)."""
        players = self.players
        dead = [p for p in players if p.counts_as_dead]
        if self.is_yakuzas:
            out: dict[str, int | None] = {}
            for gang in GANG_ORDER:
                members = [p for p in players if p.gang is gang]
                score = self.gang_money[gang]
                for p in members:
                    if p.counts_as_dead:
                        score -= dead_member_penalty(self.gang_size[gang])
                        continue
                    coward = p.power == "super-coward"  # his own tokens only (manual's note)
                    score += (5000 if coward else -5000) * p.cowardice
                    if p.power == "six-feet-under":  # other gangs' dead only
                        score += 10000 * sum(d.gang is not gang for d in dead)
                out[str(gang)] = score
            return out
        if self.ruleset is RuleSet.CLASSIC:
            out = {}
            for p in players:
                if p.counts_as_dead:
                    out[p.name] = None
                    continue
                score = p.money + (5000 if p.power == "super-coward" else -5000) * p.cowardice
                if p.power == "six-feet-under":
                    score += 10000 * len(dead)
                out[p.name] = score
            return out
        diamonds = {p.seat: sum(map(is_diamond, p.loot)) for p in self.players if p.alive}
        best = max(diamonds.values(), default=0)
        bonus_to = [s for s, d in diamonds.items() if d == best and best > 0]
        out = {}
        for p in self.players:
            if not p.alive:
                out[p.name] = None
                continue
            score = p.money + painting_score(p.loot.count("painting"))
            if len(bonus_to) == 1 and bonus_to[0] == p.seat:
                score += DIAMOND_BONUS
            out[p.name] = score
        return out

    @property
    def intermission_due(self) -> bool:
        """Yakuzas: the gangs' 5-minute meeting comes after round 4."""
        return self.is_yakuzas and self.rounds_played == 4 and not self.finished

    def leaders(self) -> list[str]:
        """Who would win on scores if the game ended now (gangs or players, tie-breaks applied)."""
        keys = self._ranking_keys()
        best = max(keys.values(), default=None)
        return [who for who, key in keys.items() if key == best]

    def _ranking_keys(self) -> dict[str, tuple[int, ...]]:
        """Scores with their tie-breaks, highest wins (rulings.md, end of game)."""
        scores = self.scores()
        if self.is_yakuzas:
            keys: dict[str, tuple[int, ...]] = {}
            for gang in GANG_ORDER:
                wounds = sum(p.wounds for p in self.players if p.gang is gang and not p.counts_as_dead)
                keys[str(gang)] = (scores[str(gang)] or 0, -self.gang_size[gang], wounds)
            return keys
        by_name = {p.name: p for p in self.players}
        if self.ruleset is RuleSet.CLASSIC:
            return {
                n: (s, -by_name[n].cowardice, -by_name[n].wounds) for n, s in scores.items() if s is not None
            }
        return {n: (s, by_name[n].wounds) for n, s in scores.items() if s is not None}

    # -- playing -------------------------------------------------------------

    def begin_round(self) -> Round:
        """Reveal the next pile and begin its round: returns the :class:`~.round.Round` being played."""
        if self.finished:
            raise IllegalMove(self.rounds_played + 1, None, f"the game ended after round {self.rounds_played}")
        if self.current is not None:
            raise PhaseError(f"round {self.current.number} is still being played")
        if self.rounds_played >= len(self.piles):
            raise IllegalMove(self.rounds_played + 1, None, "there is no loot pile for this round")
        self.current = Round(self)
        return self.current

    def _end_round(self, rnd: Round) -> RoundSummary:
        summary = RoundSummary(rnd.number, rnd.pot, rnd.shared_by, rnd.share, tuple(table_order(self.table)), tuple(rnd.events))
        self.history.append(summary)
        self.rounds_played = rnd.number
        self.current = None
        if self.first_death_round is None and rnd.died:
            self.first_death_round = rnd.number
        if self.ruleset is RuleSet.CLASSIC_2014:
            if rnd.new_godfather is not None:
                self.godfather = rnd.new_godfather
            living = self.living()
            if living and not self.players[self.godfather].alive:
                self.godfather = next(s for s in clockwise_from(self.godfather, len(self.players)) if s in living)
        self._check_end()
        return summary

    def _check_end(self) -> None:
        living = [p for p in self.players if not p.counts_as_dead]
        if self.is_yakuzas:
            alive_gangs = [g for g in GANG_ORDER if any(p.gang is g for p in living)]
            if self.rounds_played < ROUNDS and len(alive_gangs) <= 1:
                self.finished = True
                self._bury_dragons()
                self.winners = [str(g) for g in alive_gangs]
                return
        elif self.rounds_played < ROUNDS and len(living) <= 1:
            self.finished = True
            self._bury_dragons()
            self.winners = [p.name for p in living]
            return
        if self.rounds_played >= ROUNDS:
            self.finished = True
            self._bury_dragons()
            self.winners = self.leaders()

    def _bury_dragons(self) -> None:
        """At the end of the game, players living on an Angry Dragon die before the scores."""
        for p in self.players:
            if p.dragon_until is not None and p.alive:
                p.alive = False


__all__ = [
    "CARDS",
    "MAX_NAME",
    "MAX_WOUNDS",
    "Game",
    "Kit",
    "PlayerState",
    "RoundSummary",
    "clockwise_from",
    "table_order",
    "table_value",
]
