"""The referee: a game played at the table, step by step, through the rules engine.

The referee is deterministic and does no I/O.  It keeps only the table's own steps (the
revealed pile of a physical bank, the Yakuzas intermission, game over) and the game record;
a round is the engine's.  Each :mod:`input <.inputs>` of a round is turned into a move of
:mod:`controller.rules.moves` (names become seats) and pushed onto the round, which applies
it or refuses it; the step the table is at is derived from the moves the round expects.
Everything else (the counts, the sensors, the camera, the console, the game log) lives
around it, in :mod:`.session`.

An input is first tried on a copy of the game (:meth:`Referee.check`), so a refused
input changes nothing; the session writes an accepted one to the game log, then
:meth:`Referee.accept` makes it the game.  Replaying the inputs of a game log through
:meth:`Referee.submit` brings a referee back to the exact step it was at.

At a real table the cards stay face down until shown: the referee asks for them as
the phases come (Bang! Bang! Bang! in phase 5, shuriken in 5b, the rest in phase 6, and
the cards discarded unseen at the end of the round).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..errors import CashNGunsError, TableInputError
from ..record.replay import new_game, use_from_entry
from ..record.schema import Record, RoundRecord
from ..record.schema import Throw as ThrowRecord
from ..rules import Game, RoundSummary, RuleSet
from ..rules import moves as mv
from ..rules.advanced import CATALOG
from ..rules.events import Event
from ..rules.round import Round
from ..words import withdraw_call
from . import inputs as I


class Step(str, Enum):
    """What the referee waits for: the table's own steps (pile, intermission, game over), or the round's."""

    PILE = "pile"  # physical bank: the revealed pile
    CARDS = "cards"  # every living player puts a card face down
    AIMS = "aims"  # the aiming count and the aims
    PRIVILEGE = "privilege"  # 2nd edition: the Godfather's privilege
    WITHDRAW = "withdraw"  # the withdrawal count
    BBB = "bbb"  # Bang! Bang! Bang!: the bbb shown
    THROWS = "throws"  # shuriken throws, then done
    REVEAL = "reveal"  # phase 6: the cards still in play
    PICKS = "picks"  # 2nd edition: the loot taken in turn
    DISCARDS = "discards"  # the cards discarded unseen, shown at the end of the round
    INTERMISSION = "intermission"  # Yakuzas: the gangs' meeting after round 4
    OVER = "over"


# The step a round is at, from the first of these move kinds it expects (else DISCARDS).
ROUND_STEPS: tuple[tuple[type[mv.Move], Step], ...] = (
    (mv.PlayCards, Step.CARDS),
    (mv.Aim, Step.AIMS),
    (mv.Privilege, Step.PRIVILEGE),
    (mv.Withdraw, Step.WITHDRAW),
    (mv.Bbb, Step.BBB),
    (mv.Throw, Step.THROWS),
    (mv.Reveal, Step.REVEAL),
    (mv.Pick, Step.PICKS),
)
# The input of the table that carries each move (a Show carries the bbb, the phase 6 cards and the discards).
MOVE_INPUTS: tuple[tuple[type[mv.Move], type[I.Input]], ...] = (
    (mv.PlayCards, I.CardsDown),
    (mv.Aim, I.Aims),
    (mv.Privilege, I.Privilege),
    (mv.Withdraw, I.Withdrawals),
    (mv.Bbb, I.Show),
    (mv.Throw, I.Throw),
    (mv.Show, I.Show),
    (mv.ThrowsDone, I.ThrowsDone),
    (mv.Reveal, I.Show),
    (mv.Pick, I.Pick),
    (mv.Pick, I.Picks),
)
# The table's own steps and the one input each waits for.
TABLE_STEPS: dict[Step, type[I.Input] | None] = {Step.PILE: I.Pile, Step.INTERMISSION: I.Resume, Step.OVER: None}


class Refused(TableInputError):
    """An input the rules (or the step) do not allow; ``str()`` is the one line to show."""


@dataclass
class Prompt:
    """What the table must do now, and the choices the rules leave."""

    step: Step
    round: int
    text: str
    players: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Outcome:
    """What an accepted input changed: the engine's new events, the round closed if any."""

    events: list[Event] = field(default_factory=list)
    round_over: RoundSummary | None = None  # the summary of a round that ended
    game_over: bool = False


