"""Command line: ``cashnguns`` (also ``python -m controller``).

Subcommands:
  replay RECORD.json [--json]   replay a game record (exit 2 on an illegal or broken record)
  demo [options]                a whole game played by bots through the whole stack, simulated hardware
  play --config FILE [--simulate]  referee a game at the table
  resume LOG [--salvage]        go on with a game from its game log
  selftest [options]            blink each seat LED, play each sound, show each tilt sensor live
  vision ...                    the camera: calibrate, print markers, judge a throw, read the aims (``vision.__main__``)
  hub ...                       the USB sensor hub: install its firmware, simulate it, watch it (``firmware_bridge.__main__``)

Exit codes: 0 done, 1 a check found problems, 2 an input refused (one line on stderr), 70 an internal error
(a bug; ``-v`` logs its traceback), 130 stopped by Ctrl-C.
"""

from __future__ import annotations

import sys

try:  # the first module loaded: a Ctrl-C before it is in place is one line too
    from firmware_bridge.ctrl_c import CTRL_C, ctrl_c_in, stopped, watch_ctrl_c
except KeyboardInterrupt:
    print("\nStopped.", file=sys.stderr)
    raise SystemExit(130) from None

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70  # a fault of the program itself (sysexits' EX_SOFTWARE), never of the input


try:  # a Ctrl-C while Python loads the modules is one line too
    import argparse
    import functools
    import json
    import logging
    import os
    import tempfile
    from collections.abc import Callable
    from pathlib import Path
    from typing import TYPE_CHECKING, Any
except KeyboardInterrupt:
    raise SystemExit(stopped()) from None

if TYPE_CHECKING:
    from .console.relay import ConsoleSource
    from .table.config import TableConfig
    from .table.referee import Referee
    from .table.runner import ConsoleFactory, Setup
    from .table.session import Session

DELEGATED = {
    # subcommand: (module whose main(argv, prog) runs it, what it does)
    "selftest": ("controller.devices.selftest", "check the seat LEDs, the sounds and the tilt sensors"),
    "vision": ("vision.__main__", "the camera: calibrate it, print the markers, judge a throw, read the aims, render test clips"),
    "hub": ("firmware_bridge.__main__", "the USB sensor hub: install its firmware on a Pico, simulate it, watch it"),
}


