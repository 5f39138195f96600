"""Starting, resuming and finishing games at the table: what ``demo``, ``play`` and ``resume`` run.

A game is started from a table configuration (or the demo's options), with its game
log; ``resume`` reads a game log back, replays its inputs through a new referee (so the
game is at the exact step it was when the controller stopped), and goes on, appending
to the same log.  The game record is written from the referee when the game ends (and
``resume`` can write it for a game in progress).
"""

from __future__ import annotations

import logging
import os
import random
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import CashNGunsError, RulesError, TableInputError
from ..record import replay, result
from ..record.generator import deal_loot
from ..record.schema import Record, RecordError, from_dict
from ..rules import RuleSet
from ..words import step_name
from . import config as table_config
from . import inputs as I
from .bots import Bots
from .gamelog import GameLog, LogError, cut, read
from .referee import Prompt, Referee, Refused, Step
from .session import InputSource, Session

if TYPE_CHECKING:
    from firmware_bridge.sim import SimHub
    from ..devices.clock import Clock
    from ..devices.opening import TableDevices
    from ..devices.pinout import DevicesConfig
    from ..devices.simulation import ScriptedTable, StandeeMove

log = logging.getLogger(__name__)

Say = Callable[[str], None]
"""Where the lines of the game's story go."""
ShowProgress = Callable[[str], None] | None
"""Where the progress line goes (``None``: nowhere)."""
ConsoleFactory = Callable[[Session], tuple[InputSource, Callable[[], None]]]
"""Opens the Godfather's console for a session: its input source, and a function that stops it."""
Closer = Callable[[], None]


@dataclass
class Setup:
    """How a game is played: written in the game log's header, read back by ``resume``."""

    config: table_config.TableConfig
    seed: int
    simulate: bool = True
    camera: bool = True
    hub: bool = False
    console: dict[str, Any] | bool | None = None  # the console's tokens (True: kept in LOG.console, so the phones' links stay good)
    record_path: str | None = None  # where the record is written when the game ends (kept across a resume)

    def header(self, record: Record) -> dict[str, Any]:
        c = self.config
        return {
            "record": record.to_dict(),
            "table": {
                "ruleset": str(c.ruleset),
                "players": [list(p) for p in c.players],
                "bank": c.bank,
                "language": c.language,
                "options": c.options,
                "source": os.path.abspath(c.source) if c.source else None,  # its hardware, read again on resume
            },
            "seed": self.seed,
            "simulate": self.simulate,
            "camera": self.camera,
            "hub": self.hub,
            "console": self.console is not None,  # its tokens are kept in a file of their own (LOG.console)
            "record_path": self.record_path,
        }


def new_record(config: table_config.TableConfig, seed: int) -> Record:
    """A new game's record header; a digital bank deals the eight piles from ``seed``."""
    ruleset = config.ruleset
    loot = deal_loot(random.Random(f"loot:{seed}"), ruleset) if config.bank == "digital" else []
    record = Record(str(ruleset), list(config.players), loot, options=dict(config.options))
    return record


class _ConsoleNotAttached:
    """The input source of a session whose console is not attached yet: asked a prompt, it refuses."""

    def answer(self, prompt: Prompt) -> I.Input | None:
        raise TableInputError(f"round {prompt.round}: the console is not attached yet ({prompt.step.value})")


