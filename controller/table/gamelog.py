"""The game log: every input and sensor observation of a game, appended and synced before it is acted on.

One JSON object a line.  The first line is the header: what the game is (the record's
header: rule set, players, options, setup, the loot of a digital bank) and how it is
played (the table's settings, the bots' seed...).  Then, in order:

- ``{"seq": n, "input": {...}}``: an input the referee accepted (see :mod:`.inputs`);
- ``{"seq": n, "seen": {...}}``: what a sensor saw (a standee change, a camera verdict, the aims the
  camera read: ``{"aims": {"round", "aims", "late", "needs_godfather", "confidence", "seats", "refused"}}``
  just before the ``aims`` input that was confirmed; and, when players read pointing where the rules forbid
  aimed again, the second count's reading of their seats: ``{"aims_again": {"round", "shooters",
  "refused_at_count", "aims", "late", "needs_godfather", "confidence", "seats", "refused"}}``), kept for
  the record of what happened and to replay a dispute, not replayed into the game.  A card entered on a console page before the
  table needs it is kept the same way (``{"claim": {"round", "cards", "by"}}``): a resumed game's
  console has it again.
- ``{"seq": n, "undo": k}``: the input of line ``seq`` ``k`` was taken back (see :mod:`.undo`):
  reading the log drops it.

An input's line is written and ``fsync``-ed, with every line logged before it, before the input
is applied, so after a crash or a pulled plug every input that had an effect is in the log, once.
A standee's change is told on the devices' clock thread, whose count timers (LEDs, speaker) must
not wait for the SD card: it is only numbered and queued there, and the log's own writer thread
writes and syncs it a moment later (always before the next input's line).  A last line cut short
by the crash was never acted on and is dropped when the log is read again.  Any thread may log:
each line gets its own ``seq``, in the order of the file.  Only one controller writes a log at a
time (an exclusive lock on the file).

Any other damage (a line that is not JSON, not an entry, a number where an object belongs) is an
error naming the file and the line: a damaged log is never read as if it were whole.  With
``salvage``, :func:`read` keeps what comes before the first damaged line and says what it dropped.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .. import files
from ..errors import GameLogError, InputFileError
from ..record.schema import LOG_FORMAT_PREFIX
from ..threads import join

FORMAT = LOG_FORMAT_PREFIX + "1"
MAX_BYTES = 64 * files.MIB
"""The largest game log read (a long game with every sensor change logged takes about 1 MB)."""
log = logging.getLogger(__name__)


class LogError(GameLogError, ValueError):
    """A game log that cannot be used; ``str()`` names the file and what is wrong."""


class LogBusy(LogError):
    """Another controller holds the game log."""


@dataclass
class LoggedGame:
    header: dict[str, Any]
    inputs: list[dict[str, Any]] = field(default_factory=list)
    seen: list[dict[str, Any]] = field(default_factory=list)
    next_seq: int = 1
    starts: list[tuple[int, int]] = field(default_factory=list)
    """For each input: its line number and the offset of the line's first byte."""
    damage: str | None = None
    """With ``salvage``: the first damaged line, what is wrong with it (everything from it on is dropped)."""
    damage_at: int | None = None
    """With ``salvage``: the offset of the first damaged line."""


