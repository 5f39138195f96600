"""Bots: players and a Godfather who play by themselves, for the demo, ``play --simulate`` and the tests.

Every decision is drawn from a random generator seeded by the game's seed, the round,
the step and the player, never from a running stream: a game resumed after a crash
makes exactly the decisions the uninterrupted game would have made.

The bots know their own cards (they choose them face down) and act the physical game
out: who lies down and when, what a shuriken throw really did.  They tell the referee
only what a Godfather at the table would enter; the sensors and the camera say the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..devices.timing import Timing
from ..errors import TableInputError
from ..rules import Card
from ..rules.cards import GODFATHER_TILE, LOOT_VALUES
from ..rules.round import Round
from . import inputs as I
from .referee import Prompt, Referee, Step


@dataclass(frozen=True)
class Temper:
    """How the bots play (probabilities)."""

    late: float = 0.04
    withdraw: float = 0.22
    too_late: float = 0.25  # of those who lie down, too late
    wobble: float = 0.05  # a standee wobbles during the count without lying down
    privilege: float = 0.3
    miss: float = 0.12
    wild: float = 0.1
    touch_only: float = 0.2
    tile: float = 0.15
    wrong_aim: float = 0.03  # a player points at someone the rules forbid (the Godfather has him aim again)
    # 2nd edition loot: how each player picks, drawn for each player from these (see PICK_STYLES)
    pick_styles: tuple[str, ...] = ("random",)


# How a bot takes a loot card: ``random`` (any card on the table), ``cash`` (the most money, cash
# or diamond alike), ``paintings`` (a painting whenever there is one, else the most money),
# ``diamonds`` (the best diamond, else the most money).
PICK_STYLES = ("random", "cash", "paintings", "diamonds")


@dataclass(frozen=True)
class LayDown:
    """A bot's move during the withdrawal count: when (seconds after the "1") and whether it counts."""

    player: str
    at: float
    stands_again: float | None = None  # a wobble (or a late lay-down stood back up)


@dataclass(frozen=True)
class ThrowPlan:
    """What a bot's shuriken really does: the truth the camera has to see."""

    thrower: str
    target: str
    knocked: tuple[str, ...]
    touched: tuple[str, ...]


@dataclass(frozen=True)
class AimPlan:
    """Where a bot's weapon really points at the aim count: the truth the camera has to see."""

    player: str
    target: str | None  # the standee the weapon points at (None: never raised)
    late: bool
    entered: str | None  # the aim the Godfather enters for him (None when late or with no one to aim at)


