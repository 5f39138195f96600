"""The command line's parser: a wrong option (a word where a number goes, an unknown option, a missing
argument) is one line naming the command and the option, then exit 2; ``--help`` is argparse's own."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import NoReturn

EXIT_USAGE = 2

_INVALID = re.compile(r"invalid (\w+) value: (.*)$")
_KINDS = {"int": "a whole number", "float": "a number"}


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` (and its subcommands' parsers) whose usage errors are one line on stderr, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {plain(message)} (try --help)\n")

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:  # named by the subcommand they were given to
            self._subcommand(parsed).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def _subcommand(self, parsed: argparse.Namespace) -> argparse.ArgumentParser:
        """The parser of the subcommand ``parsed`` ran (itself if none)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(getattr(parsed, action.dest, None) or "")
                if isinstance(chosen, OneLineParser):
                    return chosen._subcommand(parsed)
        return self


def plain(message: str) -> str:
    """argparse's error message in words: ``argument --players: invalid int value: 'abc'`` becomes
    ``--players: 'abc' is not a whole number``."""
    message = message.removeprefix("argument ")
    found = _INVALID.search(message)
    if found:
        kind, value = found.groups()
        message = message[: found.start()] + f"{value} is not {_KINDS.get(kind, 'a valid ' + kind)}"
    return message.replace("expected one argument", "needs a value after it")

