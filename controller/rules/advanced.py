"""The advanced rules' cards: Super Powers, Super Kiai and Objects (docs/advanced-rules.md).

This module holds what each card is (its deck, the moments it may be used at,
whether it is a visible Object) and checks a game's setup: which cards each
gang or player was dealt and kept.  What the cards do is in :mod:`.uses` and
at the hooks of :mod:`.round`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .cards import Gang
from .errors import IllegalMove
from .rulesets import RuleSet

# The moments of a round a use can be announced at, in order.
MOMENTS = (
    "phase-1",
    "phase-2",
    "phase-3",
    "phase-4",
    "phase-5",
    "phase-5b",
    "phase-6",
    "deaths",
    "phase-7",
    "end-of-round",
)
MOMENT_RANK = {m: k for k, m in enumerate(MOMENTS)}
ANY_TIME = MOMENTS
HIT_MOMENTS = ("phase-5", "phase-5b", "phase-6", "deaths")


class Deck(Enum):
    POWER = "super power"
    KIAI = "super kiai"
    GANGSTER_OBJECT = "gangster object"
    YAKUZA_OBJECT = "yakuza object"


@dataclass(frozen=True)
class CardSpec:
    id: str
    name: str
    deck: Deck
    moments: tuple[str, ...]
    visible: bool = False

    @property
    def is_object(self) -> bool:
        return self.deck in (Deck.GANGSTER_OBJECT, Deck.YAKUZA_OBJECT)


def _spec(id: str, name: str, deck: Deck, *moments: str, visible: bool = False) -> CardSpec:
    return CardSpec(id, name, deck, tuple(moments), visible)


P, K, G, Y = Deck.POWER, Deck.KIAI, Deck.GANGSTER_OBJECT, Deck.YAKUZA_OBJECT
CATALOG: dict[str, CardSpec] = {
    s.id: s
    for s in (
        _spec("six-feet-under", "Six Feet Under", P),  # end of game: no use entry
        _spec("the-unbreakable", "The Unbreakable", P, "deaths"),
        _spec("you-dont-need-it-anymore", "You Don't Need It Anymore", P, "phase-2", "deaths", "end-of-round"),
        _spec("dragon-skin", "Dragon Skin", P, *HIT_MOMENTS),
        _spec("the-insane", "The Insane", P, "phase-1", "phase-2", "phase-3"),
        _spec("the-kid", "The Kid", P, "phase-1", "phase-2"),
        _spec("the-cunning", "The Cunning", P, "phase-1", "phase-2"),
        _spec("super-coward", "Super Coward", P),  # end of game: no use entry
        _spec("the-specialist", "The Specialist", P, "end-of-round"),
        _spec("it-does-not-even-hurt", "It Does Not Even Hurt", P, "phase-7"),
        _spec("the-shotgun", "The Shotgun", P, "phase-1", "phase-3"),
        _spec("shaolin-monk", "The Shaolin Monk", K, *HIT_MOMENTS),
        _spec("ninja", "The Ninja", K, "phase-1"),
        _spec("samurai", "The Samurai", K, "phase-5", "phase-5b", "phase-6"),
        _spec("kamikaze", "The Kamikaze", K, "deaths", "end-of-round"),
        _spec("ronin", "The Ronin", K, "phase-5b"),
        _spec("geisha", "The Geisha", K, "phase-4"),
        _spec("laser-beam", "Laser Beam", G, "phase-1", visible=True),
        _spec("dum-dum-bullet", "Dum-Dum Bullet", G, "phase-1", visible=True),
        _spec("magic-bullet-right", "Magic Bullet Right", G, "phase-1", visible=True),
        _spec("magic-bullet-left", "Magic Bullet Left", G, "phase-1", visible=True),
        _spec("first-aid-kit", "First Aid Kit", G, "phase-1"),
        _spec("kevlar", "Kevlar", G, *HIT_MOMENTS),
        _spec("clip", "Clip", G, *ANY_TIME),
        _spec("four-leaf-clover", "Four Leaf Clover", G, "phase-7"),
        _spec("deringer", "Deringer", G, "phase-6"),
        _spec("bludgeon", "Bludgeon", G, "phase-7"),
        _spec("x-ray-sunglasses", "X-ray Sunglasses", G, "phase-1"),
        _spec("magnet", "Magnet", G, "phase-1"),
        _spec("poisoned-tanto", "Poisoned Tanto", Y, "phase-1", visible=True),
        _spec("double-shuriken", "Double Shuriken", Y, "phase-5b"),
        _spec("dark-tanto", "Dark Tanto", Y, "phase-1", visible=True),
        _spec("smoke-grenade", "Smoke Grenade", Y, *MOMENTS[:7], "phase-7"),
        _spec("angry-dragon", "Angry Dragon", Y, "deaths"),
        _spec("fake-finger", "Fake Finger", Y, "phase-4"),
    )
}
END_OF_GAME_CARDS = frozenset({"six-feet-under", "super-coward"})
PERMANENT_CARDS = frozenset({"the-unbreakable", "dragon-skin", "the-kid", "the-cunning", "shaolin-monk"})
REPEATABLE_CARDS = frozenset({"ninja", "samurai"})
FIRST_WOUND_OBJECTS = frozenset(
    {"dum-dum-bullet", "magic-bullet-right", "magic-bullet-left", "poisoned-tanto", "dark-tanto"}
)
VISIBLE_ROUNDS = (1, 5)


def printed(card: object) -> str:
    """A Super Power, Super Kiai or Object by its printed name; an unknown id as written (quoted)."""
    spec = CATALOG.get(str(card))
    return spec.name if spec is not None else repr(card)


def deck_cards(deck: Deck, ruleset: RuleSet) -> list[str]:
    cards = [s.id for s in CATALOG.values() if s.deck is deck]
    if deck is Deck.POWER and ruleset is RuleSet.CLASSIC:
        cards.remove("the-shotgun")  # the Shotgun comes with the Yakuzas box (ruling A2)
    return cards


@dataclass
class Use:
    """One announced use of a card: who, which card, when, and the card's own fields."""

    player: int
    card: str
    when: str
    fields: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass
