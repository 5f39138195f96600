"""Opening a camera as the install guide does it: Picamera2 broken in the virtual environment,
a camera that is missing or busy, a webcam named by its device path. Each is one line, exit 2."""

from __future__ import annotations

import sys
import types

import pytest

from vision import __main__ as cli
from vision.errors import ClipError
from vision.sources import PiCamera


def _fake_picamera2(monkeypatch, error: Exception) -> None:
    """A `picamera2` whose import fails as the system's does under numpy 2 (simplejpeg)."""
    module = types.ModuleType("picamera2")

    def __getattr__(name: str):
        raise error

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    monkeypatch.setitem(sys.modules, "picamera2", module)


NUMPY_ABI = ValueError("numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject")


def test_picamera2_broken_by_numpy_2_is_one_line_naming_the_fix(monkeypatch):
    _fake_picamera2(monkeypatch, NUMPY_ABI)
    with pytest.raises(ClipError, match="numpy.dtype size changed.*pi-constraints.txt"):
        PiCamera()


def test_a_picamera2_failing_for_another_reason_is_not_blamed_on_numpy(monkeypatch):
    """Trixie's system numpy is 2.2, and Picamera2 is built for it: numpy 2 alone is no reason to point at numpy."""
    _fake_picamera2(monkeypatch, OSError("libcamera.so.0.5: cannot open shared object file"))
    with pytest.raises(ClipError, match="picamera2 fails to import") as error:
        PiCamera()
    assert "numpy" not in str(error.value) and "pi-constraints" not in str(error.value)


