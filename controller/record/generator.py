"""Random legal games, from a seed: for the demo, the tests and the benchmark.

The generator plays through the rules engine itself, choosing among the moves
the engine offers (legal aims, legal throw targets, whose pick it is), so every
record it writes is legal by construction; replaying it must give the same game.
Withdrawals, late pointing, misses and wild throws are drawn too, so the records
exercise every rule.

With the advanced rules on, the players also deal and keep Super Powers, Super
Kiai and Objects, and use them: cards that act at a chosen moment are announced
just before the engine reaches that moment, with choices drawn from the table as
it is; cards that react to a hit or a death (Kevlar, Samurai, The Unbreakable,
Angry Dragon...) are announced after a first, silent run of the round shows what
they would react to, and the round is then played again with them.  A use the
engine refuses is dropped, never forced.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, field
from typing import Any

from ..rules import Game, IllegalMove, RuleSet, Use
from ..rules import moves as mv
from ..rules.advanced import CATALOG, Deck, deck_cards
from ..rules.cards import GODFATHER_TILE, Card, Gang, Item
from ..rules.round import Round
from ..rules.rulesets import ROUNDS, SEATINGS, SPECS
from ..rules.split import split_bills
from .replay import new_game, use_to_dict
from .schema import Record, RoundRecord, Throw

NAMES = ("Aiko", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo")


@dataclass(frozen=True)
class Style:
    """How the random players behave (probabilities per decision)."""

    late: float = 0.04
    withdraw: float = 0.22
    privilege: float = 0.3
    miss: float = 0.12  # a throw hits nothing
    wild: float = 0.12  # a throw also hits another standee (a neighbour, a yakuza...)
    touch_only: float = 0.2  # the target is only touched
    tile: float = 0.15  # a sharer takes the New Godfather tile when it is free
    use_card: float = 0.4  # a player uses an advanced-rule card when its moment comes


def deal_loot(rng: random.Random, ruleset: RuleSet) -> list[list[Item]]:
    spec = SPECS[ruleset]
    deck = [item for item, count in sorted(spec.loot_deck.items(), key=lambda kv: str(kv[0])) for _ in range(count)]
    rng.shuffle(deck)
    size = spec.pile_size
    return [deck[k * size : (k + 1) * size] for k in range(ROUNDS)]


def seating(ruleset: RuleSet, players: int) -> list[tuple[str, str | None]]:
    if ruleset is RuleSet.YAKUZAS:
        return [(NAMES[k], str(g)) for k, g in enumerate(SEATINGS[players])]
    return [(NAMES[k], None) for k in range(players)]


def deal_cards(
    rng: random.Random, ruleset: RuleSet, players: list[tuple[str, str | None]], *, powers: bool, objects: bool
) -> dict[str, Any]:
    """The ``setup`` of a record: cards dealt to each gang (or player) and kept."""
    setup: dict[str, Any] = {}
    for part, on in (("powers", powers), ("objects", objects)):
        if not on:
            continue
        dealt: dict[str, list[str]] = {}
        kept: dict[str, str | None] = {}
        if ruleset is RuleSet.YAKUZAS:
            decks: dict[Deck, list[str]] = {}
            for gang in (Gang.PURPLE, Gang.YELLOW, Gang.RED):
                members = [n for n, g in players if g == str(gang)]
                if part == "powers":
                    deck = Deck.KIAI if gang is Gang.PURPLE else Deck.POWER
                    count = {2: 3, 3: 2}[len(members)]
                else:
                    deck = Deck.YAKUZA_OBJECT if gang is Gang.PURPLE else Deck.GANGSTER_OBJECT
                    count = {2: 3, 3: 4}[len(members)]
                pool = decks.setdefault(deck, rng.sample(deck_cards(deck, ruleset), len(deck_cards(deck, ruleset))))
                cards = [pool.pop() for _ in range(count)]
                dealt[str(gang)] = cards
                choice = rng.sample(cards, min(len(cards), len(members)))
                for name, card in zip(rng.sample(members, len(members)), choice + [None] * len(members)):
                    kept[name] = card
        else:
            deck = Deck.POWER if part == "powers" else Deck.GANGSTER_OBJECT
            pool = rng.sample(deck_cards(deck, ruleset), len(deck_cards(deck, ruleset)))
            for name, _ in players:
                cards = [pool.pop() for _ in range(1 if part == "powers" else 2)]
                dealt[name] = cards
                kept[name] = cards[0] if part == "powers" else rng.choice(cards)
        setup[part] = {"dealt": dealt, "kept": kept}
    return setup


def random_record(seed: int, *args: Any, **options: Any) -> Record:
    """A random legal game of up to ``rounds`` rounds (fewer if it ends early): :func:`random_game`'s record."""
    return random_game(seed, *args, **options)[0]


