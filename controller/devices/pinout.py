"""Device configuration: ``hardware/pinout.toml``, overridden key by key by a user file.

The override file has the same sections and holds only what differs::

    [devices]
    seats = 6
    [sound]
    language = "fr"
    [timing]
    count_interval = 1.0

It is given as a path, or through the ``CASHNGUNS_DEVICES`` environment variable.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import files
from ..errors import InputFileError
from ..seats import LANGUAGES
from .lamps import LED_KINDS, SeatLedPins
from .sounds import ENGINES
from .timing import Timing

_PACKAGE = Path(__file__).resolve().parents[1]
_SOURCE_TREE = _PACKAGE.parent / "hardware"  # a checkout, or an editable install
_PACKAGED = _PACKAGE / "hardware_defaults"  # a wheel ships hardware/*.toml as package data
HARDWARE_DEFAULTS = _PACKAGED if _PACKAGED.is_dir() and not (_SOURCE_TREE / "pinout.toml").is_file() else _SOURCE_TREE
"""Where the default pin map and table configuration are: ``hardware/`` of a checkout, or the installed package."""
DEFAULT_PINOUT = HARDWARE_DEFAULTS / "pinout.toml"
MAX_BYTES = 256 * 1024
"""The largest configuration file read."""
ENVIRONMENT_VARIABLE = "CASHNGUNS_DEVICES"
BACKENDS = ("gpio", "hub")
OUTPUTS = ("aplay", "buzzer", "none")
MAX_SEATS = 9

_SECTIONS: dict[str, set[str]] = {
    "devices": {"backend", "seats", "hub_url", "reserved_pins"},
    "tilt": {"pins"},
    "seat_leds": {"kind", "pins"},
    "count_leds": {"pins"},
    "buzzer": {"pin"},
    "sound": {"output", "language", "engine", "alsa_device", "cache_dir"},
    "timing": set(Timing.__dataclass_fields__),
}


@dataclass(frozen=True)
class SoundConfig:
    output: str = "aplay"
    language: str = "en"
    engine: str = "auto"
    alsa_device: str = ""
    cache_dir: Path = Path("~/.cache/cashnguns-table/sounds").expanduser()


@dataclass(frozen=True)
class DevicesConfig:
    """Everything needed to open the table's devices."""

    backend: str
    seats: int
    hub_url: str
    tilt_pins: tuple[int | str, ...]
    seat_led_kind: str
    seat_led_pins: tuple[SeatLedPins, ...]
    count_led_pins: tuple[int | str, ...]
    buzzer_pin: int | str | None
    sound: SoundConfig
    timing: Timing
    reserved_pins: tuple[int | str, ...] = ()
    """Pi pins other hardware holds (an I2S amplifier): no device may use them."""
    sources: tuple[Path, ...] = ()
    """The files it was read from, defaults first."""


def read_toml(path: Path) -> dict[str, Any]:
    """A configuration file, read within the limits of :mod:`controller.files`."""
    try:
        return files.read_toml(path, limit=MAX_BYTES)
    except InputFileError as error:
        raise ValueError(str(error)) from None


def merge(base: dict[str, Any], override: dict[str, Any], *, where: str) -> dict[str, Any]:
    """``base`` with ``override``'s keys replacing its own, section by section."""
    merged = {section: dict(values) for section, values in base.items()}
    for section, values in override.items():
        if section not in _SECTIONS:
            raise ValueError(f"{where}: unknown section [{section}] (known: {', '.join(_SECTIONS)})")
        if not isinstance(values, dict):
            raise ValueError(f"{where}: {section} must be a [section]")
        for key in values:
            if key not in _SECTIONS[section]:
                raise ValueError(f"{where}: unknown key {section}.{key} (known: {', '.join(sorted(_SECTIONS[section]))})")
        merged.setdefault(section, {}).update(values)
    return merged


def load_config(path: str | Path | None = None, *, defaults: Path = DEFAULT_PINOUT) -> DevicesConfig:
    """Read ``defaults`` then the override at ``path`` (or ``$CASHNGUNS_DEVICES``), and check them."""
    if path is None and os.environ.get(ENVIRONMENT_VARIABLE):
        path = os.environ[ENVIRONMENT_VARIABLE]
    sources = [defaults]
    data = merge({}, read_toml(defaults), where=str(defaults))
    if path is not None:
        override = Path(path).expanduser()
        data = merge(data, read_toml(override), where=str(override))
        sources.append(override)
    return build_config(data, where=" + ".join(str(s) for s in sources), sources=tuple(sources))