class GameLog:
    """An open game log, appended to with :meth:`input`, :meth:`undo` and :meth:`seen`.

    Safe to use from several threads: each line gets its own ``seq``, and lines are in the file in
    the order of their ``seq``.  An input (or an undo) is written and synced before :meth:`input`
    returns, together with every line logged before it.  A line logged with ``queued`` (a standee's
    change, told on the devices' clock thread, whose count timers must not wait for the SD card) is
    written and synced by the log's own writer thread a moment later, and always before any line
    logged after it.
    """

    def __init__(self, path: Path, handle: TextIO, next_seq: int) -> None:
        self.path = path
        self._file = handle  # written through its descriptor (``os.write``), never through its buffer
        self.earlier: list[dict[str, Any]] = []  # the observations already logged when it was reopened
        self._lock = threading.Condition()  # the next seq, and the queue of lines the writer has not written
        self._seq = next_seq
        self._queue: list[bytes] = []
        self._closed = False
        self._io = threading.Lock()  # one writer of the file at a time (taken before ``_lock``, never after)
        self._writer: threading.Thread | None = None
        self._warned = False

    @classmethod
    def create(cls, path: str | Path, header: dict[str, Any]) -> GameLog:
        """A new log for a new game (the file must not exist)."""
        path = Path(path)
        try:  # readable by the table's user only: the header holds the console's tokens
            handle = os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="utf-8")
        except FileExistsError:
            raise LogError(f"{path}: a game log is already there (resume it, or choose another file)") from None
        except OSError as exc:
            raise LogError(f"{path}: cannot create the game log: {exc.strerror}") from None
        game_log = cls(path, handle, 1)
        game_log._lock_file()
        with game_log._io:
            game_log._write([_line({"format": FORMAT, **header})])
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
        game_log.earlier = list(game.seen)
        game_log._lock_file()
        fd = handle.fileno()
        os.fchmod(fd, 0o600)  # the table's user only
        size = os.lseek(fd, 0, os.SEEK_END)
        valid = _valid_length(path)
        if valid < size:  # a line cut short by a crash: it was never acted on
            log.warning("%s: dropping an unfinished last line (%d bytes)", path, size - valid)
            os.ftruncate(fd, valid)
            os.lseek(fd, valid, os.SEEK_SET)
        return game_log, game

    def _lock_file(self) -> None:
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._file.close()
            raise LogBusy(f"{self.path}: another controller is writing this game log") from None

    def input(self, data: dict[str, Any]) -> int:
        """Log an input before it is applied (written and synced when this returns); returns its ``seq``."""
        return self._synced({"input": data})

    def undo(self, seq: int) -> None:
        """Log that the input of line ``seq`` was taken back (written and synced when this returns)."""
        self._synced({"undo": seq})

    def seen(self, data: dict[str, Any], *, queued: bool = False) -> None:
        """Log a sensor observation.  With ``queued`` it is only numbered and queued here (no wait for
        the SD card): the log's writer thread writes and syncs it a moment later, and before the next
        input in any case.  A queued observation after :meth:`close` is dropped."""
        if not queued:
            self._synced({"seen": data})
            return
        with self._lock:
            if self._closed:
                log.debug("%s: closed; not logged: %s", self.path, data)
                return
            self._queue.append(_line({"seq": self._seq, "seen": data}))
            self._seq += 1
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_queued, name="game-log", daemon=True)
                self._writer.start()
            self._lock.notify()

    def _synced(self, entry: dict[str, Any]) -> int:
        """Write ``entry`` (numbered) after the lines queued before it, and sync them all."""
        with self._io:
            with self._lock:
                if self._closed:
                    raise LogError(f"{self.path}: the game log is closed")
                seq = self._seq
                lines, self._queue = [*self._queue, _line({"seq": seq, **entry})], []
                self._seq += 1
            self._write(lines)
        return seq

    def _write_queued(self) -> None:
        """The writer thread: writes and syncs the queued lines, as many at a time as have come."""
        while True:
            with self._lock:
                while not self._queue and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return  # close() writes what is left
            with self._io:
                with self._lock:
                    lines, self._queue = self._queue, []
                if not lines:
                    continue
                try:
                    self._write(lines)
                except LogError as exc:
                    if not self._warned:  # the next input says it again if the card is still failing
                        log.warning("%s (%d sensor observations not logged)", exc, len(lines))
                        self._warned = True

    def _write(self, lines: list[bytes]) -> None:
        """Write ``lines`` and sync them (the ``_io`` lock held); a write that fails is taken back
        whole, so that no half line is left for the next one to follow."""
        fd = self._file.fileno()
        data = b"".join(lines)
        start = os.lseek(fd, 0, os.SEEK_CUR)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, start)
                os.lseek(fd, start, os.SEEK_SET)
            except OSError:
                pass
            raise LogError(f"{self.path}: cannot write the game log: {exc.strerror or exc}") from None

    def close(self) -> None:
        """Write what is queued, sync and close.  Safe to call again."""
        with self._io:
            with self._lock:
                if self._closed:
                    return
                self._closed = True
                lines, self._queue = self._queue, []
                self._lock.notify_all()
            try:
                if lines:
                    self._write(lines)
                else:
                    os.fsync(self._file.fileno())
            finally:
                self._file.close()
        join(self._writer, timeout=5.0)


