"""The referee: a game played at the table, step by step, through the rules engine.

The referee is deterministic and does no I/O: it takes :mod:`inputs <.inputs>` in the
order the table gives them, asks the engine whether each is legal, and keeps the game
record up to date.  Everything else (the counts, the sensors, the camera, the console,
the game log) lives around it, in :mod:`.session`.

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
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..record.replay import new_game, use_from_entry
from ..record.schema import Record, RecordError, RoundRecord, Throw as ThrowRecord
from ..rules import Game, IllegalMove, RuleSet
from ..rules.advanced import CATALOG
from ..rules.round import Round
from ..words import withdraw_call
from . import inputs as I


class Step(str, Enum):
    """What the referee waits for."""

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


EXPECTED: dict[Step, tuple[type[I.Input], ...]] = {
    Step.PILE: (I.Pile,),
    Step.CARDS: (I.CardsDown,),
    Step.AIMS: (I.Aims,),
    Step.PRIVILEGE: (I.Privilege,),
    Step.WITHDRAW: (I.Withdrawals,),
    Step.BBB: (I.Show,),
    Step.THROWS: (I.Throw, I.Show, I.ThrowsDone),
    Step.REVEAL: (I.Show,),
    Step.PICKS: (I.Pick,),
    Step.DISCARDS: (I.Show,),
    Step.INTERMISSION: (I.Resume,),
    Step.OVER: (),
}


class Refused(ValueError):
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

    events: list = field(default_factory=list)
    round_over: Any = None  # the RoundSummary of a round that ended
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

    def names(self, seats) -> list[str]:
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
                {"table": list(game.table), "tile": not rnd._tile_taken},
            )
        return Prompt(step, number, "show the cards discarded unseen", self.names(rnd.hidden_cards()))

    def check_aim(self, player: str, target: str | None) -> str | None:
        """Why ``player`` may not aim at ``target`` now (``None``: he may), for instant feedback."""
        rnd = self.state.rnd
        if self.step is not Step.AIMS or rnd is None:
            return "it is not the time to aim"
        try:
            seat = self.game.seat_of(player)
            if target is None:
                legal = rnd.legal_targets(seat)
                return f"must aim at someone: {', '.join(self.names(legal))}" if legal else None
            return rnd.aim_refusal(seat, self.game.seat_of(target))
        except KeyError as exc:
            return f"{exc.args[0]!r} is not a player"

    # -- taking inputs -------------------------------------------------------

    def check(self, inp: I.Input) -> tuple[_State, Outcome]:
        """Try ``inp`` on a copy of the game: the new state and what changed, or :class:`Refused`."""
        state = copy.deepcopy(self.state)
        try:
            outcome = _apply(state, inp, self)
        except (IllegalMove, RecordError, I.BadInput) as exc:
            raise Refused(str(exc)) from None
        except KeyError as exc:
            raise Refused(f"{exc.args[0]!r} is not a player") from None
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
        st.step = Step.CARDS


def _expect(st: _State, inp: I.Input) -> None:
    if not isinstance(inp, EXPECTED[st.step]):
        wanted = " or ".join(c.kind for c in EXPECTED[st.step]) or "nothing more"
        raise IllegalMove(None, None, f"the table is at step {st.step.value}: expected {wanted}, not {inp.kind}")


def _apply(st: _State, inp: I.Input, referee: Referee) -> Outcome:
    game = st.game
    seat = game.seat_of
    rnd = st.rnd
    before = len(rnd.events) if rnd is not None else 0
    outcome = Outcome()
    if isinstance(inp, I.UseCard):
        if rnd is None or st.step in (Step.OVER, Step.INTERMISSION):
            raise IllegalMove(None, None, "a card is used during a round")
        _announce(st, inp.use)
        outcome.events = rnd.events[before:]
        return outcome
    _expect(st, inp)
    step = st.step
    rr = st.rr
    if step is Step.PILE:
        game.add_pile(inp.items)
        st.record.loot.append(list(inp.items))
        referee._next_round(st)
        outcome.events = list(st.rnd.events)
        return outcome
    if step is Step.CARDS:
        cards = {seat(n): c for n, c in inp.cards.items()}
        rnd.close_phase_1()  # phase 1's card uses first: a Smoke Grenade may end the round here
        rnd.play_cards({} if rnd.over else {s: cards.get(s) for s in rnd.seated})
        st.step = Step.AIMS
    elif step is Step.AIMS:
        rnd.aim({seat(n): (None if t is None else seat(t)) for n, t in inp.aims.items()}, late=[seat(n) for n in inp.late])
        rr.aims = dict(inp.aims)
        rr.late = list(inp.late)
        st.step = Step.PRIVILEGE if game.ruleset is RuleSet.CLASSIC_2014 else Step.WITHDRAW
    elif step is Step.PRIVILEGE:
        if inp.player is not None:
            if inp.target is None:
                raise IllegalMove(rnd.number, inp.player, "was ordered to change target: the new target is missing")
            rnd.privilege(seat(inp.player), seat(inp.target))
            rr.privilege = {"player": inp.player, "target": inp.target}
        st.step = Step.WITHDRAW
    elif step is Step.WITHDRAW:
        rnd.withdraw(seat(n) for n in inp.withdrew)
        rr.withdraw = list(inp.withdrew)
        st.step = Step.BBB
    elif step is Step.BBB:
        shown = {seat(n): c for n, c in inp.cards.items()}
        for s, c in shown.items():
            if c != "bbb":
                raise IllegalMove(rnd.number, game.players[s].name, f"shows {c}: in phase 5 only a Bang! Bang! Bang! is shown")
        rnd.reveal_cards(shown)
        rnd.bang_bang_bang()
        st.step = Step.THROWS if game.is_yakuzas else Step.REVEAL
    elif step is Step.THROWS:
        if isinstance(inp, I.Throw):
            rnd.throw(
                seat(inp.thrower),
                [seat(n) for n in inp.knocked],
                [seat(n) for n in inp.touched],
                target=None if inp.target is None else seat(inp.target),
            )
            rr.shuriken.append(ThrowRecord(inp.thrower, list(inp.knocked), list(inp.touched), inp.target))
        elif isinstance(inp, I.Show):
            rnd.reveal_cards({seat(n): c for n, c in inp.cards.items()})
        else:
            rnd.end_throws()
            st.step = Step.REVEAL
    elif step is Step.REVEAL:
        rnd.reveal_cards({seat(n): c for n, c in inp.cards.items()})
        rnd.reveal()
        if not rnd.over:
            if game.spec.uses_bills:
                rnd.share_bills()
                st.step = Step.DISCARDS
            else:
                st.step = Step.PICKS
                if rnd.pick_turn() is None:
                    rnd.end_picks()
                    st.step = Step.DISCARDS
    elif step is Step.PICKS:
        rnd.pick(seat(inp.player), inp.take)
        rr.picks.append({"player": inp.player, "take": inp.take})
        if rnd.pick_turn() is None:
            rnd.end_picks()
            st.step = Step.DISCARDS
    elif step is Step.DISCARDS:
        rnd.reveal_cards({seat(n): c for n, c in inp.cards.items()})
    elif step is Step.INTERMISSION:
        referee._next_round(st)
        outcome.events = list(st.rnd.events) if st.rnd is not None else []
        return outcome
    if rnd.over and st.step not in (Step.DISCARDS,):
        st.step = Step.DISCARDS
    outcome.events = rnd.events[before:]
    if st.step is Step.DISCARDS and not rnd.hidden_cards():
        outcome.round_over = _finish(st, referee)
        outcome.events = rnd.events[before:]
        outcome.game_over = game.finished
        if st.rnd is not None:  # the next round began: its pile is revealed
            outcome.events += st.rnd.events
    return outcome


def _announce(st: _State, entry: dict) -> None:
    """A card use from the console: read as a record entry, then queued in the engine for its moment."""
    use = use_from_entry(st.game, entry, f"round {st.rnd.number}")
    st.rnd.announce(use)
    target = st.rr.objects if CATALOG[use.card].is_object else st.rr.powers
    target.append({**entry, "when": use.when})


def _finish(st: _State, referee: Referee):
    rnd, rr = st.rnd, st.rr
    rr.cards = {st.game.players[s].name: str(w.card) for s, w in rnd.primary.items()}
    summary = rnd.finish()
    st.record.rounds.append(rr)
    game = st.game
    if game.finished:
        st.step, st.rnd, st.rr = Step.OVER, None, None
    elif game.intermission_due:
        st.step, st.rnd, st.rr = Step.INTERMISSION, None, None
    else:
        referee._next_round(st)
    return summary


__all__ = ["EXPECTED", "Prompt", "Outcome", "Referee", "Refused", "Step"]
