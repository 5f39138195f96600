"""Command line: ``python -m controller`` (also installed as ``cashnguns``).

Subcommands:
  replay RECORD.json [--json]   replay a game record (exit 2 on an illegal or broken record)
  demo [options]                a whole seeded game, written as a record and told round by round
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
    from .record import load, replay, result
    from .record.generator import random_record
    from .record.story import story
    from .rules import IllegalMove, RuleSet
    from .rules.rulesets import SPECS

    ruleset = RuleSet(args.ruleset)
    spec = SPECS[ruleset]
    players = args.players or spec.max_players
    if not spec.min_players <= players <= spec.max_players:
        print(f"--players: {ruleset} is for {spec.min_players}-{spec.max_players} players, not {players}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if (args.super_powers or args.objects) and ruleset is RuleSet.CLASSIC_2014:
        print("--super-powers/--objects: the advanced rules are not played in classic-2014", file=sys.stderr)
        return EXIT_BAD_INPUT
    record = random_record(args.seed, ruleset, players, powers=args.super_powers, objects=args.objects)
    path = Path(args.record) if args.record else _new_record_path(ruleset, args.seed)
    try:
        path.write_text(record.dumps(), encoding="utf-8")
    except OSError as exc:
        print(f"--record: cannot write {path}: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        game = replay(load(path))
    except IllegalMove as exc:  # pragma: no cover - the generator only makes legal games
        print(f"{path}: {exc}", file=sys.stderr)
        return 1
    print(story(game))
    final = result(game)
    print(f"Game record written to {path} (replay it with: python -m controller replay {path})")
    return 0 if final["finished"] else 1


def _new_record_path(ruleset, seed: int) -> Path:
    base = f"cashnguns-{ruleset}-seed{seed}"
    path = Path(f"{base}.record.json")
    k = 2
    while path.exists():
        path = Path(f"{base}-{k}.record.json")
        k += 1
    return path


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

    p = sub.add_parser("demo", help="play a whole seeded game and tell it round by round")
    p.add_argument("--ruleset", choices=["classic", "classic-2014", "yakuzas"], default="yakuzas")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the most the rule set allows)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--record", help="where to write the game record (default: a new file here)")
    p.add_argument("--super-powers", action="store_true", help="deal and play Super Powers and Super Kiai")
    p.add_argument("--objects", action="store_true", help="deal and play the Objects")
    p.set_defaults(run=_demo)

    p = sub.add_parser("selftest", help="check the seat LEDs, the sounds and the tilt sensors", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(run=_selftest)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return args.run(args)
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