def _replay(args: argparse.Namespace) -> int:
    from .errors import CashNGunsError
    from .record import RecordError, load, replay, result
    from .record.story import story
    from .rules import IllegalMove

    try:
        record = load(args.record)
        game = replay(record)
    except IllegalMove as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except (CashNGunsError, RecordError) as exc:
        text = str(exc)
        print(text if text.startswith(str(args.record)) else f"{args.record}: {text}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(result(game), indent=1))
    else:
        print(story(game, record))
    return 0


def _demo(args: argparse.Namespace) -> int:
    """A whole game played by bots through the whole stack, with simulated hardware."""
    from .rules import RuleSet
    from .rules.rulesets import SPECS
    from .table import config as table_config
    from .table.runner import Setup

    ruleset = RuleSet(args.ruleset)
    spec = SPECS[ruleset]
    players = spec.max_players if args.players is None else args.players
    if not spec.min_players <= players <= spec.max_players:
        print(f"--players: {ruleset} is for {spec.min_players}-{spec.max_players} players, not {players}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from .record.generator import seating

    seats = seating(ruleset, players)
    config = table_config.from_dict(
        {"game": {"ruleset": str(ruleset), "players": [n for n, _ in seats], "language": args.lang, "seed": args.seed}}
    )
    if args.record:
        record_path = Path(args.record)
    else:
        record_path = _new_record_path(demo_folder(), f"cashnguns-{ruleset}-seed{args.seed}")
    log_path = Path(args.log) if args.log else record_path.with_name(record_path.name.removesuffix(".record.json") + ".log")
    setup = Setup(config, args.seed, simulate=True, camera=not args.no_camera, hub=args.hub, record_path=os.path.abspath(record_path))
    return _run_game(setup, record_path, log_path, fast=args.fast, command="demo")


def demo_folder() -> Path:
    """Where the demo writes its games: ``demos`` in the folder of the table's game logs."""
    from .table.config import DEFAULT_LOG_DIR

    return DEFAULT_LOG_DIR / "demos"


def _play(args: argparse.Namespace) -> int:
    from .console.tokens import TokenFileError
    from .errors import CashNGunsError
    from .table import config as table_config
    from .table.gamelog import LogBusy, LogError, set_aside
    from .table.runner import Setup, unfinished_log

    try:
        config = table_config.load(args.config)
    except table_config.ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    if (args.record and _cannot_write("--record", Path(args.record))) or (args.log and _cannot_write("--log", Path(args.log))):
        return EXIT_BAD_INPUT  # before an unfinished game goes on, as before a new one
    notices: list[str] = []  # said at the start of the new game, on the console too
    if not args.log and config.log_dir.is_dir():
        while (left := unfinished_log(config.log_dir, simulate=args.simulate)) is not None:
            path, damage = left
            if damage is None:  # the controller stopped mid-game (a crash, a power cut): go on with it
                if args.simulate:
                    _say_how_it_goes_on(path, console=args.console)
                going: list[bool] = []  # read back and replayed: from then on, the game goes on
                try:
                    return _go_on(path, record=args.record, fast=args.fast, salvage=False, config=config,
                                  on_going=functools.partial(going.append, True))
                except LogBusy as exc:
                    print(str(exc), file=sys.stderr)
                    return EXIT_BAD_INPUT
                except (LogError, TokenFileError) as exc:
                    if going:  # not damage: the game went on and then failed (a write error): the log is kept
                        print(f"{exc} (the game log is kept: go on with: cashnguns resume {path})", file=sys.stderr)
                        return EXIT_BAD_INPUT
                    damage = str(exc).removeprefix(f"{path}: ")  # it cannot be brought back: it must not block the table
                except (CashNGunsError, RuntimeError, OSError) as exc:
                    print(str(exc), file=sys.stderr)
                    return EXIT_BAD_INPUT
            try:
                aside = set_aside(path)
            except LogError as exc:
                print(str(exc), file=sys.stderr)
                return EXIT_BAD_INPUT
            notices.append(f"The unfinished game in {path} cannot be resumed ({damage}): moved aside to {aside} "
                           f"(cashnguns resume --salvage {aside} goes on from its last good input); starting a new game.")
    seed = config.seed or int.from_bytes(os.urandom(4), "big")
    console = not args.simulate or args.console
    stamp = f"cashnguns-{config.ruleset}-{seed}"
    record_path = Path(args.record) if args.record else config.log_dir / f"{stamp}.record.json"
    log_path = Path(args.log) if args.log else config.log_dir / f"{stamp}.log"
    setup = Setup(config, seed, simulate=args.simulate, camera=config.camera.source != "none",
                  hub=args.simulate and config.devices().backend == "hub",
                  console=_new_tokens(config) if console else None, record_path=os.path.abspath(record_path))
    try:
        log_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"{log_path.parent}: cannot make the game log folder: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return _run_game(setup, record_path, log_path, fast=args.fast, notices=tuple(notices))


def _new_tokens(config: TableConfig) -> dict[str, Any]:
    from .console.tokens import Tokens

    teams = ["purple", "yellow", "red"] if str(config.ruleset) == "yakuzas" else [n for n, _ in config.players]
    return Tokens.new(teams).to_json()


def _console_factory(setup: Setup, log_path: Path, config: TableConfig | None = None) -> ConsoleFactory | None:
    """The console for a game's setup (``None`` when the bots answer everything).

    Its tokens are kept beside the game log (``LOG.console``, for this user only), with where it is
    served: a resumed game serves where ``config`` says, else where it was served before.  A new
    game's token file is written here, before its game log exists, so a game that can be resumed
    always has its tokens; a resumed game whose token file is missing or unreadable gets new tokens
    (the links change: one line says so, on the console too)."""
    if not setup.console:
        return None
    from .console import tokens as console_tokens
    from .console.server import serve

    where = console_tokens.file_for(log_path)
    host, port = setup.config.console_host, setup.config.console_port
    notice = None
    if isinstance(setup.console, dict):  # a new game (or a log from before the tokens had a file)
        tokens = console_tokens.Tokens.from_json(setup.console)
    else:
        try:
            tokens, saved_host, saved_port = console_tokens.load(where)
        except console_tokens.TokenFileError as exc:  # a power cut before it was written, or a damaged file
            tokens = console_tokens.Tokens.from_json(_new_tokens(setup.config))
            notice = (f"{str(exc).removesuffix('.')}: the console has new links (the old ones no longer work); "
                      "open the Godfather's new link below.")
        else:
            if config is None:
                host = saved_host if saved_host is not None else host
                port = saved_port if saved_port is not None else port
    if config is not None:
        host, port = config.console_host, config.console_port
    if isinstance(setup.console, dict) or notice is not None:
        console_tokens.save(where, tokens, host=host, port=port or None)  # before the game log is written

    def saved(got: int) -> None:
        console_tokens.save(where, tokens, host=host, port=port or got)

    def console(session: Session) -> tuple[ConsoleSource, Callable[[], None]]:
        if notice is not None:
            session.say(notice)
        return serve(session, tokens, host=host, port=port, say=_say, saved=saved)

    return console


def _say_how_it_goes_on(path: Path, *, console: bool) -> None:
    """A simulated game goes on as it was started: one line when that is not as ``play`` was asked now
    (with or without ``--console``), so that a game waiting for the console's taps is not a surprise."""
    from .table.gamelog import LogError, read

    try:
        started = read(path, salvage=True).header.get("console")
    except (LogError, AttributeError):
        return  # said when it is resumed
    if started is None or bool(started) == console:
        return
    how = ("the Godfather enters its inputs on the console (it was started with --console)" if started else
           "the bots play it, the Godfather's part too (it was started without --console)")
    _say(f"The unfinished simulated game in {path} goes on as it was started: {how}.")


def _header(setup: Setup) -> None:
    """What the game is: the rule set, the seating clockwise (with the gangs), the seed."""
    from .seats import seat_label

    config = setup.config
    options = [name.replace("_", " ") for name, on in config.options.items() if on]
    _say(f"Cash'n Guns, {config.ruleset}, {len(config.players)} players"
         + (f", with {' and '.join(options)}" if options else "") + f"; seed {setup.seed}.")
    seats = [f"{name} ({seat_label(seat)}" + (f", {gang} gang)" if gang else ")") for seat, (name, gang) in enumerate(config.players)]
    _say("Seats, clockwise: " + ", ".join(seats) + ".")
    if str(config.ruleset) == "classic-2014":  # the rules engine's: round 1's Godfather is the first player listed
        _say(f"The Godfather in round 1: {config.players[0][0]}.")


def _run_game(setup: Setup, record_path: Path, log_path: Path, *, fast: bool, notices: tuple[str, ...] = (), command: str = "play") -> int:
    """Play the game of ``setup`` to its end; ``command`` (``play``, ``demo``) names the command in its errors."""
    from .errors import CashNGunsError
    from .table.gamelog import LogError
    from .table.runner import FINAL_HOLD_SECONDS, Progress, start

    finished: list[int] = []  # the record is written as soon as the game is over (before the final hold)
    if _cannot_write("--record", record_path) or _cannot_write("--log", log_path, folder_mode=0o700):
        return EXIT_BAD_INPUT
    if log_path.exists():  # before the console's token file beside it is written: that game keeps its links
        print(f"{command}: {log_path}: a game log is already there (go on with it: cashnguns resume {log_path}; "
              "or give another --log)", file=sys.stderr)
        return EXIT_BAD_INPUT
    progress = Progress()

    def opened() -> None:  # the game is announced once nothing can refuse it (no pins here, no aplay...)
        _header(setup)
        _say(f"Game log: {log_path} (if the table stops, go on with: cashnguns resume {log_path})")

    try:
        referee = start(setup, log_path=log_path, say=_say, progress=progress, pace=0.0 if fast else 1.0,
                        console=_console_factory(setup, log_path), notices=notices,
                        on_over=lambda referee: finished.append(_finish(referee, record_path, log_path)),
                        final_hold=FINAL_HOLD_SECONDS, on_open=opened)
    except BrokenPipeError:  # the reader of the output went away: main stops quietly
        raise
    except (KeyboardInterrupt, CashNGunsError, LogError, RuntimeError, OSError) as exc:
        progress.done()
        if ctrl_c_in(exc):
            if finished:  # the game is over and its record written: stopping during the final display loses nothing
                return finished[0]
            _forget_tokens(log_path)
            return _interrupted(log_path)
        started = "" if log_path.is_file() else " (no game was started: there is nothing to resume)"
        _forget_tokens(log_path)
        print(f"{command}: {exc}{started}", file=sys.stderr)
        return EXIT_BAD_INPUT
    progress.done()
    return finished[0] if finished else _finish(referee, record_path, log_path)


def _cannot_write(option: str, path: Path, *, folder_mode: int = 0o777) -> bool:
    """Whether ``path``, a file ``option`` names, cannot be written (said in one line): found before the game,
    not once it is over.  Its missing folders are made (with ``folder_mode``)."""
    why = unwritable(path, folder_mode=folder_mode)
    if why is not None:
        print(f"{option}: {why}", file=sys.stderr)
    return why is not None


def unwritable(path: Path, *, folder_mode: int = 0o777) -> str | None:
    """Why the file ``path`` cannot be written (``None`` when it can): a folder, a file where a folder must be,
    a folder without the right to write or on a read-only disk.  Its missing folders are made; a file in
    its place is opened for appending (not changed), else a new file is made beside it and removed."""
    if path.is_dir():
        return f"{path} is a folder: give the path of a file to write"
    try:
        path.parent.mkdir(mode=folder_mode, parents=True, exist_ok=True)
        if path.exists():
            path.open("ab").close()
        else:
            fd, trial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".trial", dir=path.parent)
            os.close(fd)
            os.unlink(trial)
    except OSError as exc:
        in_the_way = isinstance(exc, (FileExistsError, NotADirectoryError))
        return f"cannot write {path}: " + ("a file is where a folder must be" if in_the_way else str(exc.strerror or exc))
    return None


def _forget_tokens(log_path: Path) -> None:
    """The console tokens of a game that never started (its log was removed) go too."""
    if not log_path.is_file():
        from .console.tokens import file_for

        file_for(log_path).unlink(missing_ok=True)


def _interrupted(log_path: Path) -> int:
    """The one line after Ctrl-C: how to go on (every input is already synced to the game log)."""
    if log_path.is_file():
        return stopped(f"Stopped. The game is kept in its log: go on with: cashnguns resume {log_path}")
    return stopped("Stopped before the first move: there is no game to go on with.")


def _finish(referee: Referee, record_path: Path, log_path: Path) -> int:
    from .table.runner import write_record

    try:
        replayed = write_record(referee, record_path)
    except OSError as exc:
        print(f"--record: cannot write {record_path}: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from .record import result

    same = "gives the same result" if replayed == result(referee.game) else "DOES NOT give the same result"
    print(f"Replaying the record {same}. Game log: {log_path}")
    print(f"Game record written to {record_path} (replay it with: cashnguns replay {record_path})")
    return 0 if same.startswith("gives") else 1


def _resume(args: argparse.Namespace) -> int:
    from .errors import CashNGunsError
    from .table import config as table_config
    from .table.gamelog import LogError

    config = None
    if getattr(args, "config", None):
        try:
            config = table_config.load(args.config)
        except table_config.ConfigError as exc:
            print(str(exc), file=sys.stderr)
            return EXIT_BAD_INPUT
    if args.record and _cannot_write("--record", Path(args.record)):
        return EXIT_BAD_INPUT
    try:
        return _go_on(Path(args.log), record=args.record, fast=args.fast, salvage=args.salvage, config=config)
    except (CashNGunsError, LogError, RuntimeError, OSError) as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT


def _go_on(log_path: Path, *, record: str | None, fast: bool, salvage: bool, config: TableConfig | None = None,
           on_going: Callable[[], None] | None = None) -> int:
    """Bring the game of ``log_path`` back and play it to the end; a log that cannot be brought back raises.

    ``config`` (a table configuration), if given, is the table's hardware and says where the console is
    served; by default the configuration the game was started with is read again.  ``on_going`` is told
    once the log was read back and replayed (an error after that is not the log's damage)."""
    from .errors import InputFileError
    from .table.runner import FINAL_HOLD_SECONDS, Progress, resume

    progress = Progress()
    setups: list[Setup] = []
    finished: list[int] = []  # the record is written as soon as the game is over (before the final hold)

    def record_path() -> Path:
        logged = setups[0].record_path if setups else None
        if record:
            return Path(record)
        if logged:
            return Path(logged)
        return log_path.with_name(log_path.name.removesuffix(".log") + ".record.json")

    def set_up(setup: Setup) -> None:  # the record's place, as the game was started: checked before it goes on
        setups.append(setup)
        why = None if record else unwritable(record_path())
        if why is not None:
            raise InputFileError(f"the game record: {why} (give another: --record PATH)")

    try:
        referee = resume(log_path, say=_say, progress=progress, pace=0.0 if fast else 1.0,
                         console=lambda setup: _console_factory(setup, log_path, config),
                         salvage=salvage, on_setup=set_up, table=config,
                         on_over=lambda referee: finished.append(_finish(referee, record_path(), log_path)),
                         final_hold=FINAL_HOLD_SECONDS, on_going=on_going)
    except (KeyboardInterrupt, RuntimeError) as exc:
        if not ctrl_c_in(exc):
            raise
        if finished:  # the game is over and its record written: stopping during the final display loses nothing
            return finished[0]
        return _interrupted(log_path)
    finally:
        progress.done()
    return finished[0] if finished else _finish(referee, record_path(), log_path)


def _new_record_path(folder: Path, base: str) -> Path:
    """A record path in ``folder`` that neither it nor its log's name is taken."""
    path = folder / f"{base}.record.json"
    k = 2
    while path.exists() or path.with_name(f"{path.name.removesuffix('.record.json')}.log").exists():
        path = folder / f"{base}-{k}.record.json"
        k += 1
    return path


def _say(line: str) -> None:
    print(line, flush=True)


def _delegate(command: str, argv: list[str]) -> int:
    """Run a command of a lower package (``selftest``, ``vision``, ``hub``) with its own options, untouched."""
    import importlib

    module_name, _ = DELEGATED[command]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        if ctrl_c_in(exc):  # a Ctrl-C while it loads may come as an ImportError (NumPy's C modules)
            return stopped()
        print(f"{command}: cannot be run here: {exc}", file=sys.stderr)
        return 1
    if CTRL_C.is_set():  # a Ctrl-C that Python's import machinery swallowed (said as "Exception ignored in ...")
        return stopped()
    try:
        return int(module.main(argv, prog=f"cashnguns {command}") or 0)
    except SystemExit as exit:  # argparse's --help, or a usage error already printed
        return exit.code if isinstance(exit.code, int) else (0 if exit.code is None else EXIT_BAD_INPUT)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's default at the end of its help, unless it has none (a switch, or said in the text)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default in (None, False, argparse.SUPPRESS) or "default" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def build_parser() -> argparse.ArgumentParser:
    from firmware_bridge.cli import OneLineParser

    parser = OneLineParser(prog="cashnguns", description="The Cash'n Guns table controller.",
                           formatter_class=HelpFormatter,
                           epilog="Ctrl-C stops a game; its game log keeps it: go on with `cashnguns resume LOG`.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, text: str, **kwargs: Any) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text, formatter_class=HelpFormatter, **kwargs)

    p = command("replay", "replay a game record: its story, or its result with --json")
    p.add_argument("record", help="the record file (JSON)")
    p.add_argument("--json", action="store_true", help="print the result object instead of the story")
    p.set_defaults(run=_replay)

    p = command("demo", "a whole game played by bots, with simulated hardware")
    p.add_argument("--ruleset", choices=["classic", "classic-2014", "yakuzas"], default="yakuzas",
                   help="the game: classic (1st edition), classic-2014 (2nd edition) or yakuzas (the expansion)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the most the rule set allows)")
    p.add_argument("--seed", type=int, default=1, help="random seed: the same seed plays the same game")
    p.add_argument("--fast", action="store_true", help="no waiting between phases")
    p.add_argument("--lang", choices=["en", "pt", "fr", "hu"], default="en", help="the speaker's language")
    p.add_argument("--record", metavar="PATH",
                   help=f"where to write the game record (default: a new file in {demo_folder()})")
    p.add_argument("--log", metavar="PATH", help="where to write the game log (default: beside the record)")
    p.add_argument("--no-camera", action="store_true", help="the Godfather enters the aims and judges the throws (no simulated camera)")
    p.add_argument("--hub", action="store_true",
                   help="the standees through the USB sensor hub's simulator (real firmware code; plays in real time)")
    p.set_defaults(run=_demo)

    p = command("play", "referee a game at the table")
    p.add_argument("--config", metavar="FILE", default=None,
                   help="the table configuration (default: hardware/table.toml of this installation)")
    p.add_argument("--simulate", action="store_true", help="mock pins, simulated camera, bots for the players")
    p.add_argument("--console", action="store_true", help="with --simulate: the Godfather enters the inputs on the console")
    p.add_argument("--fast", action="store_true", help="with --simulate: no waiting between phases")
    p.add_argument("--record", metavar="PATH", help="where to write the game record (default: in the configuration's log folder)")
    p.add_argument("--log", metavar="PATH", help="where to write the game log (default: in the configuration's log folder)")
    p.set_defaults(run=_play)

    p = command("resume", "go on with a game from its game log, after a crash, a pulled plug or Ctrl-C")
    p.add_argument("log", help="the game log")
    p.add_argument("--config", metavar="FILE", default=None,
                   help="the table configuration: its devices, camera and console (default: the file the game "
                        "was started with, read again; the console where it was served before)")
    p.add_argument("--record", metavar="PATH",
                   help="where to write the game record (default: where the game was started to write it)")
    p.add_argument("--fast", action="store_true", help="no waiting between phases (simulated games)")
    p.add_argument("--salvage", action="store_true",
                   help="a damaged log: go on from the last input that replays cleanly (the whole log is kept aside)")
    p.set_defaults(run=_resume)

    for name, (_, text) in DELEGATED.items():
        p = command(name, f"{text} (`cashnguns {name} --help` for its options)", add_help=False)
        p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        p.set_defaults(run=lambda args, name=name: _delegate(name, args.rest))
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        watch_ctrl_c()
        if argv[:1] and argv[0] in DELEGATED:  # their options are their own: pass them through untouched
            return _delegate(argv[0], argv[1:])
        args = build_parser().parse_args(argv)
        from firmware_bridge.cli import show_logs

        show_logs(args.verbose)
        code: int = args.run(args)
        return code
    except KeyboardInterrupt:  # Ctrl-C outside a game (a game says how to go on by itself)
        return stopped()
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # a bug: one line for the person at the table, the traceback in the log with -v
        if ctrl_c_in(exc):
            return stopped()
        logging.getLogger("controller").debug("internal error", exc_info=True)
        print(f"cashnguns: internal error ({type(exc).__name__}: {str(exc)[:200]}); run with -v for the details",
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
