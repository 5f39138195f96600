"""Frame sources: everything the camera delivers enters through ``FrameSource``.

Frames are BGR ``uint8`` arrays of shape (height, width, 3). A webcam (UVC, through OpenCV's
``VideoCapture``), a Raspberry Pi camera (Picamera2, imported only when used), a video file and a
folder of numbered images all look the same to the judge. Tests replace them with in-memory frames.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

import cv2
import numpy as np

log = logging.getLogger(__name__)


class ClipError(Exception):
    """A clip or frame source that cannot be read; the message names the file and the fault."""


class FrameSource(Protocol):
    fps: float

    def read(self) -> np.ndarray | None:
        """The next frame, or None when the source has no more."""

    def frames(self) -> Iterator[np.ndarray]:
        """The frames until the source has no more."""

    def close(self) -> None: ...


class _Frames:
    """Shared plumbing: iteration and ``with`` support over ``read``."""

    fps: float

    def read(self) -> np.ndarray | None:  # pragma: no cover - every source defines it
        raise NotImplementedError

    def close(self) -> None:
        pass

    def frames(self) -> Iterator[np.ndarray]:
        while (frame := self.read()) is not None:
            yield frame

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass(frozen=True)
class CameraSettings:
    """Fixed camera settings: auto exposure and auto white balance stay off during a game so the
    reference frames and the throw are lit the same."""

    width: int = 640
    height: int = 480
    fps: float = 60.0
    exposure_us: int = 8000  # short enough to freeze most of the star's flight
    gain: float = 1.0
    white_balance_k: int = 4600
    colour_gains: tuple[float, float] = (1.8, 1.6)  # Picamera2 (red, blue)


class UvcCamera(_Frames):
    """A UVC webcam through V4L2, asking for MJPG so 640x480 runs at full frame rate over USB 2."""

    def __init__(self, device: int | str = 0, settings: CameraSettings = CameraSettings(),
                 capture_factory: Callable[..., Any] | None = None) -> None:
        factory = capture_factory or (lambda dev: cv2.VideoCapture(dev, cv2.CAP_V4L2))
        self.settings = settings
        self.device = device
        self.cap = factory(device)
        if not self.cap.isOpened():
            raise ClipError(f"camera {device}: cannot be opened")
        s = settings
        self.cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, s.width)
        self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, s.height)
        self.cap.set(cv2.CAP_PROP_FPS, s.fps)
        self.cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self.fps = float(self.cap.get(cv2.CAP_PROP_FPS) or s.fps)
        self.lock_exposure()

    def lock_exposure(self) -> None:
        """(Re-)applies manual exposure, gain and white balance; call before arming each throw, since
        some webcams drift back to automatic after a while or a USB reset."""
        s = self.settings
        self.cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)  # V4L2: 1 = manual, 3 = aperture priority (auto)
        self.cap.set(cv2.CAP_PROP_EXPOSURE, s.exposure_us / 100)  # V4L2 exposure_absolute: 100 us units
        self.cap.set(cv2.CAP_PROP_GAIN, s.gain)
        self.cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        self.cap.set(cv2.CAP_PROP_WB_TEMPERATURE, s.white_balance_k)
        if self.cap.get(cv2.CAP_PROP_AUTO_EXPOSURE) not in (1, 0.25):
            log.warning("camera %s: auto exposure could not be turned off", self.device)

    def read(self) -> np.ndarray | None:
        ok, frame = self.cap.read()
        return frame if ok else None

    def close(self) -> None:
        self.cap.release()


class PiCamera(_Frames):
    """A Raspberry Pi camera through Picamera2 (installed with the system's python3-picamera2)."""

    def __init__(self, settings: CameraSettings = CameraSettings(), camera_factory: Callable[[], Any] | None = None) -> None:
        if camera_factory is None:
            try:
                from picamera2 import Picamera2  # only on a Pi
            except ImportError as exc:
                raise ClipError("Pi camera: the picamera2 package is not installed (apt install python3-picamera2)") from exc
            camera_factory = Picamera2
        self.settings = settings
        self.cam = camera_factory()
        s = settings
        config = self.cam.create_video_configuration(
            main={"size": (s.width, s.height), "format": "RGB888"},  # RGB888 is laid out B, G, R
            controls={"FrameRate": s.fps})
        self.cam.configure(config)
        self.cam.start()
        self.fps = float(s.fps)
        self.lock_exposure()

    def lock_exposure(self) -> None:
        """(Re-)applies manual exposure, gain and colour gains; call before arming each throw."""
        s = self.settings
        self.cam.set_controls({"AeEnable": False, "AwbEnable": False, "ExposureTime": int(s.exposure_us),
                               "AnalogueGain": float(s.gain), "ColourGains": tuple(s.colour_gains)})

    def read(self) -> np.ndarray | None:
        return np.ascontiguousarray(self.cam.capture_array("main")[:, :, :3])

    def close(self) -> None:
        self.cam.stop()
        self.cam.close()


class VideoFile(_Frames):
    def __init__(self, path: Path, fps: float | None = None) -> None:
        self.path = Path(path)
        self.cap = cv2.VideoCapture(str(self.path))
        if not self.cap.isOpened():
            raise ClipError(f"{self.path}: cannot be opened as a video")
        self.fps = float(fps or self.cap.get(cv2.CAP_PROP_FPS) or 30.0)
        self._first = True

    def read(self) -> np.ndarray | None:
        ok, frame = self.cap.read()
        if not ok and self._first:
            raise ClipError(f"{self.path}: no frame can be decoded")
        self._first = False
        return frame if ok else None

    def close(self) -> None:
        self.cap.release()


class FrameFolder(_Frames):
    """Numbered images in a folder (000000.png, 000001.png, ...), read in name order."""

    def __init__(self, folder: Path, fps: float) -> None:
        self.folder = Path(folder)
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp"))
        if not self.files:
            raise ClipError(f"{self.folder}: no image frames")
        self.fps = float(fps)
        self._next = 0

    def read(self) -> np.ndarray | None:
        if self._next >= len(self.files):
            return None
        path = self.files[self._next]
        self._next += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise ClipError(f"{path}: cannot be decoded as an image")
        return frame


class MemoryFrames(_Frames):
    """Frames already in memory (or produced lazily by a generator), e.g. synthetic clips."""

    def __init__(self, frames, fps: float) -> None:
        self._it = iter(frames)
        self.fps = float(fps)

    def read(self) -> np.ndarray | None:
        return next(self._it, None)


@dataclass(frozen=True)
class ClipInfo:
    fps: float
    seats: int
    thrower: int


def read_clip_info(folder: Path) -> ClipInfo:
    path = Path(folder) / "clip.json"
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ClipError(f"{path}: missing") from None
    except (OSError, ValueError) as exc:
        raise ClipError(f"{path}: not readable JSON ({exc})") from None
    try:
        info = ClipInfo(float(data["fps"]), int(data["seats"]), int(data["thrower"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ClipError(f"{path}: needs numbers fps, seats and thrower ({exc!r})") from None
    if info.fps <= 0 or not 6 <= info.seats <= 9 or not 0 <= info.thrower < info.seats:
        raise ClipError(f"{path}: fps must be positive, seats 6-9 and thrower a seat number")
    return info


def open_clip(folder: Path) -> tuple[ClipInfo, _Frames]:
    """A clip folder: ``clip.json`` and either ``video.avi`` or ``frames/000000.png ...``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ClipError(f"{folder}: not a clip folder")
    info = read_clip_info(folder)
    if (folder / "video.avi").exists():
        return info, VideoFile(folder / "video.avi", info.fps)
    if (folder / "frames").is_dir():
        return info, FrameFolder(folder / "frames", info.fps)
    raise ClipError(f"{folder}: neither video.avi nor frames/ found")