class Bots:
    """All the players and the Godfather of a game, played by the computer."""

    def __init__(self, referee: Referee, seed: int, temper: Temper = Temper(), *,
                 reachable: Callable[[int, int], set[int]] | None = None) -> None:
        self.referee = referee
        self.seed = seed
        self.temper = temper
        self.reachable = reachable
        """``reachable(thrower_seat, seats)``: the seats a throw can reach in a straight line (a table's
        geometry); the bots aim their shuriken at those when they can."""

    def rng(self, *key: object) -> random.Random:
        return random.Random(":".join(str(k) for k in (self.seed, *key)))

    def _round(self, what: str) -> Round:
        """The round in play; a bot asked for ``what`` when no round is in play is refused."""
        rnd = self.referee.round
        if rnd is None:
            raise TableInputError(f"no round is in play: the bots cannot give {what}")
        return rnd

    # -- secrets -------------------------------------------------------------

    def card_of(self, player: str) -> Card:
        """The card ``player`` put face down this round (chosen at the CARDS step, from his hand then)."""
        rnd = self._round(f"the card of {player}")
        seat = self.referee.game.seat_of(player)
        weapon = rnd.primary.get(seat)
        if weapon is not None and weapon.card is not None:
            return weapon.card
        hand = self.referee.game.players[seat].hand  # a face-down card has not left it yet
        pool = sorted(c for c, n in hand.items() for _ in range(n))
        return self.rng(rnd.number, "card", player).choice(pool)

    # -- answers to the referee's prompts -----------------------------------

    def answer(self, prompt: Prompt) -> I.Input:
        """The input the table gives at this step (the sensors' steps excepted: see :meth:`lay_downs`)."""
        number = prompt.round
        step = prompt.step
        if step is Step.PILE:
            return I.Pile(self._physical_pile(number))
        if step is Step.CARDS:
            return I.CardsDown({n: None for n in prompt.players})
        if step is Step.AIMS:
            plans = self.aim_plans(prompt)
            return I.Aims({n: p.entered for n, p in plans.items()}, [n for n, p in plans.items() if p.late])
        if step is Step.PRIVILEGE:
            rng = self.rng(number, "privilege")
            orders = {n: t for n, t in prompt.options["orders"].items() if t}
            if orders and rng.random() < self.temper.privilege:
                player = rng.choice(sorted(orders))
                return I.Privilege(player, rng.choice(orders[player]))
            return I.Privilege()
        if step is Step.WITHDRAW:  # no tilt sensors: the Godfather says who lay down in time
            timing = Timing()
            window = timing.window_end(0.0)
            moves = self.lay_downs(prompt, window=window, settle=timing.settle)
            withdrew = [m.player for m in moves if m.at <= window and m.stands_again is None]
            too_late = [m.player for m in moves if m.at > window]
            return I.Withdrawals(withdrew, too_late, source="godfather")
        if step is Step.BBB:
            return I.Show({n: "bbb" for n in prompt.players if self.card_of(n) is Card.BBB})
        if step is Step.THROWS:
            return self._next_throw_input(prompt)
        if step in (Step.REVEAL, Step.DISCARDS):
            return I.Show({n: str(self.card_of(n)) for n in prompt.players})
        if step is Step.PICKS:
            rng = self.rng(number, "pick", len(self._round("a pick").events))
            if prompt.options["tile"] and rng.random() < self.temper.tile:
                return I.Pick(prompt.players[0], GODFATHER_TILE)
            return I.Pick(prompt.players[0], self._pick(prompt.players[0], sorted(map(str, prompt.options["table"])), rng))
        if step is Step.INTERMISSION:
            return I.Resume()
        raise ValueError(f"no bot answer at step {step.value}")

    def pick_style(self, player: str) -> str:
        """How ``player`` takes his loot (one of :data:`PICK_STYLES`), for the whole game."""
        styles = self.temper.pick_styles
        style = self.rng("pick style", player).choice(styles) if len(styles) > 1 else styles[0]
        if style not in PICK_STYLES:
            raise TableInputError(f"unknown pick style {style!r}: one of {', '.join(PICK_STYLES)}")
        return style

    def _pick(self, player: str, table: list[str], rng: random.Random) -> str:
        style = self.pick_style(player)
        if style == "random":
            return rng.choice(table)
        if style == "paintings" and "painting" in table:
            return "painting"
        pool = [c for c in table if c.startswith("diamond-")] if style == "diamonds" else []
        pool = pool or table
        best = max(LOOT_VALUES.get(c, 0) for c in pool)
        return rng.choice(sorted({c for c in pool if LOOT_VALUES.get(c, 0) == best}))

    def aim_plans(self, prompt: Prompt) -> dict[str, AimPlan]:
        """Phase 3: where each living player's weapon points, whether late, and the aim entered for him."""
        number = prompt.round
        rng = self.rng(number, "aims")
        late = [n for n in prompt.players if rng.random() < self.temper.late]
        players = self.referee.game.players
        plans = {}
        for n in prompt.players:
            legal = prompt.options["targets"][n]
            entered = None if n in late or not legal else self.rng(number, "aim", n).choice(legal)
            target = entered
            if n in late and legal:
                target = self.rng(number, "late aim", n).choice(legal)
            elif entered is not None:
                others = [m for m in prompt.players if m != n and m not in legal and players[self.referee.game.seat_of(m)].alive]
                wrong = self.rng(number, "wrong aim", n)
                if others and wrong.random() < self.temper.wrong_aim:
                    target = wrong.choice(others)
            plans[n] = AimPlan(n, target, n in late, entered)
        return plans

    def lay_downs(self, prompt: Prompt, *, window: float, settle: float) -> list[LayDown]:
        """Phase 4: who lies down, and when, counted from the "1" (``window``: until 0.5 s after the "3")."""
        moves = []
        for n in prompt.players:
            rng = self.rng(prompt.round, "withdraw", n)
            if rng.random() < self.temper.withdraw:
                if rng.random() < self.temper.too_late:  # just after the window closed
                    at = window + rng.uniform(0.01, 0.06)
                    moves.append(LayDown(n, at, stands_again=at + 1.0))
                else:
                    moves.append(LayDown(n, rng.uniform(0.05, window - 0.05)))
            elif rng.random() < self.temper.wobble:
                at = rng.uniform(0.1, window)
                moves.append(LayDown(n, at, stands_again=at + settle / 3))
        return moves

    def _next_throw_input(self, prompt: Prompt) -> I.Input:
        """A shuriken holder who cannot throw shows it; else no input: :meth:`throw_plan` is next."""
        referee = self.referee
        rnd = self._round("a shown shuriken")
        for n in prompt.players:
            seat = referee.game.seat_of(n)
            if self.card_of(n) is Card.SHURIKEN and rnd.primary[seat].card is None and not prompt.options["targets"][n]:
                return I.Show({n: "shuriken"})
        return I.ThrowsDone()

    def throw_plan(self, prompt: Prompt) -> ThrowPlan | None:
        """The next throw a bot makes this phase, with what it really does; ``None``: no more throws."""
        referee = self.referee
        game, rnd = referee.game, self._round("a throw")
        throwers = [n for n in prompt.players if self.card_of(n) is Card.SHURIKEN and prompt.options["targets"][n]]
        throwers = [n for n in throwers if game.seat_of(n) not in rnd.thrown]
        if not throwers:
            return None
        rng = self.rng(prompt.round, "throw", len(rnd.thrown))
        thrower = rng.choice(throwers)
        targets = prompt.options["targets"][thrower]
        if self.reachable is not None:
            reach = self.reachable(game.seat_of(thrower), len(game.players))
            targets = [t for t in targets if game.seat_of(t) in reach] or targets
        target = rng.choice(targets)
        knocked: list[str] = []
        touched: list[str] = []
        if rng.random() >= self.temper.miss:
            (touched if rng.random() < self.temper.touch_only else knocked).append(target)
            if rng.random() < self.temper.wild:  # the star goes on into a standee next to the target
                t = game.seat_of(target)
                near = [s for s in (rnd.left_of(t), rnd.right_of(t)) if s in rnd.in_share() and s != game.seat_of(thrower)]
                if near:
                    (touched if rng.random() < 0.5 else knocked).append(game.players[rng.choice(near)].name)
        return ThrowPlan(thrower, target, tuple(knocked), tuple(touched))

    def _physical_pile(self, number: int) -> list[int | str]:
        """A physical bank: the pile the Godfather counts (drawn from what is left of the deck)."""
        game = self.referee.game
        used = [item for pile in game.piles for item in pile]
        deck = [item for item, count in sorted(game.spec.loot_deck.items(), key=lambda kv: str(kv[0])) for _ in range(count)]
        for item in used:
            deck.remove(item)
        return self.rng(number, "pile").sample(deck, game.spec.pile_size)

    def godfather_verdict(self, plan: ThrowPlan) -> I.Throw:
        """The Godfather looks at the table: what the throw really did."""
        return I.Throw(plan.thrower, plan.target, list(plan.knocked), list(plan.touched), source="godfather")