def open_table(setup: Setup, referee: Referee, *, game_log: GameLog | None, say: Say, progress: ShowProgress,
               pace: float, console: ConsoleFactory | None = None) -> tuple[Session, list[Closer]]:
    """The session around a referee: simulated devices, camera and bots, or the real ones.

    ``console`` (a function taking the session and returning its input source and a function that
    stops it) puts the Godfather's console in charge of the inputs the bots would give.
    """
    closers: list[Closer] = []
    bots = Bots(referee, setup.seed)
    if not setup.simulate:
        return _open_real_table(setup, referee, game_log=game_log, say=say, progress=progress, console=console)
    devices_config = setup.config.devices()
    if setup.hub:
        devices, script, closer = _simulated_hub(devices_config)
        script_used: HubScript | ScriptedTable = script
        closers.append(closer)
    else:
        from ..devices.opening import open_simulated

        devices, script_used = open_simulated(devices_config)
    closers.append(devices.close)
    camera = None
    if setup.camera:
        from .camera import SimulatedCamera

        camera = SimulatedCamera(setup.seed, ask_godfather_below=setup.config.camera.ask_godfather_below)
        bots.reachable = camera.reachable
    session = Session(
        referee, source=bots, bots=bots, devices=devices, script=script_used, camera=camera, game_log=game_log,
        say=say, progress=progress, pace=pace, echo_speech=setup.config.language,
    )
    if console is not None:
        session.source, stop = console(session)
        closers.append(stop)
    return session, closers


def _open_real_table(setup: Setup, referee: Referee, *, game_log: GameLog | None, say: Say, progress: ShowProgress,
                     console: ConsoleFactory | None) -> tuple[Session, list[Closer]]:
    """Real devices (Pi pins or the USB hub), the real camera, and the Godfather's console."""
    from ..devices.opening import open_devices
    from ..devices.speakers import AplaySpeaker

    if console is None:
        raise RuntimeError("a table with real players needs the Godfather's console")
    closers: list[Closer] = []
    devices = open_devices(setup.config.devices())
    closers.append(devices.close)
    from .camera import open_live_camera

    camera, camera_note = open_live_camera(setup.config.camera, clock=devices.clock.now,
                                           count_interval=devices.config.timing.count_interval,
                                           yakuzas=setup.config.ruleset is RuleSet.YAKUZAS)
    if camera is not None:
        closers.append(camera.close)
    session = Session(referee, source=_ConsoleNotAttached(), devices=devices, camera=camera, game_log=game_log, say=say, progress=progress)
    speaker = devices.speaker
    if isinstance(speaker, AplaySpeaker):  # a silent table is told at once, and on the console
        speaker.on_problem = session.say
        speaker.check()
    if camera_note:
        session.say(camera_note)  # kept in the game's story: the console shows it
    session.source, stop = console(session)
    closers.append(stop)
    return session, closers


def _simulated_hub(devices_config: DevicesConfig) -> tuple[TableDevices, HubScript, Closer]:
    """The devices through the USB hub's simulator: the real firmware code on a simulated Pico,
    reached through the ``sim://`` serial URL.  The hub keeps real time: so does the game."""
    import threading
    from dataclasses import replace

    from firmware_bridge.sim import SimHub
    from ..devices.opening import open_devices

    hub = SimHub(transport="sim", seats=devices_config.seats, seed=1).start()
    sound = replace(devices_config.sound, output="none") if devices_config.sound.output == "aplay" else devices_config.sound
    try:
        devices = open_devices(replace(devices_config, backend="hub", hub_url=hub.url, sound=sound))
    except Exception:
        hub.close()
        raise
    ready = threading.Event()
    devices.judge.when_ready(ready.set)
    if not ready.wait(15):
        devices.close()
        hub.close()
        raise RuntimeError("the simulated hub did not connect")
    return devices, HubScript(hub, devices.clock), hub.close


class HubScript:
    """Plays standee moves on the hub simulator's inputs, in real time (as players would)."""

    def __init__(self, hub: SimHub, clock: Clock) -> None:
        self.hub = hub
        self.clock = clock

    def stand(self, seats: Iterable[int]) -> None:
        for seat in seats:
            self.hub.stand(seat, True)

    def drive(self, seat: int, up: bool) -> None:
        self.hub.stand(seat, up)

    def play(self, moves: Iterable[StandeeMove], *, until: float | None = None) -> None:
        for move in sorted(moves, key=lambda m: m.time):
            self._sleep_until(move.time)
            self.hub.stand(move.seat, move.up)
        if until is not None:
            self._sleep_until(until)

    def _sleep_until(self, when: float) -> None:
        delay = when - self.clock.now()
        if delay > 0:
            time.sleep(delay)


