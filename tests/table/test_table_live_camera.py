"""A real table's camera in the session: the aims read once per count from the count's real "3", frames
stamped as they arrive on the devices' clock, a camera that failed opened again, the table's
``[camera]`` settings used, and values a table cannot use refused."""

from __future__ import annotations

import pytest

from controller.devices.opening import open_simulated
from controller.errors import CameraError
from controller.record.generator import seating
from controller.rules import RuleSet
from controller.table import config as table_config
from controller.table.bots import Bots
from controller.table.camera import LiveCamera, open_live_camera
from controller.table.gamelog import GameLog, read
from controller.table.referee import Referee, Step
from controller.table.runner import new_record
from controller.table.session import CameraAims, Session


class Watcher:
    """A live camera that watched the count: it notes when it was told to watch, and each reading
    asked of it (with the count's "3" it was given); it reads every shooter at his left neighbour."""

    def __init__(self, clock) -> None:
        self.clock = clock
        self.watched: list[float] = []
        self.reads: list[float | None] = []

    def watch(self) -> None:
        self.watched.append(self.clock.now())

    def read_aims(self, *, seats, shooters, candidates, number, truth=None, three_at=None):
        self.reads.append(three_at)
        aims = {s: shooters[(i + 1) % len(shooters)] for i, s in enumerate(shooters)}
        return CameraAims(aims=aims, late=[], unsure=[], margins={s: 20.0 for s in shooters}, confidence=0.9,
                          details={"aims": {str(s): t for s, t in aims.items()}}, frame=b"\xff\xd8")


class Godfather:
    """The console: keeps what the session shows at the aims step, and answers as the bots would."""

    def __init__(self, session) -> None:
        self.session, self.bots = session, session.bots
        self.shown: list[dict] = []

    def answer(self, prompt):
        if prompt.step is Step.AIMS:
            self.shown.append(dict(self.session.pending or {}))
        return self.bots.answer(prompt)


def real_session(tmp_path, *, ruleset="classic-2014", players=4, count_interval=0.8):
    rs = RuleSet(ruleset)
    names = [n for n, _ in seating(rs, players)]
    config = table_config.from_dict({"game": {"ruleset": ruleset, "players": names},
                                     "timing": {"count_interval": count_interval}})
    referee = Referee(new_record(config, 3))
    devices, script = open_simulated(config.devices())
    camera = Watcher(devices.clock)
    log_path = tmp_path / "game.log"
    game_log = GameLog.create(log_path, {"record": {}})
    session = Session(referee, source=None, bots=Bots(referee, 3), devices=devices, script=script, camera=camera,
                      game_log=game_log, say=lambda line: None)
    session.source = Godfather(session)
    return session, camera, log_path


def test_an_undo_back_to_the_aims_offers_the_counts_reading_again_and_reads_no_new_frames(tmp_path):
    session, camera, log_path = real_session(tmp_path)
    while session.referee.step is not Step.AIMS:
        session.play_step()
    session.play_step()  # the count, the camera's reading, the Godfather confirms
    assert session.referee.step is not Step.AIMS and len(camera.reads) == 1
    first = session.source.shown[0]
    assert session.undo() is None and session.referee.step is Step.AIMS
    session.play_step()  # the aims again after the undo: the count's reading, not a new one
    assert len(camera.reads) == 1 and len(camera.watched) == 1
    assert session.source.shown[1] == first
    session.game_log.close()
    assert sum(1 for seen in read(log_path).seen if "aims" in seen) == 1  # what the camera saw: once


def test_the_camera_reads_from_the_counts_real_three_at_the_configured_interval(tmp_path):
    session, camera, _log = real_session(tmp_path, count_interval=1.2)
    while session.referee.step is not Step.AIMS:
        session.play_step()
    session.play_step()
    assert len(camera.watched) == 1 and len(camera.reads) == 1
    # the count's "1" is given as the camera starts watching; its "3" two intervals later
    assert camera.reads[0] == pytest.approx(camera.watched[0] + 2 * 1.2)


class FakeClock:
    def __init__(self, start: float) -> None:
        self.t = start

    def now(self) -> float:
        return self.t


def test_the_readers_lead_and_the_ring_follow_the_configured_count_interval():
    for interval in (0.8, 1.0, 1.2):
        camera = LiveCamera(None, None, fps=60, count_interval=interval)
        assert camera.aim_config.lead_s == pytest.approx(2 * interval + 0.3)  # from before the "1"
        # the ring holds the reading's window: from the lead before the "3" to the follow after the deadline
        assert camera.ring.seconds >= 2 * interval + 0.3 + 0.5 + camera.aim_config.follow_s
        assert camera.ring.capacity >= 2 * camera.ring.seconds * 60  # a camera faster than it says it is


def test_no_count_no_reading():
    camera = LiveCamera(None, None, fps=30)
    with pytest.raises(CameraError, match="round 3's aims: no count was given"):
        camera.read_aims(seats=4, shooters=[0, 1], candidates=[0, 1], number=3)