def _line(entry: dict[str, Any]) -> bytes:
    return (json.dumps(entry, separators=(",", ":")) + "\n").encode("utf-8")


def _valid_length(path: Path) -> int:
    """Bytes up to the end of the last complete line."""
    data = _read_bytes(path)
    end = data.rfind(b"\n")
    return end + 1


def _read_bytes(path: Path) -> bytes:
    try:
        return files.read_bytes(path, limit=MAX_BYTES, what="game log")
    except InputFileError as exc:
        raise LogError(str(exc)) from None


def read(path: str | Path, *, salvage: bool = False) -> LoggedGame:
    """Read a game log; a last line cut short is ignored, any other damage is an error.

    With ``salvage``, damage after the header ends the reading instead: the game holds the entries
    before the first damaged line, and :attr:`LoggedGame.damage` says what was wrong there.
    """
    path = Path(path)
    data = _read_bytes(path)
    lines = data.split(b"\n")
    complete = lines[:-1]  # what follows the last newline is a line cut short (or nothing)
    if not complete:
        raise LogError(f"{path}: empty game log")
    try:
        header = files.loads_json(complete[0], where=f"{path}: line 1")
    except InputFileError as exc:
        raise LogError(f"{exc} (not a game log header)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LogError(f"{path}: line 1: not a {FORMAT} game log")
    game = LoggedGame(header)
    offset = len(complete[0]) + 1
    seqs: list[int] = []  # the seq of each input kept, for the undo lines
    for number, line in enumerate(complete[1:], start=2):
        start, offset = offset, offset + len(line) + 1
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        try:
            kind, value, seq = _entry(line, where=where, expected=game.next_seq)
            if kind == "undo" and (not seqs or seqs[-1] != value):
                raise LogError(f"{where}: undoes input {value!r}, which is not the last one")
        except LogError as exc:
            if not salvage:
                raise
            game.damage, game.damage_at = str(exc), start
            break
        if kind == "input":
            game.inputs.append(value)
            game.starts.append((number, start))
            seqs.append(seq)
        elif kind == "undo":
            game.inputs.pop()
            game.starts.pop()
            seqs.pop()
        else:
            game.seen.append(value)
        game.next_seq = seq + 1
    return game


def _entry(line: bytes, *, where: str, expected: int) -> tuple[str, Any, int]:
    """One line after the header: ``("input", "seen" or "undo", its value, its sequence number)``."""
    try:
        entry = files.loads_json(line, where=where)
    except InputFileError as exc:
        raise LogError(str(exc)) from None
    if not isinstance(entry, dict):
        raise LogError(f"{where}: not an entry (an object with seq and input, seen or undo)")
    kinds = [k for k in ("input", "seen", "undo") if k in entry]
    if len(kinds) != 1:
        raise LogError(f"{where}: neither an input, a sensor observation nor an undo")
    value = entry[kinds[0]]
    if kinds[0] == "undo":
        if not isinstance(value, int) or isinstance(value, bool):
            raise LogError(f"{where}: the undo does not name an input's seq")
    elif not isinstance(value, dict):
        raise LogError(f"{where}: the {kinds[0]} is not an object")
    seq = entry.get("seq", expected)
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise LogError(f"{where}: seq is not a whole number")
    return kinds[0], value, seq


def set_aside(path: str | Path) -> Path:
    """Rename a damaged log so that no one takes it for a game to go on with; returns its new name."""
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    k = 2
    while target.exists():
        target = path.with_name(f"{path.name}.damaged-{stamp}-{k}")
        k += 1
    try:
        path.rename(target)
    except OSError as exc:
        raise LogError(f"{path}: cannot move the damaged game log aside: {exc.strerror}") from None
    return target


def cut(path: str | Path, offset: int) -> tuple[Path, int]:
    """Keep a copy of the whole log aside, then cut the log at ``offset`` (a line's first byte);
    returns the copy's name and the number of lines dropped."""
    path = Path(path)
    data = _read_bytes(path)
    copy = set_aside(path)
    try:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as handle:
            handle.write(data[:offset])
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        raise LogError(f"{path}: cannot write the salvaged game log: {exc.strerror}") from None
    rest = data[offset:]
    return copy, rest.count(b"\n") + (0 if rest.endswith(b"\n") or not rest else 1)