def random_game(
    seed: int,
    ruleset: RuleSet | str = RuleSet.YAKUZAS,
    players: int | None = None,
    *,
    rounds: int = ROUNDS,
    style: Style = Style(),
    powers: bool = False,
    objects: bool = False,
) -> tuple[Record, Game]:
    """A random legal game's record, and the engine's game it was played in."""
    ruleset = RuleSet(ruleset)
    spec = SPECS[ruleset]
    rng = random.Random(f"{ruleset}:{players}:{seed}:{powers}:{objects}")
    if players is None:
        players = rng.randint(spec.min_players, spec.max_players)
    seats = seating(ruleset, players)
    record = Record(str(ruleset), seats, deal_loot(rng, ruleset))
    if powers or objects:
        record.options = {"super_powers": powers, "objects": objects}
        record.setup = deal_cards(rng, ruleset, seats, powers=powers, objects=objects)
    game = new_game(record)
    while not game.finished and game.rounds_played < rounds:
        record.rounds.append(_random_round(game, rng, style))
    return record, game


def _random_round(game: Game, rng: random.Random, style: Style) -> RoundRecord:
    """Play one random round on ``game``: directly, or in trial runs when cards can be used."""
    if not any(p.power or p.object for p in game.players):
        return _RoundPlayer(game, rng, style).play()
    seed = rng.random()
    base = game  # left as it is by the trials, each played on a copy
    attempts = [dict(cards=True), dict(cards=False)]
    for options in attempts:
        trial = _copied(base)
        player = _RoundPlayer(trial, random.Random(seed), style, uses=options["cards"])
        try:
            rr = player.play()
        except IllegalMove:
            continue
        reactions = _reactions(base, trial, player.rnd, random.Random(seed + 1), style) if options["cards"] else []
        while reactions:
            again = _copied(base)
            second = _RoundPlayer(again, random.Random(seed), style, uses=True, reactions=reactions)
            try:
                rr = second.play()
            except IllegalMove as refusal:
                # the reactions changed the round: drop the one refused (or all) and try again
                keep = [u for u in reactions if not (base.players[u.player].name == refusal.player and u.card in refusal.rule)]
                reactions = keep if len(keep) < len(reactions) else []
                continue
            trial = again
            break
        game.__dict__.update(trial.__dict__)
        return rr
    # Only the uses the rules require (a second weapon's card) cannot be left out: play them plainly.
    player = _RoundPlayer(game, random.Random(seed), style, uses=False)
    return player.play()


def _copied(game: Game) -> Game:
    """A deep copy of ``game`` (a pickle round trip: the same objects as ``copy.deepcopy``, three times as fast)."""
    copied: Game = pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))
    return copied


