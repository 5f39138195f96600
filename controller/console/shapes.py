"""The shapes of the inputs a Godfather's page may send, checked before anything else reads them.

The page sends JSON; anything can arrive.  Each kind of input declares its fields and their
types here, once; :func:`check` names the first field that does not fit, in one line, and the
input is refused (409) without reaching the referee.
"""

from __future__ import annotations

from typing import Any

NAME = "name"  # a player's name
OPT_NAME = "name or null"
NAMES = "list of names"
TEXT = "text"
CARD_MAP = "object: name -> card"
AIM_MAP = "object: name -> name or null"
ITEMS = "list of loot items"
ITEM = "loot item"
PICK_LIST = "list of picks (player, take)"
BOOL = "true or false"
NUMBER = "number or null"
COUNT = "whole number"
USE = "card use"

MAX_LIST = 64
MAX_TEXT = 200

# kind -> field -> (type, required)
INPUTS: dict[str, dict[str, tuple[str, bool]]] = {
    "pile": {"items": (ITEMS, True)},
    "cards": {"cards": (CARD_MAP, False)},
    "aims": {"aims": (AIM_MAP, True), "late": (NAMES, False)},
    "privilege": {"player": (OPT_NAME, False), "target": (OPT_NAME, False)},
    "withdraw": {"withdrew": (NAMES, False), "too_late": (NAMES, False), "source": (TEXT, False)},
    "show": {"cards": (CARD_MAP, True), "later": (CARD_MAP, False)},  # later: see Relay.submit
    "throw": {"thrower": (NAME, True), "target": (OPT_NAME, False), "knocked": (NAMES, False), "touched": (NAMES, False),
              "source": (TEXT, False), "confidence": (NUMBER, False)},
    "throws-done": {},
    "pick": {"player": (NAME, True), "take": (ITEM, True), "seen": (COUNT, False)},
    "picks": {"picks": (PICK_LIST, True), "seen": (COUNT, False)},
    "use": {"use": (USE, True)},
    "resume": {},
    # the console's own: not inputs of the game
    "sensor": {"player": (NAME, True), "godfather": (BOOL, False)},
    "undo": {"count": (COUNT, False)},
    "wait": {},  # the cards are not down yet: the count waits for the Godfather
    "watch": {"thrower": (OPT_NAME, True), "target": (OPT_NAME, False)},  # the camera cued for a throw (null: stop)
    "claim": {"cards": (CARD_MAP, True)},  # cards entered on a page (null: taken back); see Relay.claim
}

# The fields of a card use (docs/advanced-rules.md, section 9.2), by type.
USE_FIELDS: dict[str, str] = {
    "player": NAME, "card": TEXT, "when": TEXT,
    "target": OPT_NAME, "from": OPT_NAME, "weapon": OPT_NAME, "played": TEXT,
    "targets": NAMES, "seat": NAMES, "discard": NAMES,
    "redirect": "object: name -> name", "markers": "object: name -> wound or blank", "heal": "object: name -> count",
    "took": CARD_MAP, "gave": CARD_MAP, "take_back": BOOL, "drop_shotgun": BOOL,
}
SOURCES = ("sensors", "godfather", "sensors and godfather", "camera")


class ShapeError(ValueError):
    """An input whose shape is wrong; ``str()`` names the field."""


def _text(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT


def _fits(kind: str, value: Any) -> bool:
    if kind in (NAME, TEXT):
        return _text(value)
    if kind == OPT_NAME:
        return value is None or _text(value)
    if kind == NAMES:
        return isinstance(value, list) and len(value) <= MAX_LIST and all(_text(v) for v in value)
    if kind == BOOL:
        return isinstance(value, bool)
    if kind == COUNT:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1_000_000
    if kind == NUMBER:
        return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 1e9)
    if kind == ITEM:
        return _text(value) or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1_000_000)
    if kind == PICK_LIST:
        return (isinstance(value, list) and 0 < len(value) <= MAX_LIST
                and all(isinstance(v, dict) and set(v) == {"player", "take"} and _text(v["player"]) and _text(v["take"])
                        for v in value))
    if kind == ITEMS:
        return isinstance(value, list) and len(value) <= MAX_LIST and all(_fits(ITEM, v) for v in value)
    if kind.startswith("object: name -> "):
        if not isinstance(value, dict) or len(value) > MAX_LIST or not all(_text(k) for k in value):
            return False
        inner = kind.removeprefix("object: name -> ")
        if inner == "card":
            return all(_text(v) for v in value.values())
        if inner == "card or null":
            return all(v is None or _text(v) for v in value.values())
        if inner == "name":
            return all(_text(v) for v in value.values())
        if inner == "name or null":
            return all(v is None or _text(v) for v in value.values())
        if inner == "wound or blank":
            return all(v in ("wound", "blank") for v in value.values())
        if inner == "count":
            return all(_fits(COUNT, v) for v in value.values())
    return False


def check(data: Any) -> None:
    """Raise :class:`ShapeError` (one line naming the field) unless ``data`` has the shape of an input."""
    if not isinstance(data, dict):
        raise ShapeError("an input is a JSON object with a kind")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in INPUTS:
        shown = kind if isinstance(kind, str) and len(kind) <= 40 else type(kind).__name__
        raise ShapeError(f"unknown input kind {shown!r}")
    fields = INPUTS[kind]
    for key, value in data.items():
        if key == "kind":
            continue
        if key not in fields:
            raise ShapeError(f"{kind}: unexpected field {key[:40]!r}")
        wanted = fields[key][0]
        if wanted == USE:
            _check_use(value)
        elif key == "cards" and kind in ("cards", "claim"):
            if not _fits("object: name -> card or null", value):
                raise ShapeError(f"{kind}: {key} must be an {CARD_MAP} (or null)")
        elif not _fits(wanted, value):
            raise ShapeError(f"{kind}: {key} must be a {wanted}" if not wanted.startswith("object") else f"{kind}: {key} must be an {wanted}")
    for key, (_, required) in fields.items():
        if required and key not in data:
            raise ShapeError(f"{kind}: {key} is missing")
    if kind in ("withdraw", "throw") and "source" in data and data["source"] not in SOURCES:
        raise ShapeError(f"{kind}: source must be one of {', '.join(SOURCES)}")


def _check_use(value: Any) -> None:
    if not isinstance(value, dict):
        raise ShapeError("use: a card use is an object (player, card, when and the card's own fields)")
    for key, field in value.items():
        wanted = USE_FIELDS.get(key)
        if wanted is None:
            raise ShapeError(f"use: unexpected field {key[:40]!r}")
        if not _fits(wanted, field):
            raise ShapeError(f"use: {key} must be a {wanted}" if not wanted.startswith("object") else f"use: {key} must be an {wanted}")
    for key in ("player", "card"):
        if key not in value:
            raise ShapeError(f"use: {key} is missing")
