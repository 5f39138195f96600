"""The rules engine: one game, played round by round, phase by phase (rulings.md).

Pure: no I/O, no clock, no randomness.  A :class:`Game` holds the table between
rounds; :meth:`Game.begin_round` returns a :class:`Round` that takes the table's
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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from . import events as ev
from .cards import (
    DIAMOND_BONUS,
    GANG_ORDER,
    GODFATHER_TILE,
    LOOT_RANK,
    LOOT_VALUES,
    Card,
    Gang,
    Role,
    is_diamond,
    painting_score,
)
from .errors import IllegalMove, PhaseError
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
from .split import split_bills

MAX_NAME = 24
CARDS: dict[str, Card] = {**{c.value: c for c in Card}, **{c: c for c in Card}}
MAX_WOUNDS = 3


class Phase(Enum):
    """Where a round stands: the next input it expects."""

    CARDS = "cards"  # phase 2
    AIM = "aim"  # phase 3
    WITHDRAW = "withdraw"  # phase 4 (2nd edition: the Godfather's privilege first)
    BBB = "bbb"  # phase 5
    SHURIKEN = "shuriken"  # phase 5b (yakuzas)
    REVEAL = "reveal"  # phase 6
    SHARE = "share"  # phase 7: the split, or the picks (2nd edition)
    DONE = "done"


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
    discarded: Counter = field(default_factory=Counter)  # cards used or lost so far


@dataclass(frozen=True)
class RoundSummary:
    number: int
    pot: int
    sharers: tuple[int, ...]
    share: int
    left: tuple
    events: tuple


def table_order(items: Iterable) -> list:
    """Bills or loot cards, highest first."""
    items = list(items)
    if items and isinstance(items[0], str):
        return sorted(items, key=LOOT_RANK.__getitem__)
    return sorted(items, reverse=True)


def table_value(items: Sequence) -> int:
    """Money on the table: bills, or the cash and diamond values of loot cards."""
    if items and isinstance(items[0], str):
        return sum(map(LOOT_VALUES.__getitem__, items))
    return sum(items)


class Game:
    """A game of one rule set, from its seating and loot piles."""

    def __init__(
        self,
        ruleset: RuleSet | str,
        players: Sequence[tuple[str, Gang | str | None]],
        loot: Sequence[Sequence],
        *,
        free_seating: bool = False,
    ) -> None:
        self.ruleset = RuleSet(ruleset)
        self.spec = SPECS[self.ruleset]
        self.players: list[PlayerState] = self._seat(players, free_seating)
        self._seats = {p.name: p.seat for p in self.players}
        self.piles: list[tuple] = self._check_loot(loot)
        self.gang_size: Counter = Counter(p.gang for p in self.players if p.gang)
        self.gang_money: dict[Gang, int] = {g: 0 for g in GANG_ORDER} if self.is_yakuzas else {}
        self.table: list = []
        self.rounds_played = 0
        self.godfather = 0  # 2nd edition: round 1's Godfather is the first player listed
        self.finished = False
        self.winners: list[str] = []
        self.history: list[RoundSummary] = []
        self.current: Round | None = None

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

    def _check_loot(self, loot: Sequence[Sequence]) -> list[tuple]:
        spec = self.spec
        if len(loot) > ROUNDS:
            raise IllegalMove(None, None, f"loot: at most {ROUNDS} piles, not {len(loot)}")
        total: Counter = Counter()
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
        return self._seats[name]

    def living(self) -> list[int]:
        return [p.seat for p in self.players if p.alive]

    def scores(self) -> dict:
        """The end-of-game score as if the game ended now: by gang (yakuzas) or player (None if dead)."""
        if self.is_yakuzas:
            out = {}
            for gang in GANG_ORDER:
                members = [p for p in self.players if p.gang is gang]
                score = self.gang_money[gang]
                score -= 5000 * sum(p.cowardice for p in members if p.alive)
                score -= dead_member_penalty(self.gang_size[gang]) * sum(not p.alive for p in members)
                out[str(gang)] = score
            return out
        if self.ruleset is RuleSet.CLASSIC:
            return {p.name: (p.money - 5000 * p.cowardice if p.alive else None) for p in self.players}
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

    def _ranking_keys(self) -> dict[str, tuple]:
        """Scores with their tie-breaks, highest wins (rulings.md, end of game)."""
        scores = self.scores()
        if self.is_yakuzas:
            keys = {}
            for gang in GANG_ORDER:
                wounds = sum(p.wounds for p in self.players if p.gang is gang and p.alive)
                keys[str(gang)] = (scores[str(gang)], -self.gang_size[gang], wounds)
            return keys
        by_name = {p.name: p for p in self.players}
        if self.ruleset is RuleSet.CLASSIC:
            return {
                n: (s, -by_name[n].cowardice, -by_name[n].wounds) for n, s in scores.items() if s is not None
            }
        return {n: (s, by_name[n].wounds) for n, s in scores.items() if s is not None}

    # -- playing -------------------------------------------------------------

    def begin_round(self) -> Round:
        if self.finished:
            raise IllegalMove(self.rounds_played + 1, None, f"the game ended after round {self.rounds_played}")
        if self.current is not None:
            raise PhaseError(f"round {self.current.number} is still being played")
        if self.rounds_played >= len(self.piles):
            raise IllegalMove(self.rounds_played + 1, None, "there is no loot pile for this round")
        self.current = Round(self)
        return self.current

    def _end_round(self, rnd: Round) -> RoundSummary:
        summary = RoundSummary(rnd.number, rnd.pot, rnd.sharers(), rnd.share, tuple(table_order(self.table)), tuple(rnd.events))
        self.history.append(summary)
        self.rounds_played = rnd.number
        self.current = None
        if self.ruleset is RuleSet.CLASSIC_2014:
            if rnd.new_godfather is not None:
                self.godfather = rnd.new_godfather
            living = self.living()
            if living and not self.players[self.godfather].alive:
                self.godfather = next(s for s in _clockwise_from(self.godfather, len(self.players)) if s in living)
        self._check_end()
        return summary

    def _check_end(self) -> None:
        living = [p for p in self.players if p.alive]
        if self.is_yakuzas:
            alive_gangs = [g for g in GANG_ORDER if any(p.gang is g for p in living)]
            if self.rounds_played < ROUNDS and len(alive_gangs) <= 1:
                self.finished = True
                self.winners = [str(g) for g in alive_gangs]
                return
        elif self.rounds_played < ROUNDS and len(living) <= 1:
            self.finished = True
            self.winners = [p.name for p in living]
            return
        if self.rounds_played >= ROUNDS:
            self.finished = True
            self.winners = self.leaders()


def _clockwise_from(seat: int, n: int) -> list[int]:
    return [(seat + k) % n for k in range(n)]


class Round:
    """One round being played.  Call its input methods in phase order."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.number = game.rounds_played + 1
        self.players = game.players
        self.seated: list[int] = game.living()  # the dead have left the table
        self._pos = {seat: k for k, seat in enumerate(self.seated)}
        pile = game.piles[self.number - 1]
        game.table.extend(pile)
        self.pot = table_value(game.table)
        self.card: dict[int, Card] = {}
        self.live: set[int] = set()  # seats whose card is still in play
        self.target: dict[int, int | None] = {}
        self._direction: dict[int, int] = {}  # +1: the tanto points left, -1: right
        self.late: set[int] = set()
        self.withdrew: set[int] = set()
        self.out: set[int] = set()  # out of the share: withdrew or felled
        self.wounded: set[int] = set()  # took a wound this round
        self.thrown: list[int] = []
        self.discard_instead: dict[int, Card] = {}  # a kept shuriken's cling
        self.privilege_used = False
        self.share = 0
        self.new_godfather: int | None = None
        self._tile_taken = False
        self._picks = 0
        self.events: list = [ev.Revealed(pile, self.pot)]
        self.phase = Phase.CARDS

    # -- helpers -------------------------------------------------------------

    def _name(self, seat: int) -> str:
        return self.players[seat].name

    def _illegal(self, seat: int | None, rule: str) -> IllegalMove:
        return IllegalMove(self.number, None if seat is None else self._name(seat), rule)

    def _expect(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise PhaseError(f"round {self.number}: expected {self.phase.value}, not {'/'.join(p.value for p in phases)}")

    def _check_seated(self, seat: int, action: str) -> None:
        if seat not in self._pos:
            raise self._illegal(seat, f"is dead and may not {action}")

    def left_of(self, seat: int) -> int:
        return self.seated[(self._pos[seat] + 1) % len(self.seated)]

    def right_of(self, seat: int) -> int:
        return self.seated[(self._pos[seat] - 1) % len(self.seated)]

    def neighbours(self, seat: int) -> set[int]:
        return {self.left_of(seat), self.right_of(seat)} - {seat}

    def _wound(self, seat: int) -> None:
        self.players[seat].wounds += 1
        self.wounded.add(seat)
        self.out.add(seat)
        self.live.discard(seat)

    # -- questions the table asks --------------------------------------------

    def in_share(self) -> list[int]:
        """Players still in the share: seated, not withdrawn, not felled or hit."""
        return [s for s in self.seated if s not in self.out]

    def sharers(self) -> tuple[int, ...]:
        """Phase 7's sharers: living, still in the share, not wounded this round."""
        return tuple(s for s in self.seated if s not in self.out and s not in self.wounded and self.players[s].alive)

    def aim_refusal(self, seat: int, target: int) -> str | None:
        """Why ``seat`` may not aim at ``target`` (None: he may)."""
        p = self.players[seat]
        t = self.players[target]
        if target == seat:
            return "may not aim at himself"
        if target not in self._pos:
            return f"may not aim at {t.name}: dead"
        if p.gang is not None and p.gang is t.gang:
            return f"may not aim at {t.name}: same gang"
        if p.role is Role.YAKUZA and target not in self.neighbours(seat):
            return f"may not aim his tanto at {t.name}: not a neighbour"
        return None

    def legal_targets(self, seat: int) -> list[int]:
        """Whom ``seat`` may aim at in phase 3 (empty: he aims at no one)."""
        p = self.players[seat]
        if p.role is Role.YAKUZA:
            candidates = [self.left_of(seat), self.right_of(seat)]
            if candidates[0] == candidates[1]:
                candidates.pop()
        else:
            candidates = self.seated
        gang = p.gang
        players = self.players
        return [t for t in candidates if t != seat and (gang is None or players[t].gang is not gang)]

    def standing_gangsters(self) -> list[int]:
        return [s for s in self.seated if s not in self.out and self.players[s].role is Role.GANGSTER]

    def pending_throwers(self) -> list[int]:
        """Yakuzas who still have a shuriken in play (phase 5b), in seat order."""
        return [s for s in self.seated if s in self.live and self.card[s] is Card.SHURIKEN]

    def throw_targets(self, thrower: int) -> list[int]:
        """Legal shuriken targets: standing gangsters not next to the thrower, else those next to him."""
        standing = self.standing_gangsters()
        near = self.neighbours(thrower)
        far = [s for s in standing if s not in near]
        return far or standing

    def pick_turn(self) -> int | None:
        """2nd edition phase 7: who picks next (None when the loot is gone or no one shares)."""
        sharers = self.sharers()
        if not sharers or not self.game.table:
            return None
        godfather = self.game.godfather
        order = [s for s in _clockwise_from(godfather, len(self.players)) if s in sharers]
        return order[self._picks % len(order)]

    # -- phase 2: cards ------------------------------------------------------

    def play_cards(self, cards: Mapping[int, Card]) -> None:
        self._expect(Phase.CARDS)
        for seat in cards:
            self._check_seated(seat, "play a card")
        chosen = {}
        for seat in self.seated:
            if seat not in cards:
                raise self._illegal(seat, "put down no card")
            card = CARDS[cards[seat]]
            if self.players[seat].hand.get(card, 0) <= 0:
                raise self._illegal(seat, f"has no {card} card in hand")
            chosen[seat] = card
        for seat, card in chosen.items():
            self.players[seat].hand[card] -= 1
        self.card = chosen
        self.live = set(self.seated)
        self.phase = Phase.AIM

    # -- phase 3: aiming -----------------------------------------------------

    def aim(self, aims: Mapping[int, int | None], late: Iterable[int] = ()) -> None:
        self._expect(Phase.AIM)
        late = set(late)
        for seat in list(aims) + sorted(late):
            self._check_seated(seat, "aim")
        for seat in self.seated:
            if seat not in aims:
                raise self._illegal(seat, "has no aim (a name, or null)")
            target = aims[seat]
            if seat in late:
                if target is not None:
                    raise self._illegal(seat, "pointed late: his aim must be null")
                continue
            if target is None:
                legal = self.legal_targets(seat)
                if legal:
                    names = ", ".join(self._name(t) for t in legal)
                    raise self._illegal(seat, f"must aim at someone: {names}")
                continue
            refusal = self.aim_refusal(seat, target)
            if refusal:
                raise self._illegal(seat, refusal)
        for seat in self.seated:
            target = aims[seat]
            self.target[seat] = target
            if target is not None and self.players[seat].role is Role.YAKUZA:
                self._direction[seat] = 1 if target == self.left_of(seat) else -1
            if seat in late:
                self.late.add(seat)
                self.live.discard(seat)
                self.events.append(ev.LostCard(seat, "late"))
        self.phase = Phase.WITHDRAW

    def privilege(self, seat: int, new_target: int) -> None:
        """2nd edition: the Godfather orders ``seat`` to aim at ``new_target`` instead."""
        self._expect(Phase.WITHDRAW)
        if self.game.ruleset is not RuleSet.CLASSIC_2014:
            raise self._illegal(seat, "may not be ordered to change target: the Godfather's privilege is a 2nd edition rule")
        if self.privilege_used:
            raise self._illegal(seat, "may not be ordered too: the Godfather's privilege is used once a round")
        self._check_seated(seat, "change target")
        godfather = self.game.godfather
        if seat == godfather:
            raise self._illegal(seat, "is the Godfather: the privilege orders another player")
        old = self.target.get(seat)
        if old is None:
            raise self._illegal(seat, "has no target to change: he pointed late")
        if new_target == old:
            raise self._illegal(seat, f"must pick a target other than {self._name(old)}")
        refusal = self.aim_refusal(seat, new_target)
        if refusal:
            raise self._illegal(seat, refusal)
        self.target[seat] = new_target
        self.privilege_used = True
        self.events.append(ev.PrivilegeUsed(godfather, seat, old, new_target))

    # -- phase 4: withdrawing ------------------------------------------------

    def withdraw(self, seats: Iterable[int]) -> None:
        self._expect(Phase.WITHDRAW)
        seats = set(seats)
        for seat in seats:
            self._check_seated(seat, "withdraw")
        edition2 = self.game.ruleset is RuleSet.CLASSIC_2014
        for seat in self.seated:
            if seat not in seats:
                continue
            p = self.players[seat]
            self.withdrew.add(seat)
            self.out.add(seat)
            self.live.discard(seat)
            if edition2:
                token = "none"
            elif p.role is Role.YAKUZA:
                if p.finger:
                    p.finger = False
                    p.wounds += 1
                    token = "band-aid"
                else:
                    p.finger = True
                    token = "finger"
            else:
                p.cowardice += 1
                token = "cowardice"
            self.events.append(ev.Withdrew(seat, token))
        for seat in self.seated:
            target = self.target.get(seat)
            if seat not in self.live or target is None or target not in self.withdrew:
                continue
            if self.players[seat].role is Role.GANGSTER:
                self.live.discard(seat)
                self.events.append(ev.LostCard(seat, "target withdrew"))
            elif self.card[seat] is Card.TANTO:
                new = self._next_in_share(target, self._direction[seat])
                self.target[seat] = new
                self.events.append(ev.Retargeted(seat, target, new))
        self.phase = Phase.BBB

    def _next_in_share(self, start: int, step: int) -> int:
        """The first seat after ``start`` going ``step`` (+1 left) that did not withdraw."""
        n = len(self.seated)
        k = self._pos[start]
        for _ in range(n):
            k = (k + step) % n
            if self.seated[k] not in self.withdrew:
                return self.seated[k]
        raise AssertionError("no one is left in the share")  # the tanto holder himself is

    # -- phase 5: Bang! Bang! Bang! ------------------------------------------

    def bang_bang_bang(self) -> list[tuple[int, int]]:
        """Every bbb in play hits at once; returns (shooter, target) pairs."""
        self._expect(Phase.BBB)
        hits = [
            (s, self.target[s])
            for s in self.seated
            if s in self.live and self.card[s] is Card.BBB and self.target[s] is not None
        ]
        for shooter, _ in hits:
            self.live.discard(shooter)
        for shooter, target in hits:
            self._wound(target)
            self.events.append(ev.Hit(shooter, target, Card.BBB))
        self.phase = Phase.SHURIKEN if self.game.is_yakuzas else Phase.REVEAL
        return hits

    # -- phase 5b: shuriken --------------------------------------------------

    def throw(
        self,
        thrower: int,
        knocked: Iterable[int] = (),
        touched: Iterable[int] = (),
        *,
        target: int | None = None,
    ) -> ev.Thrown:
        """A shuriken throw and its physical outcome: the standees knocked over and only touched."""
        self._expect(Phase.SHURIKEN)
        self._check_seated(thrower, "throw")
        if thrower not in self.pending_throwers():
            if self.card.get(thrower) is not Card.SHURIKEN:
                raise self._illegal(thrower, "did not play a shuriken and may not throw")
            if thrower in self.thrown:
                raise self._illegal(thrower, "already threw his shuriken")
            if thrower in self.out:
                raise self._illegal(thrower, "is out of the share and may not throw")
            raise self._illegal(thrower, "lost his shuriken card and may not throw")
        legal = self.throw_targets(thrower)
        if not legal:
            raise self._illegal(thrower, "may not throw: no gangster is standing (his shuriken goes back to his hand)")
        knocked = list(knocked)
        touched = list(touched)
        hit = knocked + touched
        if len(set(hit)) != len(hit):
            raise self._illegal(thrower, "threw: a standee is listed twice among knocked and touched")
        for seat in hit:
            if seat == thrower:
                raise self._illegal(thrower, "threw: a shuriken cannot hit its thrower's own standee")
            if seat not in self._pos:
                raise self._illegal(thrower, f"threw: {self._name(seat)} is dead and has no standee on the table")
        if target is not None and target not in legal:
            if target not in self._pos:
                why = "dead"
            elif self.players[target].role is not Role.GANGSTER:
                why = "not a gangster"
            elif target in self.out:
                why = "not standing"
            else:
                why = "a neighbour, and other gangsters are standing"
            raise self._illegal(thrower, f"may not throw at {self._name(target)}: {why}")
        near = self.neighbours(thrower)
        failed = None
        if not any(s not in self.out for s in hit):
            failed = "it hit no standing character"
        elif any(s in near and s not in legal for s in hit):
            failed = "it hit a neighbour"
        wounded: list[int] = []
        if failed is None:
            yakuza = Role.YAKUZA
            wounded = [
                s
                for s in self.seated
                if s not in self.out and (s in knocked or (s in touched and self.players[s].role is yakuza))
            ]
            for s in wounded:
                self._wound(s)
                self.events.append(ev.Hit(thrower, s, Card.SHURIKEN))
        self.live.discard(thrower)
        self.thrown.append(thrower)
        thrown = ev.Thrown(thrower, tuple(sorted(knocked)), tuple(sorted(touched)), tuple(wounded), failed)
        self.events.append(thrown)
        return thrown

    def end_throws(self) -> None:
        """Close phase 5b: any shuriken still in play had no gangster to aim at."""
        self._expect(Phase.SHURIKEN)
        pending = self.pending_throwers()
        if pending and self.standing_gangsters():
            raise self._illegal(pending[0], "played a shuriken but did not throw it")
        for seat in pending:
            hand = self.players[seat].hand
            self.live.discard(seat)
            if hand.get(Card.CLING, 0) > 0:
                hand[Card.CLING] -= 1
                hand[Card.SHURIKEN] += 1
                self.discard_instead[seat] = Card.CLING
                self.events.append(ev.ShurikenKept(seat, Card.CLING))
            else:
                self.events.append(ev.ShurikenKept(seat, Card.SHURIKEN))
        self.phase = Phase.REVEAL

    # -- phase 6: the remaining cards ----------------------------------------

    def reveal(self) -> list[int]:
        """Reveal the cards still in play, all at once; returns the seats that died this round."""
        self._expect(Phase.REVEAL)
        hits = [
            (s, self.target[s], self.card[s])
            for s in self.seated
            if s in self.live and self.card[s] in (Card.BANG, Card.TANTO) and self.target[s] is not None
        ]
        self.live.clear()
        for shooter, target, card in hits:
            self._wound(target)
            self.events.append(ev.Hit(shooter, target, card))
        dead = []
        for seat in self.seated:
            p = self.players[seat]
            if p.wounds >= MAX_WOUNDS:
                p.alive = False
                dead.append(seat)
                self.events.append(ev.Died(seat))
        for seat in self.seated:
            self.players[seat].discarded[self.discard_instead.get(seat, self.card[seat])] += 1
        self.phase = Phase.SHARE
        return dead

    # -- phase 7: sharing ----------------------------------------------------

    def share_bills(self) -> ev.Shared:
        """Bills: split the pot equally among the sharers (classic, yakuzas)."""
        self._expect(Phase.SHARE)
        game = self.game
        if not game.spec.uses_bills:
            raise PhaseError("classic-2014 shares by picks")
        sharers = self.sharers()
        split = split_bills(game.table, len(sharers))
        for seat, part in zip(sharers, split.parts):
            p = self.players[seat]
            if game.is_yakuzas:
                game.gang_money[p.gang] += sum(part)
            else:
                p.money += sum(part)
        game.table[:] = split.left
        self.share = split.share
        shared = ev.Shared(sharers, split.share, split.parts, split.left)
        self.events.append(shared)
        self.phase = Phase.DONE
        return shared

    def pick(self, seat: int, take: str) -> None:
        """2nd edition: ``seat`` takes a loot card or the New Godfather tile."""
        self._expect(Phase.SHARE)
        if self.game.spec.uses_bills:
            raise self._illegal(seat, f"may not pick: {self.game.ruleset} splits bills")
        self._check_seated(seat, "pick")
        if seat not in self.sharers():
            raise self._illegal(seat, "is not a sharer and may not pick")
        turn = self.pick_turn()
        if turn is None:
            raise self._illegal(seat, "may not pick: the loot is gone")
        if seat != turn:
            raise self._illegal(seat, f"picked out of turn: it is {self._name(turn)}'s turn")
        p = self.players[seat]
        table = self.game.table
        if take == GODFATHER_TILE:
            if self._tile_taken:
                raise self._illegal(seat, "may not take the New Godfather tile: it was taken this round")
            self._tile_taken = True
            self.new_godfather = seat
        else:
            if take not in table:
                raise self._illegal(seat, f"may not take {take}: it is not on the table")
            table.remove(take)
            p.loot.append(take)
            p.money += LOOT_VALUES[take]
            if take == "first-aid" and p.wounds > 0:
                p.wounds -= 1
            elif take == "clip" and p.discarded[Card.BANG] > 0:
                p.discarded[Card.BANG] -= 1
                p.hand[Card.BANG] += 1
        self._picks += 1
        self.events.append(ev.Picked(seat, take))

    def end_picks(self) -> None:
        self._expect(Phase.SHARE)
        turn = self.pick_turn()
        if turn is not None:
            raise self._illegal(turn, "did not pick: loot is left on the table")
        self.phase = Phase.DONE

    # -- end of round --------------------------------------------------------

    def finish(self) -> RoundSummary:
        self._expect(Phase.DONE)
        return self.game._end_round(self)