class Setup:
    """Which power (or kiai) and which object each player kept, by seat (None: none)."""

    powers: dict[int, str | None] = field(default_factory=dict)
    objects: dict[int, str | None] = field(default_factory=dict)


def power_deck(ruleset: RuleSet, gang: Gang | None) -> Deck:
    return Deck.KIAI if gang is Gang.PURPLE else Deck.POWER


def object_deck(ruleset: RuleSet, gang: Gang | None) -> Deck:
    return Deck.YAKUZA_OBJECT if gang is Gang.PURPLE else Deck.GANGSTER_OBJECT


def check_setup(
    ruleset: RuleSet,
    players: Sequence[tuple[str, Gang | str | None]],
    *,
    super_powers: bool,
    objects: bool,
    dealt: Mapping[str, Mapping[str, list[str]]] | None = None,
    kept: Mapping[str, Mapping[str, str | None]] | None = None,
) -> Setup:
    """Check the deal and the cards kept (docs/advanced-rules.md, section 1); returns what each seat kept.

    ``dealt`` and ``kept`` map "powers" / "objects" to, respectively, gang (``yakuzas``) or player
    (``classic``) -> cards dealt, and player -> card kept.
    """
    dealt = dealt or {}
    kept = kept or {}
    seated: list[tuple[str, Gang | None]] = [(n, Gang(g) if g else None) for n, g in players]
    names = [n for n, _ in players]
    seat_of = {n: k for k, n in enumerate(names)}
    setup = Setup()
    for part, on, deck_of, target in (
        ("powers", super_powers, power_deck, setup.powers),
        ("objects", objects, object_deck, setup.objects),
    ):
        if not on:
            if dealt.get(part) or kept.get(part):
                option = "super_powers" if part == "powers" else "objects"
                raise IllegalMove(None, None, f"setup: {part} needs the {option} option")
            continue
        if ruleset is RuleSet.CLASSIC_2014:
            raise IllegalMove(None, None, f"options: {part} are not played in classic-2014")
        part_kept = dict(kept.get(part) or {})
        part_dealt = dealt.get(part)
        for name in part_kept:
            if name not in seat_of:
                raise IllegalMove(None, None, f"setup: {part}: {name!r} is not a player")
        seen: Counter[str] = Counter()
        if part_dealt is not None:
            _check_dealt(ruleset, seated, part, part_dealt, deck_of, seen)
        for name, gang in seated:
            card = part_kept.get(name)
            target[seat_of[name]] = card
            if card is None:
                continue
            spec = CATALOG.get(card)
            deck = deck_of(ruleset, gang)
            if spec is None or spec.id not in deck_cards(deck, ruleset):
                raise IllegalMove(None, name, f"may not keep {printed(card)}: not a card of the {deck.value} deck in {ruleset}")
            if part_dealt is not None:
                owner = str(gang) if ruleset is RuleSet.YAKUZAS else name
                if card not in part_dealt.get(owner, []):
                    raise IllegalMove(None, name, f"may not keep {printed(card)}: it was not dealt to {owner}")
        kept_cards = Counter(c for c in target.values() if c)
        for card, count in kept_cards.items():
            if count > 1:
                raise IllegalMove(None, None, f"setup: {printed(card)} is kept by {count} players; there is one")
        if ruleset is RuleSet.YAKUZAS and part_dealt is not None:
            for gang_name, cards in part_dealt.items():
                from_gang = [c for (n, g) in seated if str(g) == gang_name for c in [part_kept.get(n)] if c]
                if Counter(from_gang) - Counter(cards):
                    raise IllegalMove(None, None, f"setup: {gang_name} kept cards it was not dealt")
        if ruleset is RuleSet.CLASSIC and part == "powers" and part_dealt is not None:
            for name, _ in seated:
                if part_dealt.get(name) != ([part_kept[name]] if part_kept.get(name) else []):
                    raise IllegalMove(None, name, "keeps the one Super Power dealt, without choice")
    return setup