DEVICE_SECTIONS = tuple(_SECTIONS)
"""The sections of the pin map, which a table configuration (``hardware/table.toml``) overrides key by key."""
TABLE_KEYS: dict[str, frozenset[str]] = {
    "game": frozenset({"ruleset", "players", "gangs", "super_powers", "objects", "free_seating", "bank", "seed",
                       "language"}),
    "camera": frozenset({"source", "calibration", "ask_godfather_below", "exposure_ms", "gain"}),
    "console": frozenset({"host", "port"}),
    "log": frozenset({"dir"}),
}
"""The other sections of a table configuration, and their keys: :mod:`controller.table.config` reads them (and
refuses any other key); the self-test leaves them aside."""
TABLE_SECTIONS = tuple(TABLE_KEYS)


def table_devices(sections: dict[str, Any], *, seats: int, language: str, where: str) -> DevicesConfig:
    """The devices of a table configuration: the default pin map with the file's device ``sections`` over it,
    for ``seats`` seats speaking ``language`` unless those sections say otherwise."""
    overrides = {section: dict(values) for section, values in sections.items()}
    overrides.setdefault("devices", {}).setdefault("seats", seats)
    overrides.setdefault("sound", {}).setdefault("language", language)
    data = merge(merge({}, read_toml(DEFAULT_PINOUT), where=str(DEFAULT_PINOUT)), overrides, where=where)
    return build_config(data, where=f"{DEFAULT_PINOUT} + {where}", sources=(DEFAULT_PINOUT,))


def _get(data: dict[str, Any], section: str, key: str, kind: type | tuple[type, ...], *, where: str, default: Any = None) -> Any:
    value = data.get(section, {}).get(key, default)
    if value is None or isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise ValueError(f"{where}: {section}.{key} is missing or not {getattr(kind, '__name__', kind)} ({value!r})")
    return value


def _choice(value: str, allowed: tuple[str, ...], *, name: str, where: str) -> str:
    if value not in allowed:
        raise ValueError(f"{where}: {name} = {value!r}, expected one of {', '.join(allowed)}")
    return value


def build_config(data: dict[str, Any], *, where: str, sources: tuple[Path, ...] = ()) -> DevicesConfig:
    backend = _choice(_get(data, "devices", "backend", str, where=where), BACKENDS, name="devices.backend", where=where)
    seats = _get(data, "devices", "seats", int, where=where)
    if not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"{where}: devices.seats = {seats}, expected 1..{MAX_SEATS}")
    sound_data = data.get("sound", {})
    sound = SoundConfig(
        output=_choice(sound_data.get("output", "aplay"), OUTPUTS, name="sound.output", where=where),
        language=_choice(sound_data.get("language", "en"), LANGUAGES, name="sound.language", where=where),
        engine=_choice(sound_data.get("engine", "auto"), ENGINES, name="sound.engine", where=where),
        alsa_device=_get(data, "sound", "alsa_device", str, where=where, default=""),
        cache_dir=Path(_get(data, "sound", "cache_dir", str, where=where, default=str(SoundConfig.cache_dir))).expanduser(),
    )
    config = DevicesConfig(
        backend=backend,
        seats=seats,
        hub_url=_hub_url(_get(data, "devices", "hub_url", str, where=where, default=""), backend, where=where),
        tilt_pins=tuple(_get(data, "tilt", "pins", list, where=where)),
        seat_led_kind=_choice(
            data.get("seat_leds", {}).get("kind", "pwm"), LED_KINDS, name="seat_leds.kind", where=where
        ),
        seat_led_pins=tuple(
            tuple(p) if isinstance(p, list) else p for p in _get(data, "seat_leds", "pins", list, where=where)
        ),
        count_led_pins=tuple(_get(data, "count_leds", "pins", list, where=where)),
        buzzer_pin=data.get("buzzer", {}).get("pin"),
        sound=sound,
        timing=Timing.from_mapping(data.get("timing", {}), where=where),
        reserved_pins=tuple(_get(data, "devices", "reserved_pins", list, where=where, default=[])),
        sources=sources,
    )
    check_pins(config, where=where)
    return config


def _hub_url(url: str, backend: str, *, where: str) -> str:
    """``devices.hub_url``, refused now if the hub backend could never open it (no port, an unknown scheme)."""
    if backend != "hub":
        return url
    try:
        from firmware_bridge.driver import url_problem
    except ImportError:  # no pyserial: the hub backend says so when it is opened
        return url
    why = url_problem(url)
    if why:
        raise ValueError(f"{where}: devices.hub_url: {why}")
    return url


