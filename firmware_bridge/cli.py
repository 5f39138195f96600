"""The command line's common ways: a parser whose errors are one line, and how log lines are shown.

A wrong option (a word where a number goes, an unknown option, a missing argument) is one line naming the
command and the option, then exit 2; ``--help`` is argparse's own.  Log lines at a terminal read as words
(``warning: ...``); sent to a file, or with ``--verbose``, they carry the time and the logger's name.

It serves the commands of all three packages (``cashnguns``, ``python -m vision``, the hub's): it lives in the lowest
one, which needs nothing but the standard library, so that ``vision`` and ``firmware_bridge`` import nothing of
``controller`` and there is one way to do it.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

EXIT_USAGE = 2

_INVALID = re.compile(r"invalid (\w+) value: (.*)$")
_KINDS = {"int": "a whole number", "float": "a number"}


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` (and its subcommands' parsers) whose usage errors are one line on stderr, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {plain(message)} (try --help)\n")

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        args = list(sys.argv[1:] if args is None else args)
        unknown = self._unknown_leading_option(args)
        if unknown:  # before argparse says a command is missing: the option is what went wrong
            self.error(f"unrecognized arguments: {unknown}")
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:  # named by the subcommand they were given to
            self._subcommand(parsed).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def _unknown_leading_option(self, args: list[str]) -> str | None:
        """The first option before the subcommand's name that this parser does not know (None if all are
        known, or if it has no subcommands: argparse then names unknown options itself)."""
        if not any(isinstance(action, argparse._SubParsersAction) for action in self._actions):
            return None
        known = self._option_string_actions
        for arg in args:
            if arg == "--" or not arg.startswith("-") or arg == "-":
                return None
            name = arg.split("=", 1)[0]
            if name in known or (not name.startswith("--") and name[:2] in known):  # -vv
                continue
            if name.startswith("--") and self.allow_abbrev and any(option.startswith(name) for option in known):
                continue
            return arg
        return None

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


def show_logs(verbose: bool = False, *, level: int | None = None, stream: TextIO | None = None) -> None:
    """Set up logging for a command: ``level`` (default: debug with ``verbose``, else warnings), shown as
    :func:`log_handler` says."""
    default = logging.DEBUG if verbose else logging.WARNING
    logging.basicConfig(level=default if level is None else level, handlers=[log_handler(verbose, stream)])


def log_handler(verbose: bool = False, stream: TextIO | None = None) -> logging.Handler:
    """Log lines to ``stream`` (default: stderr): at a terminal, ``warning: what happened``; in a file, or
    with ``verbose``, the time and the logger's name too."""
    stream = stream if stream is not None else sys.stderr
    handler = logging.StreamHandler(stream)
    at_terminal = bool(getattr(stream, "isatty", lambda: False)())
    handler.setFormatter(PlayerFormatter() if at_terminal and not verbose
                         else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return handler


class PlayerFormatter(logging.Formatter):
    """``warning: ...``, ``error: ...``; news (info) as the bare line."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return text if record.levelno == logging.INFO else f"{record.levelname.lower()}: {text}"
