"""What each Super Power, Super Kiai and Object does when it is used (docs/advanced-rules.md).

Two kinds of uses:

- **actions**, applied at their moment in announcement order: :data:`ACTIONS` maps a moment
  and a card to a handler, run at the start or the end of that moment's resolution;
- **reactions** (Kevlar, Samurai, Dragon Skin, Shaolin Monk, The Unbreakable, Angry Dragon,
  Kamikaze, Fake Finger, Ronin, Double Shuriken), taken by the round's hit pipeline, deaths
  step, withdrawal or throw when their event comes.

Every handler checks first and changes the game only once the use is known to be legal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .advanced import CATALOG, FIRST_WOUND_OBJECTS, MOMENTS, Use
from .cards import Card, Role
from .events import CardUsed, Died
from .names import card_label, use_label
from .players import Kit, card_of
from .weapons import Shot, Weapon, blank_of

if TYPE_CHECKING:
    from .round import Round

Handler = Callable[["Round", Use], None]


def _fail(rnd: Round, use: Use, why: str) -> Exception:
    return rnd.illegal(use.player, f"may not use {use_label(use.card)}: {why}")


def _seat_list(rnd: Round, use: Use, key: str, count: int) -> list[int]:
    value = use.get(key)
    if not isinstance(value, (list, tuple)) or len(value) != count or len(set(value)) != count:
        raise _fail(rnd, use, f"needs {key}: {count} different players")
    for seat in value:
        if seat not in rnd.position or not rnd.players[seat].alive:
            raise _fail(rnd, use, f"{rnd.name_of(seat)} is not at the table")
    return list(value)


def _opponents(rnd: Round, use: Use, seats: list[int]) -> None:
    me = rnd.players[use.player]
    for seat in seats:
        if seat == use.player or (me.gang is not None and rnd.players[seat].gang is me.gang):
            raise _fail(rnd, use, f"{rnd.name_of(seat)} is not an opponent")


def _card(rnd: Round, use: Use, value: object, hand: dict[Card, int], whose: str) -> Card:
    card = card_of(value)
    if card is None or hand.get(card, 0) <= 0:
        raise _fail(rnd, use, f"{whose} has no {card_label(value)} card in hand")
    return card


# -- phase 1 and 2: reveals and hand changes -----------------------------------


def reveal(rnd: Round, use: Use) -> None:
    """The Kid, The Cunning, a visible Object: shown; they act from now on."""
    if CATALOG[use.card].visible and use.card in rnd.players[use.player].revealed:
        raise rnd.illegal(use.player, f"may not reveal {use_label(use.card)}: it is already revealed")
    rnd.use_up(use)


def insane(rnd: Round, use: Use) -> None:
    rnd.armed.add(use.player)
    rnd.use_up(use, "holds a grenade: a shot at this player sets it off")


def ninja(rnd: Round, use: Use) -> None:
    a, b = _seat_list(rnd, use, "seat", 2)
    me = use.player
    if any(isinstance(e, CardUsed) and e.card == "ninja" for e in rnd.events):
        raise _fail(rnd, use, "the Ninja moves once a round")
    if me in (a, b):
        raise _fail(rnd, use, f"{rnd.name_of(me)} moves between two other players")
    others = [s for s in rnd.seated if s != me]
    k = others.index(a)
    if others[(k + 1) % len(others)] != b:
        raise _fail(rnd, use, f"{rnd.name_of(a)} and {rnd.name_of(b)} do not sit next to each other (clockwise)")
    order = [s for s in rnd.game.order if s != me]
    order.insert(order.index(a) + 1, me)
    rnd.game.order = order
    rnd.seat_players(rnd.game.living())
    rnd.use_up(use, f"moves between {rnd.name_of(a)} and {rnd.name_of(b)}")


def shotgun_reveal(rnd: Round, use: Use) -> None:
    p = rnd.players[use.player]
    if "the-shotgun" in p.revealed:
        raise _fail(rnd, use, f"the Shotgun is already in {p.name}'s hands")
    rnd.use_up(use, "takes up the Shotgun")


def first_aid(rnd: Round, use: Use) -> None:
    heal = use.get("heal")
    if not isinstance(heal, dict) or not heal:
        raise _fail(rnd, use, "needs heal: the players and how many wounds")
    me = rnd.players[use.player]
    others = [rnd.name_of(s) for s in heal if s != use.player]
    if len(others) > 1:
        raise _fail(rnd, use, f"heals {me.name}'s own wounds and/or one other gang member's, not {' and '.join(others)}'s")
    total = 0
    for seat, count in heal.items():
        p = rnd.players[seat]
        if seat != use.player and (me.gang is None or p.gang is not me.gang):
            raise _fail(rnd, use, f"heals only {me.name}'s own wounds or the gang's, not {p.name}'s")
        if not p.alive:
            raise _fail(rnd, use, f"{p.name} is dead")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise _fail(rnd, use, f"heals a whole number of wounds for {p.name}, not {count!r}")
        total += count
    if total > 2:
        raise _fail(rnd, use, f"heals 2 wounds, not {total}")
    # a player with fewer wounds is healed only what they have: never below 0 (ruling E4)
    healed = {seat: min(count, rnd.players[seat].wounds) for seat, count in heal.items()}
    for seat, count in healed.items():
        rnd.players[seat].wounds -= count
    rnd.use_up(use, "heals " + ", ".join(f"{rnd.name_of(s)} {n}" for s, n in healed.items()))


def xray(rnd: Round, use: Use) -> None:
    seats = _seat_list(rnd, use, "targets", 2)
    _opponents(rnd, use, seats)
    rnd.use_up(use, "looks at the cards of " + " and ".join(rnd.name_of(s) for s in seats))


def magnet(rnd: Round, use: Use) -> None:
    seats = _seat_list(rnd, use, "targets", 2)
    _opponents(rnd, use, seats)
    took = use.get("took") or {}
    gave = use.get("gave") or {}
    me = rnd.players[use.player]
    mine = dict(me.hand)
    drawn = {}
    for seat in seats:
        hand = rnd.players[seat].hand
        if not any(n > 0 for n in hand.values()):
            if seat in took or seat in gave:
                raise _fail(rnd, use, f"{rnd.name_of(seat)} has no card to exchange")
            continue
        if seat not in took or seat not in gave:
            raise _fail(rnd, use, f"needs took and gave for {rnd.name_of(seat)}")
        drawn[seat] = _card(rnd, use, took[seat], hand, rnd.name_of(seat))
        mine[drawn[seat]] = mine.get(drawn[seat], 0) + 1
    given = {}
    for seat in drawn:
        card = _card(rnd, use, gave[seat], mine, me.name)
        mine[card] -= 1
        given[seat] = card
    for seat, card in drawn.items():
        rnd.players[seat].hand[card] -= 1
        me.hand[card] = me.hand.get(card, 0) + 1
    for seat, card in given.items():
        me.hand[card] -= 1
        rnd.players[seat].hand[card] = rnd.players[seat].hand.get(card, 0) + 1
    rnd.use_up(use, "exchanges a card with " + " and ".join(rnd.name_of(s) for s in seats))


def clip(rnd: Round, use: Use) -> None:
    p = rnd.players[use.player]
    if p.shotgun and not use.get("drop_shotgun"):
        raise _fail(rnd, use, 'not with the Shotgun (put it down for good: "drop_shotgun": true)')
    used = p.discarded.get(Card.BANG, 0)
    back = min(2, used)
    if back == 0:
        raise _fail(rnd, use, f"{p.name} has used no Bang! card yet")
    discard = use.get("discard") or []
    if not isinstance(discard, list) or len(discard) != back:
        raise _fail(rnd, use, f"{p.name} takes {back} Bang! card(s) back and discards as many other cards")
    left = dict(p.hand)
    cards = []
    for value in discard:
        card = _card(rnd, use, value, left, p.name)
        if card is Card.BANG:
            raise _fail(rnd, use, "the discarded cards are other cards than Bang!")
        left[card] -= 1
        cards.append(card)
    if use.get("drop_shotgun"):
        p.shotgun_dropped = True
    p.discarded[Card.BANG] -= back
    p.hand[Card.BANG] = p.hand.get(Card.BANG, 0) + back
    for card in cards:
        p.hand[card] -= 1
        p.discarded[card] += 1
    rnd.use_up(use, f"takes {back} Bang! card(s) back")


def second_weapon(rnd: Round, use: Use) -> None:
    """You Don't Need It Anymore, in a later round: the card (and aim) for the dead player's weapon."""

    p = rnd.players[use.player]
    kit = p.kit
    if kit is None:
        raise _fail(rnd, use, f"{p.name} has taken no one's weapon")
    if use.get("weapon") != kit.source:
        raise _fail(rnd, use, f"the weapon {p.name} took is {rnd.name_of(kit.source)}'s")
    if any(w.second for w in rnd.weapons_of(use.player)):
        raise _fail(rnd, use, "one card a round for the second weapon")
    card = _card(rnd, use, use.get("played"), kit.hand, f"{rnd.name_of(kit.source)}'s deck")
    kit.hand[card] -= 1
    fits = card in ({Card.CLING, Card.TANTO, Card.SHURIKEN} if kit.yakuza else {Card.CLIC, Card.BANG, Card.BBB})
    weapon = Weapon(use.player, kit.yakuza, card, card if fits else blank_of(kit.yakuza), kit.hand, second=True)
    weapon.requested = use.get("target")
    rnd.weapons.append(weapon)
    rnd.use_up(use, f"plays {rnd.name_of(kit.source)}'s weapon too")


def check_second_weapons(rnd: Round) -> None:
    for seat in rnd.seated:
        kit = rnd.players[seat].kit
        if kit and any(n > 0 for n in kit.hand.values()) and not any(w.second for w in rnd.weapons_of(seat)):
            raise rnd.illegal(
                seat, f"must play a card for {rnd.name_of(kit.source)}'s weapon too ({use_label('you-dont-need-it-anymore')} at phase 2)"
            )


# -- phase 3: the Shotgun aimed at two players ----------------------------------


def shotgun_pair(rnd: Round, use: Use) -> None:
    p = rnd.players[use.player]
    weapon = rnd.primary.get(use.player)
    if use.get("weapon") is not None:
        weapon = next((w for w in rnd.weapons_of(use.player) if w.second), None)
        if weapon is None or not (p.kit and p.kit.shotgun):
            raise _fail(rnd, use, f"{p.name}'s second weapon is not a Shotgun")
    elif not p.shotgun:
        raise _fail(rnd, use, f"{p.name} has not taken up the Shotgun")
    a, b = _seat_list(rnd, use, "targets", 2)
    if weapon is None or not weapon.live:
        raise _fail(rnd, use, f"{p.name}'s card is not in play")
    if rnd.left_of(a) != b:
        raise _fail(rnd, use, f"{rnd.name_of(a)} and {rnd.name_of(b)} are not adjacent (clockwise)")
    if weapon.target != a:
        raise _fail(rnd, use, f"{p.name}'s aim must name the first of the two, {rnd.name_of(a)}")
    refusal = rnd.aim_refusal(use.player, b, yakuza=False)
    if refusal:
        raise rnd.illegal(use.player, refusal)
    markers = use.get("markers")
    if markers is not None:
        if set(markers) != {a, b} or not set(markers.values()) <= {"wound", "blank"}:
            raise _fail(rnd, use, "markers say, for each of the two, wound or blank")
    weapon.pair = (a, b)
    weapon.markers = markers
    weapon.jam = use
    rnd.use_up(use, f"aims the Shotgun at {rnd.name_of(a)} and {rnd.name_of(b)}")


def shotgun_markers(rnd: Round, weapon: Weapon, card: str) -> list[Shot]:
    """A ``bang`` or ``bbb`` from the Shotgun at two players: the thrown markers decide; both blank jams."""

    markers = weapon.markers
    if markers is None:
        raise rnd.illegal(weapon.owner, "fired the Shotgun at two players: the record must say how the markers landed")
    pair = weapon.pair or ()
    hits = [t for t in pair if markers[t] == "wound"]
    if hits:
        return [Shot(weapon.owner, t, card, weapon) for t in hits]
    use = weapon.jam
    note = "the Shotgun jams"
    if use is not None and use.get("take_back"):
        discard = use.get("discard") or []
        hand = weapon.hand
        fired = weapon.card
        assert fired is not None  # the Shotgun fired a card shown: bang or bbb
        if len(discard) != 1:
            raise rnd.illegal(weapon.owner, "takes the card played back after the jam and discards one other card")
        other = _card(rnd, use, discard[0], {**hand, fired: hand.get(fired, 0) + 1}, rnd.name_of(weapon.owner))
        hand[fired] = hand.get(fired, 0) + 1
        hand[other] -= 1
        rnd.players[weapon.owner].discarded[other] += 1
        weapon.returned = True
        note += f": the {card_label(weapon.card)} card goes back to the hand and a {card_label(other)} card is discarded"
    rnd.events.append(_used(weapon.owner, "the-shotgun", note))
    return []


def _used(seat: int, card: str, note: str) -> CardUsed:

    return CardUsed(seat, card, "", note)


# -- phase 4 --------------------------------------------------------------------


def geisha(rnd: Round, use: Use) -> None:
    me = use.player
    redirect = use.get("redirect")
    aimers = {w.owner for w in rnd.weapons if w.live and (w.target == me or (w.pair and me in w.pair))}
    if not aimers:
        raise _fail(rnd, use, f"no one aims at {rnd.name_of(me)}")
    if not isinstance(redirect, dict) or set(redirect) != aimers:
        names = ", ".join(rnd.name_of(s) for s in sorted(aimers))
        raise _fail(rnd, use, f"{rnd.name_of(me)} gives a new target to every player aiming at {rnd.name_of(me)}: {names}")
    for seat, new in redirect.items():
        if not isinstance(new, int) or new == me:
            raise _fail(rnd, use, f"{rnd.name_of(seat)}'s new target may be anyone but {rnd.name_of(me)} and {rnd.name_of(seat)}")
        for w in rnd.weapons_of(seat):
            if w.live and (w.target == me or (w.pair and me in w.pair)):
                refusal = rnd.aim_refusal(seat, new, yakuza=w.yakuza, charmed=True)
                if refusal:
                    raise rnd.illegal(seat, refusal)
    for seat, new in redirect.items():
        for w in rnd.weapons_of(seat):
            if w.live and (w.target == me or (w.pair and me in w.pair)):
                w.pair = None
                w.markers = None
                rnd.point(w, new)
    rnd.use_up(use, "charms " + ", ".join(f"{rnd.name_of(s)} to aim at {rnd.name_of(t)}" for s, t in redirect.items()))


# -- phases 5, 5b and 6 ----------------------------------------------------------


def laser_burst(rnd: Round, weapon: Weapon, fired: list[Shot]) -> list[Shot]:
    """Laser Beam: a firing ``bbb`` also hits every player in the share aiming at its holder."""

    me = weapon.owner
    p = rnd.players[me]
    if not p.has("laser-beam"):
        return []
    p.spent.add("laser-beam")
    already = {s.target for s in fired}
    victims = [
        s
        for s in rnd.seated
        if s not in rnd.out
        and s != me
        and s not in already
        and any(w.owner == s and (w.target == me or (w.pair and me in w.pair)) for w in rnd.weapons)
    ]
    rnd.events.append(_used(me, "laser-beam", "bursts at " + (", ".join(rnd.name_of(s) for s in victims) or "no one else")))
    return [Shot(me, s, "laser", None, extra=True) for s in victims]


def first_wound_object(rnd: Round, shot: Shot) -> list[Shot]:
    """The shooter's "first wound" Object on a hit that lands: more damage, or a second victim."""

    source, weapon = shot.source, shot.weapon
    if source is None or weapon is None:
        return []
    p = rnd.players[source]
    obj = p.object
    if obj not in FIRST_WOUND_OBJECTS or not p.has(obj):
        return []
    pistol = shot.card in ("bang", "bbb") and not weapon.yakuza
    if obj in ("dum-dum-bullet", "magic-bullet-right", "magic-bullet-left") and not pistol:
        return []
    if obj in ("poisoned-tanto", "dark-tanto") and shot.card != "tanto":
        return []  # not with the shuriken
    p.spent.add(obj)
    if obj in ("dum-dum-bullet", "poisoned-tanto"):
        shot.damage = 2
        rnd.events.append(_used(source, obj, f"doubles the wound on {rnd.name_of(shot.target)}"))
        return []
    if obj == "dark-tanto":
        other = rnd.next_in_share(source, -weapon.step) if weapon.step else None
        if other is None or other == shot.target:
            return []
        rnd.events.append(_used(source, obj, f"the second blade hits {rnd.name_of(other)}"))
        return [Shot(source, other, shot.card, weapon, extra=True)]
    step = -1 if obj == "magic-bullet-right" else 1
    other = rnd.next_in_share(shot.target, step)
    if other == shot.target:
        return []
    rnd.events.append(_used(source, obj, f"also hits {rnd.name_of(other)}"))
    return [Shot(source, other, shot.card, weapon, extra=True)]


