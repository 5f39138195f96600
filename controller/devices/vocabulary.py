"""The words the table speaks, per language, and how announcements are put together from them.

Every announcement is a sequence of clip keys prepared ahead of time (see
``sounds``), never text synthesised on the spot, so a count never waits.  A clip
is a whole part of a sentence ("seat three", "two wounds", "stand your character
up") in the grammar of its language, so that the parts read, and sound, as one
sentence: "Seat three: two wounds."  :func:`sentence` writes down what a sequence
says, for the game log and for the tests.

Seats are spoken with the number they have everywhere else (docs/table-conventions.md:
0..8 clockwise, the number printed on each standee base's label): seat 0 is "seat zero".
"""

from __future__ import annotations

from collections.abc import Sequence

from ..seats import LANGUAGES

MAX_NUMBER = 9
"""Counts and wounds up to this are clips."""
MAX_SEAT = 8
"""Seats 0..MAX_SEAT are clips."""
PAUSE = "pause"
"""A short silence between two sentences of one announcement."""

_NUMBERS = {
    "en": ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
    "pt": ["um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove"],
    "fr": ["un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"],
    "hu": ["egy", "kettő", "három", "négy", "öt", "hat", "hét", "nyolc", "kilenc"],
}

# Seat names, 0..8.  Hungarian names a numbered seat with the -s adjective: "hármas szék".
_SEATS = {
    "en": [f"seat {n}" for n in ["zero", *_NUMBERS["en"][:8]]],
    "pt": [f"lugar {n}" for n in ["zero", *_NUMBERS["pt"][:8]]],
    "fr": [f"place {n}" for n in ["zéro", *_NUMBERS["fr"][:8]]],
    "hu": [
        f"{n} szék"
        for n in ["nullás", "egyes", "kettes", "hármas", "négyes", "ötös", "hatos", "hetes", "nyolcas"]
    ],
}

# Wounds, 1..9: plural and gender as each language has them (French "blessure" is feminine:
# "une blessure"; Hungarian puts no plural after a numeral and says "két", not "kettő", before a noun).
_WOUNDS = {
    "en": ["one wound", *(f"{n} wounds" for n in _NUMBERS["en"][1:])],
    "pt": ["um ferimento", *(f"{n} ferimentos" for n in _NUMBERS["pt"][1:])],
    "fr": ["une blessure", *(f"{n} blessures" for n in _NUMBERS["fr"][1:])],
    "hu": [f"{n} seb" for n in ["egy", "két", *_NUMBERS["hu"][2:]]],
}

# Sentence parts.  "dead" and the winners' calls are worded so that they fit any player (no gender):
# Portuguese "morreu" (a verb), French "hors jeu", "Victoire :".
_WORDS: dict[str, dict[str, str]] = {
    "banzai": {"en": "Banzai!", "pt": "Banzai!", "fr": "Banzai !", "hu": "Banzai!"},
    "you_lost": {"en": "You lost!", "pt": "Perdeu!", "fr": "Perdu !", "hu": "Vesztettél!"},
    "dead": {"en": "dead", "pt": "morreu", "fr": "hors jeu", "hu": "meghalt"},
    "and": {"en": "and", "pt": "e", "fr": "et", "hu": "és"},
    "split": {"en": "Share the loot:", "pt": "Dividam o saque:", "fr": "Partage du butin :", "hu": "Osztozkodás:"},
    "winner": {"en": "The winner is", "pt": "Vence:", "fr": "Victoire :", "hu": "A győztes:"},
    "winners": {"en": "The winners are", "pt": "Vencem:", "fr": "Victoire :", "hu": "A győztesek:"},
    "too_late": {"en": "too late,", "pt": "tarde demais,", "fr": "trop tard,", "hu": "túl késő,"},
    "aim_again": {"en": "Aim again:", "pt": "Mirem de novo:", "fr": "Visez à nouveau :", "hu": "Célozzatok újra:"},
    "stand_up": {
        "en": "stand your character up", "pt": "levante seu personagem", "fr": "relevez votre personnage",
        "hu": "állítsd fel a figurádat",
    },
    "lie_down": {
        "en": "lay your character down", "pt": "deite seu personagem", "fr": "couchez votre personnage",
        "hu": "fektesd le a figurádat",
    },
    "gang.purple": {"en": "the purple gang", "pt": "a gangue roxa", "fr": "le gang violet", "hu": "a lila banda"},
    "gang.yellow": {"en": "the yellow gang", "pt": "a gangue amarela", "fr": "le gang jaune", "hu": "a sárga banda"},
    "gang.red": {"en": "the red gang", "pt": "a gangue vermelha", "fr": "le gang rouge", "hu": "a piros banda"},
}


