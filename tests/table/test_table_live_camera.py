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
from tests.table.table_kit import Godfather


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


def test_a_live_camera_reads_the_players_who_aim_again_from_the_frames_of_their_own_count(tmp_path):
    """The camera read the first shooter aiming at himself: he aims again; the camera watches again as that
    count begins and reads his seat from its "3", given after the count's."""

    class Forbidden(Watcher):
        def read_aims(self, *, seats, shooters, candidates, number, truth=None, three_at=None):
            seen = super().read_aims(seats=seats, shooters=shooters, candidates=candidates, number=number,
                                     truth=truth, three_at=three_at)
            self.asked = getattr(self, "asked", []) + [(list(shooters), list(candidates))]
            if len(self.reads) == 1:
                seen.aims[shooters[0]] = shooters[0]  # at himself, at the count
            else:
                seen.aims = {shooters[0]: candidates[1]}  # at his left neighbour, at the second count
            return seen

    session, _watcher, log_path = real_session(tmp_path, count_interval=1.0)
    camera = session.camera = Forbidden(session.devices.clock)
    while session.referee.step is not Step.AIMS:
        session.play_step()
    shooters = [session.referee.game.seat_of(n) for n in session.referee.prompt().players]
    session.play_step()
    assert len(camera.watched) == 2 and len(camera.reads) == 2
    assert camera.asked == [(shooters, shooters), ([shooters[0]], shooters)]
    # each count's "1" is given as the camera starts watching it, its "3" two intervals later
    assert camera.reads == [pytest.approx(w + 2 * 1.0) for w in camera.watched]
    assert camera.watched[1] >= camera.reads[0] + 1.0  # after the count was over
    shown = session.source.shown[-1]
    name = session.referee.game.players[shooters[0]].name
    assert shown["aimed_again"] == {name: {"seat": f"seat {shooters[0]}", "refused": f"may not aim at {name}: "
                                                                                     "every player aims at another player"}}
    assert shown["refused"] == {} and shown["sure"]
    session.game_log.close()
    assert [next(iter(s)) for s in read(log_path).seen if "aims" in s or "aims_again" in s] == ["aims", "aims_again"]


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
        assert camera.ring.seconds >= (2 * interval + 0.3 + 0.5 + camera.aim_config.follow_s
                                       + camera.aim_config.follow_more_s)  # a late pointer watched on
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

        def arm(self, reference, *, calibrated_here=False) -> None:
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


# -- [camera] exposure_ms and gain: checked at load, and passed to the camera the table opens

GAME = '[game]\nruleset = "classic"\nplayers = ["A", "B", "C", "D"]\n'


@pytest.fixture(scope="module")
def calibration_file(tmp_path_factory):
    """A calibration file, from a synthetic table's still frame."""
    from vision.calibration import calibrate
    from vision.synth import random_spec, still_scene

    path = tmp_path_factory.mktemp("cal") / "calibration.json"
    calibrate([still_scene(random_spec(34, seats=6, light=0.9, noise_sigma=2.0))], 6).save(path)
    return path


def _table(tmp_path, camera: str):
    path = tmp_path / "table.toml"
    path.write_text(GAME + "[camera]\n" + camera)
    return path


def test_the_table_s_exposure_and_gain_reach_the_webcam_in_v4l2_units(tmp_path, calibration_file):
    import cv2

    from tests.vision.test_vision_camera_setup import FakeCapture

    path = _table(tmp_path, f'source = "webcam:2"\ncalibration = "{calibration_file}"\nexposure_ms = 12.5\ngain = 40\n')
    config = table_config.load(path)
    assert (config.camera.exposure_ms, config.camera.gain) == (12.5, 40.0)
    camera, note = open_live_camera(config.camera, clock=FakeClock(0).now, count_interval=0.8, yakuzas=False,
                                    capture_factory=FakeCapture)
    assert note is None and camera is not None
    props = camera.source.cap.props
    assert (camera.source.device, props[cv2.CAP_PROP_AUTO_EXPOSURE]) == (2, 1)
    assert (props[cv2.CAP_PROP_EXPOSURE], props[cv2.CAP_PROP_GAIN]) == (125, 40)
    camera._broke("pulled out")  # opened again after a failure: at the same settings
    camera.ready()
    assert camera.source.cap.props[cv2.CAP_PROP_EXPOSURE] == 125
    camera.close()