def ronin(rnd: Round, weapon: Weapon) -> None:
    """The Ronin, after his throw: the shuriken goes back to his hand, a cling is discarded."""
    use = rnd.announced("phase-5b", weapon.owner, "ronin")
    if use is None or weapon.hand.get(Card.CLING, 0) <= 0:
        return
    weapon.hand[Card.CLING] -= 1
    weapon.hand[Card.SHURIKEN] = weapon.hand.get(Card.SHURIKEN, 0) + 1
    rnd.players[weapon.owner].discarded[Card.CLING] += 1
    weapon.returned = True
    rnd.use_up(use, "takes the shuriken back and discards a Cling Cling Cling card")


def deringer(rnd: Round, use: Use) -> None:
    weapon = rnd.primary.get(use.player)
    if weapon is None or not weapon.live or weapon.effect is not Card.CLIC or use.player in rnd.out:
        raise _fail(rnd, use, f"{rnd.name_of(use.player)}'s Clic Clic Clic is not in play")
    if weapon.pair is not None:
        target = use.get("target")
        if target not in weapon.pair:
            raise _fail(rnd, use, "name one of the Shotgun's two targets")
        weapon.pair = None
        weapon.target = target
    if weapon.target is None:
        raise _fail(rnd, use, f"{rnd.name_of(use.player)} aims at no one")
    weapon.effect = Card.BANG
    rnd.use_up(use, f"the Clic Clic Clic card played is a Bang! at {rnd.name_of(weapon.target)}")


