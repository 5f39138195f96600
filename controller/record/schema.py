"""The game record format (``cashnguns-record/1``): reading, checking and writing its shape.

Only the shape is checked here (fields, types, names that exist); whether the
moves are legal is the rules engine's business, asked by :mod:`.replay`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import files
from ..errors import InputFileError
from ..errors import RecordError as RecordError  # a record that breaks the format; str() is one line naming where

FORMAT = "cashnguns-record/1"
OPTIONS = ("super_powers", "objects", "free_seating")
TOP_FIELDS = {"format", "ruleset", "options", "players", "loot", "rounds", "setup"}
USE_FIELDS = {
    "player", "card", "when", "target", "targets", "from", "seat", "redirect", "markers",
    "take_back", "discard", "heal", "took", "gave", "weapon", "played", "drop_shotgun",
}
# The JSON shape of each field of a card use (docs/advanced-rules.md, section 9.2); the engine checks the rest.
_STR, _BOOL, _STRS, _TO_STR, _TO_INT = "a name or card id", "true or false", "a list of names or card ids", \
    "an object of name: name or card", "an object of name: count"
USE_SHAPES = {
    "when": _STR, "target": _STR, "from": _STR, "weapon": _STR, "played": _STR,
    "targets": _STRS, "seat": _STRS, "discard": _STRS,
    "redirect": _TO_STR, "markers": _TO_STR, "took": _TO_STR, "gave": _TO_STR,
    "heal": _TO_INT,
    "take_back": _BOOL, "drop_shotgun": _BOOL,
}
GANGS = ("purple", "yellow", "red")
ROUND_FIELDS = {"cards", "aims", "late", "withdraw", "shuriken", "privilege", "picks", "powers", "objects"}
THROW_FIELDS = {"thrower", "target", "knocked", "touched"}
MAX_BYTES = 4 * files.MIB
LOG_FORMAT_PREFIX = "cashnguns-log/"  # the format a game log names on its first line (its version follows)
"""The largest record file read (a whole game of nine players takes about 20 kB)."""


@dataclass
class Throw:
    thrower: str
    knocked: list[str] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)
    target: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"thrower": self.thrower}
        if self.target is not None:
            out["target"] = self.target
        out["knocked"] = list(self.knocked)
        out["touched"] = list(self.touched)
        return out


@dataclass
class RoundRecord:
    cards: dict[str, str]
    aims: dict[str, str | None]
    late: list[str] = field(default_factory=list)
    withdraw: list[str] = field(default_factory=list)
    shuriken: list[Throw] = field(default_factory=list)
    privilege: dict[str, str] | None = None
    picks: list[dict[str, str]] = field(default_factory=list)
    powers: list[dict[str, Any]] = field(default_factory=list)  # uses of Super Powers and Super Kiai
    objects: list[dict[str, Any]] = field(default_factory=list)  # uses of Objects

    def to_dict(self, ruleset: str) -> dict[str, Any]:
        out: dict[str, Any] = {"cards": dict(self.cards), "aims": dict(self.aims)}
        if self.late:
            out["late"] = list(self.late)
        out["withdraw"] = list(self.withdraw)
        if ruleset == "yakuzas":
            out["shuriken"] = [t.to_dict() for t in self.shuriken]
        if ruleset == "classic-2014":
            if self.privilege is not None:
                out["privilege"] = dict(self.privilege)
            out["picks"] = [dict(p) for p in self.picks]
        if self.powers:
            out["powers"] = [dict(u) for u in self.powers]
        if self.objects:
            out["objects"] = [dict(u) for u in self.objects]
        return out


@dataclass
class Record:
    ruleset: str
    players: list[tuple[str, str | None]]
    loot: list[list[int | str]]
    rounds: list[RoundRecord] = field(default_factory=list)
    options: dict[str, bool] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)  # advanced rules: cards dealt and kept

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.players]

    def to_dict(self) -> dict[str, Any]:
        players = [{"name": n, "gang": g} if g is not None else {"name": n} for n, g in self.players]
        out = {
            "format": FORMAT,
            "ruleset": self.ruleset,
            "options": {k: bool(self.options.get(k, False)) for k in OPTIONS},
            "players": players,
            "loot": [list(p) for p in self.loot],
        }
        if self.setup:
            out["setup"] = self.setup
        out["rounds"] = [r.to_dict(self.ruleset) for r in self.rounds]
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), indent=1) + "\n"


def load(path: str | Path) -> Record:
    """Read a record file; every failure is a one-line :class:`RecordError`."""
    try:
        raw = files.read_bytes(path, limit=MAX_BYTES, what="record")
    except InputFileError as exc:
        raise RecordError(str(exc)) from None
    try:
        data = files.loads_json(raw, where=str(path))
    except InputFileError as exc:
        if _a_game_log(raw):
            raise RecordError(f"{path}: a game log, not a game record (cashnguns resume {path} goes on with "
                              "its game, or writes its record if the game is over)") from None
        raise RecordError(str(exc)) from None
    return from_dict(data)


def _a_game_log(data: bytes) -> bool:
    """Whether ``data`` is a table's game log (one JSON object a line, the first naming its format)."""
    first = data.split(b"\n", 1)[0]
    try:
        head = files.loads_json(first, where="game log")
    except InputFileError:
        return False
    return isinstance(head, dict) and str(head.get("format", "")).startswith(LOG_FORMAT_PREFIX)