def _check_dealt(
    ruleset: RuleSet,
    players: list[tuple[str, Gang | None]],
    part: str,
    part_dealt: object,
    deck_of: Callable[[RuleSet, Gang | None], Deck],
    seen: Counter[str],
) -> None:
    if not isinstance(part_dealt, Mapping):
        raise IllegalMove(None, None, f"setup: {part}: dealt must map each gang or player to cards")
    if ruleset is RuleSet.YAKUZAS:
        sizes = Counter(str(g) for _, g in players)
        owners = {str(g): g for _, g in players}
        for owner, cards in part_dealt.items():
            if owner not in owners:
                raise IllegalMove(None, None, f"setup: {part}: {owner!r} is not a gang")
            want = {2: 3, 3: 2}[sizes[owner]] if part == "powers" else {2: 3, 3: 4}[sizes[owner]]
            if len(cards) != want:
                raise IllegalMove(
                    None, None, f"setup: {part}: a gang of {sizes[owner]} is dealt {want} cards, {owner} got {len(cards)}"
                )
            deck = deck_of(ruleset, owners[owner])
            for card in cards:
                if card not in deck_cards(deck, ruleset):
                    raise IllegalMove(None, None, f"setup: {part}: {printed(card)} is not in the {deck.value} deck")
                seen[card] += 1
    else:
        names = {n for n, _ in players}
        for owner, cards in part_dealt.items():
            if owner not in names:
                raise IllegalMove(None, None, f"setup: {part}: {owner!r} is not a player")
            want = 1 if part == "powers" else 2
            if len(cards) != want:
                raise IllegalMove(None, owner, f"is dealt {want} {part} card(s) in classic, not {len(cards)}")
            deck = deck_of(ruleset, None)
            for card in cards:
                if card not in deck_cards(deck, ruleset):
                    raise IllegalMove(None, owner, f"was dealt {printed(card)}: not in the {deck.value} deck")
                seen[card] += 1
    twice = [c for c, n in seen.items() if n > 1]
    if twice:
        raise IllegalMove(None, None, f"setup: {part}: {printed(twice[0])} is dealt twice; each card exists once")