def _reactions(before: Game, game: Game, rnd: Round, rng: random.Random, style: Style) -> list[Use]:
    """Cards that react to what the silent run showed: a hit, a wound, a death."""
    out: list[Use] = []
    players = game.players
    seen: set[tuple[int, str]] = set()

    def maybe(seat: int, card: str, when: str, **fields: Any) -> None:
        p = players[seat]
        if p.holds(card) and card not in p.spent and (seat, card) not in seen and rng.random() < style.use_card * 1.5:
            seen.add((seat, card))
            out.append(Use(seat, card, when, fields))

    for moment, source, target, card in rnd.shots_log:
        tanto = rnd.primary.get(target)
        if (
            card not in ("grenade", "blast")
            and source != target
            and moment in ("phase-5", "phase-5b", "phase-6")
            and tanto is not None
            and tanto.effect is Card.TANTO
            and target not in rnd.late
            and target not in rnd.withdrew
        ):
            maybe(target, "samurai", moment)
    for moment, source, target, _card in rnd.shots_log:
        if not before.players[target].ever_wounded:
            maybe(target, "kevlar", moment, **({"from": source} if source is not None else {}))
    for moment, seat, _ in rnd.wounds_log:
        if moment != "phase-4":
            maybe(seat, "dragon-skin", moment)
            maybe(seat, "shaolin-monk", moment)
    for seat in rnd.died:
        if players[seat].wounds == 3:
            maybe(seat, "the-unbreakable", "deaths")
        maybe(seat, "angry-dragon", "deaths")
        maybe(seat, "kamikaze", "deaths")
    if rnd.died and game.first_death_round == rnd.number:
        for p in players:
            if p.alive and p.power == "you-dont-need-it-anymore" and p.kit is None:
                maybe(p.seat, "you-dont-need-it-anymore", "deaths", **{"from": rng.choice(rnd.died)})
    return out