FINAL_HOLD_SECONDS = 300.0
"""How long a real table's console shows the final scores after the game before the table closes."""


def start(setup: Setup, *, log_path: Path, say: Say = print, progress: ShowProgress = None, pace: float = 0.0,
          console: ConsoleFactory | None = None,
          notices: tuple[str, ...] = (), on_over: Callable[[Referee], None] | None = None,
          final_hold: float = 0.0, on_open: Callable[[], None] | None = None) -> Referee:
    """Start a new game, logged to ``log_path``, and play it to the end.

    ``notices`` are said first, so that the console shows them too (a damaged log moved aside...).
    ``on_over`` is told the referee as soon as the game is over (the record is written then); at a
    real table the console then keeps showing the final state for ``final_hold`` seconds.  ``on_open`` is
    told once the table's devices, camera and console are open (before, there is no game to go on with)."""
    record = new_record(setup.config, setup.seed)
    referee = Referee(record, physical_bank=setup.config.bank == "physical")
    game_log = GameLog.create(log_path, setup.header(record))
    try:
        _play(setup, referee, game_log, say=say, progress=progress, pace=pace, console=console, notices=notices,
              on_over=on_over, final_hold=final_hold, on_open=on_open)
    except BaseException:
        game_log.close()
        if not read(log_path).inputs:  # the table never started: no game to resume
            log_path.unlink(missing_ok=True)
        raise
    game_log.close()
    return referee


def resume(log_path: Path, *, say: Say = print, progress: ShowProgress = None, pace: float = 0.0, play: bool = True,
           console: Callable[[Setup], ConsoleFactory | None] | None = None,
           salvage: bool = False, on_setup: Callable[[Setup], None] | None = None,
           table: table_config.TableConfig | None = None, on_over: Callable[[Referee], None] | None = None,
           final_hold: float = 0.0, on_going: Callable[[], None] | None = None) -> Referee:
    """Bring a game back from its log at the step it was at, and (with ``play``) play it to the end.

    ``console``, if given, is called with the game's setup (its console tokens) and returns the
    console factory of :func:`open_table`; ``on_setup`` is told the setup read from the log.
    ``table``: the table's hardware (devices, camera, console, log folder) to go on with; by default
    the configuration file the game was started with, read again. The game itself (rule set,
    players, bank, language, options) is always the log's.

    ``on_over`` and ``final_hold``: as for :func:`start`.  ``on_going`` is told once the log was read
    back and replayed: what fails after that (a write error...) is not damage of the log.

    With ``salvage``, a damaged log goes on from the last input that replays cleanly: the whole
    log is first kept aside (its name and what is dropped are said), then cut after that input.
    """
    logged = read(log_path, salvage=salvage)
    setup, record = setup_from_header(logged.header, log_path)
    if table is None:
        table = _started_with(logged.header, say, real=not setup.simulate, where=log_path)
    if table is not None:
        setup = replace(setup, config=with_game_of(setup.config, table))
    if on_setup is not None:
        on_setup(setup)
    factory = console(setup) if console is not None else None
    referee = Referee(record, physical_bank=setup.config.bank == "physical")
    cut_at, why = logged.damage_at, logged.damage
    replayed = 0
    for number, data in enumerate(logged.inputs, start=1):
        line, start_offset = logged.starts[number - 1]
        try:
            referee.submit(I.from_json(data))
        except (Refused, I.BadInput, RulesError, RecordError) as exc:
            problem = f"{log_path}: line {line}: input {number} cannot be replayed: {exc}"
            if not salvage:
                raise LogError(problem) from None
            cut_at, why = start_offset, problem
            break
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            # an input whose shape passed the reader but not the referee (a hand-edited log): it is damage
            problem = f"{log_path}: line {line}: input {number} is not a usable input ({type(exc).__name__})"
            if not salvage:
                raise LogError(problem) from None
            cut_at, why = start_offset, problem
            break
        replayed += 1
    if cut_at is not None and why is not None:
        aside, dropped = cut(log_path, cut_at)
        say(f"Salvaged {log_path}: kept {replayed} inputs; dropped {dropped} line(s) from "
            f"{why.removeprefix(f'{log_path}: ')}; the whole damaged log is kept as {aside}.")
    inputs = f"{replayed} input{'' if replayed == 1 else 's'}"
    if referee.step is Step.OVER:
        say(f"The game in {log_path} is over, after round {referee.game.rounds_played} ({inputs}).")
    else:
        say(f"Going on with the game in {log_path} at round {referee.prompt().round}, {step_name(referee.step.value)},"
            f" after {inputs}.")
    if not play:
        return referee
    if referee.step is Step.OVER:  # stopped before its over line was written: the game ends now
        if not any(entry.get("over") for entry in logged.seen):
            game_log, _ = GameLog.reopen(log_path)
            try:
                game_log.seen({"over": True})  # else the next `play` would resume it again, and again
            finally:
                game_log.close()
        return referee
    if on_going is not None:
        on_going()
    game_log, _ = GameLog.reopen(log_path)
    try:
        _play(setup, referee, game_log, say=say, progress=progress, pace=pace, console=factory, on_over=on_over,
              final_hold=final_hold)
    finally:
        game_log.close()
    return referee