def loads(text: str, *, source: str = "record") -> Record:
    try:
        data = files.loads_json(text, where=source)
    except InputFileError as exc:
        raise RecordError(str(exc)) from None
    return from_dict(data)


def _fail(where: str, what: str) -> RecordError:
    return RecordError(f"{where}: {what}")


def _expect_type(value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
    if isinstance(value, bool) and kind is not bool:
        raise _fail(where, f"expected {what}, got {json.dumps(value)}")
    if not isinstance(value, kind):
        raise _fail(where, f"expected {what}, got {json.dumps(value)[:40]}")
    return value


def _unknown(data: dict[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise _fail(where, f"unknown field {extra[0]!r}")


def from_dict(data: Any) -> Record:
    _expect_type(data, dict, "record", "a JSON object")
    _unknown(data, TOP_FIELDS, "record")
    if data.get("format") != FORMAT:
        raise _fail("format", f"expected {FORMAT!r}, got {json.dumps(data.get('format'))}")
    ruleset = data.get("ruleset")
    if ruleset not in ("classic", "classic-2014", "yakuzas"):
        raise _fail("ruleset", f"expected classic, classic-2014 or yakuzas, got {json.dumps(ruleset)}")
    options = _expect_type(data.get("options", {}), dict, "options", "an object")
    _unknown(options, set(OPTIONS), "options")
    for key, value in options.items():
        _expect_type(value, bool, f"options: {key}", "true or false")
    players = []
    for k, entry in enumerate(_expect_type(data.get("players"), list, "players", "a list")):
        where = f"players: seat {k}"
        _expect_type(entry, dict, where, "an object with a name")
        _unknown(entry, {"name", "gang"}, where)
        name = _expect_type(entry.get("name"), str, where, "a name")
        gang = entry.get("gang")
        if gang is not None and gang not in GANGS:
            raise _fail(where, f"{name}: expected a gang (purple, yellow or red), got {json.dumps(gang)[:40]}")
        if "gang" in entry and ruleset != "yakuzas":
            raise _fail(where, f"{name} may not have a gang in {ruleset}")
        players.append((name, gang))
    loot = []
    for k, pile in enumerate(_expect_type(data.get("loot"), list, "loot", "a list of piles"), start=1):
        _expect_type(pile, list, f"loot: pile {k}", "a list")
        kind = str if ruleset == "classic-2014" else int
        for item in pile:
            _expect_type(item, kind, f"loot: pile {k}", "loot card ids" if kind is str else "bill values")
        loot.append(list(pile))
    names = {n for n, _ in players}
    rounds = [
        _round(r, k, names, ruleset)
        for k, r in enumerate(_expect_type(data.get("rounds", []), list, "rounds", "a list"), start=1)
    ]
    setup = _expect_type(data.get("setup", {}), dict, "setup", "an object")
    _unknown(setup, {"powers", "objects"}, "setup")
    for part, value in setup.items():
        _expect_type(value, dict, f"setup: {part}", "an object with dealt and kept")
        _unknown(value, {"dealt", "kept"}, f"setup: {part}")
        dealt = value.get("dealt")
        if dealt is not None:
            owners = names if ruleset != "yakuzas" else {g for _, g in players if g is not None}
            for owner, cards in _expect_type(dealt, dict, f"setup: {part}: dealt", "an object").items():
                if owner not in owners:
                    what = "a gang of this game" if ruleset == "yakuzas" else "a player"
                    raise _fail(f"setup: {part}: dealt", f"{owner!r} is not {what}")
                size = sum(g == owner for _, g in players)
                if ruleset == "yakuzas" and size not in (2, 3):  # the deal depends on it
                    raise _fail(f"setup: {part}: dealt", f"the {owner} gang has {size} players; gangs are of 2 or 3")
                _expect_type(cards, list, f"setup: {part}: dealt: {owner}", "a list of card ids")
                for card in cards:
                    _expect_type(card, str, f"setup: {part}: dealt: {owner}", "card ids")
        kept = value.get("kept", {})
        for name, card in _expect_type(kept, dict, f"setup: {part}: kept", "an object of player: card").items():
            _name(name, names, f"setup: {part}: kept")
            if card is not None:
                _expect_type(card, str, f"setup: {part}: kept: {name}", "a card id or null")
    return Record(ruleset, players, loot, rounds, {k: options.get(k, False) for k in OPTIONS}, setup)


def _use_shape(value: Any, shape: str, where: str) -> None:
    if shape == _STR:
        ok = isinstance(value, str)
    elif shape == _BOOL:
        ok = isinstance(value, bool)
    elif shape == _STRS:
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    elif shape == _TO_STR:
        ok = isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    else:
        ok = isinstance(value, dict) and all(isinstance(v, int) and not isinstance(v, bool) for v in value.values())
    if not ok:
        raise _fail(where, f"expected {shape}, got {json.dumps(value)[:40]}")


def _name(value: Any, names: set[str], where: str, *, nullable: bool = False) -> str | None:
    if value is None and nullable:
        return None
    if not isinstance(value, str):
        raise _fail(where, f"expected a player name, got {json.dumps(value)[:40]}")
    if value not in names:
        raise _fail(where, f"{value!r} is not a player")
    return value


def _names(value: Any, names: set[str], where: str) -> list[str]:
    _expect_type(value, list, where, "a list of player names")
    return [_required_name(v, names, where) for v in value]


def _required_name(value: Any, names: set[str], where: str) -> str:
    name = _name(value, names, where)
    if name is None:
        raise _fail(where, "expected a player name, got null")
    return name


def _round(data: Any, k: int, names: set[str], ruleset: str) -> RoundRecord:
    where = f"round {k}"
    _expect_type(data, dict, where, "an object")
    _unknown(data, ROUND_FIELDS, where)
    uses = {}
    for key in ("powers", "objects"):
        raw = _expect_type(data.get(key, []), list, f"{where}: {key}", "a list of uses")
        for j, use in enumerate(raw, start=1):
            uw = f"{where}: {key} {j}"
            _expect_type(use, dict, uw, "an object")
            _unknown(use, USE_FIELDS, uw)
            _name(use.get("player"), names, f"{uw}: player")
            _expect_type(use.get("card"), str, f"{uw}: card", "a card id")
            for field_name, value in use.items():
                if field_name in USE_SHAPES and value is not None:
                    _use_shape(value, USE_SHAPES[field_name], f"{uw}: {field_name}")
        uses[key] = [dict(u) for u in raw]
    cards = _expect_type(data.get("cards"), dict, f"{where}: cards", "an object of player: card")
    for name, card in cards.items():
        _name(name, names, f"{where}: cards")
        if card not in ("clic", "bang", "bbb", "cling", "tanto", "shuriken"):
            raise _fail(f"{where}: cards", f"{name}: {json.dumps(card)} is not a card")
    aims = _expect_type(data.get("aims"), dict, f"{where}: aims", "an object of player: target")
    for name, target in aims.items():
        _name(name, names, f"{where}: aims")
        _name(target, names, f"{where}: aims: {name}", nullable=True)
    late = _names(data.get("late", []), names, f"{where}: late")
    withdraw = _names(data.get("withdraw", []), names, f"{where}: withdraw")
    throws = []
    raw_throws = _expect_type(data.get("shuriken", []), list, f"{where}: shuriken", "a list of throws")
    if raw_throws and ruleset != "yakuzas":
        raise _fail(f"{where}: shuriken", f"there are no shuriken in {ruleset}")
    for j, t in enumerate(raw_throws, start=1):
        tw = f"{where}: shuriken {j}"
        _expect_type(t, dict, tw, "an object")
        _unknown(t, THROW_FIELDS, tw)
        throws.append(
            Throw(
                thrower=_required_name(t.get("thrower"), names, f"{tw}: thrower"),
                knocked=_names(t.get("knocked", []), names, f"{tw}: knocked"),
                touched=_names(t.get("touched", []), names, f"{tw}: touched"),
                target=_name(t.get("target"), names, f"{tw}: target", nullable=True),
            )
        )
    privilege = data.get("privilege")
    if privilege is not None:
        if ruleset != "classic-2014":
            raise _fail(f"{where}: privilege", "the Godfather's privilege is a classic-2014 rule")
        _expect_type(privilege, dict, f"{where}: privilege", "an object")
        _unknown(privilege, {"player", "target"}, f"{where}: privilege")
        privilege = {
            "player": _name(privilege.get("player"), names, f"{where}: privilege: player"),
            "target": _name(privilege.get("target"), names, f"{where}: privilege: target"),
        }
    picks = []
    raw_picks = _expect_type(data.get("picks", []), list, f"{where}: picks", "a list of picks")
    if raw_picks and ruleset != "classic-2014":
        raise _fail(f"{where}: picks", f"{ruleset} splits bills; picks are a classic-2014 rule")
    for j, pick in enumerate(raw_picks, start=1):
        pw = f"{where}: pick {j}"
        _expect_type(pick, dict, pw, "an object")
        _unknown(pick, {"player", "take"}, pw)
        take = _expect_type(pick.get("take"), str, f"{pw}: take", "a loot card id or \"godfather\"")
        picks.append({"player": _name(pick.get("player"), names, f"{pw}: player"), "take": take})
    return RoundRecord(dict(cards), dict(aims), late, withdraw, throws, privilege, picks, uses["powers"], uses["objects"])