@dataclass
class _RoundPlayer:
    """Plays one round at random through the engine, announcing card uses as their moments come."""

    game: Game
    rng: random.Random
    style: Style
    uses: bool = False
    reactions: list[Use] = field(default_factory=list)
    round: Round | None = None
    announced: list[Use] = field(default_factory=list)
    late: list[int] = field(default_factory=list)

    @property
    def rnd(self) -> Round:
        """The round being played (from :meth:`play` on)."""
        assert self.round is not None, "the round has not begun"
        return self.round

    # -- announcing ----------------------------------------------------------------

    def _announce(self, use: Use) -> None:
        self.rnd.announce(use)
        self.announced.append(use)

    def _wants(self, seat: int, card: str) -> bool:
        p = self.game.players[seat]
        return self.uses and p.alive and p.holds(card) and card not in p.spent and self.rng.random() < self.style.use_card

    def _holders(self, card: str) -> list[int]:
        return [s for s in self.rnd.seated if self.game.players[s].holds(card)]

    def _react(self, *moments: str) -> None:
        for use in self.reactions:
            if use.when in moments and use not in self.announced:
                self._announce(use)

    # -- the round -------------------------------------------------------------------

    def play(self) -> RoundRecord:
        """Play the round move by move: at each step, a random choice among the moves the round expects."""
        game, rng = self.game, self.rng
        names = [p.name for p in game.players]
        rnd = self.round = game.begin_round()
        self.late = [s for s in rnd.seated if rng.random() < self.style.late and not game.players[s].holds("the-kid")]
        rr = RoundRecord(cards={}, aims={})
        throws_begun = False
        while rnd.expects():
            auto = rnd.automatic()
            if auto is not None:
                if isinstance(auto, mv.ShareBills):
                    self._phase_7()
                elif isinstance(auto, mv.Finish):
                    self._end_of_round()
                rnd.push(auto)
                continue
            kinds = rnd.expects()
            if mv.Throw in kinds and not throws_begun:
                throws_begun = True
                self._begin_throws()
                continue  # a Smoke Grenade may have ended the round
            rnd.push(self._choose(kinds, rr, names))
        entries = [use_to_dict(u, names) for u in self.announced]
        rr.cards = {names[s]: str(w.card) for s, w in rnd.primary.items()}
        rr.powers = [e for e in entries if not _is_object(e["card"])]
        rr.objects = [e for e in entries if _is_object(e["card"])]
        return rr

    def _choose(self, kinds: frozenset[type[mv.Move]], rr: RoundRecord, names: list[str]) -> mv.Move:
        """A random move among those the round expects (card uses are announced on the way)."""
        game, rnd, rng, style = self.game, self.rnd, self.rng, self.style
        if mv.PlayCards in kinds:
            self._phase_1_and_2()
            rnd.close_phase_1()  # phase 1's uses apply first: the hands the players choose from
            cards: dict[int, Card | str | None] = {}
            for s in rnd.seated:
                hand = game.players[s].hand
                cards[s] = rng.choice([c for c, n in hand.items() for _ in range(n)])
            return mv.PlayCards({} if rnd.over else cards)
        if mv.Aim in kinds:
            aims: dict[int, int | None] = {}
            for s in rnd.seated:
                legal = rnd.legal_targets(s)
                aims[s] = None if s in self.late or not legal else rng.choice(legal)
            self._phase_3(aims, self.late)
            rr.aims = {names[s]: (None if t is None else names[t]) for s, t in aims.items()}
            rr.late = [names[s] for s in self.late]
            return mv.Aim(aims, frozenset(self.late))
        if mv.Privilege in kinds:
            if rng.random() < style.privilege:
                ordered = [s for s, w in rnd.primary.items() if s != game.godfather and w.target is not None]
                if ordered:
                    s = rng.choice(ordered)
                    others = [t for t in rnd.legal_targets(s) if t != rnd.primary[s].target]
                    if others:
                        t = rng.choice(others)
                        rr.privilege = {"player": names[s], "target": names[t]}
                        return mv.Privilege(s, t)
            return mv.Privilege()
        if mv.Withdraw in kinds:
            withdraw = [s for s in rnd.seated if rng.random() < style.withdraw]
            self._phase_4(withdraw)
            rr.withdraw = [names[s] for s in withdraw]
            return mv.Withdraw(frozenset(withdraw))
        if mv.Bbb in kinds:
            self._react("phase-5")
            self._smoke("phase-5")
            return mv.Bbb()
        if mv.Throw in kinds:
            return self._throw(rr, names)
        if mv.Reveal in kinds:
            self._phase_6()
            return mv.Reveal()
        if mv.Pick in kinds:
            turn = rnd.pick_turn()
            assert turn is not None
            if not rnd.tile_taken and rng.random() < style.tile:
                take = GODFATHER_TILE
            else:
                take = str(rng.choice(game.table))
            rr.picks.append({"player": names[turn], "take": take})
            return mv.Pick(turn, take)
        raise AssertionError(f"no random move among {sorted(k.kind for k in kinds)}")

    # -- phases, with the cards each one can bring ---------------------------------

    def _phase_1_and_2(self) -> None:
        game, rnd, rng = self.game, self.rnd, self.rng
        players = game.players
        if self.uses:
            for s in list(rnd.seated):
                p = players[s]
                for card in (p.power, p.object):
                    if card and self._wants(s, card):
                        self._proactive_phase_1(s, card)
            self._smoke("phase-2")
        # a second weapon must be played every round
        for s in rnd.seated:
            kit = players[s].kit
            if kit and any(n > 0 for n in kit.hand.values()):
                played = rng.choice([c for c, n in kit.hand.items() for _ in range(n)])
                legal = rnd.legal_targets(s, yakuza=kit.yakuza)
                target = rng.choice(legal) if legal and s not in self.late else None
                self._announce(
                    Use(s, "you-dont-need-it-anymore", "phase-2",
                        {"weapon": kit.source, "played": str(played), "target": target})
                )

    def _proactive_phase_1(self, s: int, card: str) -> None:
        rnd, rng = self.rnd, self.rng
        players = self.game.players
        me = players[s]
        others = [t for t in rnd.seated if t != s]
        opponents = [t for t in others if me.gang is None or players[t].gang is not me.gang]
        visible = {"laser-beam", "dum-dum-bullet", "magic-bullet-right", "magic-bullet-left", "poisoned-tanto", "dark-tanto"}
        if card in visible:
            if rnd.number in (1, 5) and card not in me.revealed:
                self._announce(Use(s, card, "phase-1"))
        elif card == "ninja" and len(others) >= 2:
            k = rng.randrange(len(others))
            self._announce(Use(s, card, "phase-1", {"seat": [others[k], others[(k + 1) % len(others)]]}))
        elif card == "the-shotgun" and "the-shotgun" not in me.revealed:
            self._announce(Use(s, card, "phase-1"))
        elif card in ("the-insane", "the-kid", "the-cunning"):
            self._announce(Use(s, card, rng.choice(("phase-1", "phase-2"))))
        elif card == "first-aid-kit":
            mates = [t for t in rnd.seated if (t == s or (me.gang is not None and players[t].gang is me.gang)) and players[t].wounds]
            if mates:
                heal: dict[int, int] = {}
                for _ in range(2):
                    t = rng.choice(mates)
                    if heal.get(t, 0) < players[t].wounds:
                        heal[t] = heal.get(t, 0) + 1
                self._announce(Use(s, card, "phase-1", {"heal": heal}))
        elif card == "x-ray-sunglasses" and len(opponents) >= 2:
            self._announce(Use(s, card, "phase-1", {"targets": rng.sample(opponents, 2)}))
        elif card == "magnet" and len(opponents) >= 2:
            targets = rng.sample(opponents, 2)
            took, gave = {}, {}
            mine = dict(me.hand)
            for t in targets:
                hand = players[t].hand
                pool = [c for c, n in hand.items() for _ in range(n)]
                if pool:
                    took[t] = str(rng.choice(pool))
                    mine[Card(took[t])] = mine.get(Card(took[t]), 0) + 1
            for t in took:
                pool = [c for c, n in mine.items() for _ in range(n)]
                gave[t] = str(rng.choice(pool))
                mine[Card(gave[t])] -= 1
            self._announce(Use(s, card, "phase-1", {"targets": targets, "took": took, "gave": gave}))
        elif card == "clip":
            back = min(2, me.discarded.get(Card.BANG, 0))
            others_in_hand = [c for c, n in me.hand.items() if c is not Card.BANG for _ in range(n)]
            if back and len(others_in_hand) > back:
                fields: dict[str, Any] = {"discard": [str(c) for c in rng.sample(others_in_hand, back)]}
                if me.shotgun:
                    fields["drop_shotgun"] = True
                self._announce(Use(s, card, "phase-1", fields))

    def _smoke(self, moment: str) -> None:
        rnd = self.rnd
        if rnd.number >= ROUNDS:
            return
        for s in self._holders("smoke-grenade"):
            if self._wants(s, "smoke-grenade") and self.rng.random() < 0.15:
                self._announce(Use(s, "smoke-grenade", moment))
                return

    def _phase_3(self, aims: dict[int, int | None], late: list[int]) -> None:
        rnd, rng = self.rnd, self.rng
        if not self.uses:
            return
        for s in self._holders("the-shotgun"):
            p = self.game.players[s]
            a = aims.get(s)
            if p.shotgun and s not in late and a is not None and self._wants(s, "the-shotgun"):
                b = rnd.left_of(a)
                if b != s and rnd.aim_refusal(s, b, yakuza=False) is None:
                    markers = {a: rng.choice(("wound", "blank")), b: rng.choice(("wound", "blank"))}
                    fields: dict[str, Any] = {"targets": [a, b], "markers": markers}
                    if set(markers.values()) == {"blank"} and rng.random() < 0.5:
                        pool = [c for c, n in p.hand.items() for _ in range(n)]
                        if pool:
                            fields.update(take_back=True, discard=[str(rng.choice(pool))])
                    self._announce(Use(s, "the-shotgun", "phase-3", fields))
        for s in self._holders("the-insane"):
            if self._wants(s, "the-insane"):
                self._announce(Use(s, "the-insane", "phase-3"))
        self._smoke("phase-3")

    def _phase_4(self, withdraw: list[int]) -> None:
        rnd, rng = self.rnd, self.rng
        players = self.game.players
        if not self.uses:
            return
        for s in self._holders("geisha"):
            aimers = sorted({w.owner for w in rnd.weapons if w.live and (w.target == s or (w.pair and s in w.pair))})
            if aimers and self._wants(s, "geisha"):
                redirect = {}
                for a in aimers:
                    options = [
                        t
                        for t in rnd.seated
                        if t not in (a, s)
                        and all(
                            rnd.aim_refusal(a, t, yakuza=w.yakuza, charmed=True) is None
                            for w in rnd.weapons_of(a)
                            if w.live and (w.target == s or (w.pair and s in w.pair))
                        )
                    ]
                    if not options:
                        break
                    redirect[a] = rng.choice(options)
                else:
                    self._announce(Use(s, "geisha", "phase-4", {"redirect": redirect}))
        for s in self._holders("fake-finger"):
            if s in withdraw and players[s].finger and self._wants(s, "fake-finger"):
                self._announce(Use(s, "fake-finger", "phase-4"))
        self._smoke("phase-4")

    def _begin_throws(self) -> None:
        """Phase 5b begins: Double Shuriken, Ronin, the reactions and a Smoke Grenade are announced."""
        rnd = self.rnd
        if self.uses:
            for s in rnd.pending_throwers():
                if self.game.players[s].holds("double-shuriken") and self._wants(s, "double-shuriken"):
                    self._announce(Use(s, "double-shuriken", "phase-5b"))
                hand = self.game.players[s].hand
                if self.game.players[s].holds("ronin") and hand.get(Card.CLING, 0) and self._wants(s, "ronin"):
                    self._announce(Use(s, "ronin", "phase-5b"))
            self._react("phase-5b")
            self._smoke("phase-5b")

    def _throw(self, rr: RoundRecord, names: list[str]) -> mv.Move:
        """The next throw, at random, or the end of the throws when no shuriken has a standing target."""
        rnd, rng, style = self.rnd, self.rng, self.style
        pending = [s for s in rnd.pending_throwers() if rnd.standing_opponents(s)]
        if not pending:
            return mv.ThrowsDone()
        thrower = rng.choice(pending)
        target = rng.choice(rnd.throw_targets(thrower))
        knocked: list[int] = []
        touched: list[int] = []
        if rng.random() >= style.miss:
            (touched if rng.random() < style.touch_only else knocked).append(target)
            others = [s for s in rnd.seated if s not in (thrower, target)]
            if rng.random() < style.wild and others:  # the random draw first: every other game stays the same
                (touched if rng.random() < 0.5 else knocked).append(rng.choice(others))
        rr.shuriken.append(Throw(names[thrower], [names[s] for s in knocked], [names[s] for s in touched], names[target]))
        return mv.Throw(thrower, tuple(knocked), tuple(touched), target)

    def _phase_6(self) -> None:
        rnd = self.rnd
        if not self.uses:
            return
        for s in self._holders("deringer"):
            w = rnd.primary.get(s)
            if w and w.live and w.effect is Card.CLIC and s not in rnd.out and w.target is not None and not w.pair:
                if self._wants(s, "deringer"):
                    self._announce(Use(s, "deringer", "phase-6"))
        self._react("phase-6", "deaths")
        self._smoke("phase-6")

    def _phase_7(self) -> None:
        rnd, rng = self.rnd, self.rng
        players = self.game.players
        if not self.uses:
            return
        for s in self._holders("it-does-not-even-hurt"):
            if s not in rnd.sharers() and players[s].alive and self._wants(s, "it-does-not-even-hurt"):
                self._announce(Use(s, "it-does-not-even-hurt", "phase-7"))
                rnd.extra_sharers.append(s)  # foresee the share below; the engine does it again
        sharers = rnd.sharers()
        rnd.extra_sharers.clear()
        left = split_bills([int(bill) for bill in self.game.table], len(sharers)).left
        for s in self._holders("four-leaf-clover"):
            if s in sharers and left and self._wants(s, "four-leaf-clover"):
                self._announce(Use(s, "four-leaf-clover", "phase-7"))
        for s in self._holders("bludgeon"):
            victims = [t for t in sharers if t != s and (players[s].gang is None or players[t].gang is not players[s].gang)]
            if s in sharers and victims and self._wants(s, "bludgeon"):
                self._announce(Use(s, "bludgeon", "phase-7", {"target": rng.choice(victims)}))

    def _end_of_round(self) -> None:
        rnd, rng = self.rnd, self.rng
        if not self.uses:
            return
        for s in self._holders("the-specialist"):
            hand = [c for c, n in self.game.players[s].hand.items() for _ in range(n)]
            if s in rnd.fired_bbb and hand and self._wants(s, "the-specialist"):
                self._announce(Use(s, "the-specialist", "end-of-round", {"discard": [str(rng.choice(hand))]}))


def _is_object(card: str) -> bool:
    return CATALOG[card].is_object


__all__ = ["Style", "deal_cards", "deal_loot", "random_game", "random_record", "seating"]