def _check(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")


def clip_texts(language: str) -> dict[str, str]:
    """Every spoken clip key of ``language`` with the text it speaks (the pause is silent: not here)."""
    _check(language)
    texts = {f"number.{n}": word for n, word in enumerate(_NUMBERS[language], start=1)}
    texts.update({f"seat.{n}": name for n, name in enumerate(_SEATS[language])})
    texts.update({f"wounds.{n}": words for n, words in enumerate(_WOUNDS[language], start=1)})
    texts.update({key: words[language] for key, words in _WORDS.items()})
    return texts


SPOKEN_KEYS: tuple[str, ...] = tuple(clip_texts("en"))
CLIP_KEYS: tuple[str, ...] = (*SPOKEN_KEYS, PAUSE)
"""Every clip a speaker must have: the spoken ones and the pause."""


def _number(n: int) -> str:
    if not 1 <= n <= MAX_NUMBER:
        raise ValueError(f"cannot speak {n}: only 1..{MAX_NUMBER} are prepared")
    return f"number.{n}"


def _seat(seat: int) -> str:
    if not 0 <= seat <= MAX_SEAT:
        raise ValueError(f"cannot speak seat {seat}: only seats 0..{MAX_SEAT} are prepared")
    return f"seat.{seat}"


def _seats(seats: Sequence[int]) -> list[str]:
    """Seats as a spoken list: "seat zero, seat two and seat four"."""
    clips = [_seat(s) for s in seats]
    return clips if len(clips) < 2 else [*clips[:-1], "and", clips[-1]]


class Phrases:
    """Announcements as clip sequences; the same in every language."""

    @staticmethod
    def count(n: int) -> list[str]:
        return [_number(n)]

    @staticmethod
    def banzai() -> list[str]:
        return ["banzai"]

    @staticmethod
    def you_lost() -> list[str]:
        return ["you_lost"]

    @staticmethod
    def wounded(seat: int, wounds: int) -> list[str]:
        """"Seat three: two wounds." (how many the player has now)."""
        if not 1 <= wounds <= MAX_NUMBER:
            raise ValueError(f"cannot speak {wounds} wounds: only 1..{MAX_NUMBER} are prepared")
        return [_seat(seat), f"wounds.{wounds}"]

    @staticmethod
    def dead(seat: int) -> list[str]:
        return [_seat(seat), "dead"]

    @staticmethod
    def split(seats: Sequence[int]) -> list[str]:
        return ["split", *_seats(seats)]

    @staticmethod
    def winner(*, seat: int | None = None, gang: str | None = None) -> list[str]:
        if (seat is None) == (gang is None):
            raise ValueError("a winner is either a seat or a gang")
        return ["winner", _seat(seat) if seat is not None else f"gang.{gang}"]

    @staticmethod
    def winners(*, seats: Sequence[int] = (), gangs: Sequence[str] = ()) -> list[str]:
        """One or more winners, seats or gangs, in one sentence."""
        if bool(seats) == bool(gangs):
            raise ValueError("winners are seats or gangs")
        if len(seats) + len(gangs) == 1:
            return Phrases.winner(seat=seats[0]) if seats else Phrases.winner(gang=gangs[0])
        if seats:
            return ["winners", *_seats(seats)]
        clips = [f"gang.{g}" for g in gangs]
        return ["winners", *clips[:-1], "and", clips[-1]]

    @staticmethod
    def too_late(seat: int) -> list[str]:
        return [_seat(seat), "too_late", "stand_up"]

    @staticmethod
    def aim_again(seats: Sequence[int]) -> list[str]:
        """"Aim again: seat three and seat five." (their aims were refused: a short count for them follows)."""
        return ["aim_again", *_seats(seats)]

    @staticmethod
    def stand_up(seat: int) -> list[str]:
        return [_seat(seat), "stand_up"]

    @staticmethod
    def lie_down(seat: int) -> list[str]:
        return [_seat(seat), "lie_down"]

    @staticmethod
    def together(*phrases: Sequence[str]) -> list[str]:
        """Several announcements played as one sequence (a new sequence cuts the one playing)."""
        clips: list[str] = []
        for phrase in phrases:
            if phrase:
                clips += ([PAUSE] if clips else []) + list(phrase)
        return clips


def _is_seat(key: str) -> bool:
    return key.startswith("seat.")


def sentence(clips: Sequence[str], language: str) -> str:
    """What ``clips`` say, written as sentences: ``["seat.3", "wounds.2"]`` is "Seat three: two wounds."

    The punctuation is the pause a listener hears between the clips: a colon after the seat
    an announcement is about, commas between the seats of a list.
    """
    texts = clip_texts(language)
    colon = " :" if language == "fr" else ":"
    out: list[str] = []
    for part in _sentences(clips):
        words = ""
        for k, key in enumerate(part):
            text = texts.get(key, key)
            if k == 0:
                words = text
                continue
            before = part[k - 1]
            if k == 1 and _is_seat(before) and not _is_seat(key) and key != "and":
                words += colon + " " + text
            elif (_is_seat(key) and _is_seat(before)) or (key.startswith("gang.") and before.startswith("gang.")):
                words += ", " + text
            else:
                words += " " + text
        if words and words[-1] not in ".!?":
            words += "."
        out.append(words[:1].upper() + words[1:])
    return " ".join(out)


def _sentences(clips: Sequence[str]) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    for key in clips:
        if key == PAUSE:
            parts.append([])
        else:
            parts[-1].append(key)
    return [p for p in parts if p]
