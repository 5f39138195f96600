"""The game log: every input and sensor observation of a game, appended and synced before it is acted on.

One JSON object a line.  The first line is the header: what the game is (the record's
header: rule set, players, options, setup, the loot of a digital bank) and how it is
played (the table's settings, the bots' seed...).  Then, in order:

- ``{"seq": n, "input": {...}}``: an input the referee accepted (see :mod:`.inputs`);
- ``{"seq": n, "seen": {...}}``: what a sensor saw (a standee change, a camera verdict, the aims the
  camera read: ``{"aims": {"round", "aims", "late", "needs_godfather", "confidence", "seats", "refused"}}``
  just before the ``aims`` input that was confirmed), kept for the record of what happened and to
  replay a dispute, not replayed into the game.
- ``{"seq": n, "undo": k}``: the input of line ``seq`` ``k`` was taken back (see :mod:`.undo`):
  reading the log drops it.

A line is written, flushed and ``fsync``-ed before the input is applied, so after a crash
or a pulled plug every input that had an effect is in the log, once.  A last line cut short
by the crash was never acted on and is dropped when the log is read again.  Only one
controller writes a log at a time (an exclusive lock on the file).
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "cashnguns-log/1"
log = logging.getLogger(__name__)


class LogError(ValueError):
    """A game log that cannot be used; ``str()`` names the file and what is wrong."""


@dataclass
class LoggedGame:
    header: dict[str, Any]
    inputs: list[dict[str, Any]] = field(default_factory=list)
    seen: list[dict[str, Any]] = field(default_factory=list)
    next_seq: int = 1


class GameLog:
    """An open game log, appended to with :meth:`input` and :meth:`seen`."""

    def __init__(self, path: Path, handle, next_seq: int) -> None:
        self.path = path
        self._file = handle
        self._seq = next_seq

    @classmethod
    def create(cls, path: str | Path, header: dict[str, Any]) -> GameLog:
        """A new log for a new game (the file must not exist)."""
        path = Path(path)
        try:
            handle = os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="utf-8")
        except FileExistsError:
            raise LogError(f"{path}: a game log is already there (resume it, or choose another file)") from None
        except OSError as exc:
            raise LogError(f"{path}: cannot create the game log: {exc.strerror}") from None
        game_log = cls(path, handle, 1)
        game_log._lock()
        game_log._write({"format": FORMAT, **header})
        return game_log

    @classmethod
    def reopen(cls, path: str | Path) -> tuple[GameLog, LoggedGame]:
        """An existing log, to resume its game: the log, open for appending, and what it holds."""
        path = Path(path)
        game = read(path)
        try:
            handle = path.open("r+", encoding="utf-8")
        except OSError as exc:
            raise LogError(f"{path}: cannot open the game log: {exc.strerror}") from None
        game_log = cls(path, handle, game.next_seq)
        game_log._lock()
        os.fchmod(handle.fileno(), 0o600)  # the table's user only
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        valid = _valid_length(path)
        if valid < size:  # a line cut short by a crash: it was never acted on
            log.warning("%s: dropping an unfinished last line (%d bytes)", path, size - valid)
            handle.truncate(valid)
            handle.seek(valid)
        return game_log, game

    def _lock(self) -> None:
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._file.close()
            raise LogError(f"{self.path}: another controller is writing this game log") from None

    def _write(self, entry: dict[str, Any]) -> None:
        self._file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def input(self, data: dict[str, Any]) -> int:
        """Log an input before it is applied; returns its ``seq``."""
        self._write({"seq": self._seq, "input": data})
        self._seq += 1
        return self._seq - 1

    def undo(self, seq: int) -> None:
        """Log that the input of line ``seq`` was taken back."""
        self._write({"seq": self._seq, "undo": seq})
        self._seq += 1

    def seen(self, data: dict[str, Any]) -> None:
        """Log a sensor observation."""
        self._write({"seq": self._seq, "seen": data})
        self._seq += 1

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


def _valid_length(path: Path) -> int:
    """Bytes up to the end of the last complete line."""
    data = path.read_bytes()
    end = data.rfind(b"\n")
    return end + 1


def read(path: str | Path) -> LoggedGame:
    """Read a game log; a last line cut short is ignored, any other damage is an error."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise LogError(f"{path}: no such game log") from None
    except OSError as exc:
        raise LogError(f"{path}: cannot read the game log: {exc.strerror}") from None
    lines = data.split(b"\n")
    complete = lines[:-1]  # what follows the last newline is a line cut short (or nothing)
    if not complete:
        raise LogError(f"{path}: empty game log")
    try:
        header = json.loads(complete[0])
    except json.JSONDecodeError:
        raise LogError(f"{path}: line 1: not a game log header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LogError(f"{path}: line 1: not a {FORMAT} game log")
    game = LoggedGame(header)
    seqs: list[Any] = []  # the seq of each input kept, for the undo lines
    for number, line in enumerate(complete[1:], start=2):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            raise LogError(f"{path}: line {number}: not valid JSON") from None
        if "input" in entry:
            game.inputs.append(entry["input"])
            seqs.append(entry.get("seq"))
        elif "undo" in entry:
            if not seqs or seqs[-1] != entry["undo"]:
                raise LogError(f"{path}: line {number}: undoes input {entry['undo']!r}, which is not the last one")
            game.inputs.pop()
            seqs.pop()
        elif "seen" in entry:
            game.seen.append(entry["seen"])
        else:
            raise LogError(f"{path}: line {number}: neither an input nor a sensor observation")
        game.next_seq = int(entry.get("seq", game.next_seq)) + 1
    return game