@dataclass
class _State:
    game: Game
    record: Record
    step: Step
    rnd: Round | None = None
    rr: RoundRecord | None = None


class Referee:
    """A game at the table.  ``record`` holds the header (rule set, players, options, setup, and the
    loot when the bank is digital); with ``physical_bank`` the piles are entered round by round."""

    def __init__(self, record: Record, *, physical_bank: bool = False) -> None:
        if record.rounds:
            raise ValueError("the referee starts a new game: the record must have no rounds")
        record = copy.deepcopy(record)
        if physical_bank:
            record.loot = []
        self.physical_bank = physical_bank
        game = new_game(record)
        self.state = _State(game, record, Step.PILE)
        self._next_round(self.state)

    # -- views ---------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.state.game

    @property
    def record(self) -> Record:
        """The game record so far (finished rounds)."""
        return self.state.record

    @property
    def step(self) -> Step:
        return self.state.step

    @property
    def round(self) -> Round | None:
        return self.state.rnd

    def names(self, seats: Iterable[int]) -> list[str]:
        players = self.game.players
        return [players[s].name for s in seats]

    def prompt(self) -> Prompt:
        """What the table must do now (for the console, the bots and the announcements)."""
        st = self.state
        rnd, game, step = st.rnd, st.game, st.step
        number = game.rounds_played + (0 if step in (Step.OVER, Step.INTERMISSION) else 1)
        if step is Step.OVER:
            return Prompt(step, game.rounds_played, "the game is over", options={"winners": list(game.winners)})
        if step is Step.INTERMISSION:
            return Prompt(step, number, "intermission: the gangs meet for 5 minutes")
        if step is Step.PILE:
            spec = game.spec
            return Prompt(step, number, f"count the revealed pile ({spec.pile_size} items)", options={"size": spec.pile_size})
        assert rnd is not None  # every other step is a round's
        living = self.names(rnd.seated)
        if step is Step.CARDS:
            return Prompt(step, number, "each player puts a card face down", living)
        if step is Step.AIMS:
            options = {n: self.names(rnd.legal_targets(s)) for n, s in zip(living, rnd.seated)}
            return Prompt(step, number, "1, 2, 3: everyone aims", living, {"targets": options})
        if step is Step.PRIVILEGE:
            gf = game.players[game.godfather].name
            options = {
                game.players[s].name: self.names(t for t in rnd.legal_targets(s) if t != w.target)
                for s, w in rnd.primary.items()
                if s != game.godfather and w.target is not None
            }
            return Prompt(step, number, f"the Godfather, {gf}, may order one player to change target", [gf], {"orders": options})
        if step is Step.WITHDRAW:
            return Prompt(step, number, withdraw_call(game.ruleset), self.names(rnd.in_share()))
        hidden = [w.owner for w in rnd.weapons if w.card is None and w.live and w.owner not in rnd.out]
        if step is Step.BBB:
            if game.ruleset is RuleSet.CLASSIC_2014:  # the 2nd edition's decks hold no Bang! Bang! Bang!
                return Prompt(step, number, "phase 5: no Bang! Bang! Bang! in the 2nd edition, go on", self.names(hidden))
            return Prompt(step, number, "Bang! Bang! Bang!: show it now", self.names(hidden))
        if step is Step.THROWS:
            throwers = sorted(set(rnd.pending_throwers()) | {s for s in hidden if game.players[s].role.value == "yakuza"})
            targets = {game.players[s].name: self.names(rnd.throw_targets(s)) for s in throwers}
            return Prompt(step, number, "shuriken: each throw in turn", self.names(throwers), {"targets": targets})
        if step is Step.REVEAL:
            return Prompt(step, number, "show the cards still in play", self.names(hidden))
        if step is Step.PICKS:
            turn = rnd.pick_turn()
            return Prompt(
                step, number, "take the loot in turn", self.names([turn] if turn is not None else []),
                {"table": list(game.table), "tile": not rnd.tile_taken},
            )
        return Prompt(step, number, "show the cards discarded unseen", self.names(rnd.hidden_cards()))

    def expected_inputs(self) -> list[str]:
        """The kinds of input the table may give now (a card use aside), from the round's expected moves."""
        rnd = self.state.rnd
        if rnd is None:
            wanted = TABLE_STEPS[self.step]
            return [] if wanted is None else [wanted.kind]
        kinds = rnd.expects()
        return [inp.kind for move, inp in MOVE_INPUTS if move in kinds and not move.automatic]

    def check_aim(self, player: str, target: str | None) -> str | None:
        """Why ``player`` may not aim at ``target`` now (``None``: he may), for instant feedback."""
        rnd = self.state.rnd
        if self.step is not Step.AIMS or rnd is None:
            return "it is not the time to aim"
        seat = self.game.find(player)
        if seat is None:
            return f"{player!r} is not a player"
        if target is None:
            legal = rnd.legal_targets(seat)
            return f"must aim at someone: {', '.join(self.names(legal))}" if legal else None
        aimed = self.game.find(target)
        if aimed is None:
            return f"{target!r} is not a player"
        return rnd.aim_refusal(seat, aimed)

    # -- taking inputs -------------------------------------------------------

    def check(self, inp: I.Input) -> tuple[_State, Outcome]:
        """Try ``inp`` on a copy of the game: the new state and what changed, or :class:`Refused`."""
        state = copy.deepcopy(self.state)
        try:
            outcome = _apply(state, inp, self)
        except Refused:
            raise
        except CashNGunsError as exc:  # the engine's refusals, a card use that cannot be read
            raise Refused(str(exc)) from None
        return state, outcome

    def accept(self, checked: tuple[_State, Outcome]) -> Outcome:
        self.state = checked[0]
        return checked[1]

    def submit(self, inp: I.Input) -> Outcome:
        return self.accept(self.check(inp))

    # -- rounds ----------------------------------------------------------------

    def _next_round(self, st: _State) -> None:
        game = st.game
        if game.finished:
            st.step, st.rnd, st.rr = Step.OVER, None, None
            return
        if self.physical_bank and len(game.piles) <= game.rounds_played:
            st.step, st.rnd, st.rr = Step.PILE, None, None
            return
        st.rnd = game.begin_round()
        st.rr = RoundRecord(cards={}, aims={})
        st.step = _round_step(st.rnd)


