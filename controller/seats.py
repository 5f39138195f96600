"""How a person reads a seat: one numbering everywhere.

Seats are numbered as docs/table-conventions.md numbers them, 0..8 clockwise: the number printed on
each standee base's marker label (``base seat 3``), in the configuration, the game record, the
self-test, the console, the story and the speech alike.  This module depends on nothing, so that
every part of the controller (the devices' self-test included) can call it.
"""

from __future__ import annotations

LANGUAGES = ("en", "pt", "fr", "hu")

_SEAT = {"en": "seat {n}", "pt": "lugar {n}", "fr": "place {n}", "hu": "{n}{suffix} szék"}
# Hungarian "3-as szék": the suffix follows the number's last digit (nullás, egyes, kettes, ...).
_HU_SUFFIX = {0: "-s", 1: "-es", 2: "-es", 3: "-as", 4: "-es", 5: "-ös", 6: "-os", 7: "-es", 8: "-as", 9: "-es"}


def seat_label(seat: int, lang: str = "en") -> str:
    """The seat as a person reads it: ``seat_label(3)`` is "seat 3" (0-based, as on the standee bases)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    return _SEAT[lang].format(n=seat, suffix=_HU_SUFFIX[seat % 10])