def test_calibrate_with_a_broken_picamera2_exits_2_without_a_traceback(monkeypatch, tmp_path, capsys):
    _fake_picamera2(monkeypatch, NUMPY_ABI)
    assert cli.main(["calibrate", "--picamera", "--out", str(tmp_path / "c.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("error: Pi camera: picamera2 fails to import")


@pytest.mark.parametrize("error", [RuntimeError("Camera __init__ sequence did not complete."), IndexError("list index out of range")])
def test_a_missing_or_busy_pi_camera_is_a_clip_error(error):
    def factory():
        raise error

    with pytest.raises(ClipError, match="Pi camera: cannot be opened: .*the table's service"):
        PiCamera(camera_factory=factory)


def test_a_pi_camera_that_fails_to_start_is_closed_and_named():
    closed = []

    class Camera:
        def create_video_configuration(self, **kw):
            return kw

        def configure(self, config):
            raise RuntimeError("Failed to acquire camera: Device or resource busy")

        def close(self):
            closed.append(True)

    with pytest.raises(ClipError, match="cannot be started at 640x480, 60 fps: Failed to acquire camera"):
        PiCamera(camera_factory=Camera)
    assert closed == [True]


@pytest.mark.parametrize(("given", "device"), [("0", 0), ("/dev/video2", "/dev/video2"), ("webcam:/dev/video0", "/dev/video0"),
                                               ("webcam:1", 1)])
def test_calibrate_takes_a_webcam_as_table_toml_names_it(monkeypatch, tmp_path, capsys, given, device):
    opened = []

    def camera(dev, settings):
        opened.append(dev)
        raise ClipError(f"camera {dev}: cannot be opened")

    monkeypatch.setattr(cli, "UvcCamera", camera)
    assert cli.main(["calibrate", "--camera", given, "--out", str(tmp_path / "c.json")]) == 2
    assert opened == [device]
    assert capsys.readouterr().err.strip() == f"error: camera {device}: cannot be opened"


def test_calibrate_rejects_a_webcam_that_is_neither_a_number_nor_a_path(capsys):
    with pytest.raises(SystemExit) as exit:
        cli.main(["calibrate", "--camera", "video0"])
    assert exit.value.code == 2
    assert "a webcam number (0) or a device path (/dev/video0)" in capsys.readouterr().err


def test_opencv_4_s_log_level_is_set_too(monkeypatch):
    """The Pi's OpenCV 4.11 (numpy 1.x) has cv2.setLogLevel, not OpenCV 5's cv2.utils.logging."""
    from vision import sources

    levels: list[int] = []
    fake = types.SimpleNamespace(utils=types.SimpleNamespace(), setLogLevel=levels.append)
    monkeypatch.setattr(sources, "cv2", fake)
    sources.opencv_warnings(shown=False)
    sources.opencv_warnings(shown=True)
    assert levels == [2, 3]  # error, warning


# -- exposure and gain: the table's settings reach the camera, in the units each one takes


class FakeCapture:
    """OpenCV's VideoCapture on V4L2, as far as the webcam uses it: what was set, and dark frames."""

    def __init__(self, device) -> None:
        self.device, self.props = device, {}

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def set(self, prop, value) -> bool:
        self.props[prop] = value
        return True

    def get(self, prop) -> float:
        return float(self.props.get(prop, 0.0))

    def read(self):
        import numpy as np

        return True, np.full((480, 640, 3), 12, np.uint8)

    def release(self) -> None:
        pass


class FakePicamera2:
    """Picamera2's camera, as far as the Pi camera uses it: its controls, and dark frames."""

    made: list[FakePicamera2] = []

    def __init__(self) -> None:
        self.controls: dict = {}
        FakePicamera2.made.append(self)

    def create_video_configuration(self, **kw):
        return kw

    def configure(self, config) -> None:
        self.config = config

    def start(self) -> None:
        pass

    def set_controls(self, controls) -> None:
        self.controls.update(controls)

    def capture_array(self, stream):
        import numpy as np

        return np.full((480, 640, 3), 12, np.uint8)

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_webcam_gets_the_exposure_in_v4l2_s_100_us_units_manual_and_the_gain_as_given():
    import cv2

    from vision.sources import CameraSettings, UvcCamera

    camera = UvcCamera(0, CameraSettings().adjusted(exposure_ms=12.5, gain=64), capture_factory=FakeCapture)
    props = camera.cap.props
    assert props[cv2.CAP_PROP_AUTO_EXPOSURE] == 1  # V4L2_EXPOSURE_MANUAL
    assert props[cv2.CAP_PROP_EXPOSURE] == 125  # exposure_time_absolute: 100 us units
    assert props[cv2.CAP_PROP_GAIN] == 64
    default = UvcCamera(0, capture_factory=FakeCapture).cap.props
    assert (default[cv2.CAP_PROP_EXPOSURE], default[cv2.CAP_PROP_GAIN]) == (80, 1.0)  # unchanged: 8 ms, gain 1


def test_a_pi_camera_gets_the_exposure_in_microseconds_and_the_analogue_gain():
    from vision.sources import CameraSettings

    camera = PiCamera(CameraSettings().adjusted(exposure_ms=12.5, gain=4), camera_factory=FakePicamera2)
    controls = camera.cam.controls
    assert controls["AeEnable"] is False
    assert controls["ExposureTime"] == 12500 and isinstance(controls["ExposureTime"], int)
    assert controls["AnalogueGain"] == 4.0
    assert PiCamera(camera_factory=FakePicamera2).cam.controls["ExposureTime"] == 8000


def test_calibrate_s_exposure_and_gain_reach_the_pi_camera_and_the_advice_names_them(monkeypatch, tmp_path, capsys):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.made.clear()
    out = tmp_path / "c.json"
    assert cli.main(["calibrate", "--picamera", "--exposure-ms", "4", "--gain", "2", "--skip", "2", "--count", "1",
                     "--seats", "6", "--out", str(out)]) == 1
    controls = FakePicamera2.made[0].controls
    assert (controls["ExposureTime"], controls["AnalogueGain"]) == (4000, 2.0)
    dark = [line for line in capsys.readouterr().err.splitlines() if "too dark" in line]
    assert len(dark) == 1
    # the frames' median grey is 12: 110/12 of 4 ms is 36.7 ms, past a frame's 16.6 ms; the rest from the gain
    assert "from 4 ms to 16.6 ms ([camera] exposure_ms in table.toml, --exposure-ms here)" in dark[0]
    assert "gain from 2 to about 4.4 on a Pi camera ([camera] gain, --gain;" in dark[0]
    assert not out.exists()


def test_calibrate_s_exposure_and_gain_reach_a_webcam(monkeypatch, tmp_path):
    seen = []

    def camera(device, settings):
        seen.append((device, settings.exposure_us, settings.gain))
        raise ClipError(f"camera {device}: cannot be opened")

    monkeypatch.setattr(cli, "UvcCamera", camera)
    assert cli.main(["calibrate", "--camera", "0", "--exposure-ms", "2.5", "--gain", "96", "--out", str(tmp_path / "c")]) == 2
    assert cli.main(["calibrate", "--camera", "1", "--out", str(tmp_path / "c")]) == 2
    assert seen == [(0, 2500, 96.0), (1, 8000, 1.0)]


@pytest.mark.parametrize(("args", "words"), [(["--camera", "0", "--exposure-ms", "20"], "--exposure-ms: '20' is not"),
                                             (["--picamera", "--gain", "loud"], "--gain: 'loud' is not a number"),
                                             (["--camera", "0", "--exposure-ms", "0"], "from 0.1 to 16.6")])
def test_calibrate_refuses_an_exposure_or_gain_a_camera_cannot_take(capsys, args, words):
    with pytest.raises(SystemExit) as exit:
        cli.main(["calibrate", *args])
    assert exit.value.code == 2 and words in capsys.readouterr().err


def test_exposure_and_gain_go_with_a_camera_only(tmp_path, capsys):
    assert cli.main(["calibrate", "--image", str(tmp_path / "x.png"), "--exposure-ms", "4"]) == 2
    assert "go with --camera or --picamera" in capsys.readouterr().err


def test_the_light_advice_says_what_exposure_and_gain_to_try():
    from vision.calibration import light_advice
    from vision.sources import CameraSettings

    assert light_advice(120, CameraSettings()) is None
    short = light_advice(20, CameraSettings().adjusted(exposure_ms=2))
    assert short is not None and "from 2 ms to 11 ms ([camera] exposure_ms" in short and "gain" not in short
    bright = light_advice(245, CameraSettings())
    assert bright is not None and "too bright" in bright and "from 8 ms to 3.5 ms ([camera] exposure_ms" in bright
    unknown = light_advice(10)  # a recording: the settings are not known, the key and option are named
    assert unknown is not None and "[camera] exposure_ms" in unknown and "--gain" in unknown
