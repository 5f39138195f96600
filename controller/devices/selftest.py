"""``selftest``: blink each seat LED, light the count LEDs, play each sound, show each tilt sensor live.

Runs on the Pi's pins, on the USB sensor hub, or on mock pins (``--mock``, or by itself on a
machine that is not a Raspberry Pi) where it also plays a short scripted round of standee moves
so the live view has something to show; a selftest on mock pins that ``--mock`` did not ask for
tested nothing real and does not pass.  On a Raspberry Pi whose pins cannot be opened it says why
and stops.  On mock pins a machine without ALSA's ``aplay`` lists the sounds instead of playing
them; on the Pi a missing ``aplay`` is an error.

``--config`` takes a device configuration (sections of ``hardware/pinout.toml``) or the table's
own configuration (``table.toml``, read as ``play`` reads it: its device sections, its players'
count as the seats, its language).

Seats are numbered as on the standee bases (:mod:`controller.seats`): seat 0 is the first
entry of ``tilt.pins`` and ``seat_leds.pins``.
"""

from __future__ import annotations

import argparse
import logging
import math
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from firmware_bridge.cli import OneLineParser, show_logs
from firmware_bridge.ctrl_c import ctrl_c_in
from ..errors import CashNGunsError
from ..seats import LANGUAGES, seat_label
from .interfaces import SeatFault, SeatStatus, TiltEvent
from .opening import NoGpioPins, TableDevices, mock_pins_requested, open_devices
from .pinout import TABLE_SECTIONS, DevicesConfig, check_pins, load_config, read_toml, table_devices
from .simulation import ClockedMockFactory
from .vocabulary import CLIP_KEYS, PAUSE, clip_texts

log = logging.getLogger(__name__)


def _seconds(most: float) -> Callable[[str], float]:
    """An ``argparse`` type for a duration from 0 to ``most`` seconds."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not 0 <= value <= most:  # NaN too
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from 0 to {most:g}")
        return value

    parse.__name__ = "seconds"
    return parse


def _parser(prog: str = "cashnguns selftest") -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=prog,
        description="Blink each seat LED, light the count LEDs, play each sound, and show each tilt sensor live. "
                    + TILT_NOTE,
    )
    parser.add_argument("--config", metavar="FILE",
                        help="the table's configuration (table.toml), or a device configuration overriding hardware/pinout.toml"
                             " (default: $CASHNGUNS_DEVICES, or none)")
    parser.add_argument("--mock", action="store_true",
                        help="use mock pins even on a Pi (default: mock pins only on a machine that is not a Raspberry Pi,"
                             " and then the selftest does not pass: it tested nothing real)")
    parser.add_argument("--lang", "--language", dest="language", choices=LANGUAGES,
                        help="the speaker's language (default: the configured one, sound.language)")
    parser.add_argument("--sound", choices=("aplay", "buzzer", "none"),
                        help="sound output (default: the configured one, sound.output; on mock pins without aplay, none)")
    parser.add_argument("--step", type=_seconds(10), default=0.4, metavar="SECONDS",
                        help="how long each LED state shows, at most 10 (default: 0.4)")
    parser.add_argument("--watch", type=_seconds(3600), default=15.0, metavar="SECONDS",
                        help="how long to show the tilt sensors, at most 3600 (default: 15)")
    return parser


TILT_NOTE = (
    "A tilt switch sits in each standee's base: U (upright) means the base stands, _ (down) that it lies on its side. "
    "It cannot see the standee itself: an empty base, or a base lifted off the table and held upright, reads U."
)


class _Report:
    def __init__(self, out: TextIO, seats: int) -> None:
        self.out = out
        self.seats = seats
        self.state: list[bool | None] = [None] * seats
        self.ever_up: set[int] = set()
        self.faults: list[SeatFault] = []
        self.start = 0.0

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def tilt(self, event: TiltEvent) -> None:
        self.state[event.seat] = event.up
        if event.up:
            self.ever_up.add(event.seat)
        self._say_live(f"  t={event.time - self.start:7.3f}  {seat_label(event.seat)} {'up  ' if event.up else 'down'}   {self.line()}")

    def _say_live(self, text: str) -> None:
        """A line said on the devices' clock thread: a reader that went away (``selftest | head``) is left to
        the main thread, which stops quietly at its next line; the clock's timers must not fail on it."""
        try:
            self.say(text)
        except BrokenPipeError:
            pass

    def line(self) -> str:
        return " ".join(f"{s}:{'?' if u is None else 'U' if u else '_'}" for s, u in enumerate(self.state))

    def fault(self, fault: SeatFault) -> None:
        self.faults.append(fault)
        self._say_live(f"  FAULT {fault.describe()}")


