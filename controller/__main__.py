"""Command line: ``python -m controller`` (also installed as ``cashnguns``).

Subcommands:
  replay RECORD.json [--json]   replay a game record (exit 2 on an illegal or broken record)
  demo [options]                a whole game played by bots through the whole stack, simulated hardware
  play --config FILE [--simulate]  referee a game at the table
  resume LOG                    go on with a game from its game log
  selftest [options]            blink each seat LED, play each sound, show each tilt sensor live
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

EXIT_BAD_INPUT = 2


def _replay(args: argparse.Namespace) -> int:
    from .record import RecordError, load, replay, result
    from .record.story import story
    from .rules import IllegalMove

    try:
        game = replay(load(args.record))
    except (RecordError, IllegalMove) as exc:
        print(f"{args.record}: {exc}" if isinstance(exc, RecordError) and not str(exc).startswith(str(args.record)) else str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(result(game), indent=1))
    else:
        print(story(game))
    return 0


def _demo(args: argparse.Namespace) -> int:
    """A whole game played by bots through the whole stack, with simulated hardware."""
    from .rules import RuleSet
    from .rules.rulesets import SPECS
    from .table import config as table_config
    from .table.runner import Setup

    ruleset = RuleSet(args.ruleset)
    spec = SPECS[ruleset]
    players = args.players or spec.max_players
    if not spec.min_players <= players <= spec.max_players:
        print(f"--players: {ruleset} is for {spec.min_players}-{spec.max_players} players, not {players}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from .record.generator import seating

    seats = seating(ruleset, players)
    config = table_config.from_dict(
        {"game": {"ruleset": str(ruleset), "players": [n for n, _ in seats], "language": args.lang, "seed": args.seed}}
    )
    setup = Setup(config, args.seed, simulate=True, camera=not args.no_camera, hub=args.hub)
    record_path = Path(args.record) if args.record else _new_record_path(ruleset, args.seed)
    log_path = Path(args.log) if args.log else record_path.with_name(record_path.name.replace(".record.json", "") + ".log")
    return _run_game(setup, record_path, log_path, fast=args.fast)


def _play(args: argparse.Namespace) -> int:
    from .table import config as table_config
    from .table.runner import Setup

    try:
        config = table_config.load(args.config)
    except table_config.ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    from .table.runner import unfinished_log


    if not args.log and config.log_dir.is_dir():
        left = unfinished_log(config.log_dir)
        if left is not None:  # the controller stopped mid-game (a crash, a power cut): go on with it
            print(f"Going on with the unfinished game in {left}.")
            args.log, args.record = str(left), args.record
            return _resume(args, config)
    seed = config.seed or int.from_bytes(os.urandom(4), "big")
    console = not args.simulate or args.console
    setup = Setup(config, seed, simulate=args.simulate, camera=config.camera.source != "none",
                  hub=args.simulate and config.devices().backend == "hub",
                  console=_new_tokens(config) if console else None)
    stamp = f"cashnguns-{config.ruleset}-{seed}"
    record_path = Path(args.record) if args.record else config.log_dir / f"{stamp}.record.json"
    log_path = Path(args.log) if args.log else config.log_dir / f"{stamp}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    return _run_game(setup, record_path, log_path, fast=args.fast)


def _new_tokens(config) -> dict:
    from .console.tokens import Tokens

    teams = ["purple", "yellow", "red"] if str(config.ruleset) == "yakuzas" else [n for n, _ in config.players]
    return Tokens.new(teams).to_json()


def _console_factory(setup, log_path: Path, config=None):
    """The console for a game's setup (``None`` when the bots answer everything).

    Its tokens are kept beside the game log (``LOG.console``, for this user only), with where it is
    served: a resumed game serves where ``config`` says, else where it was served before."""
    if not setup.console:
        return None
    from .console import tokens as console_tokens
    from .console.server import serve

    where = console_tokens.file_for(log_path)
    host, port = setup.config.console_host, setup.config.console_port
    if isinstance(setup.console, dict):  # a new game (or a log from before the tokens had a file)
        tokens = console_tokens.Tokens.from_json(setup.console)
    else:
        tokens, saved_host, saved_port = console_tokens.load(where)
        if config is None:
            host = saved_host if saved_host is not None else host
            port = saved_port if saved_port is not None else port
    if config is not None:
        host, port = config.console_host, config.console_port

    def saved(got: int) -> None:
        console_tokens.save(where, tokens, host=host, port=port or got)

    return lambda session: serve(session, tokens, host=host, port=port, say=_say, saved=saved)


def _run_game(setup, record_path: Path, log_path: Path, *, fast: bool) -> int:
    from .table.gamelog import LogError
    from .table.runner import Progress, start

    progress = Progress()
    try:
        referee = start(setup, log_path=log_path, say=_say, progress=progress, pace=0.0 if fast else 1.0,
                        console=_console_factory(setup, log_path))
    except (LogError, RuntimeError, OSError) as exc:
        progress.done()
        print(f"play: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    progress.done()
    return _finish(referee, record_path, log_path)


def _finish(referee, record_path: Path, log_path: Path) -> int:
    from .table.runner import write_record

    try:
        replayed = write_record(referee, record_path)
    except OSError as exc:
        print(f"--record: cannot write {record_path}: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from .record import result

    same = "gives the same result" if replayed == result(referee.game) else "DOES NOT give the same result"
    print(f"Replaying the record {same}. Game log: {log_path}")
    print(f"Game record written to {record_path} (replay it with: python -m controller replay {record_path})")
    return 0 if same.startswith("gives") else 1


def _resume(args: argparse.Namespace, config=None) -> int:
    from .errors import CashNGunsError
    from .table import config as table_config
    from .table.gamelog import LogError
    from .table.runner import Progress, resume

    log_path = Path(args.log)
    if config is None and getattr(args, "config", None):
        try:
            config = table_config.load(args.config)
        except table_config.ConfigError as exc:
            print(str(exc), file=sys.stderr)
            return EXIT_BAD_INPUT
    progress = Progress()
    try:
        referee = resume(log_path, say=_say, progress=progress, pace=0.0 if args.fast else 1.0,
                         console=lambda setup: _console_factory(setup, log_path, config))
    except (LogError, CashNGunsError, RuntimeError, OSError) as exc:
        progress.done()
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    progress.done()
    record_path = Path(args.record) if args.record else log_path.with_name(log_path.stem + ".record.json")
    return _finish(referee, record_path, log_path)


def _new_record_path(ruleset, seed: int) -> Path:
    base = f"cashnguns-{ruleset}-seed{seed}"
    path = Path(f"{base}.record.json")
    k = 2
    while path.exists() or path.with_name(f"{path.name[: -len('.record.json')]}.log").exists():
        path = Path(f"{base}-{k}.record.json")
        k += 1
    return path


def _say(line: str) -> None:
    print(line, flush=True)


def _selftest(args: argparse.Namespace) -> int:
    try:
        from .devices.selftest import main as selftest_main
    except ImportError as exc:
        print(f"selftest: the devices package is not available: {exc}", file=sys.stderr)
        return 1
    return selftest_main(args.rest)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cashnguns", description="The Cash'n Guns table controller.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a game record")
    p.add_argument("record", help="the record file (JSON)")
    p.add_argument("--json", action="store_true", help="print the result object instead of the story")
    p.set_defaults(run=_replay)

    p = sub.add_parser("demo", help="a whole game played by bots, with simulated hardware")
    p.add_argument("--ruleset", choices=["classic", "classic-2014", "yakuzas"], default="yakuzas")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the most the rule set allows)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--fast", action="store_true", help="no waiting between phases")
    p.add_argument("--lang", choices=["en", "pt", "fr", "hu"], default="en", help="the speaker's language")
    p.add_argument("--record", help="where to write the game record (default: a new file here)")
    p.add_argument("--log", help="where to write the game log (default: beside the record)")
    p.add_argument("--no-camera", action="store_true", help="the Godfather judges the throws (no simulated camera)")
    p.add_argument("--hub", action="store_true",
                   help="the standees through the USB sensor hub's simulator (real firmware code; plays in real time)")
    p.set_defaults(run=_demo)

    p = sub.add_parser("play", help="referee a game at the table")
    p.add_argument("--config", default=None, help="the table configuration (default: hardware/table.toml)")
    p.add_argument("--simulate", action="store_true", help="mock pins, simulated camera, bots for the players")
    p.add_argument("--console", action="store_true", help="with --simulate: the Godfather enters the inputs on the console")
    p.add_argument("--fast", action="store_true", help="with --simulate: no waiting between phases")
    p.add_argument("--record", help="where to write the game record")
    p.add_argument("--log", help="where to write the game log")
    p.set_defaults(run=_play)

    p = sub.add_parser("resume", help="go on with a game from its game log, after a crash or a pulled plug")
    p.add_argument("log", help="the game log")
    p.add_argument("--config", default=None, help="the table configuration: its [console] says where the console is served")
    p.add_argument("--record", help="where to write the game record (default: beside the log)")
    p.add_argument("--fast", action="store_true", help="no waiting between phases (simulated games)")
    p.set_defaults(run=_resume)

    p = sub.add_parser("selftest", help="check the seat LEDs, the sounds and the tilt sensors", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(run=_selftest)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["selftest"]:  # its options are its own: pass them through untouched
        return _selftest(argparse.Namespace(rest=argv[1:]))
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return args.run(args)
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
