"""At a real table the Godfather cues the camera before each shuriken throw: the live camera arms on the
table at rest, watches the throw, and its verdict (fused with the tilt sensors) waits on the console to be
confirmed or overruled, as a simulated one does.  The camera here replays a synthetic throw clip."""

from __future__ import annotations

import threading
import time

import pytest
from camera_kit import TARGET, THROWER, Garbled, StillTable, Stuck, Throw, Unplugged, real_table, throw_clip
from console_kit import console_table
from starlette.testclient import TestClient

from controller.console.server import create_app
from controller.devices.simulation import StandeeMove
from controller.table import gamelog
from controller.table.camera import LiveCamera
from controller.table.referee import Step


@pytest.fixture(scope="module")
def clip():
    return throw_clip()


def post(client, relay, data):
    return client.post(f"/api/input?token={relay.tokens.godfather}", json=data)


def state(client, relay):
    return client.get(f"/api/state?token={relay.tokens.godfather}").json()


def wait_for(check, seconds=8.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("waited in vain")


def logged(log):
    return gamelog.read(log.path)


def test_the_cue_arms_the_camera_and_its_verdict_is_confirmed_as_the_cameras(clip, tmp_path):
    spec, frames, calibration = clip
    source = Throw(frames)
    session, relay, log = real_table(LiveCamera(source, calibration, fps=spec.fps), tmp_path)
    with TestClient(create_app(relay)) as client:
        game = threading.Thread(target=session.play_step, daemon=True)  # the session waits for the console
        game.start()
        before = state(client, relay)
        assert before["camera"] == {"throws": True, "watching": None, "note": None}
        assert post(client, relay, {"kind": "watch", "thrower": THROWER, "target": TARGET}).json()["ok"]
        watching = state(client, relay)["camera"]["watching"]
        assert watching == {"thrower": THROWER, "target": TARGET}
        assert wait_for(lambda: source.i >= 3)  # armed on the table at rest, before the throw
        assert session.pending is None and session.history.count == before["inputs"]
        # the throw: Cy's standee goes down (its tilt sensor tells), the camera films it
        now = session.devices.clock.now()
        session.script.play([StandeeMove(now + 0.1, 2, False, bounce=2)], until=now + 0.4)
        source.go.set()
        verdict = wait_for(lambda: (state(client, relay)["pending"] or {}).get("verdict"))
        assert verdict == {"thrower": THROWER, "target": TARGET, "knocked": ["Cy"], "touched": [], "confidence": verdict["confidence"],
                           "reason": "camera and sensors agree", "sure": True, "frame": True}
        now = state(client, relay)
        assert now["camera"]["watching"] is None and now["inputs"] == before["inputs"]  # the cue is no input
        frame = client.get(f"/api/frame?token={relay.tokens.godfather}")
        assert frame.status_code == 200 and frame.content[:2] == b"\xff\xd8"
        seen = [e["camera"] for e in logged(log).seen if "camera" in e]
        assert len(seen) == 1 and seen[0]["thrower"] == THROWER and seen[0]["knocked"] == [2]
        # the page sends the camera's verdict (confirmed, or by itself after its countdown)
        confirm = {"kind": "throw", "thrower": THROWER, "target": TARGET, "knocked": verdict["knocked"],
                   "touched": verdict["touched"], "source": "camera", "confidence": verdict["confidence"]}
        assert post(client, relay, confirm).json()["ok"]
        game.join(timeout=5.0)
        assert not game.is_alive()  # the throw is in: the session goes on to the next
    entered = logged(log).inputs
    assert entered[-1] == {**confirm, "kind": "throw"} and not any(e["kind"] == "watch" for e in entered)
    assert session.referee.round.thrown and session.pending is None and session.frame is not None


def test_a_verdict_the_tilt_sensors_do_not_back_waits_for_the_godfather_who_overrules_it(clip, tmp_path):
    spec, frames, calibration = clip
    source = Throw(frames)
    session, relay, log = real_table(LiveCamera(source, calibration, fps=spec.fps), tmp_path)
    with TestClient(create_app(relay)) as client:
        assert post(client, relay, {"kind": "watch", "thrower": THROWER}).json()["ok"]  # the target not said yet
        source.go.set()  # Cy's tilt sensor tells of no fall
        verdict = wait_for(lambda: (state(client, relay)["pending"] or {}).get("verdict"))
        assert verdict["knocked"] == ["Cy"] and verdict["target"] is None
        assert not verdict["sure"] and verdict["reason"] == "the camera and the tilt sensors disagree"
        # another thrower waits; the target said now goes with the verdict
        reply = post(client, relay, {"kind": "watch", "thrower": "Dee"})
        assert reply.status_code == 409
        assert reply.json()["refused"] == "round 1: the camera's verdict on Aiko's throw waits: confirm or overrule it first"
        assert post(client, relay, {"kind": "watch", "thrower": THROWER, "target": TARGET}).json()["ok"]
        assert state(client, relay)["pending"]["verdict"] == {**verdict, "target": TARGET}
        overruled = {"kind": "throw", "thrower": THROWER, "target": TARGET, "knocked": [], "touched": ["Cy"], "source": "godfather"}
        assert post(client, relay, overruled).json()["ok"]
    assert logged(log).inputs[-1] == {**overruled, "confidence": None}
    assert [e["camera"]["knocked"] for e in logged(log).seen if "camera" in e] == [[2]]  # what the camera saw, kept


@pytest.mark.parametrize("camera, why", [
    (Unplugged, "/dev/video0: No such device"),
    (Garbled, "OpenCV(4.10.0) cap_v4l.cpp:1048: error: (-215:Assertion failed) !frame.empty() in function 'read'"),
])
def test_a_camera_that_fails_says_so_and_the_godfather_enters_the_throw(camera, why, tmp_path):
    session, relay, log = real_table(LiveCamera(camera(), None, fps=30), tmp_path)
    with TestClient(create_app(relay)) as client:
        assert post(client, relay, {"kind": "watch", "thrower": THROWER}).json()["ok"]
        note = wait_for(lambda: state(client, relay)["camera"]["note"])
        assert note == f"The camera failed on Aiko's throw ({why}): the Godfather enters it."
        assert "\n" not in note and session.pending is None and session.watch is None
        assert any(note in line for line in session.lines)
        reply = post(client, relay, {"kind": "throw", "thrower": THROWER, "target": "Eli", "knocked": ["Eli"], "source": "godfather"})
        assert reply.json()["ok"]
        assert state(client, relay)["camera"]["note"] is None  # said for that throw only
    assert logged(log).inputs[-1]["knocked"] == ["Eli"]
    assert not [e for e in logged(log).seen if "camera" in e]


def test_a_camera_that_sees_no_throw_or_gives_no_verdict_in_time_says_so(clip, tmp_path):
    _spec, frames, calibration = clip
    # at 3 frames a second the judge's 20 s of a still table pass in 60 frames
    session, relay, _log = real_table(LiveCamera(StillTable(frames[0]), calibration, fps=3), tmp_path)
    assert session.cue_throw(THROWER) is None
    wait_for(lambda: session.camera_note)
    assert session.camera_note == "The camera saw no throw from Aiko: the Godfather enters it, or cues the camera again."
    assert session.pending is None
    stuck = Stuck()
    session.camera = LiveCamera(stuck, calibration, fps=30)
    session.watch_seconds = 0.3
    try:
        assert session.cue_throw("Dee") is None
        assert wait_for(lambda: session.camera_note and "Dee" in session.camera_note)
        assert session.camera_note == "The camera gave no verdict on Dee's throw in 0.3 s: the Godfather enters it."
        assert session.watch is None and session.pending is None
    finally:
        stuck.close()


def test_an_undo_or_a_cue_for_another_thrower_ends_the_watch(clip, tmp_path):
    _spec, frames, calibration = clip
    still = StillTable(frames[0])
    session, relay, log = real_table(LiveCamera(still, calibration, fps=30), tmp_path)
    with TestClient(create_app(relay)) as client:
        assert post(client, relay, {"kind": "watch", "thrower": THROWER}).json()["ok"]
        first = session.watch
        wait_for(lambda: still.reads > 3)
        assert post(client, relay, {"kind": "watch", "thrower": "Dee", "target": "Fay"}).json()["ok"]
        assert first.cancel.is_set() and state(client, relay)["camera"]["watching"] == {"thrower": "Dee", "target": "Fay"}
        first.thread.join(timeout=2.0)
        assert not first.thread.is_alive()  # it let go of the camera
        second = session.watch
        # the same thrower again, now with his target: the watch goes on
        assert post(client, relay, {"kind": "watch", "thrower": "Dee", "target": "Bo"}).json()["ok"]
        assert session.watch is second and second.target == "Bo" and not second.cancel.is_set()
        # the thrower tapped again: the camera stops watching
        assert post(client, relay, {"kind": "watch", "thrower": None}).json()["ok"]
        assert second.cancel.is_set() and session.watch is None
        assert post(client, relay, {"kind": "watch", "thrower": "Dee"}).json()["ok"]
        third = session.watch
        inputs = session.history.count
        assert post(client, relay, {"kind": "undo", "count": inputs}).json()["ok"]
        assert third.cancel.is_set() and session.watch is None
        third.thread.join(timeout=2.0)
        assert not third.thread.is_alive()
        assert state(client, relay)["camera"]["watching"] is None and session.referee.step is Step.BBB
        # a cue is refused away from the throws
        reply = post(client, relay, {"kind": "watch", "thrower": THROWER})
        assert reply.status_code == 409
        assert reply.json()["refused"] == "round 1: the camera watches a shuriken only while they are thrown"
    assert not [e for e in logged(log).seen if "camera" in e]


@pytest.mark.parametrize("bad, why", [
    ({"kind": "watch"}, "watch: thrower is missing"),
    ({"kind": "watch", "thrower": 3}, "watch: thrower must be a name or null"),
    ({"kind": "watch", "thrower": "A" * 5000}, "watch: thrower must be a name or null"),
    ({"kind": "watch", "thrower": THROWER, "target": ["Cy"]}, "watch: target must be a name or null"),
    ({"kind": "watch", "thrower": THROWER, "at": "Cy"}, "watch: unexpected field 'at'"),
    ({"kind": "watch", "thrower": "Bo"}, "round 1: Bo has no shuriken to throw now"),
    ({"kind": "watch", "thrower": THROWER, "target": "Bo"},
     "round 1: Aiko may not throw at Bo (the legal targets: Cy, Eli)"),
])
def test_a_malformed_cue_gets_one_line_and_changes_nothing(bad, why, tmp_path):
    session, relay, log = real_table(LiveCamera(Unplugged(), None, fps=30), tmp_path)
    with TestClient(create_app(relay)) as client:
        version = state(client, relay)["version"]
        reply = post(client, relay, bad)
        assert reply.status_code == 409 and reply.json()["refused"] == why
        after = state(client, relay)
        assert after["version"] == version and after["camera"] == {"throws": True, "watching": None, "note": None}
    assert session.watch is None and len(logged(log).inputs) == 4


def test_no_cue_for_a_yakuza_with_no_one_to_throw_at(tmp_path):
    session, relay, _log = real_table(LiveCamera(Unplugged(), None, fps=30), tmp_path, withdrew=["Bo", "Cy", "Eli", "Fay"])
    assert session.referee.prompt().options["targets"] == {"Aiko": [], "Dee": []}
    assert session.cue_throw(THROWER) == "round 1: Aiko has no one to throw at (Aiko's shuriken is shown, not thrown)"
    assert session.watch is None


def test_without_a_camera_or_in_a_simulated_game_nothing_is_cued(tmp_path):
    session, relay, _log = real_table(None, tmp_path)
    assert session.cue_throw(THROWER) == "no camera watches the throws at this table"
    with TestClient(create_app(relay)) as client:
        assert state(client, relay)["camera"] == {"throws": False, "watching": None, "note": None}
    simulated, _relay = console_table("yakuzas", 6, 1, cards=False, camera=LiveCamera(Unplugged(), None, fps=30))
    assert not simulated.watches_throws()  # the bots' throws are filmed as they are played


class Judged:
    """A camera whose verdict comes a moment after the cue."""

    def judge(self, **kwargs):
        from controller.table.session import CameraVerdict

        time.sleep(0.1)
        return CameraVerdict(knocked=[], touched=[], confidence=0.9, needs_godfather=False, details={"x": 1})


def test_a_verdict_that_cannot_be_logged_is_said_in_one_line_and_the_godfather_enters_the_throw(tmp_path, monkeypatch):
    """The SD card fails as the verdict comes: no traceback from the watch's thread, the console is told."""
    failures: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    session, relay, log = real_table(Judged(), tmp_path)

    def card_fails(lines):
        raise gamelog.LogError(f"{log.path}: cannot write the game log: Input/output error")

    monkeypatch.setattr(log, "_write", card_fails)
    assert session.cue_throw(THROWER) is None
    cued = relay.version
    note = wait_for(lambda: session.camera_note, seconds=3.0)
    assert note == (f"The camera's verdict on Aiko's throw was lost ({log.path}: cannot write the game log: "
                    "Input/output error): the Godfather enters it.")
    assert session.lines[-1] == "  " + note and session.watch is None and session.pending is None
    wait_for(lambda: relay.version > cued, seconds=2.0)  # the console was told
    session._watch_thread.join(timeout=2.0)
    assert not failures


class Filming:
    """A webcam filming the table at rest; once released, it gives no frame (as OpenCV's does)."""

    def __init__(self, frame) -> None:
        self.frame, self.closed, self.reads = frame, False, 0

    def read(self):
        time.sleep(1 / 30)
        self.reads += 1
        return None if self.closed else self.frame

    def close(self) -> None:
        self.closed = True


def test_the_table_closing_ends_a_watch_before_the_camera_is_closed(clip, tmp_path):
    """Ctrl-C while the camera watches a throw: the watch ends (its timer too) and its thread lets go
    of the camera before the camera is closed; nothing is said after the table closed."""
    _spec, frames, calibration = clip
    source = Filming(frames[0])
    camera = LiveCamera(source, calibration, fps=30)
    session, _relay, log = real_table(camera, tmp_path)
    assert session.cue_throw(THROWER) is None
    watch = session.watch
    wait_for(lambda: source.reads > 5, seconds=3.0)  # the thread is reading the camera
    said = len(session.lines)
    session.close()  # the table closes: the session first, then the camera
    assert not watch.thread.is_alive() and watch.timer.finished.is_set()
    camera.close()
    log.close()
    time.sleep(0.3)
    assert len(session.lines) == said and session.camera_note is None


def test_no_cue_once_the_table_is_closing(tmp_path):
    session, _relay, _log = real_table(Judged(), tmp_path)
    session.close()
    assert session.cue_throw(THROWER) == "the table is closing: the camera watches no more throws"
    assert session.watch is None