def _play(setup: Setup, referee: Referee, game_log: GameLog, *, say: Say, progress: ShowProgress, pace: float,
          console: ConsoleFactory | None = None,
          notices: tuple[str, ...] = (), on_over: Callable[[Referee], None] | None = None,
          final_hold: float = 0.0, on_open: Callable[[], None] | None = None) -> None:
    session, closers = open_table(setup, referee, game_log=game_log, say=say, progress=progress, pace=pace,
                                  console=console)
    if on_open is not None:
        on_open()
    for notice in notices:
        session.say(notice)
    def over() -> None:  # before the finale's announcements: a Ctrl-C during them loses nothing
        game_log.seen({"over": True})
        if on_over is not None:
            on_over(referee)

    try:
        session.run(on_over=over)
        if not setup.simulate and final_hold > 0:
            _hold(session, final_hold)
    finally:
        session.close()  # first: a camera watching a throw lets go of it before the camera is closed
        for close in reversed(closers):
            close()


def _hold(session: Session, seconds: float) -> None:
    """The game is over: the console keeps showing its final state for ``seconds`` (Ctrl-C or the
    service's stop ends it sooner), then the table closes and the service starts the next game."""
    minutes = f"{seconds / 60:g} minutes" if seconds >= 60 else f"{seconds:g} s"
    session.say(f"The console shows the final scores for {minutes} (Ctrl-C ends this sooner); then the table "
                "closes, and the service starts the next game with new links (the Godfather's is printed).")
    session.changed()
    try:
        time.sleep(seconds)
    except KeyboardInterrupt:  # the game is over and kept: stopping now loses nothing
        log.info("the final scores' display was stopped")


