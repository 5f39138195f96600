"""The words the table speaks, per language, and how announcements are put together from them.

Every announcement is a sequence of clip keys prepared ahead of time (see
``sounds``), never text synthesised on the spot, so a count never waits.
Seats are spoken counting from one: seat 0 is "seat one".
"""

from __future__ import annotations

from typing import Sequence

LANGUAGES = ("en", "pt", "fr", "hu")

MAX_NUMBER = 9
"""Numbers up to this are clips: the counts, seats (1..9) and wounds."""

_NUMBERS = {
    "en": ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
    "pt": ["um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove"],
    "fr": ["un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"],
    "hu": ["egy", "kettő", "három", "négy", "öt", "hat", "hét", "nyolc", "kilenc"],
}

_WORDS: dict[str, dict[str, str]] = {
    "banzai": {"en": "Banzai!", "pt": "Banzai!", "fr": "Banzai !", "hu": "Banzai!"},
    "you_lost": {"en": "You lost!", "pt": "Perdeu!", "fr": "Perdu !", "hu": "Vesztettél!"},
    "seat": {"en": "seat", "pt": "lugar", "fr": "place", "hu": "szék"},
    "wound": {"en": "wound", "pt": "ferimento", "fr": "blessure", "hu": "sebesülés"},
    "wounds": {"en": "wounds", "pt": "ferimentos", "fr": "blessures", "hu": "sebesülés"},
    "dead": {"en": "is dead", "pt": "morreu", "fr": "est mort", "hu": "meghalt"},
    "split": {"en": "Share the loot", "pt": "Dividam o saque", "fr": "Partage du butin", "hu": "Osztozkodás"},
    "winner": {"en": "The winner is", "pt": "O vencedor é", "fr": "Le gagnant est", "hu": "A győztes"},
    "too_late": {"en": "Too late!", "pt": "Tarde demais!", "fr": "Trop tard !", "hu": "Túl késő!"},
    "stand_up": {"en": "stand up", "pt": "levante-se", "fr": "relevez-vous", "hu": "állj fel"},
    "lie_down": {"en": "lie down", "pt": "deite-se", "fr": "couchez-vous", "hu": "feküdj le"},
    "gang.purple": {"en": "purple", "pt": "roxo", "fr": "violet", "hu": "lila"},
    "gang.yellow": {"en": "yellow", "pt": "amarelo", "fr": "jaune", "hu": "sárga"},
    "gang.red": {"en": "red", "pt": "vermelho", "fr": "rouge", "hu": "piros"},
}


def clip_texts(language: str) -> dict[str, str]:
    """Every clip key of ``language`` with the text it speaks."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
    texts = {f"number.{n}": word for n, word in enumerate(_NUMBERS[language], start=1)}
    texts.update({key: words[language] for key, words in _WORDS.items()})
    return texts


CLIP_KEYS: tuple[str, ...] = tuple(clip_texts("en"))


def _number(n: int) -> str:
    if not 1 <= n <= MAX_NUMBER:
        raise ValueError(f"cannot speak {n}: only 1..{MAX_NUMBER} are prepared")
    return f"number.{n}"


def _seat(seat: int) -> list[str]:
    return ["seat", _number(seat + 1)]


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
        return [*_seat(seat), _number(wounds), "wound" if wounds == 1 else "wounds"]

    @staticmethod
    def dead(seat: int) -> list[str]:
        return [*_seat(seat), "dead"]

    @staticmethod
    def split(seats: Sequence[int]) -> list[str]:
        return ["split", *(clip for seat in seats for clip in _seat(seat))]

    @staticmethod
    def winner(*, seat: int | None = None, gang: str | None = None) -> list[str]:
        if (seat is None) == (gang is None):
            raise ValueError("a winner is either a seat or a gang")
        return ["winner", *(_seat(seat) if seat is not None else [f"gang.{gang}"])]

    @staticmethod
    def too_late(seat: int) -> list[str]:
        return [*_seat(seat), "too_late", "stand_up"]

    @staticmethod
    def stand_up(seat: int) -> list[str]:
        return [*_seat(seat), "stand_up"]

    @staticmethod
    def lie_down(seat: int) -> list[str]:
        return [*_seat(seat), "lie_down"]