STATUS_WORDS = {
    SeatStatus.OFF: "off",
    SeatStatus.IN_SHARE: "in the share: steady on",
    SeatStatus.WITHDREW: "withdrew: a short dim blip every 2 s",
    SeatStatus.HIT: "hit: slow blink",
    SeatStatus.DEAD: "dead: dark",
    SeatStatus.MUST_STAND_UP: "too late, stand the character up: fast blink",
    SeatStatus.MUST_LIE_DOWN: "lay the character down: double flash",
    SeatStatus.FAULT: "the tilt sensor is faulty: triple flicker",
}
"""What each seat LED status means at the table, and how it looks (docs/devices.md)."""

COUNT_WORDS = {1: '"1" lit', 2: '"1" and "2" lit', 3: '"1", "2" and "3" lit', 0: "off"}


def sound_words(language: str) -> dict[str, str]:
    """What each sound clip says, in quotes, as the selftest lists it (the pause is silent)."""
    return {**{key: f'"{text}"' for key, text in clip_texts(language).items()}, PAUSE: "(a pause)"}


HUB_WAIT = 5.0
"""Seconds the selftest waits for the hub's first answer before it goes on."""


def _load(path: str | None) -> DevicesConfig:
    """A device configuration, or the devices of a table configuration (a file with a [game] section)."""
    if path is None:
        return load_config(path)
    data = read_toml(Path(path).expanduser())
    game = data.get("game")
    if game is None:
        return load_config(path)
    # the table's own configuration: its device sections over the default pin map, as `play` reads them, so the
    # devices tested are the game's (one seat per player)
    players = game.get("players") if isinstance(game, dict) else None
    if not isinstance(players, list) or not players:
        raise ValueError(f"{path}: game.players: a list of player names, clockwise from seat 0")
    language = game.get("language", "en")
    if not isinstance(language, str):
        raise ValueError(f"{path}: game.language: a language code, such as en")
    sections = {name: values for name, values in data.items() if name not in TABLE_SECTIONS}
    return table_devices(sections, seats=len(players), language=language, where=str(path))


def _open(args: argparse.Namespace, out: TextIO) -> TableDevices:
    config = _load(args.config)
    sound = replace(
        config.sound,
        language=args.language or config.sound.language,
        output=args.sound or config.sound.output,
    )
    config = replace(config, sound=sound)
    check_pins(config, where="selftest")
    mock = args.mock or mock_pins_requested()
    try:
        return open_devices(_without_aplay(config, out) if mock else config, mock_pins=True if args.mock else None)
    except NoGpioPins as error:
        if mock or config.backend != "gpio" or error.on_pi:
            raise
        print("no GPIO pins here (not a Raspberry Pi): using mock pins, so nothing real is tested", file=out)
        return open_devices(_without_aplay(config, out), mock_pins=True)


def _without_aplay(config: DevicesConfig, out: TextIO) -> DevicesConfig:
    """On mock pins, a machine without ``aplay`` lists the sounds instead of playing them (and says so)."""
    if config.sound.output != "aplay" or shutil.which("aplay") is not None:
        return config
    print("aplay not found (ALSA's alsa-utils): on mock pins the sounds are listed, not played", file=out)
    return replace(config, sound=replace(config.sound, output="none"))


def _pause(seconds: float) -> None:
    if seconds > 0:
        time.sleep(seconds)


def _hub_answered(devices: TableDevices) -> bool:
    """Whether the hub has told the state of any seat (it does so as soon as it answers)."""
    return any(devices.tilt.upright(seat) is not None for seat in range(devices.config.seats))


