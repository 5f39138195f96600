"""Reading the files a person hands the controller (records, game logs, configurations), within limits.

Every file input goes through here: its size is checked before it is read (a regular file by its
size, anything else, such as ``/dev/zero`` or a pipe, by reading at most one byte past the limit),
its bytes must be UTF-8 text, and what it parses to must nest no deeper than :data:`MAX_DEPTH`,
hold no number longer than :data:`MAX_DIGITS` digits and no string that cannot be printed (a lone
surrogate).  Whatever breaks a limit is refused with a one-line :class:`~controller.errors.InputFileError`
naming the file (and the line, for a file of JSON lines).
"""

from __future__ import annotations

import json
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from .errors import InputFileError

MAX_DEPTH = 32
"""Deepest nesting of lists and objects a file may hold (a record needs 6)."""
MAX_DIGITS = 40
"""Longest number a file may hold, in characters."""
KIB = 1024
MIB = 1024 * KIB


def read_bytes(path: str | Path, *, limit: int, what: str = "file") -> bytes:
    """The bytes of ``path``; a file larger than ``limit`` bytes is refused without being read."""
    path = Path(path)
    try:
        # O_NONBLOCK: a named pipe no program writes to is opened at once (and read as empty), not waited on
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        os.set_blocking(descriptor, True)  # a pipe with a writer is then read as it comes
        with os.fdopen(descriptor, "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise InputFileError(f"{path}: is a folder, not a {what}")
            if stat.S_ISREG(info.st_mode) and info.st_size > limit:
                raise InputFileError(f"{path}: {_size(info.st_size)}, more than a {what} can be ({_size(limit)})")
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise InputFileError(f"{path}: is a folder, not a {what}") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read the {what}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputFileError(f"{path}: more than a {what} can be ({_size(limit)})")
    return data


def decode(data: bytes, *, where: str) -> str:
    """``data`` as UTF-8 text, or a one-line error naming the first bad byte."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # the byte order mark some editors write first
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{where}: not UTF-8 text (byte {exc.start + 1})") from None


def read_text(path: str | Path, *, limit: int, what: str = "file") -> str:
    return decode(read_bytes(path, limit=limit, what=what), where=str(path))


def _size(n: int) -> str:
    return f"{n / MIB:.1f} MB" if n >= MIB else f"{n / KIB:.0f} kB" if n >= KIB else f"{n} bytes"


def _number(text: str) -> int | float:
    if len(text) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} characters (at most {MAX_DIGITS})")
    return float(text) if any(c in text for c in ".eE") else int(text)


def _constant(text: str) -> Any:
    raise ValueError(f"{text} is not a JSON number")


def loads_json(text: str | bytes, *, where: str) -> Any:
    """Parse one JSON document within the limits; ``where`` names it in the error."""
    if isinstance(text, bytes):
        text = decode(text, where=where)
    try:
        value = json.loads(text, parse_int=_number, parse_float=_number, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{where}: not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise InputFileError(f"{where}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # from the number hooks
        raise InputFileError(f"{where}: {exc}") from None
    check(value, where=where)
    return value


def loads_toml(text: str, *, where: str) -> dict[str, Any]:
    """Parse a TOML document within the limits."""
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputFileError(f"{where}: not valid TOML ({exc})") from None
    except RecursionError:
        raise InputFileError(f"{where}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # an integer past Python's 4300 digits of conversion
        raise InputFileError(f"{where}: a number longer than {MAX_DIGITS} digits") from None
    check(value, where=where)
    return value


def check(value: Any, *, where: str) -> None:
    """Refuse a parsed value nested deeper than :data:`MAX_DEPTH`, or holding a string that is not text."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _text(item, where)
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise InputFileError(f"{where}: nested deeper than {MAX_DEPTH} levels")
            if isinstance(item, dict):
                for key, inner in item.items():
                    _text(key, where)
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 10**MAX_DIGITS:
            raise InputFileError(f"{where}: a number longer than {MAX_DIGITS} digits")


def _text(value: str, where: str) -> None:
    if value.isascii():
        return
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputFileError(f"{where}: a string holds a lone surrogate (\\u{ord(value[_bad(value)]):04x}), not text") from None


def _bad(value: str) -> int:
    return next(k for k, c in enumerate(value) if 0xD800 <= ord(c) <= 0xDFFF)


def read_json(path: str | Path, *, limit: int, what: str = "file") -> Any:
    """Read and parse a JSON file within the limits."""
    return loads_json(read_bytes(path, limit=limit, what=what), where=str(path))


def read_toml(path: str | Path, *, limit: int, what: str = "configuration file") -> dict[str, Any]:
    """Read and parse a TOML file within the limits."""
    return loads_toml(read_text(path, limit=limit, what=what), where=str(path))
