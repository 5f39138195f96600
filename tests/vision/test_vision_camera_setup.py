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

    def camera(dev):
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
