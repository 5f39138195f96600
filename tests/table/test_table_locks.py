"""Timing and locks at a real table: the SD card never holds up the count's timers, the game log's
lines are numbered once each whatever thread writes them, and the pause between rounds leaves the
console free."""

from __future__ import annotations

import json
import os
import threading
from typing import Any

import pytest

from controller.devices.simulation import StandeeMove
from controller.table import session as session_module
from controller.table.gamelog import GameLog, LogError, read
from controller.table.referee import Step
from tests.table.table_kit import table


class StuckCard:
    """An SD card whose ``fsync`` takes as long as the test wants: it waits until released."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.busy = threading.Event()  # an fsync is waiting for the card
        self._fsync = os.fsync

    def fsync(self, fd: int) -> None:
        self.busy.set()
        self.release.wait(timeout=10.0)
        self._fsync(fd)


def test_a_standee_change_does_not_wait_for_the_sd_card(tmp_path, monkeypatch):
    """The tilt judge tells of a change on the clock's thread, holding the clock's lock: the count's LED
    and sound timers wait for it.  Its line in the game log is written by the log's own writer."""
    path = tmp_path / "game.log"
    game_log = GameLog.create(path, {"record": {}})
    session, _ = table("classic", 4, seed=3, game_log=game_log)
    card = StuckCard()
    monkeypatch.setattr(os, "fsync", card.fsync)
    clock = session.devices.clock
    now = clock.now()
    moves = [StandeeMove(now + 0.1, 1, False, bounce=2), StandeeMove(now + 0.4, 1, True)]
    table_time = threading.Thread(target=session.script.play, args=(moves,), kwargs={"until": now + 1.0}, daemon=True)
    try:
        table_time.start()
        table_time.join(timeout=3.0)
        assert not table_time.is_alive(), "the clock's callbacks waited for the SD card"
        assert clock.now() == pytest.approx(now + 1.0)
        assert card.busy.wait(timeout=3.0)  # the log's writer is at the card meanwhile
    finally:
        card.release.set()
        table_time.join(timeout=10.0)
    game_log.close()
    tilts = [e["tilt"] for e in read(path).seen]
    assert [(t["seat"], t["up"]) for t in tilts] == [(1, False), (1, True)]
    assert tilts[0]["time"] == pytest.approx(now + 0.1)


def _offsets_of_inputs(data: bytes) -> list[int]:
    """The offset just past each input's line."""
    ends, offset = [], 0
    for line in data.splitlines(keepends=True):
        offset += len(line)
        if b'"input":' in line:
            ends.append(offset)
    return ends


def test_every_input_is_on_the_card_before_it_is_acted_on(tmp_path, monkeypatch):
    """With the standees' changes written by the log's writer meanwhile, each input is still written
    and synced, after everything seen before it, before the referee applies it."""
    path = tmp_path / "game.log"
    game_log = GameLog.create(path, {"record": {}})
    session, _ = table("classic", 4, seed=5, game_log=game_log)
    synced: list[int] = []  # the file's size at each fsync
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        synced.append(os.fstat(fd).st_size)

    monkeypatch.setattr(os, "fsync", fsync)
    referee = session.referee
    accept = referee.accept
    checked: list[int] = []

    def accept_synced(inp):
        data = path.read_bytes()
        inputs = _offsets_of_inputs(data)
        assert len(inputs) == session.history.count + 1, "the input is not in the log yet"
        assert max(synced, default=0) >= inputs[-1], "the input's line is not synced yet"
        checked.append(len(inputs))
        return accept(inp)

    monkeypatch.setattr(referee, "accept", accept_synced)
    while referee.step is not Step.OVER and referee.game.rounds_played < 2:
        session.play_step()
    game_log.close()
    assert len(checked) > 10
    logged = read(path)
    assert any("tilt" in e for e in logged.seen)
    lines = path.read_bytes().splitlines()[1:]
    assert [json.loads(line)["seq"] for line in lines] == list(range(1, len(lines) + 1))