def test_a_throw_after_a_failure_opens_the_camera_again_or_says_why_it_cannot():
    class Broken:
        def __init__(self) -> None:
            self.closed = False

        def read(self):
            raise OSError("/dev/video0: No such device")

        def close(self) -> None:
            self.closed = True

    attempts: list[int] = []

    def reopen():
        attempts.append(1)
        if len(attempts) == 1:
            raise OSError("camera 0: cannot be opened")
        return Broken()

    first = Broken()
    camera = LiveCamera(first, None, fps=30, reopen=reopen)
    with pytest.raises(OSError):
        camera.judge(thrower=0, seats=6, number=100)
    assert first.closed and camera.broken == "/dev/video0: No such device"
    with pytest.raises(CameraError, match=r"^camera: /dev/video0: No such device; opening it again failed "
                                          r"\(camera 0: cannot be opened\)$"):
        camera.judge(thrower=0, seats=6, number=101)
    with pytest.raises(OSError):  # opened again: this throw is watched by the camera plugged back in
        camera.judge(thrower=0, seats=6, number=102)
    assert len(attempts) == 2 and camera.source is not first


def test_ask_godfather_below_reaches_the_throw_judge(monkeypatch):
    import vision.throws

    configs = []

    class Judge:
        def __init__(self, calibration, *, seats, thrower, fps, config) -> None:
            configs.append(config)

        def arm(self, reference) -> None:
            raise RuntimeError("armed")

    class Still:
        def read(self):
            import numpy as np

            return np.zeros((48, 64, 3), np.uint8)

        def close(self) -> None:
            pass

    monkeypatch.setattr(vision.throws, "ThrowJudge", Judge)
    camera = LiveCamera(Still(), object(), fps=30, ask_godfather_below=0.8)
    with pytest.raises(RuntimeError, match="armed"):
        camera.judge(thrower=0, seats=6, number=100)
    assert configs[0].ask_godfather_below == 0.8


@pytest.mark.parametrize("source", ["clips:/tmp/throws", "sim", "simulated", "webcam:", "webcam:front", "usb", 3])
def test_a_camera_source_a_table_cannot_open_is_refused_at_load_in_one_line(source, tmp_path):
    path = tmp_path / "table.toml"
    value = f'"{source}"' if isinstance(source, str) else str(source)
    path.write_text(f'[game]\nruleset = "classic"\nplayers = ["A", "B", "C", "D"]\n[camera]\nsource = {value}\n')
    with pytest.raises(table_config.ConfigError) as refused:
        table_config.load(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: camera.source: ") and "\n" not in message
    assert "none, picamera or webcam:N" in message


@pytest.mark.parametrize("source", ["none", "picamera", "webcam:0", "webcam:12", "webcam:/dev/video2"])
def test_the_cameras_a_table_can_open_are_taken(source):
    config = table_config.from_dict({"game": {"ruleset": "classic", "players": ["A", "B", "C", "D"]},
                                     "camera": {"source": source}})
    assert config.camera.source == source


def test_a_camera_that_cannot_be_opened_is_said_in_one_line(tmp_path):
    spec = table_config.CameraConfig("webcam:0", tmp_path / "missing.json")
    camera, note = open_live_camera(spec, clock=FakeClock(0).now, count_interval=0.8, yakuzas=True)
    assert camera is None and note is not None and "\n" not in note
    assert note.startswith("The camera is not available (") and str(tmp_path / "missing.json") in note
    assert note.endswith("the Godfather enters the aims and judges the throws.")
    assert open_live_camera(table_config.CameraConfig(), clock=FakeClock(0).now, count_interval=0.8,
                            yakuzas=False) == (None, None)


def test_a_real_tables_missing_camera_is_said_through_the_session_so_the_console_shows_it(tmp_path, monkeypatch):
    from controller.table.runner import Setup, _open_real_table

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    config = table_config.from_dict({
        "game": {"ruleset": "classic", "players": ["Aiko", "Bo", "Cy", "Dee"]},
        "camera": {"source": "webcam:7", "calibration": str(tmp_path / "calibration.json")},
        "sound": {"output": "none"},
    })
    referee = Referee(new_record(config, 1))
    printed: list[str] = []
    session, closers = _open_real_table(Setup(config, 1, simulate=False), referee, game_log=None, say=printed.append,
                                        progress=None, console=lambda session: (None, lambda: None))
    try:
        assert session.camera is None
        note = [line for line in session.lines if line.startswith("The camera is not available (")]
        assert len(note) == 1 and "calibration.json" in note[0] and note == printed
    finally:
        for close in reversed(closers):
            close()


def test_a_simulated_table_uses_ask_godfather_below_too(monkeypatch):
    import numpy as np

    import vision.synth
    import vision.throws
    from controller.table.camera import SimulatedCamera
    from controller.table.runner import Setup, open_table

    config = table_config.from_dict({"game": {"ruleset": "yakuzas", "players": ["A", "B", "C", "D", "E", "F"]},
                                     "camera": {"source": "webcam:0", "ask_godfather_below": 0.85}})
    referee = Referee(new_record(config, 2))
    session, closers = open_table(Setup(config, 2, simulate=True), referee, game_log=None, say=lambda line: None,
                                  progress=None, pace=0.0)
    try:
        assert isinstance(session.camera, SimulatedCamera) and session.camera.ask_godfather_below == 0.85
    finally:
        for close in reversed(closers):
            close()
    configs = []

    class Clip:
        fps = 30.0

        def frames(self):
            return iter([np.zeros((48, 64, 3), np.uint8)])

    def judged(frames, *, seats, thrower, fps, config):
        configs.append(config)
        raise RuntimeError("judged")

    monkeypatch.setattr(vision.synth, "render_clip", lambda spec: Clip())
    monkeypatch.setattr(vision.throws, "judge_frames", judged)
    with pytest.raises(RuntimeError, match="judged"):
        session.camera.judge(thrower=0, seats=6, number=100, truth=([2], []))
    assert configs[0].ask_godfather_below == 0.85