# -- deaths and the end of the round ---------------------------------------------


def take_kit(rnd: Round, use: Use) -> None:
    """You Don't Need It Anymore, at the game's first death: the dead player's weapon and cards."""
    p = rnd.players[use.player]
    if rnd.game.first_death_round is not None:
        raise _fail(rnd, use, f"the game's first death was in round {rnd.game.first_death_round}")
    if not rnd.died:
        raise _fail(rnd, use, "no one died")
    source = use.get("from")
    if source not in rnd.died:
        raise _fail(rnd, use, "from names a player who died now")
    if not p.alive or use.player in rnd.died:
        raise _fail(rnd, use, f"{rnd.name_of(use.player)} is dead")
    if p.kit is not None:
        raise _fail(rnd, use, f"{p.name} already has a second weapon")
    dead = rnd.players[source]
    p.kit = Kit(source, dead.role is Role.YAKUZA, dict(dead.hand), dead.shotgun)
    dead.hand = {}
    rnd.use_up(use, f"takes {dead.name}'s weapon and cards")


def specialist(rnd: Round, use: Use) -> None:
    p = rnd.players[use.player]
    if not p.alive:
        raise _fail(rnd, use, f"{rnd.name_of(use.player)} is dead")
    if use.player not in rnd.fired_bbb:
        raise _fail(rnd, use, f"{p.name}'s Bang! Bang! Bang! did not fire this round")
    discard = use.get("discard") or []
    if len(discard) != 1:
        raise _fail(rnd, use, f"{p.name} discards one card from the hand")
    card = _card(rnd, use, discard[0], p.hand, p.name)
    weapon = next(w for w in rnd.weapons_of(use.player) if w.card is Card.BBB and not w.second)
    weapon.returned = True
    p.hand[Card.BBB] = p.hand.get(Card.BBB, 0) + 1
    p.hand[card] -= 1
    p.discarded[card] += 1
    rnd.use_up(use, f"takes the Bang! Bang! Bang! card back and discards a {card_label(card)} card")


