"""Words a person reads: seats, cards, money and the table's calls, per language.

One function for each: every text that shows a seat calls :func:`seat_label`, every text
that shows a card (a bill, a 2nd edition loot card, a bullet card, a Super Power, Super
Kiai or Object) calls :func:`card_name`, every amount calls :func:`money`.

:func:`seat_label` (from :mod:`controller.seats`) writes a seat as it is numbered everywhere:
0..8 clockwise, as printed on the standee bases.
"""

from __future__ import annotations

from collections.abc import Iterable

from .rules.advanced import CATALOG
from .rules.cards import GODFATHER_TILE, LOOT_VALUES, is_diamond
from .rules.names import card_label, moment_label
from .rules.rulesets import RuleSet
from .seats import LANGUAGES, seat_label

__all__ = ["LANGUAGES", "card_list", "card_name", "join", "moment_name", "money", "seat_label", "withdraw_call"]


def _check(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")


def money(value: int | None, lang: str = "en") -> str:
    """An amount: "$20,000" (en), "$20.000" (pt), "20 000 $" (fr, hu); ``None`` is a dead player's."""
    _check(lang)
    if value is None:
        return {"en": "dead", "pt": "morreu", "fr": "hors jeu", "hu": "meghalt"}[lang]  # fits any player
    sign = "-" if value < 0 else ""
    digits = f"{abs(value):,}"
    if lang == "en":
        return f"{sign}${digits}"
    if lang == "pt":
        return f"{sign}${digits.replace(',', '.')}"
    return f"{sign}{digits.replace(',', chr(0xA0))}\u00a0$"


# Bullet cards and what hits (rules.md, advanced-rules.md), as printed or said at the table; the English names
# are controller.rules.names', which the engine's refusals show too.
_BULLETS: dict[str, dict[str, str]] = {
    "clic": {"pt": "Clic Clic Clic", "fr": "Clic Clic Clic", "hu": "Clic Clic Clic"},
    "bang": {"pt": "Bang!", "fr": "Bang !", "hu": "Bang!"},
    "bbb": {"pt": "Bang! Bang! Bang!", "fr": "Bang ! Bang ! Bang !", "hu": "Bang! Bang! Bang!"},
    "cling": {"pt": "Cling Cling Cling", "fr": "Cling Cling Cling", "hu": "Cling Cling Cling"},
    "tanto": {"pt": "tanto", "fr": "tanto", "hu": "tantó"},
    "shuriken": {"pt": "shuriken", "fr": "shuriken", "hu": "shuriken"},
    "laser": {"pt": "Mira Laser", "fr": "Laser Beam", "hu": "Laser Beam"},
    "grenade": {"pt": "granada", "fr": "grenade", "hu": "gránát"},
    "blast": {"pt": "explosão do Kamikaze", "fr": "explosion du Kamikaze", "hu": "kamikaze robbanás"},
}

# 2nd edition loot cards without a value, and the New Godfather tile.
_LOOT: dict[str, dict[str, str]] = {
    "painting": {"pt": "um quadro", "fr": "un tableau", "hu": "egy festmény"},
    "clip": {"pt": "um pente de balas", "fr": "un chargeur", "hu": "egy tár"},
    "first-aid": {
        "pt": "um kit de primeiros socorros", "fr": "une trousse de secours", "hu": "egy elsősegélydoboz",
    },
    GODFATHER_TILE: {
        "pt": "a peça do Novo Poderoso Chefão", "fr": "la tuile du nouveau Parrain",
        "hu": "az új Keresztapa lapka",
    },
}
_DIAMOND = {"pt": "um diamante de {v}", "fr": "un diamant de {v}", "hu": "egy {v} értékű gyémánt"}

# Super Powers, Super Kiai and Objects: the printed names docs/advanced-rules.md lists per language.
# Where a language's printed name is not known, the English printed name stands (as on the cards' English edition).
_ADVANCED: dict[str, dict[str, str]] = {
    "pt": {
        "six-feet-under": "Sob 7 Palmos de Terra",
        "you-dont-need-it-anymore": "Eu preciso mais disso que você...",
        "super-coward": "Super Covarde",
        "the-shotgun": "Espingarda de Cano Serrado",
        "shaolin-monk": "O Monge Shaolin",
        "ninja": "O Ninja",
        "samurai": "O Samurai",
        "kamikaze": "O Kamikaze",
        "ronin": "O Ronin",
        "geisha": "A Gueixa",
        "laser-beam": "Mira Laser",
        "dum-dum-bullet": "Bala Dum-Dum",
        "magic-bullet-right": "Bala Mágica para a direita",
        "magic-bullet-left": "Bala Mágica para a esquerda",
        "first-aid-kit": "Kit de Primeiros Socorros",
        "kevlar": "Colete à Prova de Balas",
        "clip": "Munição Extra",
        "four-leaf-clover": "Trevo de Quatro Folhas",
        "deringer": "Arma de Bolso",
        "bludgeon": "Cacetete",
        "x-ray-sunglasses": "Óculos de Raio-X",
        "magnet": "Imã",
        "poisoned-tanto": "Tanto Envenenado",
        "double-shuriken": "Shuriken Duplo",
        "dark-tanto": "Tanto de Duas Lâminas",
        "smoke-grenade": "Bomba de Fumaça",
        "angry-dragon": "Tatuagem do Dragão Vingativo",
        "fake-finger": "Dedo Falso",
    },
    "hu": {
        "six-feet-under": "Hat láb mélyen",
        "the-unbreakable": "A megtörhetetlen",
        "you-dont-need-it-anymore": "Neked már úgysem kell",
        "dragon-skin": "Sárkánybőr",
        "the-insane": "Az őrült",
        "the-kid": "A kölyök",
        "the-cunning": "A dörzsölt",
        "super-coward": "A majrés",
        "the-specialist": "A specialista",
        "it-does-not-even-hurt": "Nem is fáj!",
    },
}


def card_name(card: object, lang: str = "en") -> str:
    """A card as a player knows it, with its article where the language wants one.

    ``card`` is a bill (an int: "$20,000"), a 2nd edition loot card id ("cash-20000" is
    "$20,000", "diamond-5000" is "a $5,000 diamond", "painting" is "a painting"), the New
    Godfather tile, a bullet card ("bbb" is "Bang! Bang! Bang!") or a Super Power, Super Kiai
    or Object id ("the-unbreakable" is "The Unbreakable").  An unknown id is shown as it is.
    """
    _check(lang)
    if lang == "en":
        return card_label(card)  # the rules engine's own names (controller.rules.names): one table for English
    if isinstance(card, int) and not isinstance(card, bool):
        return money(card, lang)
    key = str(getattr(card, "value", card))
    if key in LOOT_VALUES and key.startswith("cash-"):
        return money(LOOT_VALUES[key], lang)
    if key in LOOT_VALUES and is_diamond(key):
        return _DIAMOND[lang].format(v=money(LOOT_VALUES[key], lang))
    if key in _LOOT:
        return _LOOT[key][lang]
    if key in _BULLETS:
        return _BULLETS[key][lang]
    if key in CATALOG:
        return _ADVANCED.get(lang, {}).get(key, CATALOG[key].name)
    return key


# Several of one loot card: "3 paintings" (Hungarian puts no plural after a numeral).
_SEVERAL: dict[str, dict[str, str]] = {
    "painting": {"en": "{n} paintings", "pt": "{n} quadros", "fr": "{n} tableaux", "hu": "{n} festmény"},
    "clip": {"en": "{n} clips", "pt": "{n} pentes de balas", "fr": "{n} chargeurs", "hu": "{n} tár"},
    "first-aid": {
        "en": "{n} first-aid kits", "pt": "{n} kits de primeiros socorros", "fr": "{n} trousses de secours",
        "hu": "{n} elsősegélydoboz",
    },
    "diamond": {
        "en": "{n} {v} diamonds", "pt": "{n} diamantes de {v}", "fr": "{n} diamants de {v}", "hu": "{n} {v} értékű gyémánt",
    },
}


def card_list(cards: Iterable[object], lang: str = "en") -> str:
    """Cards as a list a person reads, in the order given: bills one by one, several of one loot card
    counted: "$20,000, $20,000, a $5,000 diamond and 3 paintings" ("nothing" if none)."""
    _check(lang)
    counted: dict[str, int] = {}
    order: list[object] = []
    for card in cards:
        key = str(getattr(card, "value", card))
        if isinstance(card, str) and (key in _SEVERAL or is_diamond(key)):
            if key not in counted:
                order.append(key)
            counted[key] = counted.get(key, 0) + 1
        else:
            order.append(card)
    names = []
    for card in order:
        n = counted.get(card, 1) if isinstance(card, str) else 1
        if n == 1:
            names.append(card_name(card, lang))
        elif is_diamond(str(card)):
            names.append(_SEVERAL["diamond"][lang].format(n=n, v=money(LOOT_VALUES[str(card)], lang)))
        else:
            names.append(_SEVERAL[str(card)][lang].format(n=n))
    if not names:
        return {"en": "nothing", "pt": "nada", "fr": "rien", "hu": "semmi"}[lang]
    return join(names, lang)


def join(parts: list[str], lang: str = "en") -> str:
    """"a, b and c" in ``lang``."""
    _check(lang)
    if len(parts) <= 1:
        return "".join(parts)
    conj = {"en": "and", "pt": "e", "fr": "et", "hu": "és"}[lang]
    return ", ".join(parts[:-1]) + f" {conj} " + parts[-1]


def withdraw_call(ruleset: RuleSet | str) -> str:
    """The withdrawal count's call, as the rule set has it: only yakuzas shout "Banzai!"."""
    if RuleSet(ruleset) is RuleSet.YAKUZAS:
        return '1, 2, 3: lie down to withdraw, or keep aiming and shout "You lost!" (a yakuza: "Banzai!")'
    return '1, 2, 3: lie down to withdraw, or keep aiming and shout "You lost!"'


def moment_name(moment: str) -> str:
    """A moment of a round as the rules name it: "phase-5b" is "phase 5b", "end-of-round" "the end of the round"."""
    return moment_label(moment)


STEP_NAMES = {
    "pile": "the new pile", "cards": "the cards going down", "aims": "the aiming count",
    "privilege": "the Godfather's order", "withdraw": "the withdrawal count", "bbb": "the Bang! Bang! Bang!",
    "throws": "the shuriken throws", "reveal": "the cards shown", "picks": "the loot picks",
    "discards": "the cards discarded", "intermission": "the intermission", "over": "the end of the game",
}


def step_name(step: str) -> str:
    """A step of the table as a player says it: "withdraw" is "the withdrawal count"."""
    return STEP_NAMES.get(step, step)