def run(args: argparse.Namespace, out: TextIO) -> int:
    devices = _open(args, out)
    factory = devices.pin_factory if isinstance(devices.pin_factory, ClockedMockFactory) else None
    unasked_mock = factory is not None and not (args.mock or mock_pins_requested())
    config = devices.config
    hub = config.backend == "hub"
    report = _Report(out, config.seats)
    with devices:
        devices.judge.on_fault(report.fault)
        devices.tilt.on_event(report.tilt)
        report.say(f"devices: {config.backend} backend{f' at {config.hub_url}' if hub else ''}, {config.seats} seats,"
                   f" sound {config.sound.output} ({config.sound.language}){', mock pins' if factory else ''}")
        if hub:
            deadline = time.monotonic() + HUB_WAIT
            while not _hub_answered(devices) and time.monotonic() < deadline:
                time.sleep(0.05)
            report.say(f"hub at {config.hub_url}: {'answered' if _hub_answered(devices) else f'no answer in {HUB_WAIT:g} s'}")

        report.say("seat LEDs, one by one:")
        for seat in range(config.seats):
            report.say(f"  {seat_label(seat)}")
            devices.lights.show(seat, SeatStatus.IN_SHARE)
            _pause(args.step)
            devices.lights.show(seat, SeatStatus.OFF)
        report.say("seat LEDs, every status:")
        for status in SeatStatus:
            report.say(f"  {STATUS_WORDS[status]}")
            for seat in range(config.seats):
                devices.lights.show(seat, status)
            _pause(args.step * 4)
        for seat in range(config.seats):
            devices.lights.show(seat, SeatStatus.OFF)

        report.say("count LEDs:")
        for n in (1, 2, 3, 0):
            report.say(f"  {COUNT_WORDS[n]}")
            devices.count_lights.show(n)
            _pause(args.step)

        report.say("sounds:")
        check = getattr(devices.speaker, "check", None)
        silent = check() if callable(check) else None  # aplay's exit code and error, on a silent clip
        if silent is not None:
            report.say(f"  {silent}")
        seconds = getattr(devices.speaker, "seconds", None)
        said = sound_words(config.sound.language)
        for key in CLIP_KEYS:
            report.say(f"  {said[key]}")
            devices.speaker.play([key])
            _pause(seconds([key]) + 0.1 if seconds and args.step > 0 else args.step)

        report.say(f"tilt sensors for {args.watch:g} s (U = upright, _ = down, ? = not known yet):")
        report.say(f"  ({TILT_NOTE})")
        for seat in range(config.seats):
            up = devices.tilt.upright(seat)
            report.state[seat] = up
            if up:
                report.ever_up.add(seat)
        report.start = devices.clock.now()
        report.say(f"  now  {report.line()}")
        if factory is not None:
            _scripted_round(factory, config.tilt_pins[: config.seats], args.watch, devices)
        else:
            _pause(args.watch)

    missing = [seat for seat in range(config.seats) if seat not in report.ever_up]
    silent_hub = hub and not report.ever_up and all(state is None for state in report.state)
    if silent_hub:  # no seat's wiring is at fault: the hub itself never answered
        report.say(f"hub at {config.hub_url}: never answered, so no seat could be read (is it plugged in, its firmware"
                   " installed and devices.hub_url its port? `cashnguns hub watch PORT` shows what it says)")
        missing = []
    for seat in missing:
        report.say(f"{seat_label(seat)}: never read upright (check its wire and plug; an empty base reads upright,"
                   " so this is not a missing standee)")
    for fault in report.faults:
        if not fault.cleared:
            report.say(f"fault: {fault.describe()}")
    if silent is not None:
        report.say(f"sound: {silent}")
    ok = not missing and not silent_hub and not any(not f.cleared for f in report.faults) and silent is None
    if ok and unasked_mock:
        report.say("selftest ran on mock pins (no GPIO pins here): nothing real was tested; --mock runs it on mock pins on purpose")
        return 1
    report.say("selftest passed" if ok else "selftest found problems")
    return 0 if ok else 1


def _scripted_round(factory: ClockedMockFactory, pins: Sequence[int | str], watch: float, devices: TableDevices) -> None:
    """On mock pins: stand every standee, then lay each down and up again in turn."""
    seats = range(len(pins))
    moves = [(seat, True) for seat in seats] + [(seat, up) for seat in seats for up in (False, True)]
    timing = devices.config.timing
    settle = timing.debounce + timing.settle
    for seat, up in moves:
        pin = factory.pin(pins[seat])
        with devices.clock.lock:
            (pin.drive_low if up else pin.drive_high)()
        _pause(max(watch / len(moves), settle + 0.01) if watch > 0 else 0)
    if watch <= 0:
        _pause(settle + 0.05)  # let the last debounce run on the real clock


def main(argv: list[str], prog: str = "cashnguns selftest") -> int:
    try:
        args = _parser(prog).parse_args(argv)
    except SystemExit as exit:  # --help, or a usage error already printed
        return int(exit.code or 0)
    show_logs()
    try:
        return run(args, sys.stdout)
    except (ValueError, RuntimeError, CashNGunsError) as error:
        if ctrl_c_in(error):
            raise KeyboardInterrupt from error
        hint = " (here: --sound buzzer or --sound none)" if "aplay not found" in str(error) else ""
        print(f"selftest: {error}{hint}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
