"""One round of Cash'n Guns, phase by phase (rulings.md), with the advanced rules' hooks.

A :class:`Round` takes the table's inputs in the rule book's order and refuses an
illegal one with an :class:`IllegalMove`.  Each player's gun (or tanto) is a
:class:`Weapon`: the card put down, its target and whether it is still in play.
Every wound goes through one pipeline, :meth:`Round._apply_shots`, so that the
advanced rules' protections (Samurai, Kevlar, Dragon Skin, Shaolin Monk) and
the Objects that change a hit (Dum-Dum, Magic Bullets, Poisoned and Dark
Tanto) act in one place, and deaths through one step, :meth:`Round._settle_deaths`.

Advanced-rule cards are announced with :meth:`Round.announce` (docs/advanced-rules.md);
each announced use is applied at its moment (see :mod:`.uses`), and a use whose
moment never came, or that did not apply, is refused when its moment closes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import TYPE_CHECKING

from . import events as ev
from . import moves as mv
from . import uses
from .advanced import CATALOG, MOMENT_RANK, MOMENTS, PERMANENT_CARDS, REPEATABLE_CARDS, VISIBLE_ROUNDS, Use
from .cards import GODFATHER_TILE, LOOT_VALUES, Card, Role
from .errors import IllegalMove, PhaseError
from .names import card_label, moment_label, use_label
from .players import MAX_WOUNDS, RoundSummary, card_of, clockwise_from, table_value
from .rulesets import ROUNDS, RuleSet
from .split import split_bills
from .weapons import EXPLOSIONS, PISTOL_CARDS, YAKUZA_CARDS, Shot, Weapon, blank_of

if TYPE_CHECKING:
    from .game import Game

def _either(parts: list[str]) -> str:
    """"a, b or c"."""
    return ", ".join(parts[:-1]) + " or " + parts[-1] if len(parts) > 1 else "".join(parts)


class Phase(Enum):
    """Where a round stands: the next input it expects."""

    CARDS = "cards"  # phases 1-2
    AIM = "aim"  # phase 3
    WITHDRAW = "withdraw"  # phase 4 (2nd edition: the Godfather's privilege first)
    BBB = "bbb"  # phase 5
    SHURIKEN = "shuriken"  # phase 5b (yakuzas)
    REVEAL = "reveal"  # phase 6 and the deaths
    SHARE = "share"  # phase 7: the split, or the picks (2nd edition)
    DONE = "done"


class Round:
    """One round being played.  Call its input methods in phase order."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.number = game.rounds_played + 1
        self.players = game.players
        self.seated: list[int] = []
        self.seat_players(game.living())
        pile = game.piles[self.number - 1]
        game.table.extend(pile)
        self.pot = table_value(game.table)
        self.weapons: list[Weapon] = []
        self.primary: dict[int, Weapon] = {}
        self.late: set[int] = set()
        self.withdrew: set[int] = set()
        self.out: set[int] = set()  # out of the share: withdrew or felled
        self.wounded: set[int] = set()  # took a wound this round
        self.round_wounds: dict[int, int] = {}
        self.thrown: list[int] = []
        self.privilege_used = False
        self.privilege_done = False  # 2nd edition: the Godfather gave his order, or none
        self.finished = False
        self.share = 0
        self.shared_by: tuple[int, ...] = ()  # the sharers, when phase 7 came
        self.new_godfather: int | None = None
        self.tile_taken = False
        self.clips: list[int] = []  # 2nd edition: players who took a clip this round
        self._picks = 0
        self.events: list[ev.Event] = [ev.Revealed(pile, self.pot)]
        self.phase = Phase.CARDS
        # -- advanced rules --
        self.advanced = any(p.power or p.object for p in self.players)
        self.queue: dict[str, list[Use]] = defaultdict(list)
        self._consumed: set[int] = set()
        self.moment = 0  # the earliest moment still open (index in MOMENTS)
        self.parry: set[int] = set()  # Samurai parrying this round
        self.armed: set[int] = set()  # The Insane holding his grenade this round
        self.shot_at: set[int] = set()  # hit by another player's weapon this round
        self.extra_sharers: list[int] = []  # It Does Not Even Hurt
        self.fired_bbb: set[int] = set()
        self.double: set[int] = set()  # Double Shuriken
        self._first_throw: dict[int, tuple[int | None, tuple[int, ...]]] = {}
        self.over: str | None = None  # "grenade" or "smoke-grenade": the round ended early
        self.over_at: str | None = None
        self.deaths_settled = False
        self.died: list[int] = []
        # (moment, source, target, card) of every hit aimed, before protections; (moment, seat, wounds) taken
        self.shots_log: list[tuple[str, int | None, int, str]] = []
        self.wounds_log: list[tuple[str, int, int]] = []

    # -- moves -----------------------------------------------------------------

    def expects(self) -> frozenset[type[mv.Move]]:
        """The kinds of move legal now (a card use is legal until the round is finished)."""
        if self.finished:
            return frozenset()
        phase = self.phase
        kinds: set[type[mv.Move]] = {mv.Announce}
        if phase is Phase.CARDS:
            kinds.add(mv.PlayCards)
        elif phase is Phase.AIM:
            kinds.add(mv.Aim)
        elif phase is Phase.WITHDRAW:
            edition2 = self.game.ruleset is RuleSet.CLASSIC_2014
            kinds.add(mv.Privilege if edition2 and not self.privilege_done else mv.Withdraw)
        elif phase is Phase.BBB:
            kinds.add(mv.Bbb)
        elif phase is Phase.SHURIKEN:
            kinds |= {mv.Throw, mv.Show, mv.ThrowsDone}
        elif phase is Phase.REVEAL:
            kinds.add(mv.Reveal)
        elif phase is Phase.SHARE:
            kinds |= {mv.ShareBills} if self.game.spec.uses_bills else {mv.Pick, mv.EndPicks}
        else:
            kinds |= {mv.Show, mv.Finish}
        return frozenset(kinds)

    def automatic(self) -> mv.Move | None:
        """The move a driver pushes with no input from the table, else None: the split of the bills, the end
        of the picks once the loot is gone, the end of the round once every card is shown."""
        if self.finished:
            return None
        if self.phase is Phase.SHARE:
            if self.game.spec.uses_bills:
                return mv.ShareBills()
            return mv.EndPicks() if self.pick_turn() is None else None
        if self.phase is Phase.DONE and not self.hidden_cards():
            return mv.Finish()
        return None

    def push(self, move: mv.Move) -> RoundSummary | None:
        """Apply ``move``, or raise the :class:`IllegalMove` of the rule it breaks (the round is then unchanged
        only if the refusal came before any effect: drivers try a move on a copy, see the referee).

        Returns the round's summary when the move finished it.
        """
        if self.over and not isinstance(move, (mv.Announce, mv.Show, mv.Finish)):
            if move.carries_data():
                raise IllegalMove(self.number, None, f"{move.record_field}: {self.ended_note()}")
            return None  # an empty step of a round that ended early: nothing to do
        kinds = self.expects()
        if type(move) not in kinds:
            wanted = " or ".join(sorted(k.kind for k in kinds - {mv.Announce})) or "nothing more"
            raise IllegalMove(self.number, None, f"the round is at {self.phase.value}: expected {wanted}, not {move.kind}")
        if isinstance(move, mv.Announce):
            self.announce(move.use)
        elif isinstance(move, mv.PlayCards):
            self.close_phase_1()  # a Smoke Grenade may end the round here
            if self.over:
                down = [s for s, c in move.cards.items() if c is not None]
                if down:
                    raise self.illegal(down[0], "put down a card after the round ended")
            else:
                self.play_cards(move.cards)
        elif isinstance(move, mv.Aim):
            self.aim(move.aims, late=move.late)
        elif isinstance(move, mv.Privilege):
            if move.seat is not None:
                if move.target is None:
                    raise self.illegal(move.seat, "was ordered to change target: the new target is missing")
                self.privilege(move.seat, move.target)
            self.privilege_done = True
        elif isinstance(move, mv.Withdraw):
            self.withdraw(move.seats)
        elif isinstance(move, mv.Bbb):
            for seat, card in move.shown.items():
                if card_of(card) is not Card.BBB:
                    raise self.illegal(seat, f"shows {card_label(card)}: in phase 5 only a Bang! Bang! Bang! is shown")
            self.reveal_cards(move.shown)
            self.bang_bang_bang()
        elif isinstance(move, mv.Throw):
            self.throw(move.thrower, move.knocked, move.touched, target=move.target)
        elif isinstance(move, mv.Show):
            self.reveal_cards(move.cards)
        elif isinstance(move, mv.ThrowsDone):
            self.end_throws()
        elif isinstance(move, mv.Reveal):
            self.reveal_cards(move.shown)
            self.reveal()
        elif isinstance(move, mv.ShareBills):
            self.share_bills()
        elif isinstance(move, mv.Pick):
            self.pick(move.seat, move.take)
        elif isinstance(move, mv.EndPicks):
            self.end_picks()
        elif isinstance(move, mv.Finish):
            return self.finish()
        return None

    # -- seating -------------------------------------------------------------

    def seat_players(self, seated: list[int]) -> None:
        self.seated = seated
        self.position = {seat: k for k, seat in enumerate(seated)}

    def name_of(self, seat: int) -> str:
        return self.players[seat].name

    def illegal(self, seat: int | None, rule: str) -> IllegalMove:
        return IllegalMove(self.number, None if seat is None else self.name_of(seat), rule)

    def ended_note(self) -> str:
        """How the round ended early, as a refusal says it: "the round ended at phase 4 (Smoke Grenade)"."""
        return f"the round ended at {moment_label(self.over_at)} ({card_label(self.over)})"

    def _expect(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise PhaseError(f"round {self.number}: expected {self.phase.value}, not {'/'.join(p.value for p in phases)}")

    def _check_seated(self, seat: int, action: str) -> None:
        if seat not in self.position:
            raise self.illegal(seat, f"is dead and may not {action}")

    def left_of(self, seat: int) -> int:
        return self.seated[(self.position[seat] + 1) % len(self.seated)]

    def right_of(self, seat: int) -> int:
        return self.seated[(self.position[seat] - 1) % len(self.seated)]

    def neighbours(self, seat: int) -> set[int]:
        return {self.left_of(seat), self.right_of(seat)} - {seat}

    def next_in_share(self, start: int, step: int, *, skip_out: bool = False) -> int:
        """The first seat after ``start`` going ``step`` (+1 left) that did not withdraw."""
        n = len(self.seated)
        k = self.position[start]
        gone = self.out if skip_out else self.withdrew
        for _ in range(n):
            k = (k + step) % n
            if self.seated[k] not in gone:
                return self.seated[k]
        return start

    # -- compatibility views ---------------------------------------------------

    @property
    def card(self) -> dict[int, Card | None]:
        """The card each seated player put down for his own weapon."""
        return {s: w.card for s, w in self.primary.items()}

    @property
    def target(self) -> dict[int, int | None]:
        """Each seated player's current target (his own weapon)."""
        return {s: w.target for s, w in self.primary.items()}

    def weapons_of(self, seat: int) -> list[Weapon]:
        return [w for w in self.weapons if w.owner == seat]

    # -- questions the table asks --------------------------------------------

    def in_share(self) -> list[int]:
        """Players still in the share: seated, not withdrawn, not felled or hit."""
        return [s for s in self.seated if s not in self.out]

    def sharers(self) -> tuple[int, ...]:
        """Phase 7's sharers: living, still in the share, not wounded this round."""
        if self.over:
            return ()
        players = self.players
        out = []
        for s in self.seated:
            p = players[s]
            if not p.alive:
                continue
            if s in self.extra_sharers or (
                s not in self.out and (s not in self.wounded or (self.advanced and p.has("shaolin-monk")))
            ):
                out.append(s)
        return tuple(out)

    def aim_refusal(self, seat: int, target: int, *, yakuza: bool | None = None, charmed: bool = False) -> str | None:
        """Why ``seat`` may not aim at ``target`` (None: he may).

        ``yakuza`` says which reach the weapon has (default: the player's own kit);
        ``charmed`` lifts the own-gang rule (the Geisha chooses the new target).
        """
        p = self.players[seat]
        t = self.players[target]
        if target == seat:
            return f"may not aim at {p.name}: every player aims at another player"
        if target not in self.position:
            return f"may not aim at {t.name}: dead"
        if not charmed and p.gang is not None and p.gang is t.gang:
            return f"may not aim at {t.name}: same gang"
        if (p.role is Role.YAKUZA if yakuza is None else yakuza) and target not in self.neighbours(seat):
            return f"may not aim a tanto at {t.name}: not a neighbour"
        return None

    def legal_targets(self, seat: int, *, yakuza: bool | None = None) -> list[int]:
        """Whom ``seat`` may aim at in phase 3 (empty: he aims at no one)."""
        p = self.players[seat]
        if p.role is Role.YAKUZA if yakuza is None else yakuza:
            candidates = [self.left_of(seat), self.right_of(seat)]
            if candidates[0] == candidates[1]:
                candidates.pop()
        else:
            candidates = self.seated
        gang = p.gang
        players = self.players
        return [t for t in candidates if t != seat and (gang is None or players[t].gang is not gang)]

    def standing_opponents(self, thrower: int) -> list[int]:
        """Standing players of other gangs: for a yakuza, the standing gangsters."""
        gang = self.players[thrower].gang
        players = self.players
        return [s for s in self.seated if s not in self.out and s != thrower and (gang is None or players[s].gang is not gang)]

    def standing_gangsters(self) -> list[int]:
        return [s for s in self.seated if s not in self.out and self.players[s].role is Role.GANGSTER]

    def pending_throwers(self) -> list[int]:
        """Players who still have a shuriken in play (phase 5b), in seat order."""
        seats = {w.owner for w in self.weapons if w.live and w.effect is Card.SHURIKEN and w.owner not in self.out}
        return [s for s in self.seated if s in seats]

    def throw_targets(self, thrower: int) -> list[int]:
        """Legal shuriken targets: standing opponents not next to the thrower, else those next to him."""
        standing = self.standing_opponents(thrower)
        near = self.neighbours(thrower)
        far = [s for s in standing if s not in near]
        return far or standing

    def pick_turn(self) -> int | None:
        """2nd edition phase 7: who picks next (None when the loot is gone or no one shares)."""
        sharers = self.sharers()
        if not sharers or not self.game.table:
            return None
        order = [s for s in clockwise_from(self.game.godfather, len(self.players)) if s in sharers]
        return order[self._picks % len(order)]

    # -- advanced rules: announcing and applying uses ------------------------

    def announce(self, use: Use) -> None:
        """A player announces a card of the advanced rules, for the moment ``use.when``."""
        spec = CATALOG.get(use.card)
        seat = use.player
        if spec is None:
            raise self.illegal(seat, f"may not use {use.card!r}: there is no such card")
        self._check_seated(seat, f"use {use_label(use.card)}")
        p = self.players[seat]
        if not p.alive:
            raise self.illegal(seat, f"is dead and may not use {use_label(use.card)}")
        if not p.holds(use.card):
            raise self.illegal(seat, f"may not use {use_label(use.card)}: {p.name} does not hold it")
        if not spec.moments:
            raise self.illegal(seat, f"may not use {use_label(use.card)}: it counts by itself at the end of the game")
        if use.when not in spec.moments:
            raise self.illegal(
                seat,
                f"may not use {use_label(use.card)} at {moment_label(use.when)}: "
                f"it is used at {_either([moment_label(m) for m in spec.moments])}",
            )
        if MOMENT_RANK[use.when] < self.moment:
            raise self.illegal(seat, f"may not use {use_label(use.card)} at {moment_label(use.when)}: that moment is past")
        if use.card in p.spent:
            raise self.illegal(seat, f"may not use {use_label(use.card)}: already used")
        if spec.visible and use.card in p.revealed:
            raise self.illegal(seat, f"may not reveal {use_label(use.card)}: it is already revealed")
        if spec.visible and self.number not in VISIBLE_ROUNDS:
            raise self.illegal(seat, f"may not reveal {use_label(use.card)} in round {self.number}: visible Objects are revealed in round 1 or 5")
        if use.card == "smoke-grenade" and self.number >= ROUNDS:
            raise self.illegal(seat, f"may not use {use_label(use.card)}: last round")
        if use.card in PERMANENT_CARDS and use.card in p.revealed and not uses.is_action(use):
            self._consumed.add(id(use))  # shown already: acts anyway, the entry changes nothing
        self.advanced = True
        self.queue[use.when].append(use)

    def take_use(self, moment: str, seat: int, card: str) -> Use | None:
        """The use of ``card`` by ``seat`` announced for ``moment``, if any is left: it is now used."""
        for use in self.queue.get(moment, ()):
            if use.player == seat and use.card == card and id(use) not in self._consumed:
                self.use_up(use)
                return use
        return None

    def announced(self, moment: str, seat: int, card: str) -> Use | None:
        for use in self.queue.get(moment, ()):
            if use.player == seat and use.card == card and id(use) not in self._consumed:
                return use
        return None

    def use_up(self, use: Use, note: str = "") -> None:
        """Mark a use as applied: one-use cards are spent, permanent ones shown."""
        self._consumed.add(id(use))
        p = self.players[use.player]
        p.revealed.add(use.card)
        if use.card not in PERMANENT_CARDS and use.card not in REPEATABLE_CARDS and not CATALOG[use.card].visible:
            if use.card not in ("the-shotgun", "you-dont-need-it-anymore"):
                p.spent.add(use.card)
        self.events.append(ev.CardUsed(use.player, use.card, use.when, note))

    def _act(self, moment: str, stage: str) -> None:
        if not self.advanced:
            return
        for use in list(self.queue.get(moment, ())):
            if id(use) in self._consumed:
                continue
            handler = uses.action(use.card, moment, stage)
            if handler is not None:
                handler(self, use)

    def _close(self, moment: str) -> None:
        """The moment is over: its Smoke Grenade ends the round; every use must have applied."""
        if not self.advanced:
            self.moment = MOMENT_RANK[moment] + 1
            return
        for use in self.queue.get(moment, ()):
            if use.card == "smoke-grenade" and id(use) not in self._consumed:
                self.use_up(use, f"ends the round at the end of {moment_label(moment)}")
                if not self.over and moment != "phase-7":  # after the share it changes nothing
                    self._end_early("smoke-grenade", moment)
        for use in self.queue.get(moment, ()):
            if id(use) not in self._consumed:
                raise self.illegal(
                    use.player, f"may not use {use_label(use.card)} at {moment_label(moment)}: {uses.refusal_reason(self, use)}"
                )
        self.moment = max(self.moment, MOMENT_RANK[moment] + 1)

    def _end_early(self, reason: str, moment: str) -> None:
        """A grenade or a Smoke Grenade ends the round: deaths are settled, there is no share."""
        self.over = reason
        self.over_at = moment
        for w in self.weapons:
            w.live = False
        self.events.append(ev.RoundEnded(reason, moment))
        if not self.deaths_settled:
            self.settle_deaths("deaths", blasts=reason == "grenade")
            self._act("deaths", "end")
            for m in MOMENTS[MOMENT_RANK[moment] + 1 : MOMENT_RANK["deaths"] + 1]:
                self._close(m)
        self.moment = max(self.moment, MOMENT_RANK["end-of-round"])
        self.phase = Phase.DONE

    # -- the hit pipeline ----------------------------------------------------

    def land(self, shots: list[Shot], moment: str, *, discards: bool) -> list[int]:
        """Land hits that happen at the same moment; returns the seats wounded by them.

        Per hit, in order: a Samurai's parry or a Kevlar cancels it whole; Dragon Skin caps the
        round's wounds of its holder at one.  Only then, on a hit that still leaves at least one
        wound, the shooter's "first wound" Object acts (doubles it, or adds a victim, whose hit
        goes through the same steps).  A wounded player leaves the share (not the Shaolin Monk);
        with ``discards`` (phases 5 and 5b) his card is discarded.
        """
        players = self.players
        advanced = self.advanced
        wounds: dict[int, int] = {}
        taken: dict[int, int] = {}  # after Dragon Skin
        cap: dict[int, int | None] = {}  # Dragon Skin: the wounds a player may still take now
        landed: list[Shot] = []
        pending = list(shots)
        while pending:
            shot = pending.pop(0)
            t = shot.target
            self.shots_log.append((moment, shot.source, t, shot.card))
            explosion = shot.card in EXPLOSIONS
            if shot.source is not None and shot.source != t and not explosion:
                self.shot_at.add(t)
            if advanced:
                if t in self.parry and not explosion:
                    self.events.append(ev.Protected(t, "samurai", shot.source, shot.card))
                    continue
                kevlar = self.announced(moment, t, "kevlar")
                if kevlar is not None and not players[t].ever_wounded and (
                    kevlar.get("from") is None or kevlar.get("from") == shot.source
                ):
                    self.use_up(kevlar, "takes 2 cowardice tokens instead of the wound")
                    players[t].cowardice += 2
                    self.events.append(ev.Protected(t, "kevlar", shot.source, shot.card))
                    continue
                if t not in cap:
                    cap[t] = self._dragon_skin_room(moment, t)
                if (
                    self._leaves_wounds(shot, cap[t], taken.get(t, 0))
                    and not shot.extra
                    and shot.source is not None
                    and shot.weapon is not None
                ):
                    pending.extend(uses.first_wound_object(self, shot))
            shot.taken = self._leaves_wounds(shot, cap.get(t), taken.get(t, 0))
            wounds[t] = wounds.get(t, 0) + shot.damage
            taken[t] = taken.get(t, 0) + shot.taken
            landed.append(shot)
        hurt = []
        for t in [s for s in self.seated if s in wounds]:
            p = players[t]
            w = wounds[t]
            if advanced and (p.has("dragon-skin") or self.take_use(moment, t, "dragon-skin")):
                allowed = max(0, 1 - self.round_wounds.get(t, 0))
                if w > allowed:
                    self.events.append(ev.Protected(t, "dragon-skin", None, f"{w - allowed} wound(s)"))
                    w = allowed
            if w <= 0:
                continue
            p.wounds += w
            p.ever_wounded = True
            self.round_wounds[t] = self.round_wounds.get(t, 0) + w
            self.wounds_log.append((moment, t, w))
            self.wounded.add(t)
            hurt.append(t)
            if not (advanced and (p.has("shaolin-monk") or self.take_use(moment, t, "shaolin-monk"))):
                self.out.add(t)
            if discards:
                for weapon in self.weapons:
                    if weapon.owner == t:
                        weapon.live = False
        for shot in landed:
            source = shot.source if shot.source is not None else shot.target
            self.events.append(ev.Hit(source, shot.target, shot.card, shot.damage, shot.taken))
        return hurt

    def _dragon_skin_room(self, moment: str, seat: int) -> int | None:
        """How many more wounds Dragon Skin lets ``seat`` take this round (None: no Dragon Skin)."""
        p = self.players[seat]
        if p.has("dragon-skin") or self.announced(moment, seat, "dragon-skin") is not None:
            return max(0, 1 - self.round_wounds.get(seat, 0))
        return None

    @staticmethod
    def _leaves_wounds(shot: Shot, room: int | None, already: int) -> int:
        """The wounds ``shot`` leaves after Dragon Skin, given the wounds already landed at this moment."""
        if room is None:
            return shot.damage
        return max(0, min(shot.damage, room - already))

    def _grenade_goes_off(self, moment: str) -> bool:
        """The Insane was shot this round: his grenade wounds everyone standing and unwounded; the round ends."""
        if not self.armed:
            return False
        shot = [s for s in self.seated if s in self.armed and s in self.shot_at]
        if not shot:
            return False
        insane = shot[0]
        self.armed.clear()
        victims = [s for s in self.seated if s not in self.out and s not in self.wounded and s != insane]
        self.events.append(ev.Exploded(insane, tuple(victims)))
        self.land([Shot(insane, v, "grenade") for v in victims], moment, discards=False)
        self._close(moment)
        self._end_early("grenade", moment)
        return True

    def _samurai(self, moment: str, shots: list[Shot]) -> list[Shot]:
        """Samurai announced now: with his tanto in play and attacked, he parries all round."""
        if not self.advanced:
            return shots
        for use in list(self.queue.get(moment, ())):
            if use.card != "samurai" or id(use) in self._consumed:
                continue
            seat = use.player
            tanto = self.primary.get(seat)
            if tanto is None or tanto.effect is not Card.TANTO or not tanto.live:
                raise self.illegal(seat, f"may not use The Samurai at {moment_label(moment)}: {self.name_of(seat)} has no tanto in play")
            if not any(s.target == seat and s.card not in EXPLOSIONS for s in shots):
                raise self.illegal(seat, f"may not use The Samurai at {moment_label(moment)}: no one attacks {self.name_of(seat)}")
            self.use_up(use, "parries every attack this round")
            self.parry.add(seat)
            tanto.live = False
            shots = [s for s in shots if s.weapon is not tanto]
        return shots

    # -- phases 1 and 2: cards -----------------------------------------------

    def close_phase_1(self) -> None:
        """Phase 1's card uses apply (the Ninja moves, a Magnet changes hands...) before cards are chosen.

        :meth:`play_cards` does it if it was not done; call it first to see the hands the players choose from.
        """
        self._expect(Phase.CARDS)
        if self.moment <= MOMENT_RANK["phase-1"]:
            self._act("phase-1", "start")
            self._close("phase-1")

    def play_cards(self, cards: Mapping[int, Card | str | None]) -> None:
        """Phase 2: the card each living player puts face down (phase 1's uses apply first).

        At a real table the cards stay face down: a card may be ``None`` (not known yet) and be
        given later with :meth:`reveal_cards`, when its player shows it (phases 5 to 6, or the
        discarded cards at the end of the round).
        """
        self._expect(Phase.CARDS)
        if self.advanced:
            self.close_phase_1()
            if self.over:
                if cards:
                    raise self.illegal(next(iter(cards)), "put down a card after the round ended")
                return
        for seat in cards:
            self._check_seated(seat, "play a card")
        chosen: dict[int, Card | None] = {}
        for seat in self.seated:
            if seat not in cards:
                raise self.illegal(seat, "put down no card")
            if cards[seat] is None:
                chosen[seat] = None
                continue
            card = card_of(cards[seat])
            if card is None or self.players[seat].hand.get(card, 0) <= 0:
                raise self.illegal(seat, f"has no {card_label(cards[seat])} card in hand")
            chosen[seat] = card
        players = self.players
        for seat, card in chosen.items():
            p = players[seat]
            weapon = Weapon(seat, p.role is Role.YAKUZA, None, None, p.hand)
            if card is None:
                weapon.hand_when_down = dict(p.hand)
            self._show(weapon, card)
            self.primary[seat] = weapon
            self.weapons.append(weapon)
        if self.advanced:
            self._act("phase-2", "start")
            uses.check_second_weapons(self)
            self._close("phase-2")
            if self.over:
                return
        self.phase = Phase.AIM

    def _show(self, weapon: Weapon, card: Card | None) -> None:
        """The card of ``weapon`` is known: it leaves the hand; a card of the other kit is a blank."""
        if card is None:
            return
        weapon.hand[card] -= 1
        weapon.card = card
        fits = card in (YAKUZA_CARDS if weapon.yakuza else PISTOL_CARDS)
        weapon.effect = card if fits else blank_of(weapon.yakuza)

    def hidden_cards(self) -> list[int]:
        """Seats whose card is still face down and not shown."""
        return [w.owner for w in self.weapons if w.card is None]

    def reveal_cards(self, cards: Mapping[int, Card | str]) -> None:
        """Players show cards put down face down (see :meth:`play_cards`)."""
        if self.phase in (Phase.CARDS,):
            raise PhaseError(f"round {self.number}: no card is down yet")
        shown: dict[int, Card] = {}
        for seat, value in cards.items():
            weapon = self.primary.get(seat)
            if weapon is None:
                raise self.illegal(seat, "put down no card this round")
            card = card_of(value)
            if weapon.card is not None:
                if card is weapon.card:
                    continue
                raise self.illegal(seat, f"showed {card_label(weapon.card)} already, not {card_label(value)}")
            if card is None or self.players[seat].hand.get(card, 0) <= 0:
                raise self.illegal(seat, f"has no {card_label(value)} card in hand")
            if weapon.hand_when_down is not None and weapon.hand_when_down.get(card, 0) <= 0:
                raise self.illegal(seat, f"had no {card_label(value)} card in hand when the cards went down")
            shown[seat] = card
        for seat, card in shown.items():
            self._show(self.primary[seat], card)

    # -- phase 3: aiming -----------------------------------------------------

    def aim(self, aims: Mapping[int, int | None], late: Iterable[int] = ()) -> None:
        self._expect(Phase.AIM)
        late = set(late)
        for seat in list(aims) + sorted(late):
            self._check_seated(seat, "aim")
        for seat in self.seated:
            if seat not in aims:
                raise self.illegal(seat, "has no aim (a name, or null)")
            target = aims[seat]
            if seat in late:
                if self.advanced and self.players[seat].has("the-kid"):
                    raise self.illegal(seat, f"is The Kid: {self.name_of(seat)} aims after everyone and is never late")
                if target is not None:
                    raise self.illegal(seat, "pointed late: the aim must be null")
                continue
            self._check_aim(self.primary[seat], target)
        for w in self.weapons:
            if w.second:
                if w.owner in late:
                    if w.requested is not None:
                        raise self.illegal(w.owner, "pointed late: the second weapon's aim must be null")
                    continue
                self._check_aim(w, w.requested)
        for seat in self.seated:
            self.point(self.primary[seat], aims[seat])
            if seat in late:
                self.late.add(seat)
                for w in self.weapons_of(seat):
                    w.live = False
                self.events.append(ev.LostCard(seat, "late"))
        for w in self.weapons:
            if w.second and w.owner not in late:
                self.point(w, w.requested)
        if self.advanced:
            self._act("phase-3", "start")
            self._close("phase-3")
            if self.over:
                return
        self.phase = Phase.WITHDRAW

    def _check_aim(self, weapon: Weapon, target: int | None) -> None:
        seat = weapon.owner
        if target is None:
            legal = self.legal_targets(seat, yakuza=weapon.yakuza)
            if legal:
                names = ", ".join(self.name_of(t) for t in legal)
                raise self.illegal(seat, f"must aim at someone: {names}")
            return
        refusal = self.aim_refusal(seat, target, yakuza=weapon.yakuza)
        if refusal:
            raise self.illegal(seat, refusal)

    def point(self, weapon: Weapon, target: int | None) -> None:
        weapon.target = target
        if target is not None and weapon.yakuza:
            weapon.step = 1 if target == self.left_of(weapon.owner) else -1

    def privilege(self, seat: int, new_target: int) -> None:
        """2nd edition: the Godfather orders ``seat`` to aim at ``new_target`` instead."""
        self._expect(Phase.WITHDRAW)
        if self.game.ruleset is not RuleSet.CLASSIC_2014:
            raise self.illegal(seat, "may not be ordered to change target: the Godfather's privilege is a 2nd edition rule")
        if self.privilege_used:
            raise self.illegal(seat, "may not be ordered too: the Godfather's privilege is used once a round")
        self._check_seated(seat, "change target")
        godfather = self.game.godfather
        if seat == godfather:
            raise self.illegal(seat, "is the Godfather: the privilege orders another player")
        weapon = self.primary[seat]
        old = weapon.target
        if old is None:
            raise self.illegal(seat, f"has no target to change: {self.name_of(seat)} pointed late")
        if new_target == old:
            raise self.illegal(seat, f"must pick a target other than {self.name_of(old)}")
        refusal = self.aim_refusal(seat, new_target)
        if refusal:
            raise self.illegal(seat, refusal)
        weapon.target = new_target
        self.privilege_used = True
        self.events.append(ev.PrivilegeUsed(godfather, seat, old, new_target))

    # -- phase 4: withdrawing ------------------------------------------------

    def withdraw(self, seats: Iterable[int]) -> None:
        self._expect(Phase.WITHDRAW)
        seats = set(seats)
        for seat in seats:
            self._check_seated(seat, "withdraw")
        if self.advanced:
            self._act("phase-4", "start")
        edition2 = self.game.ruleset is RuleSet.CLASSIC_2014
        for seat in self.seated:
            if seat not in seats:
                continue
            p = self.players[seat]
            self.withdrew.add(seat)
            self.out.add(seat)
            for w in self.weapons_of(seat):
                w.live = False
            if edition2:
                token = "none"
            elif p.role is Role.YAKUZA:
                if p.finger:
                    p.finger = False
                    if self.advanced and self.take_use("phase-4", seat, "fake-finger"):
                        token = "fake-finger"
                    else:
                        p.wounds += 1
                        p.ever_wounded = True
                        self.wounds_log.append(("phase-4", seat, 1))
                        token = "band-aid"
                else:
                    p.finger = True
                    token = "finger"
            else:
                p.cowardice += 1
                token = "cowardice"
            self.events.append(ev.Withdrew(seat, token))
        withdrew = self.withdrew
        for w in self.weapons:
            if not w.live:
                continue
            if w.pair is not None:
                kept = [t for t in w.pair if t not in withdrew]
                if len(kept) == 2:
                    continue
                w.target = kept[0] if kept else w.pair[0]  # one lay down: a plain shot at the other
                w.pair = None
                w.markers = None
            if w.target is None or w.target not in withdrew:
                continue
            if not w.yakuza:
                w.live = False
                self.events.append(ev.LostCard(w.owner, "target withdrew"))
            elif w.effect is Card.TANTO or w.card is None:  # a face-down card: the tanto moves on anyway
                new = self.next_in_share(w.target, w.step)
                self.events.append(ev.Retargeted(w.owner, w.target, new))
                w.target = new
        if self.advanced:
            self._close("phase-4")
            if self.over:
                return
        self.phase = Phase.BBB

    # -- phase 5: Bang! Bang! Bang! ------------------------------------------

    def _fire(self, weapon: Weapon, card: str) -> list[Shot]:
        """The shots a revealed ``bang`` or ``bbb`` makes: one target, or the Shotgun's markers."""
        if weapon.pair is None:
            return [] if weapon.target is None else [Shot(weapon.owner, weapon.target, card, weapon)]
        return uses.shotgun_markers(self, weapon, card)

    def bang_bang_bang(self) -> list[tuple[int | None, int]]:
        """Every bbb in play hits at once; returns (shooter, target) pairs wounded or not."""
        self._expect(Phase.BBB)
        if self.advanced:
            self._act("phase-5", "start")
        shots: list[Shot] = []
        for w in self.weapons:
            if w.live and w.effect is Card.BBB and w.owner not in self.out:
                w.live = False
                fired = self._fire(w, "bbb")
                if fired:
                    self.fired_bbb.add(w.owner)
                    if self.advanced:
                        fired += uses.laser_burst(self, w, fired)
                shots += fired
        shots = self._samurai("phase-5", shots)
        self.land(shots, "phase-5", discards=True)
        pairs = [(s.source, s.target) for s in shots if s.card == "bbb"]
        if self._grenade_goes_off("phase-5"):
            return pairs
        if self.advanced:
            self._close("phase-5")
            if self.over:
                return pairs
        if self.game.is_yakuzas:
            self.phase = Phase.SHURIKEN
            self._act("phase-5b", "start")
        else:
            self.phase = Phase.REVEAL
        return pairs

    # -- phase 5b: shuriken --------------------------------------------------

    def _shuriken_of(self, thrower: int) -> Weapon | None:
        for w in self.weapons:
            if w.owner == thrower and w.live and w.effect is Card.SHURIKEN:
                return w
        return None

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
        own = self.primary.get(thrower)
        if own is not None and own.card is None and own.live and thrower not in self.out:
            self.reveal_cards({thrower: Card.SHURIKEN})  # throwing shows the card
        weapon = self._shuriken_of(thrower)
        if weapon is None or thrower in self.out:
            own = self.primary.get(thrower)
            if own is None or own.card is not Card.SHURIKEN and not any(w.card is Card.SHURIKEN for w in self.weapons_of(thrower)):
                raise self.illegal(thrower, "did not play a shuriken and may not throw")
            if thrower in self.thrown:
                raise self.illegal(thrower, "already threw the shuriken")
            if thrower in self.out:
                raise self.illegal(thrower, "is out of the share and may not throw")
            raise self.illegal(thrower, "lost the shuriken card and may not throw")
        legal = self.throw_targets(thrower)
        if not legal:
            raise self.illegal(
                thrower, f"may not throw: no gangster is standing (the shuriken goes back to {self.name_of(thrower)}'s hand)"
            )
        knocked = list(knocked)
        touched = list(touched)
        hit = knocked + touched
        if len(set(hit)) != len(hit):
            raise self.illegal(thrower, "threw: a standee is listed twice among knocked and touched")
        for seat in hit:
            if seat == thrower:
                raise self.illegal(thrower, "threw: a shuriken cannot hit its thrower's own standee")
            if seat not in self.position:
                raise self.illegal(thrower, f"threw: {self.name_of(seat)} is dead and has no standee on the table")
        if target is not None and target not in legal:
            if target not in self.position:
                why = "dead"
            elif self.players[target].gang is self.players[thrower].gang and self.players[target].gang is not None:
                why = "same gang"
            elif self.players[target].role is not Role.GANGSTER and self.players[thrower].role is Role.YAKUZA:
                why = "not a gangster"
            elif target in self.out:
                why = "not standing"
            else:
                why = "a neighbour, and other gangsters are standing"
            raise self.illegal(thrower, f"may not throw at {self.name_of(target)}: {why}")
        if weapon.throws == 1 and target is not None:  # a Double Shuriken's second throw
            first_target, first_wounded = self._first_throw.get(thrower, (None, ()))
            if target == first_target and first_wounded:
                raise self.illegal(thrower, f"may not throw at {self.name_of(target)} again: the first throw did not fail")
        near = self.neighbours(thrower)
        failed = None
        if not any(s not in self.out for s in hit):
            failed = "it hit no standing character"
        elif any(s in near and s not in legal for s in hit):
            failed = "it hit a neighbour"
        shots: list[Shot] = []
        if failed is None:
            yakuza = Role.YAKUZA
            shots = [
                Shot(thrower, s, "shuriken", weapon)
                for s in self.seated
                if s not in self.out and (s in knocked or (s in touched and self.players[s].role is yakuza))
            ]
        if self.advanced:
            for s in list(shots):
                if self.announced("phase-5b", s.target, "samurai"):
                    shots = self._samurai("phase-5b", shots)
                    break
        wounded = self.land(shots, "phase-5b", discards=True)
        weapon.throws += 1
        self._first_throw[thrower] = (target, tuple(wounded))
        if self.advanced and weapon.throws == 1 and self.take_use("phase-5b", thrower, "double-shuriken"):
            self.double.add(thrower)
        if not (thrower in self.double and weapon.throws == 1):
            weapon.live = False
            if self.advanced:
                uses.ronin(self, weapon)
        self.thrown.append(thrower)
        thrown = ev.Thrown(thrower, tuple(sorted(knocked)), tuple(sorted(touched)), tuple(wounded), failed)
        self.events.append(thrown)
        self._grenade_goes_off("phase-5b")
        return thrown

    def end_throws(self) -> None:
        """Close phase 5b: any shuriken still in play had no gangster to aim at."""
        self._expect(Phase.SHURIKEN)
        for seat in self.pending_throwers():
            weapon = self._shuriken_of(seat)
            if weapon is None:
                continue
            if weapon.throws:  # a Double Shuriken's second throw not taken
                weapon.live = False
                continue
            if self.standing_opponents(seat):
                raise self.illegal(seat, "played a shuriken but did not throw it")
            hand = weapon.hand
            weapon.live = False
            if hand.get(Card.CLING, 0) > 0:
                hand[Card.CLING] -= 1
                hand[Card.SHURIKEN] = hand.get(Card.SHURIKEN, 0) + 1
                weapon.returned = True
                self.players[seat].discarded[Card.CLING] += 1
                self.events.append(ev.ShurikenKept(seat, Card.CLING))
            else:
                self.events.append(ev.ShurikenKept(seat, Card.SHURIKEN))
        if self.advanced:
            self._close("phase-5b")
            if self.over:
                return
        self.phase = Phase.REVEAL

    # -- phase 6: the remaining cards, and deaths ---------------------------

    def reveal(self) -> list[int]:
        """Reveal the cards still in play, all at once, and settle deaths; returns the seats that died."""
        self._expect(Phase.REVEAL)
        for w in self.weapons:
            if not w.live or w.owner in self.out:
                continue
            if w.card is None:
                raise self.illegal(w.owner, "has not shown the card played (every card still in play is revealed in phase 6)")
            if w.effect is Card.BBB:
                raise self.illegal(w.owner, "shows a Bang! Bang! Bang! in phase 6: it is shown in phase 5")
            if w.effect is Card.SHURIKEN:
                raise self.illegal(w.owner, "shows a shuriken in phase 6: it is thrown, or taken back, in phase 5b")
        if self.advanced:
            self._act("phase-6", "start")
        shots: list[Shot] = []
        for w in self.weapons:
            if not w.live or w.owner in self.out:
                continue
            if w.effect is Card.BANG:
                shots += self._fire(w, "bang")
            elif w.effect is Card.TANTO and w.target is not None:
                shots.append(Shot(w.owner, w.target, "tanto", w))
        shots = self._samurai("phase-6", shots)
        for w in self.weapons:
            w.live = False
        self.land(shots, "phase-6", discards=False)
        if self._grenade_goes_off("phase-6"):
            return self.died
        self.settle_deaths("deaths")
        self._act("deaths", "end")
        if self.advanced:
            self._close("phase-6")
            if not self.over:
                self._close("deaths")
            if self.over:
                return self.died
        self.phase = Phase.SHARE
        return self.died

    def _threshold(self, seat: int, moment: str) -> int:
        p = self.players[seat]
        if self.advanced and (p.has("the-unbreakable") or (p.wounds >= MAX_WOUNDS and self.take_use(moment, seat, "the-unbreakable"))):
            return MAX_WOUNDS + 1
        return MAX_WOUNDS

    def settle_deaths(self, moment: str, *, blasts: bool = True) -> None:
        """Every player at his death threshold dies (or lives on an Angry Dragon); Kamikaze blasts follow."""
        self.deaths_settled = True
        players = self.players
        while True:
            dying = [
                s
                for s in self.seated
                if players[s].alive and players[s].dragon_until is None and players[s].wounds >= self._threshold(s, moment)
            ]
            if not dying:
                return
            blast: list[Shot] = []
            for s in dying:
                p = players[s]
                if self.advanced and self.take_use(moment, s, "angry-dragon"):
                    p.dragon_until = min(self.number + 1, ROUNDS)
                    continue
                p.alive = False
                self.died.append(s)
                self.events.append(ev.Died(s))
                if self.advanced:
                    kamikaze = self.take_use(moment, s, "kamikaze")
                    if kamikaze is not None and blasts:
                        blast += [Shot(s, n, "blast") for n in sorted(self.neighbours(s)) if n not in self.withdrew]
            if blast:
                self.land(blast, moment, discards=False)

    # -- phase 7: sharing ----------------------------------------------------

    def share_bills(self) -> ev.Shared:
        """Bills: split the pot equally among the sharers (classic, yakuzas)."""
        self._expect(Phase.SHARE)
        game = self.game
        if not game.spec.uses_bills:
            raise PhaseError("classic-2014 shares by picks")
        if self.advanced:
            self._act("phase-7", "start")
        sharers = self.shared_by = self.sharers()
        split = split_bills([int(bill) for bill in game.table], len(sharers))
        self.received = {}
        for seat, part in zip(sharers, split.parts):
            self.pay(seat, sum(part))
            self.received[seat] = sum(part)
        game.table[:] = split.left
        self.share = split.share
        shared = ev.Shared(sharers, split.share, split.parts, split.left)
        self.events.append(shared)
        if self.advanced:
            self._act("phase-7", "end")
            self._close("phase-7")
        self.phase = Phase.DONE
        return shared

    def pay(self, seat: int, amount: int) -> None:
        p = self.players[seat]
        if self.game.is_yakuzas and p.gang is not None:
            self.game.gang_money[p.gang] += amount
        else:
            p.money += amount

    def pick(self, seat: int, take: str) -> None:
        """2nd edition: ``seat`` takes a loot card or the New Godfather tile."""
        self._expect(Phase.SHARE)
        if self.game.spec.uses_bills:
            raise self.illegal(seat, f"may not pick: {self.game.ruleset} splits bills")
        self._check_seated(seat, "pick")
        if seat not in self.sharers():
            raise self.illegal(seat, "is not a sharer and may not pick")
        turn = self.pick_turn()
        if turn is None:
            raise self.illegal(seat, "may not pick: the loot is gone")
        if seat != turn:
            raise self.illegal(seat, f"picked out of turn: it is {self.name_of(turn)}'s turn")
        p = self.players[seat]
        table = self.game.table
        if take == GODFATHER_TILE:
            if self.tile_taken:
                raise self.illegal(seat, "may not take the New Godfather tile: it was taken this round")
            self.tile_taken = True
            self.new_godfather = seat
        else:
            if take not in table:
                raise self.illegal(seat, f"may not take {card_label(take)}: it is not on the table")
            table.remove(take)
            p.loot.append(take)
            p.money += LOOT_VALUES[take]
            if take == "first-aid" and p.wounds > 0:
                p.wounds -= 1
            elif take == "clip":
                self.clips.append(seat)  # gives a bang back when the round's cards are discarded
        self._picks += 1
        self.events.append(ev.Picked(seat, take))

    def end_picks(self) -> None:
        self._expect(Phase.SHARE)
        self.shared_by = self.sharers()
        turn = self.pick_turn()
        if turn is not None:
            raise self.illegal(turn, "did not pick: loot is left on the table")
        self.phase = Phase.DONE

    # -- end of round --------------------------------------------------------

    def finish(self) -> RoundSummary:
        """Close the round: end-of-round cards, the cards played are discarded, the dead leave."""
        self._expect(Phase.DONE)
        hidden = self.hidden_cards()
        if hidden:
            raise self.illegal(hidden[0], "has not shown the card played (the discarded cards are shown at the end of the round)")
        if self.advanced:
            self._act("end-of-round", "start")
            uses.bury_dragons(self)
            self._act("end-of-round", "end")
            self._close("end-of-round")
            for moment in MOMENTS:
                for use in self.queue.get(moment, ()):
                    if id(use) not in self._consumed:
                        raise self.illegal(
                            use.player, f"may not use {use_label(use.card)} at {moment_label(moment)}: {self.ended_note()}"
                        )
        for w in self.weapons:
            if not w.returned and w.card is not None:  # every card is shown by now (checked above)
                self.players[w.owner].discarded[w.card] += 1
        for seat in self.clips:  # "used" includes this round's bang, discarded just now
            p = self.players[seat]
            if p.discarded[Card.BANG] > 0:
                p.discarded[Card.BANG] -= 1
                p.hand[Card.BANG] += 1
        self.finished = True
        return self.game._end_round(self)