def _round_step(rnd: Round) -> Step:
    kinds = rnd.expects()
    return next((step for kind, step in ROUND_STEPS if kind in kinds), Step.DISCARDS)


def _apply(st: _State, inp: I.Input, referee: Referee) -> Outcome:
    """The table's own steps here; a round's inputs become moves pushed onto the round."""
    rnd, rr = st.rnd, st.rr
    if rnd is None or rr is None:
        wanted = TABLE_STEPS[st.step]
        if not isinstance(inp, wanted or ()):
            expected = wanted.kind if wanted is not None else "nothing more"
            raise Refused(f"the table is at step {st.step.value}: expected {expected}, not {inp.kind}")
        if isinstance(inp, I.Pile):
            st.game.add_pile(inp.items)
            st.record.loot.append(list(inp.items))
        referee._next_round(st)
        return Outcome(events=list(st.rnd.events) if st.rnd is not None else [])
    before = len(rnd.events)
    for move in _moves(st.game, rnd, inp):
        rnd.push(move)
    _write(st, inp)
    outcome = Outcome()
    while (auto := rnd.automatic()) is not None:
        summary = rnd.push(auto)
        if summary is not None:
            outcome.round_over = summary
    outcome.events = rnd.events[before:]
    if outcome.round_over is None:
        st.step = _round_step(rnd)
        return outcome
    rr.cards = {st.game.players[s].name: str(w.card) for s, w in rnd.primary.items()}
    st.record.rounds.append(rr)
    game = st.game
    if game.finished:
        st.step, st.rnd, st.rr = Step.OVER, None, None
    elif game.intermission_due:
        st.step, st.rnd, st.rr = Step.INTERMISSION, None, None
    else:
        referee._next_round(st)
    outcome.game_over = game.finished
    if st.rnd is not None:  # the next round began: its pile is revealed
        outcome.events += st.rnd.events
    return outcome


def _seat(game: Game, name: str | None) -> int:
    seat = game.find(name)
    if seat is None:
        raise Refused(f"{name!r} is not a player")
    return seat