def gpio_number(pin: object, role: str, *, where: str) -> int:
    """The BCM GPIO number of ``pin`` as a configuration names it: a number (17) or a name gpiozero
    takes ("GPIO17", "BCM17", "BOARD11", "J8:11"), of a GPIO on the Pi's 40-pin header (GPIO0 to 27)."""
    from gpiozero.exc import PinError
    from gpiozero.pins.pi import PiBoardInfo

    shown = repr(pin)[:40]
    if isinstance(pin, (int, str)) and not isinstance(pin, bool):
        try:
            return int(PiBoardInfo.from_revision(_HEADER_REVISION).to_gpio(pin).removeprefix("GPIO"))
        except (PinError, ValueError):
            pass
    raise ValueError(f"{where}: {role}: {shown} is not a GPIO of the Pi's 40-pin header "
                     "(a BCM number from 0 to 27, or a name such as GPIO17 or BOARD11)")


_HEADER_REVISION = 0xC03111
"""A Pi 4 model B: its 40-pin header, whose GPIOs are a Pi 5's too, resolves the pins' names."""


I2S_PINS = (18, 19, 20, 21)
"""The GPIOs the Pi's I2S block takes once an I2S sound card's overlay is on (BCLK, LRCLK, DIN, DOUT)."""
I2S_CARDS = ("max98357a",)
"""ALSA card names of I2S amplifiers (``hardware/pinout-i2s.toml``), as ``sound.alsa_device`` names them."""


def check_pins(config: DevicesConfig, *, where: str) -> None:
    """Every Pi pin in use is a GPIO of the header, named once (by whatever name), every seat in use
    has its pins, and an I2S sound card's pins are left to it."""
    used: dict[int, str] = {}
    card = config.sound.alsa_device.lower()
    if config.backend == "gpio" and any(name in card for name in I2S_CARDS):
        reserved = {gpio_number(pin, "devices.reserved_pins", where=where) for pin in config.reserved_pins}
        missing = [pin for pin in I2S_PINS if pin not in reserved]
        if missing:
            raise ValueError(f"{where}: sound.alsa_device = {config.sound.alsa_device!r} is an I2S amplifier, which holds "
                             f"GPIO{I2S_PINS[0]}-{I2S_PINS[-1]}, but devices.reserved_pins leaves out "
                             f"{', '.join(map(str, missing))}: reserve {list(I2S_PINS)} as hardware/pinout-i2s.toml does")

    def claim(pin: int | str, role: str) -> None:
        key = gpio_number(pin, role, where=where)
        if key in used:
            raise ValueError(f"{where}: pin {pin} is used twice: {used[key]} and {role}")
        used[key] = role

    for pin in config.reserved_pins:
        claim(pin, "devices.reserved_pins")
    if config.backend == "gpio":
        for name, pins in (("tilt.pins", config.tilt_pins), ("seat_leds.pins", config.seat_led_pins)):
            if len(pins) < config.seats:
                raise ValueError(f"{where}: {name} has {len(pins)} entries for {config.seats} seats")
        for seat in range(config.seats):
            claim(config.tilt_pins[seat], f"tilt sensor of seat {seat}")
            led = config.seat_led_pins[seat]
            if config.seat_led_kind == "rgb":
                if not isinstance(led, tuple) or len(led) != 3:
                    raise ValueError(f"{where}: seat_leds.pins for seat {seat} must be [red, green, blue], not {led!r}")
                for colour, pin in zip(("red", "green", "blue"), led):
                    claim(pin, f"{colour} LED of seat {seat}")
            else:
                if not isinstance(led, (int, str)):
                    raise ValueError(f"{where}: seat_leds.pins for seat {seat} must be one pin for kind {config.seat_led_kind!r}")
                claim(led, f"LED of seat {seat}")
        if len(config.count_led_pins) != 3:
            raise ValueError(f"{where}: count_leds.pins needs 3 pins, has {len(config.count_led_pins)}")
        for n, pin in enumerate(config.count_led_pins, start=1):
            claim(pin, f"count LED {n}")
    if config.buzzer_pin is not None:
        gpio_number(config.buzzer_pin, "buzzer.pin", where=where)
    if config.sound.output == "buzzer":
        if config.buzzer_pin is None:
            raise ValueError(f"{where}: sound.output = \"buzzer\" needs buzzer.pin")
        claim(config.buzzer_pin, "buzzer")