def test_the_table_s_exposure_and_gain_reach_the_pi_camera_in_microseconds(tmp_path, calibration_file):
    from tests.vision.test_vision_camera_setup import FakePicamera2

    path = _table(tmp_path, f'source = "picamera"\ncalibration = "{calibration_file}"\nexposure_ms = 4\ngain = 2.5\n')
    camera, note = open_live_camera(table_config.load(path).camera, clock=FakeClock(0).now, count_interval=0.8,
                                    yakuzas=False, picamera_factory=FakePicamera2)
    assert note is None and camera is not None
    controls = camera.source.cam.controls
    assert (controls["ExposureTime"], controls["AnalogueGain"]) == (4000, 2.5)
    camera.close()
    default = table_config.load(_table(tmp_path, f'source = "picamera"\ncalibration = "{calibration_file}"\n'))
    assert (default.camera.exposure_ms, default.camera.gain) == (None, None)
    camera, _ = open_live_camera(default.camera, clock=FakeClock(0).now, count_interval=0.8, yakuzas=False,
                                 picamera_factory=FakePicamera2)
    assert camera is not None
    assert (camera.source.cam.controls["ExposureTime"], camera.source.cam.controls["AnalogueGain"]) == (8000, 1.0)
    camera.close()


@pytest.mark.parametrize(("camera", "key", "words"), [
    ("exposure_ms = 40\n", "camera.exposure_ms", "40 is not a number of milliseconds from 0.1 to 16.6"),
    ("exposure_ms = 0\n", "camera.exposure_ms", "from 0.1 to 16.6"),
    ('exposure_ms = "8ms"\n', "camera.exposure_ms", "'8ms' is not a number"),
    ("exposure_ms = nan\n", "camera.exposure_ms", "nan is not a number"),
    ("gain = -1\n", "camera.gain", "-1 is not a number from 0 to 1000"),
    ("gain = true\n", "camera.gain", "True is not a number"),
    ("exposure = 8\n", "camera.exposure", "unknown key (known: ask_godfather_below, calibration, exposure_ms, gain"),
])
def test_a_wrong_exposure_or_gain_is_one_line_naming_the_file_and_key(tmp_path, camera, key, words):
    path = _table(tmp_path, camera)
    with pytest.raises(table_config.ConfigError) as refused:
        table_config.load(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: {key}: ") and "\n" not in message and words in message


def test_a_calibration_made_at_other_settings_is_said_in_one_line(tmp_path):
    from tests.vision.test_vision_camera_setup import FakePicamera2
    from vision.calibration import Calibration, calibrate
    from vision.sources import CameraSettings
    from vision.synth import random_spec, still_scene

    made = calibrate([still_scene(random_spec(34, seats=6, light=0.9, noise_sigma=2.0))], 6,
                     camera=CameraSettings().adjusted(exposure_ms=6, gain=2))
    made.save(tmp_path / "calibration.json")
    assert Calibration.load(tmp_path / "calibration.json").camera == {"exposure_ms": 6.0, "gain": 2.0}
    path = _table(tmp_path, 'source = "picamera"\ncalibration = "calibration.json"\nexposure_ms = 12.5\ngain = 2\n')
    camera, note = open_live_camera(table_config.load(path).camera, clock=FakeClock(0).now, count_interval=0.8,
                                    yakuzas=False, picamera_factory=FakePicamera2)
    assert camera is not None and note is not None and "\n" not in note
    assert "plays at exposure 12.5 ms, gain 2" in note and "calibrated at exposure 6 ms, gain 2" in note
    assert note.endswith("calibrate again with --exposure-ms 12.5 --gain 2.")
    camera.close()
    same = _table(tmp_path, 'source = "picamera"\ncalibration = "calibration.json"\nexposure_ms = 6\ngain = 2\n')
    camera, note = open_live_camera(table_config.load(same).camera, clock=FakeClock(0).now, count_interval=0.8,
                                    yakuzas=False, picamera_factory=FakePicamera2)
    assert camera is not None and note is None
    camera.close()