def _moves(game: Game, rnd: Round, inp: I.Input) -> list[mv.Move]:
    """The moves an input stands for: one, or the picks of a split entered at once."""
    if not isinstance(inp, I.Picks):
        return [_move(game, rnd, inp)]
    if not inp.picks:
        raise Refused(f"round {rnd.number}: no pick was entered")
    moves: list[mv.Move] = []
    for number, pick in enumerate(inp.picks, 1):
        if not isinstance(pick, dict) or not isinstance(pick.get("player"), str) or not isinstance(pick.get("take"), str):
            raise Refused(f"round {rnd.number}: pick {number} is not a player and what he takes")
        moves.append(_move(game, rnd, I.Pick(pick["player"], pick["take"])))
    return moves


def _move(game: Game, rnd: Round, inp: I.Input) -> mv.Move:
    """The move an input of the table stands for: names turned into seats, nothing decided."""
    def seats(names: list[str]) -> list[int]:
        return [_seat(game, n) for n in names]

    def shown(cards: dict[str, str]) -> dict[int, str]:
        return {_seat(game, n): c for n, c in cards.items()}

    if isinstance(inp, I.CardsDown):
        named = {_seat(game, n): c for n, c in inp.cards.items()}
        return mv.PlayCards({s: named.get(s) for s in rnd.seated})  # the others stay face down
    if isinstance(inp, I.Aims):
        aims = {_seat(game, n): (None if t is None else _seat(game, t)) for n, t in inp.aims.items()}
        return mv.Aim(aims, frozenset(seats(inp.late)))
    if isinstance(inp, I.Privilege):
        if inp.player is None:
            return mv.Privilege()
        return mv.Privilege(_seat(game, inp.player), None if inp.target is None else _seat(game, inp.target))
    if isinstance(inp, I.Withdrawals):
        return mv.Withdraw(frozenset(seats(inp.withdrew)))
    if isinstance(inp, I.Show):  # the cards shown now: the bbb, before phase 6, or the discards
        kinds = rnd.expects()
        kind = mv.Bbb if mv.Bbb in kinds else mv.Reveal if mv.Reveal in kinds else None
        return kind(shown(inp.cards)) if kind is not None else mv.Show(shown(inp.cards))
    if isinstance(inp, I.Throw):
        target = None if inp.target is None else _seat(game, inp.target)
        return mv.Throw(_seat(game, inp.thrower), tuple(seats(inp.knocked)), tuple(seats(inp.touched)), target)
    if isinstance(inp, I.ThrowsDone):
        return mv.ThrowsDone()
    if isinstance(inp, I.Pick):
        return mv.Pick(_seat(game, inp.player), inp.take)
    if isinstance(inp, I.UseCard):
        return mv.Announce(use_from_entry(game, inp.use, f"round {rnd.number}"))
    wanted = " or ".join(sorted(k.kind for k in rnd.expects() - {mv.Announce}))
    raise Refused(f"the table is at step {_round_step(rnd).value}: expected {wanted}, not {inp.kind}")


def _write(st: _State, inp: I.Input) -> None:
    """The game record follows the accepted inputs (the cards are written when the round ends)."""
    rr = st.rr
    assert rr is not None
    if isinstance(inp, I.Aims):
        rr.aims, rr.late = dict(inp.aims), list(inp.late)
    elif isinstance(inp, I.Privilege) and inp.player is not None and inp.target is not None:
        rr.privilege = {"player": inp.player, "target": inp.target}
    elif isinstance(inp, I.Withdrawals):
        rr.withdraw = list(inp.withdrew)
    elif isinstance(inp, I.Throw):
        rr.shuriken.append(ThrowRecord(inp.thrower, list(inp.knocked), list(inp.touched), inp.target))
    elif isinstance(inp, I.Pick):
        rr.picks.append({"player": inp.player, "take": inp.take})
    elif isinstance(inp, I.Picks):
        rr.picks.extend({"player": p["player"], "take": p["take"]} for p in inp.picks)
    elif isinstance(inp, I.UseCard):
        card = CATALOG[inp.use["card"]]
        when = inp.use.get("when") or card.moments[0]
        (rr.objects if card.is_object else rr.powers).append({**inp.use, "when": when})


__all__ = ["Prompt", "Outcome", "Referee", "Refused", "Step"]