def bury_dragons(rnd: Round) -> None:
    """Angry Dragon holders whose extra round ends now die for good (their Kamikaze with them)."""
    players = rnd.players
    blast: list[Shot] = []
    for s in rnd.seated:
        p = players[s]
        if p.alive and p.dragon_until is not None and p.dragon_until <= rnd.number:
            p.alive = False
            rnd.died.append(s)
            rnd.events.append(Died(s))
            if rnd.take_use("end-of-round", s, "kamikaze") is not None:
                blast += [Shot(s, n, "blast") for n in sorted(rnd.neighbours(s)) if n not in rnd.withdrew]
    if blast:
        rnd.land(blast, "end-of-round", discards=False)
        rnd.settle_deaths("end-of-round")


# -- phase 7 ---------------------------------------------------------------------


def not_even_hurt(rnd: Round, use: Use) -> None:
    if use.player in rnd.sharers():
        raise _fail(rnd, use, f"{rnd.name_of(use.player)} is a sharer already")
    if not rnd.players[use.player].alive:
        raise _fail(rnd, use, f"{rnd.name_of(use.player)} is dead")
    rnd.extra_sharers.append(use.player)
    rnd.use_up(use, "stands up and shares")


def four_leaf_clover(rnd: Round, use: Use) -> None:
    if use.player not in rnd.sharers():
        raise _fail(rnd, use, f"{rnd.name_of(use.player)} did not share")
    table = rnd.game.table
    if not table:
        raise _fail(rnd, use, "the share was exact: no bills are left")
    amount = sum(int(bill) for bill in table)
    table.clear()
    rnd.pay(use.player, amount)
    rnd.use_up(use, f"takes the ${amount:,} left on the table")