def test_two_threads_never_get_the_same_seq(tmp_path):
    """The clock's thread logs standee changes while the console's thread logs inputs: every line
    gets its own number, in the order of the file."""
    path = tmp_path / "game.log"
    game_log = GameLog.create(path, {"record": {}})
    each = 150
    start = threading.Barrier(2)

    def inputs() -> None:
        start.wait()
        for k in range(each):
            game_log.input({"kind": "cards", "k": k})

    def tilts() -> None:
        start.wait()
        for k in range(each):
            game_log.seen({"tilt": {"seat": k % 9, "up": bool(k % 2), "time": k}}, queued=k % 2 == 0)

    threads = [threading.Thread(target=inputs), threading.Thread(target=tilts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30.0)
    game_log.close()
    lines = path.read_bytes().splitlines()[1:]
    assert [json.loads(line)["seq"] for line in lines] == list(range(1, 2 * each + 1))
    logged = read(path)
    assert [i["k"] for i in logged.inputs] == list(range(each))
    assert [s["tilt"]["time"] for s in logged.seen] == list(range(each))


def test_a_change_seen_after_the_log_closed_is_dropped(tmp_path):
    path = tmp_path / "game.log"
    game_log = GameLog.create(path, {"record": {}})
    game_log.seen({"tilt": {"seat": 0, "up": False, "time": 1.0}}, queued=True)
    game_log.close()
    game_log.seen({"tilt": {"seat": 0, "up": True, "time": 2.0}}, queued=True)  # a standee after the game
    assert [s["tilt"]["time"] for s in read(path).seen] == [1.0]


def test_a_card_that_cannot_be_written_is_one_line_and_leaves_no_half_line(tmp_path, monkeypatch):
    path = tmp_path / "game.log"
    game_log = GameLog.create(path, {"record": {}})
    game_log.input({"kind": "cards"})
    real_write = os.write

    def full(fd: int, data: bytes) -> int:
        real_write(fd, data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(LogError, match=f"^{path}: cannot write the game log: No space left on device$"):
        game_log.input({"kind": "aims"})
    monkeypatch.setattr(os, "write", real_write)
    assert game_log.input({"kind": "withdrawals"}) == 3  # the card has room again
    game_log.close()
    assert [i["kind"] for i in read(path).inputs] == ["cards", "withdrawals"]


# -- the pause between rounds --------------------------------------------------------------------


def test_the_pause_between_rounds_leaves_the_console_free_and_lets_no_input_in(monkeypatch):
    """A round's end is followed by a pause of a second (the speaker tells the split).  The console's
    event loop looks at the session meanwhile (it takes the session's lock): it must not freeze.  An
    input sent meanwhile (a page, the console's own loop) waits for the pause to end, and what it
    makes the table say comes after it."""
    session, lines = table("classic", 4, seed=9)
    checks: dict[str, Any] = {}
    wait = session._wait

    def pause(seconds: float, **kwargs) -> None:
        if seconds != session_module.BETWEEN_ROUNDS or "pause" in checks:
            return wait(seconds, **kwargs)
        checks["pause"] = True
        looked = threading.Event()

        def look() -> None:  # the console's event loop building a view
            if session.lock.acquire(timeout=2.0):
                session.lock.release()
                looked.set()

        said_before = len(lines)
        checks["inputs"] = session.history.count
        nxt = session.bots.answer(session.referee.prompt())
        sent: list[str | None] = []
        page = threading.Thread(target=lambda: sent.append(session.try_submit(nxt)), daemon=True)
        stepper = threading.Thread(target=session.play_step, daemon=True)  # the game's own thread goes on
        looker = threading.Thread(target=look, daemon=True)
        for thread in (looker, page, stepper):
            thread.start()
        looker.join(timeout=3.0)
        checks["looked"] = looked.is_set()
        page.join(timeout=0.3)
        stepper.join(timeout=0.3)
        checks["held"] = page.is_alive() and stepper.is_alive() and len(lines) == said_before
        wait(seconds, **kwargs)
        checks["threads"] = [page, stepper]
        checks["sent"] = sent
        return None

    monkeypatch.setattr(session, "_wait", pause)
    while session.referee.game.rounds_played < 1:
        session.play_step()
    assert checks.get("pause"), "no pause between rounds"
    for thread in checks["threads"]:
        thread.join(timeout=5.0)
        assert not thread.is_alive()
    assert checks["looked"], "the session's lock was held through the pause"
    assert checks["held"], "an input slipped in during the pause"
    # once the pause ended, the round's cards went down once: from the page, or from the game's own thread
    assert len(checks["sent"]) == 1
    assert session.referee.game.rounds_played == 1
    after = session.history.entries[checks["inputs"]:]
    assert [type(e.input).__name__ for e in after][:1] == ["CardsDown"] and len(after) <= 2


def test_a_listener_that_fails_at_a_rounds_end_does_not_leave_the_table_paused():
    """The pause between rounds ends whatever a listener (the console) does: the next input is not held forever."""
    session, _ = table("classic", 4, seed=3, devices=False)

    class ListenerBug(Exception):
        pass

    def flaky() -> None:
        if not session._quiet.is_set():
            raise ListenerBug("a listener failed once")

    session.listeners.append(flaky)
    with pytest.raises(ListenerBug):
        while session.referee.step is not Step.OVER:
            session.play_step()
    session.listeners.remove(flaky)
    assert session._quiet.is_set()
    undo = threading.Thread(target=session.undo, daemon=True)
    undo.start()
    undo.join(timeout=1.0)
    assert not undo.is_alive()
