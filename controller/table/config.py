"""The table's configuration: one TOML file (``hardware/table.toml`` is the documented default).

It says which game is played (rule set, options, players and seats, the bank), how the
table speaks (language), where the devices are (the device configuration of
``hardware/pinout.toml``, which the ``[devices]``, ``[tilt]``, ``[seat_leds]``,
``[count_leds]``, ``[buzzer]``, ``[sound]`` and ``[timing]`` sections of this file
override key by key), the camera, the console and the game logs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import errors, files
from ..devices.pinout import DEVICE_SECTIONS, HARDWARE_DEFAULTS, MAX_BYTES, TABLE_KEYS, TABLE_SECTIONS, DevicesConfig, table_devices
from ..rules import RuleSet
from ..rules.rulesets import SEATINGS, SPECS
from ..seats import LANGUAGES

DEFAULT_CONFIG = HARDWARE_DEFAULTS / "table.toml"
MAX_NAME = 24
"""The longest player name (it is spoken, shown on a phone and printed on a standee's base)."""
GANGS = ("purple", "yellow", "red")
LOG_DIR = "~/.local/share/cashnguns-table"
"""The game logs' folder unless ``[log] dir`` says otherwise; the demo's games go in its ``demos`` folder."""
DEFAULT_LOG_DIR = Path(LOG_DIR).expanduser()
BANKS = ("digital", "physical")


class ConfigError(errors.ConfigError, ValueError):
    """A configuration that cannot be used; ``str()`` names the file and the key."""


@dataclass(frozen=True)
class CameraConfig:
    source: str = "none"  # "none", "webcam:N" (or "webcam:/dev/videoN"), "picamera"
    calibration: Path | None = None
    ask_godfather_below: float = 0.6  # a throw verdict or an aim read less sure than this goes to the Godfather
    exposure_ms: float | None = None  # None: the camera's default (vision.sources.CameraSettings: 8 ms)
    gain: float | None = None  # None: the camera's default (1)


@dataclass(frozen=True)
class TableConfig:
    ruleset: RuleSet
    players: tuple[tuple[str, str | None], ...]
    super_powers: bool = False
    objects: bool = False
    free_seating: bool = False
    bank: str = "digital"
    seed: int = 0
    language: str = "en"
    camera: CameraConfig = field(default_factory=CameraConfig)
    console_host: str = "0.0.0.0"
    console_port: int = 8080
    log_dir: Path = DEFAULT_LOG_DIR
    device_overrides: dict[str, Any] = field(default_factory=dict)
    source: Path | None = None

    @property
    def options(self) -> dict[str, bool]:
        return {"super_powers": self.super_powers, "objects": self.objects, "free_seating": self.free_seating}

    def devices(self) -> DevicesConfig:
        """The device configuration: the default pin map, with this file's device sections over it."""
        where = str(self.source) if self.source else "table configuration"
        try:
            return table_devices(self.device_overrides, seats=len(self.players), language=self.language, where=where)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None


def load(path: str | Path | None = None) -> TableConfig:
    """Read a table configuration (default: ``hardware/table.toml``)."""
    path = Path(path) if path is not None else DEFAULT_CONFIG
    try:
        data = files.read_toml(path, limit=MAX_BYTES)
    except errors.InputFileError as exc:
        raise ConfigError(str(exc)) from None
    config = from_dict(data, source=path)
    config.devices()  # the device sections are checked now, not when the table opens them
    return config


def from_dict(data: dict[str, Any], *, source: Path | None = None) -> TableConfig:
    where = str(source) if source else "configuration"

    def fail(key: str, what: str) -> ConfigError:
        return ConfigError(f"{where}: {key}: {what}")

    known = {*TABLE_SECTIONS, *DEVICE_SECTIONS}
    for section, value in data.items():
        if section not in known:
            raise fail(section, f"unknown section (known: {', '.join(sorted(known))})")
        if not isinstance(value, dict):
            raise fail(section, f"must be a [{section}] section")
    for section, keys in TABLE_KEYS.items():
        unknown = sorted(set(data.get(section, {})) - keys)
        if unknown:
            raise fail(f"{section}.{unknown[0]}", f"unknown key (known: {', '.join(sorted(keys))})")
    game = data.get("game", {})
    try:
        ruleset = RuleSet(game.get("ruleset", "yakuzas"))
    except ValueError:
        raise fail("game.ruleset", "classic, classic-2014 or yakuzas") from None
    spec = SPECS[ruleset]
    names = game.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise fail("game.players", "a list of player names, clockwise from seat 0")
    if not spec.min_players <= len(names) <= spec.max_players:
        raise fail("game.players", f"{ruleset} is for {spec.min_players}-{spec.max_players} players, not {len(names)}")
    _check_names(names, fail)
    gangs = game.get("gangs")
    if ruleset is RuleSet.YAKUZAS:
        if gangs is None:
            gangs = [str(g) for g in SEATINGS[len(names)]]
        if not isinstance(gangs, list) or len(gangs) != len(names) or not all(g in GANGS for g in gangs):
            raise fail("game.gangs", "one gang (purple, yellow, red) per player")
        players = tuple(zip(names, gangs))
    else:
        if gangs:
            raise fail("game.gangs", f"there are no gangs in {ruleset}")
        players = tuple((n, None) for n in names)
    bank = game.get("bank", "digital")
    if bank not in BANKS:
        raise fail("game.bank", "digital or physical")
    language = game.get("language", "en")
    if language not in LANGUAGES:
        raise fail("game.language", f"one of {', '.join(LANGUAGES)}")
    for key in ("super_powers", "objects", "free_seating"):
        if not isinstance(game.get(key, False), bool):
            raise fail(f"game.{key}", "true or false")
    seed = game.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise fail("game.seed", "a whole number")
    camera = data.get("camera", {})
    calibration = camera.get("calibration")
    if calibration is not None and not isinstance(calibration, str):
        raise fail("camera.calibration", "the path of a calibration file")
    ask = camera.get("ask_godfather_below", 0.6)
    if not isinstance(ask, (int, float)) or isinstance(ask, bool) or not 0 <= ask <= 1:
        raise fail("camera.ask_godfather_below", "a number from 0 to 1")
    if calibration and source is not None:
        calibration = (source.parent / calibration).resolve()
    settings: dict[str, float] = {}
    for key in ("exposure_ms", "gain"):
        if key in camera:
            why = _camera_setting_problem(key, camera[key])
            if why:
                raise fail(f"camera.{key}", why)
            settings[key] = float(camera[key])
    source_name = camera.get("source", "none")
    if not _camera_source(source_name):
        shown = repr(source_name)[:60] if isinstance(source_name, str) else "not a string"
        raise fail("camera.source", f"{shown} is not a camera: none, picamera or webcam:N (N: the webcam's number, "
                   "or its device path such as /dev/video0)")
    console = data.get("console", {})
    port = console.get("port", 8080)
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise fail("console.port", "a TCP port number")
    host = console.get("host", "0.0.0.0")
    if not isinstance(host, str):
        raise fail("console.host", "an address, such as 0.0.0.0")
    log_dir = data.get("log", {}).get("dir", LOG_DIR)
    if not isinstance(log_dir, str) or not log_dir:
        raise fail("log.dir", "the folder of the game logs")
    log_dir = Path(log_dir).expanduser()
    return TableConfig(
        ruleset=ruleset,
        players=players,
        super_powers=game.get("super_powers", False),
        objects=game.get("objects", False),
        free_seating=game.get("free_seating", False),
        bank=bank,
        seed=seed,
        language=language,
        camera=CameraConfig(source_name, Path(calibration) if calibration else None, float(ask), **settings),
        console_host=host,
        console_port=port,
        log_dir=log_dir,
        device_overrides={k: dict(v) for k, v in data.items() if k in DEVICE_SECTIONS},
        source=source,
    )


def _camera_setting_problem(key: str, value: object) -> str | None:
    """What is wrong with ``[camera] key`` (``exposure_ms``, ``gain``): the camera's own check."""
    from vision.sources import CameraSettings  # OpenCV is loaded only for a file that sets them

    return CameraSettings().problem(key, value, shown=repr(value) if isinstance(value, str) else None)


def _camera_source(value: object) -> bool:
    """Whether ``value`` names a camera a table can open (a simulated game films its own, whatever it names)."""
    if not isinstance(value, str):
        return False
    if value in ("none", "picamera"):
        return True
    device = value.removeprefix("webcam:")
    return value.startswith("webcam:") and (device.isdigit() or (device.startswith("/dev/") and device.isprintable()))


def _check_names(names: list[str], fail: Callable[[str, str], ConfigError]) -> None:
    """Each player's name: printable, at most :data:`MAX_NAME` characters, and no two alike."""
    seen: dict[str, str] = {}
    for seat, name in enumerate(names):
        if not name.strip():
            raise fail("game.players", f"seat {seat}: an empty name")
        if len(name) > MAX_NAME:
            raise fail("game.players", f"seat {seat}: {name[:MAX_NAME]!r}... is longer than {MAX_NAME} characters")
        if not name.isprintable() or name != name.strip():
            raise fail("game.players", f"seat {seat}: {name!r} has spaces around it or characters that do not print")
        key = name.casefold()
        if key in seen:
            raise fail("game.players", f"{name!r} is listed twice (seats {seen[key]} and {seat}): each player needs a different name")
        seen[key] = str(seat)