def bludgeon(rnd: Round, use: Use) -> None:
    sharers = rnd.sharers()
    if use.player not in sharers:
        raise _fail(rnd, use, f"{rnd.name_of(use.player)} did not share")
    victim = use.get("target")
    if victim not in sharers or victim == use.player:
        raise _fail(rnd, use, "the victim is another sharer")
    me = rnd.players[use.player]
    if me.gang is not None and rnd.players[victim].gang is me.gang:
        raise _fail(rnd, use, "not a member of the same gang")
    amount = rnd.received.get(victim, 0)
    rnd.pay(victim, -amount)
    rnd.pay(use.player, amount)
    me.cowardice += 2
    rnd.use_up(use, f"knocks {rnd.name_of(victim)} out and takes ${amount:,} from {rnd.name_of(victim)}; 2 cowardice tokens")


# -- the table of actions -----------------------------------------------------------

VISIBLE = ("laser-beam", "dum-dum-bullet", "magic-bullet-right", "magic-bullet-left", "poisoned-tanto", "dark-tanto")
ACTIONS: dict[str, dict[str, tuple[str, Handler]]] = {
    "phase-1": {
        "ninja": ("start", ninja),
        "the-shotgun": ("start", shotgun_reveal),
        "the-insane": ("start", insane),
        "the-kid": ("start", reveal),
        "the-cunning": ("start", reveal),
        "first-aid-kit": ("start", first_aid),
        "x-ray-sunglasses": ("start", xray),
        "magnet": ("start", magnet),
        **{card: ("start", reveal) for card in VISIBLE},
    },
    "phase-2": {
        "the-insane": ("start", insane),
        "the-kid": ("start", reveal),
        "the-cunning": ("start", reveal),
        "you-dont-need-it-anymore": ("start", second_weapon),
    },
    "phase-3": {"the-insane": ("start", insane), "the-shotgun": ("start", shotgun_pair)},
    "phase-4": {"geisha": ("start", geisha)},
    "phase-6": {"deringer": ("start", deringer)},
    "deaths": {"you-dont-need-it-anymore": ("end", take_kit)},
    "phase-7": {
        "it-does-not-even-hurt": ("start", not_even_hurt),
        "four-leaf-clover": ("end", four_leaf_clover),
        "bludgeon": ("end", bludgeon),
    },
    "end-of-round": {"the-specialist": ("start", specialist), "you-dont-need-it-anymore": ("end", take_kit)},
}
for _moment in MOMENTS:  # the Clip names no moment: usable at the start of any
    ACTIONS.setdefault(_moment, {}).setdefault("clip", ("end" if _moment == "deaths" else "start", clip))


def action(card: str, moment: str, stage: str) -> Handler | None:
    entry = ACTIONS.get(moment, {}).get(card)
    if entry is None or entry[0] != stage:
        return None
    return entry[1]


def is_action(use: Use) -> bool:
    return use.card in ACTIONS.get(use.when, {})


REASONS = {
    "kevlar": "no hit reached {name}, or {name} had been wounded before",
    "samurai": "no one attacked {name}",
    "dragon-skin": "no wound reached {name} then",
    "shaolin-monk": "no wound reached {name} then",
    "the-unbreakable": "{name} did not reach 3 wounds then",
    "angry-dragon": "{name} did not die then",
    "kamikaze": "{name} did not die then",
    "fake-finger": "{name} did not turn an honour marker to the band-aid",
    "ronin": "{name} did not throw, or has no Cling Cling Cling in hand",
    "double-shuriken": "{name} did not throw a shuriken",
}


def refusal_reason(rnd: Round, use: Use) -> str:
    if rnd.over and use.when != rnd.over_at:
        return rnd.ended_note()
    return REASONS.get(use.card, "its moment did not come").format(name=rnd.name_of(use.player))