def unfinished_log(folder: Path, *, simulate: bool | None = None) -> tuple[Path, str | None] | None:
    """The newest game log in ``folder`` whose game did not end (a crash, a power cut), if any,
    with what is wrong with it (``None`` for a log that reads whole).

    ``simulate`` (True or False): only a game of that kind, simulated or at a real table; the
    other kind's unfinished games are left where they are (``resume LOG`` goes on with them).
    A log whose header does not say its kind is taken (it cannot be resumed: it is moved aside)."""
    logs = sorted(Path(folder).glob("*.log"), key=_mtime, reverse=True)
    for path in logs:
        try:
            game = read(path, salvage=True)
        except LogError as exc:  # not even its header reads
            return path, str(exc).removeprefix(f"{path}: ")
        if any(entry.get("over") for entry in game.seen):
            continue
        kind = game.header.get("simulate") if isinstance(game.header, dict) else None
        if simulate is not None and isinstance(kind, bool) and kind is not simulate:
            log.info("%s: an unfinished %s game, left for `resume`", path, "simulated" if kind else "real")
            continue
        return path, (game.damage.removeprefix(f"{path}: ") if game.damage else None)
    return None


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def setup_from_header(header: dict[str, Any], where: Path) -> tuple[Setup, Record]:
    try:
        record = from_dict(header["record"])
        table = header["table"]
        config = table_config.from_dict(
            {
                "game": {
                    "ruleset": table["ruleset"],
                    "players": [p[0] for p in table["players"]],
                    **({"gangs": [p[1] for p in table["players"]]} if table["ruleset"] == "yakuzas" else {}),
                    "bank": table["bank"],
                    "language": table["language"],
                    **table["options"],
                }
            }
        )
        seed, record_path, console = header["seed"], header.get("record_path"), header.get("console")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("seed is not a whole number")
        if record_path is not None and not isinstance(record_path, str):
            raise ValueError("record_path is not a path")
        if console is not None and not isinstance(console, (dict, bool)):
            raise ValueError("console is not true, false or an object")
        setup = Setup(config, seed, _flag(header, "simulate"), _flag(header, "camera"), _flag(header, "hub", False),
                      console, record_path)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, CashNGunsError) as exc:
        what = f"no {exc}" if isinstance(exc, KeyError) else str(exc)
        raise LogError(f"{where}: line 1: not a usable game log header ({what})") from None
    return setup, record


def with_game_of(game: table_config.TableConfig, table: table_config.TableConfig) -> table_config.TableConfig:
    """``table``'s hardware (devices, camera, console, log folder) with ``game``'s game."""
    return replace(table, ruleset=game.ruleset, players=game.players, super_powers=game.super_powers,
                   objects=game.objects, free_seating=game.free_seating, bank=game.bank, language=game.language)


def _started_with(header: dict[str, Any], say: Say, *, real: bool, where: Path) -> table_config.TableConfig | None:
    """The configuration file the game in ``header`` was started with, read again (its devices, camera
    and console); ``None`` for a game started without one.  One that cannot be read: a simulated game
    goes on with the default devices (said); a game at a real table is refused (``ConfigError``), for
    the default devices are not its own: its sensors would be read on the wrong pins."""
    table = header.get("table")
    source = table.get("source") if isinstance(table, dict) else None
    if not isinstance(source, str) or not source:
        if real:
            raise table_config.ConfigError(f"{where}: the game at a real table was started without a configuration "
                                           "file: give the table's with --config FILE")
        return None
    try:
        return table_config.load(source)
    except table_config.ConfigError as exc:
        if real:
            raise table_config.ConfigError(f"{where}: the table's configuration cannot be read again ({exc}): "
                                           "give it with --config FILE") from None
        say(f"The table's configuration cannot be read again ({exc}): going on with the default devices and "
            f"no camera (give it with --config FILE).")
        return None


def _flag(header: dict[str, Any], key: str, default: bool | None = None) -> bool:
    value = header.get(key, default)
    if not isinstance(value, bool):
        raise TypeError(f"{key} is not true or false")
    return value


def write_record(referee: Referee, path: Path) -> dict[str, Any]:
    """Write the game record; returns the result of replaying it (the same as the game's)."""
    path.write_text(referee.record.dumps(), encoding="utf-8")
    return result(replay(referee.record))


class Progress:
    """A progress line on a terminal (round and step), plain lines elsewhere."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(self.stream is not None and self.stream.isatty())
        self.started = time.monotonic()

    def __call__(self, text: str) -> None:
        elapsed = time.monotonic() - self.started
        if self.tty:
            self.stream.write(f"\r\x1b[2K[{elapsed:5.1f}s] {text}")
            self.stream.flush()

    def done(self) -> None:
        if self.tty:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
