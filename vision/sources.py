"""Frame sources: everything the camera delivers enters through ``FrameSource``.

Frames are BGR ``uint8`` arrays of shape (height, width, 3). A webcam (UVC, through OpenCV's
``VideoCapture``), a Raspberry Pi camera (Picamera2, imported only when used), a video file and a
folder of numbered images all look the same to the judge. Tests replace them with in-memory frames.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, Self

import cv2
import numpy as np

from vision.errors import ClipError

log = logging.getLogger(__name__)


LOG_LEVEL_ERROR, LOG_LEVEL_WARNING = 2, 3  # OpenCV's cv::utils::logging::LogLevel


def opencv_warnings(*, shown: bool) -> None:
    """Whether OpenCV's own warnings reach stderr. They come from its C++ side (a truncated PNG, a
    V4L2 device that does not answer) beside the one line the command already prints for the same
    fault, so commands show them only with ``--verbose``."""
    levels = getattr(cv2.utils, "logging", None)
    if levels is not None:  # OpenCV 5
        levels.setLogLevel(levels.LOG_LEVEL_WARNING if shown else levels.LOG_LEVEL_ERROR)
    else:  # OpenCV 4 (the Pi's, beside numpy 1.x): the same levels, by number
        getattr(cv2, "setLogLevel")(LOG_LEVEL_WARNING if shown else LOG_LEVEL_ERROR)  # noqa: B009 - not in OpenCV 5's stubs


class FrameSource(Protocol):
    fps: float

    def read(self) -> np.ndarray | None:
        """The next frame, or None when the source has no more."""

    def frames(self) -> Iterator[np.ndarray]:
        """The frames until the source has no more."""

    def close(self) -> None: ...


class FrameStream:
    """A source of frames read one at a time: iteration and ``with`` support over ``read``."""

    fps: float

    def read(self) -> np.ndarray | None:  # pragma: no cover - every source defines it
        raise NotImplementedError

    def close(self) -> None:
        pass

    def frames(self) -> Iterator[np.ndarray]:
        while (frame := self.read()) is not None:
            yield frame

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


MIN_EXPOSURE_MS = 0.1  # V4L2's exposure_time_absolute counts 100 us steps; Picamera2's ExposureTime counts microseconds
MAX_GAIN = 1000.0  # beyond any sensor's analogue gain or any webcam's gain control: a typing slip


@dataclass(frozen=True)
class CameraSettings:
    """Fixed camera settings: auto exposure and auto white balance stay off during a game so the
    reference frames and the throw are lit the same. The exposure and the gain are the table's
    ``[camera] exposure_ms`` and ``gain`` (``vision calibrate --exposure-ms``, ``--gain``)."""

    width: int = 640
    height: int = 480
    fps: float = 60.0
    exposure_us: int = 8000  # short enough to freeze most of the star's flight
    gain: float = 1.0  # Picamera2: the analogue gain (1.0: none); a webcam: its V4L2 gain control's own value
    white_balance_k: int = 4600
    colour_gains: tuple[float, float] = (1.8, 1.6)  # Picamera2 (red, blue)

    @property
    def exposure_ms(self) -> float:
        return self.exposure_us / 1000

    @property
    def max_exposure_ms(self) -> float:
        """The longest exposure that keeps the frame rate: one frame's time, rounded down to 0.1 ms."""
        return math.floor(10_000 / self.fps) / 10

    def problem(self, key: str, value: object, shown: str | None = None) -> str | None:
        """What is wrong with ``value`` for the setting ``key`` (``exposure_ms`` or ``gain``), or None;
        ``shown``: the value as the user wrote it."""
        shown = (str(value) if shown is None else shown)[:24]
        number = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if key == "exposure_ms":
            if not (number and MIN_EXPOSURE_MS <= value <= self.max_exposure_ms):  # type: ignore[operator]
                return (f"{shown} is not a number of milliseconds from {MIN_EXPOSURE_MS:g} to "
                        f"{self.max_exposure_ms:g} (at most one frame's time at {self.fps:g} frames a second)")
            return None
        if key == "gain":
            if not (number and 0 <= value <= MAX_GAIN):  # type: ignore[operator]
                return (f"{shown} is not a number from 0 to {MAX_GAIN:g} (a Pi camera's analogue gain, "
                        "1 for none; a webcam's own gain value)")
            return None
        raise KeyError(key)

    def adjusted(self, *, exposure_ms: float | None = None, gain: float | None = None) -> CameraSettings:
        """These settings with the exposure (milliseconds) and the gain given; ``ValueError`` naming the
        setting when one is out of range."""
        for key, value in (("exposure_ms", exposure_ms), ("gain", gain)):
            why = None if value is None else self.problem(key, value)
            if why:
                raise ValueError(f"{key}: {why}")
        return replace(self, exposure_us=self.exposure_us if exposure_ms is None else round(exposure_ms * 1000),
                       gain=self.gain if gain is None else float(gain))

    def describe(self) -> str:
        return f"exposure {self.exposure_ms:g} ms, gain {self.gain:g}"


class UvcCamera(FrameStream):
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
        self.cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
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
        # V4L2's exposure_time_absolute, in 100 us units (OpenCV passes the number through unless
        # OPENCV_VIDEOIO_V4L_RANGE_NORMALIZED is set); the gain is the webcam's own V4L2 gain value
        self.cap.set(cv2.CAP_PROP_EXPOSURE, max(1, round(s.exposure_us / 100)))
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


class PiCamera(FrameStream):
    """A Raspberry Pi camera through Picamera2 (installed with the system's python3-picamera2)."""

    def __init__(self, settings: CameraSettings = CameraSettings(), camera_factory: Callable[[], Any] | None = None) -> None:
        if camera_factory is None:
            camera_factory = _picamera2()
        self.settings = settings
        s = settings
        try:  # no camera on the cable, a camera another program holds, a libcamera fault: one line
            self.cam = camera_factory()
        except Exception as exc:
            raise ClipError(f"Pi camera: cannot be opened: {_one_line(exc)} (is it connected, and is no other program,"
                            " such as the table's service, using it?)") from None
        try:
            config = self.cam.create_video_configuration(
                main={"size": (s.width, s.height), "format": "RGB888"},  # RGB888 is laid out B, G, R
                controls={"FrameRate": s.fps})
            self.cam.configure(config)
            self.cam.start()
            self.fps = float(s.fps)
            self.lock_exposure()
        except Exception as exc:
            try:
                self.cam.close()
            except Exception:
                pass
            raise ClipError(f"Pi camera: cannot be started at {s.width}x{s.height}, {s.fps:g} fps: {_one_line(exc)}") from None

    def lock_exposure(self) -> None:
        """(Re-)applies manual exposure, gain and colour gains; call before arming each throw."""
        s = self.settings
        # libcamera's ExposureTime is in microseconds, AnalogueGain a factor (1.0: none)
        self.cam.set_controls({"AeEnable": False, "AwbEnable": False, "ExposureTime": int(s.exposure_us),
                               "AnalogueGain": float(s.gain), "ColourGains": tuple(s.colour_gains)})

    def read(self) -> np.ndarray | None:
        return np.ascontiguousarray(self.cam.capture_array("main")[:, :, :3])

    def close(self) -> None:
        self.cam.stop()
        self.cam.close()


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _picamera2() -> Callable[[], Any]:
    """Picamera2's camera class. It comes with the system (python3-picamera2), built against the
    system's numpy (1.24 on Bookworm, 2.2 on Trixie): on Bookworm a numpy 2 installed into the virtual
    environment hides that numpy and breaks its import with a ValueError (numpy.dtype size changed),
    which is said in one line."""
    try:
        from picamera2 import Picamera2  # only on a Pi
    except ImportError as exc:
        raise ClipError("Pi camera: the picamera2 package cannot be imported here: " + _one_line(exc)
                        + " (apt install python3-picamera2, and a virtual environment made with --system-site-packages)") from None
    except Exception as exc:
        version = getattr(np, "__version__", "?")
        hint = (f" (numpy {version} in this environment hides the system's numpy that Picamera2 is built for:"
                " reinstall with the Pi's constraints, pip install -c hardware/pi-constraints.txt -e .)"
                if "numpy" in str(exc) else "")
        raise ClipError(f"Pi camera: picamera2 fails to import: {_one_line(exc)}{hint}") from None
    factory: Callable[[], Any] = Picamera2
    return factory


MAX_FRAME_SIDE = 4096  # pixels: a frame wider or taller than this is not a table camera's
MAX_FRAME_BYTES = 32 << 20  # one encoded frame (an image file, a video chunk)
MAX_FRAMES = 20 * 60 * 240  # frames read from one clip: twenty minutes at 240 fps
MAX_CLIP_JSON_BYTES = 64 << 10
MAX_JSON_DEPTH = 16


def _check_frame(frame: np.ndarray, where: str, first: tuple[int, ...] | None) -> np.ndarray:
    """A decoded frame's size: within limits and the same as the clip's first frame."""
    h, w = frame.shape[:2]
    if not (8 <= w <= MAX_FRAME_SIDE and 8 <= h <= MAX_FRAME_SIDE):
        raise ClipError(f"{where}: a {w}x{h} frame is not a camera frame (8-{MAX_FRAME_SIDE} pixels a side)")
    if first is not None and frame.shape != first:
        raise ClipError(f"{where}: {w}x{h}, but the clip's first frame is {first[1]}x{first[0]}: frames of mixed sizes")
    return frame


_FFMPEG_SAID = re.compile(r"\[(\w+) @ 0x[0-9a-fA-F]+\] (.+)")  # what a part of FFmpeg (a decoder, a file's
# reader) says at its error level, the only one OpenCV lets it print: "[mpeg4 @ 0x55...] ac-tex damaged at 15 24"


class VideoFile(FrameStream):
    """A video file decoded by OpenCV (FFmpeg). A file that ends before the frame count in its
    header is broken, and so is one whose decoder said, as it read a frame, that its data was damaged:
    ``read`` raises ``ClipError`` naming the frame where it broke."""

    def __init__(self, path: Path, fps: float | None = None) -> None:
        self.path = Path(path)
        with _heard() as said:  # FFmpeg's own complaints about a file it cannot open: the error below says it
            # one decoding thread: what the decoder says of a frame's data, it says while that frame is read
            threads = getattr(cv2, "CAP_PROP_N_THREADS", None)  # OpenCV 4.6 and later
            self.cap = cv2.VideoCapture(str(self.path)) if threads is None else \
                cv2.VideoCapture(str(self.path), cv2.CAP_FFMPEG, [threads, 1])
        for line in said:
            log.debug("FFmpeg: %s", line)
        if not self.cap.isOpened():
            raise ClipError(f"{self.path}: cannot be opened as a video")
        self.fps = float(fps or self.cap.get(cv2.CAP_PROP_FPS) or 30.0)
        count = self.cap.get(cv2.CAP_PROP_FRAME_COUNT)
        self.expected = int(count) if np.isfinite(count) and 0 < count < MAX_FRAMES else None
        self._read = 0
        self._shape: tuple[int, ...] | None = None

    def read(self) -> np.ndarray | None:
        if self._read >= MAX_FRAMES:
            return None
        with _heard() as said:
            ok, frame = self.cap.read()
        damage = next((m for m in map(_FFMPEG_SAID.match, said) if m), None)
        if damage is not None:  # FFmpeg conceals what it cannot decode, and says so only there
            raise ClipError(f"{self.path}: broken at frame {self._read}: damaged video data (FFmpeg, "
                            f"{damage.group(1)}: {damage.group(2)})")
        if not ok or frame is None:
            if self._read == 0:
                raise ClipError(f"{self.path}: no frame can be decoded")
            if self.expected is not None and self._read < self.expected:
                raise ClipError(f"{self.path}: broken at frame {self._read}: it ends there, its header "
                                f"announces {self.expected} frames")
            return None
        frame = _check_frame(frame, f"{self.path}: frame {self._read}", self._shape)
        self._shape = frame.shape
        self._read += 1
        return frame

    def close(self) -> None:
        self.cap.release()


def _jpeg_fault(data: bytes) -> str | None:
    """Why ``data`` is not one whole baseline JPEG image, or None: start and end markers, and the byte
    stuffing of its compressed data (0xFF inside it is followed by 0x00 or a restart marker). Damage
    within the compressed data shows only as it is decoded (``_decoded``)."""
    if len(data) < 4 or data[:2] != b"\xff\xd8":
        return "no JPEG start marker"
    end = data.rfind(b"\xff\xd9")
    if end < 0 or data[end + 2:].strip(b"\0"):
        return "the JPEG data is cut short (no end marker)"
    sos = data.find(b"\xff\xda")
    if sos < 0 or sos + 4 > end:
        return "no JPEG scan"
    scan = np.frombuffer(data, np.uint8, end - sos, sos)
    length = int(scan[2]) << 8 | int(scan[3])
    body = scan[2 + length:]
    marks = np.nonzero(body[:-1] == 0xFF)[0]
    after = body[marks + 1]
    bad = ~((after == 0) | ((after >= 0xD0) & (after <= 0xD7)) | (after == 0xFF))
    if bad.any():
        code = int(after[np.argmax(bad)])
        if code in (0xC4, 0xDA, 0xDB, 0xDD) or 0xE0 <= code <= 0xEF or code == 0xFE:
            return None  # another segment (a progressive or multi-scan image): not checked further
        return f"damaged JPEG data (marker 0xff{code:02x} inside the image data)"
    return None


@contextlib.contextmanager
def _heard() -> Iterator[list[str]]:
    """What the C libraries inside OpenCV (libjpeg, FFmpeg) write to the process's standard error while the
    block runs: its lines, once the block ends. They report damaged data they decode all the same (concealing
    what they cannot read) only there. Empty when there is no standard error to hear them on."""
    lines: list[str] = []
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no standard error (closed): nothing heard
        yield lines
        return
    with tempfile.TemporaryFile() as said:
        try:
            os.dup2(said.fileno(), 2)
            yield lines
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            said.seek(0)
            lines.extend(line.strip() for line in said.read(4096).decode("ascii", "replace").splitlines()
                         if line.strip())


def _decoded(data: bytes) -> tuple[np.ndarray | None, str | None]:
    """One encoded frame decoded by OpenCV, and what its JPEG decoder said of damage in the compressed data.
    libjpeg decodes damaged data all the same (a stretch of it wiped, a few bytes changed: the blocks after
    the damage read out of step, the picture wrong from there on) and says so only as a warning on the
    process's standard error: "Corrupt JPEG data: ..." (data left over once every block was read, or
    running out before). Nothing else tells: an encoder's own Huffman tables may code a flat stretch of the
    picture as a long run of zero bits, which is what a wiped stretch of the file also holds."""
    buf = np.frombuffer(data, np.uint8)
    if data[:2] != b"\xff\xd8":
        return cv2.imdecode(buf, cv2.IMREAD_COLOR), None
    with _heard() as said:
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    damage = next((line for line in said if line.startswith("Corrupt JPEG data") and not _padded(data, line)), None)
    for line in said:
        if line != damage:
            log.debug("libjpeg: %s", line)
    return frame, None if damage is None else f"damaged JPEG data (libjpeg: {damage[len('Corrupt JPEG data: '):]})"


def _padded(data: bytes, said: str) -> bool:
    """Whether libjpeg's "N extraneous bytes before marker 0xd9" is padding: the N bytes left over before the end
    marker are all 0x00 or all 0xFF (some encoders fill a frame's data out to a size), not compressed data."""
    words = said.split()
    if "extraneous" not in words or not words[words.index("extraneous") - 1].isdigit():
        return False
    n = int(words[words.index("extraneous") - 1])
    end = data.rfind(b"\xff\xd9")
    tail = data[max(0, end - n):end]
    return len(tail) == n and (not tail.strip(b"\0") or not tail.strip(b"\xff"))


class MjpegAvi(FrameStream):
    """An AVI file of Motion-JPEG frames, read chunk by chunk: every frame's JPEG data is checked
    whole before it is decoded and as it is, so a truncated or damaged file raises ``ClipError`` naming the
    frame where it broke instead of ending early or giving a concealed, wrong picture."""

    def __init__(self, path: Path, fps: float | None = None) -> None:
        self.path = Path(path)
        try:
            self._file = open(self.path, "rb")  # noqa: SIM115 - kept open while frames are read, closed by close()
            self._size = self.path.stat().st_size
        except OSError as exc:
            raise ClipError(f"{self.path}: cannot be read ({exc.strerror})") from None
        self.expected, self._pos, movi_fps = self._headers()
        self.fps = float(fps or movi_fps or 30.0)
        self._read = 0
        self._shape: tuple[int, ...] | None = None
        self._last: np.ndarray | None = None

    @staticmethod
    def probe(path: Path) -> bool:
        """Whether ``path`` is an AVI whose video is Motion-JPEG."""
        try:
            with open(path, "rb") as f:
                head = f.read(4096)
        except OSError:
            return False
        return head[:4] == b"RIFF" and head[8:12] == b"AVI " and b"vids" in head and (
            b"MJPG" in head or b"mjpg" in head)

    def _chunk(self, pos: int) -> tuple[bytes, int]:
        self._file.seek(pos)
        head = self._file.read(8)
        if len(head) < 8:
            return b"", -1
        return head[:4], int.from_bytes(head[4:], "little")

    def _headers(self) -> tuple[int | None, int, float]:
        """Frames announced by the header, where the first movie chunk starts, frames per second."""
        self._file.seek(0)
        riff = self._file.read(12)
        if len(riff) < 12 or riff[:4] != b"RIFF" or riff[8:] != b"AVI ":
            raise ClipError(f"{self.path}: not an AVI file")
        total: int | None = None
        fps = 0.0
        pos = 12
        while pos + 8 <= self._size:
            cid, size = self._chunk(pos)
            if cid == b"LIST":
                kind = self._file.read(4)
                if kind == b"movi":
                    return total, pos + 12, fps
                if kind in (b"hdrl", b"strl", b"odml"):
                    pos += 12
                    continue
            elif cid == b"avih" and size >= 20:
                data = self._file.read(min(size, 64))
                per_frame_us = int.from_bytes(data[0:4], "little")
                fps = 1e6 / per_frame_us if 0 < per_frame_us < 10_000_000 else 0.0
                total = int.from_bytes(data[16:20], "little") or None
            elif cid == b"dmlh" and size >= 4:
                total = max(total or 0, int.from_bytes(self._file.read(4), "little")) or None
            if size > self._size:
                break
            pos += 8 + size + (size & 1)
        raise ClipError(f"{self.path}: no movie data (the AVI file is cut short or damaged before frame 0)")

    def _broken(self, why: str) -> ClipError:
        return ClipError(f"{self.path}: broken at frame {self._read}: {why}")

    def read(self) -> np.ndarray | None:
        while self._read < MAX_FRAMES:
            cid, size = self._chunk(self._pos)
            complete = self.expected is None or self._read >= self.expected
            if cid == b"":
                if self._read == 0:
                    raise ClipError(f"{self.path}: no frame can be decoded")
                if not complete:
                    raise self._broken(f"the file ends there, its header announces {self.expected} frames")
                return None
            if cid == b"RIFF":  # an OpenDML extension: its own movie list follows
                self._pos += 12
                continue
            if cid == b"LIST":
                kind = self._file.read(4)
                self._pos += 12 if kind in (b"rec ", b"movi") else 8 + size + (size & 1)
                continue
            if not all(32 <= c < 127 for c in cid):
                raise self._broken(f"damaged chunk header at byte {self._pos}")
            is_frame = cid[2:] in (b"dc", b"db")
            if self._pos + 8 + size > self._size:
                if not is_frame and complete:
                    return None  # only the index is cut short: every frame was there
                raise self._broken(f"the file is cut short inside that frame's data (at byte {self._size})")
            start = self._pos + 8
            self._pos += 8 + size + (size & 1)
            if not is_frame:
                continue  # audio, index or padding
            if size > MAX_FRAME_BYTES:
                raise self._broken(f"{size} bytes for one frame, more than {MAX_FRAME_BYTES}")
            if size == 0:
                if self._last is None:
                    raise self._broken("an empty frame")
                self._read += 1  # a dropped frame: the previous one again
                return self._last
            self._file.seek(start)
            data = self._file.read(size)
            fault = _jpeg_fault(data)
            frame, fault = (None, fault) if fault else _decoded(data)
            if frame is None or fault:
                raise self._broken(fault or "the JPEG image cannot be decoded")
            frame = _check_frame(frame, f"{self.path}: frame {self._read}", self._shape)
            self._shape = frame.shape
            self._read += 1
            self._last = frame
            return frame
        return None

    def close(self) -> None:
        self._file.close()


def open_video(path: Path, fps: float | None = None) -> FrameStream:
    """A video file: Motion-JPEG AVI read and checked frame by frame, anything else through OpenCV."""
    return MjpegAvi(path, fps) if MjpegAvi.probe(path) else VideoFile(path, fps)


def _in_frame_order(files: list[Path]) -> list[Path]:
    """Numbered frames (000000.png, 000001.png, ...) in the order of their numbers, which must follow each other:
    frame ``i`` is taken at ``i / fps``, so a frame missing would move every later one earlier in time. Frames
    not all named by numbers are taken in name order."""
    if not files or not all(p.stem.isdecimal() for p in files):
        return files
    numbered = sorted(files, key=lambda p: (int(p.stem), p.name))
    for before, after in zip(numbered, numbered[1:]):
        gap = int(after.stem) - int(before.stem)
        if gap == 0:
            raise ClipError(f"{after}: a second frame numbered {int(after.stem)} (beside {before.name})")
        if gap > 1:
            missing = str(int(before.stem) + 1).zfill(len(before.stem))
            more = f" (and {gap - 2} more after it)" if gap > 2 else ""
            raise ClipError(f"{before.parent / (missing + before.suffix)}: missing{more}, between {before.name} and "
                            f"{after.name}: each frame is timed by its number")
    return numbered


class FrameFolder(FrameStream):
    """Numbered images in a folder (000000.png, 000001.png, ...), read in name order."""

    def __init__(self, folder: Path, fps: float) -> None:
        self.folder = Path(folder)
        try:
            names = [p for _, p in zip(range(MAX_FRAMES + 1), self.folder.iterdir())]
        except OSError as exc:
            raise ClipError(f"{self.folder}: cannot be listed ({exc.strerror})") from None
        self.files = _in_frame_order(sorted(p for p in names if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp")))
        if not self.files:
            raise ClipError(f"{self.folder}: no image frames")
        self.fps = float(fps)
        self._next = 0
        self._shape: tuple[int, ...] | None = None

    def read(self) -> np.ndarray | None:
        if self._next >= len(self.files):
            return None
        path = self.files[self._next]
        self._next += 1
        try:
            size = path.stat().st_size
            if size > MAX_FRAME_BYTES:
                raise ClipError(f"{path}: {size} bytes, more than {MAX_FRAME_BYTES} for one frame")
            data = path.read_bytes()
        except OSError as exc:
            raise ClipError(f"{path}: cannot be read ({exc.strerror})") from None
        frame, fault = _decoded(data) if data else (None, None)
        if frame is None or fault:
            raise ClipError(f"{path}: {fault or 'cannot be decoded as an image'}")
        frame = _check_frame(frame, str(path), self._shape)
        self._shape = frame.shape
        return frame


class MemoryFrames(FrameStream):
    """Frames already in memory (or produced lazily by a generator), e.g. synthetic clips."""

    def __init__(self, frames: Iterable[np.ndarray], fps: float) -> None:
        self._it = iter(frames)
        self.fps = float(fps)

    def read(self) -> np.ndarray | None:
        return next(self._it, None)


@dataclass(frozen=True)
class ClipInfo:
    fps: float
    seats: int
    thrower: int


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def read_clip_json(folder: Path) -> dict[str, Any]:
    """A clip folder's ``clip.json`` as a dict, read with limits: at most 64 KiB, nesting at most 16
    deep; anything else is a ``ClipError`` naming the file."""
    path = Path(folder) / "clip.json"
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_CLIP_JSON_BYTES + 1)
    except FileNotFoundError:
        raise ClipError(f"{path}: missing") from None
    except OSError as exc:
        raise ClipError(f"{path}: cannot be read ({exc.strerror})") from None
    if len(raw) > MAX_CLIP_JSON_BYTES:
        raise ClipError(f"{path}: larger than {MAX_CLIP_JSON_BYTES // 1024} KiB, not a clip description")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ClipError(f"{path}: not UTF-8 text") from None
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ClipError(f"{path}: nested more than {MAX_JSON_DEPTH} deep, not a clip description")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ClipError(f"{path}: not readable JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict):
        raise ClipError(f"{path}: must hold a JSON object, not {json.dumps(data)[:40]}")
    return data


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def clip_number(data: dict[str, Any], key: str, path: Path, low: float, high: float,
                integer: bool = False) -> float:
    """``data[key]`` as a finite number in [low, high] (a whole number if ``integer``), or ``ClipError``."""
    value = data.get(key)
    if value is None:
        raise ClipError(f"{path}: needs {key!r}")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ClipError(f"{path}: {key} must be a number, not {json.dumps(value)[:20]}")
    if not (math.isfinite(value) and low <= value <= high) or (integer and value != int(value)):
        kind = "a whole number" if integer else "a number"
        raise ClipError(f"{path}: {key} is {str(value)[:24]}, must be {kind} from {low:g} to {high:g}")
    return float(value)


def read_clip_info(folder: Path) -> ClipInfo:
    path = Path(folder) / "clip.json"
    data = read_clip_json(folder)
    if "three_at" in data and "thrower" not in data:
        raise ClipError(f"{path}: an aim clip (it gives 'three_at', no 'thrower'): read it with 'vision aims'")
    fps = clip_number(data, "fps", path, 1, 1000)
    seats = int(clip_number(data, "seats", path, 6, 9, integer=True))
    thrower = int(clip_number(data, "thrower", path, 0, seats - 1, integer=True))
    return ClipInfo(fps, seats, thrower)


def open_clip(folder: Path) -> tuple[ClipInfo, FrameStream]:
    """A clip folder: ``clip.json`` and either ``video.avi`` or ``frames/000000.png ...``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ClipError(f"{folder}: not a clip folder")
    info = read_clip_info(folder)
    return info, open_frames(folder, info.fps)


def open_frames(folder: Path, fps: float) -> FrameStream:
    """A clip folder's frames, throw or aim clip alike: ``video.avi`` (:func:`open_video`: a Motion-JPEG
    file checked frame by frame) or ``frames/000000.png ...``, each read with the limits above."""
    folder = Path(folder)
    if (folder / "video.avi").exists():
        return open_video(folder / "video.avi", fps)
    if (folder / "frames").is_dir():
        return FrameFolder(folder / "frames", fps)
    raise ClipError(f"{folder}: neither video.avi nor frames/ found")


def write_frames(folder: Path, frames: Iterable[np.ndarray], *, fps: float, size: tuple[int, int], video: bool) -> None:
    """The frames of a clip folder: ``video.avi`` (Motion-JPEG) or ``frames/NNNNNN.png``, as :func:`open_clip` reads them."""
    if video:
        writer = cv2.VideoWriter(str(folder / "video.avi"), cv2.VideoWriter.fourcc(*"MJPG"), fps, size)
        if not writer.isOpened():
            raise RuntimeError(f"{folder / 'video.avi'}: this OpenCV build cannot write MJPG video")
        for frame in frames:
            writer.write(frame)
        writer.release()
    else:
        (folder / "frames").mkdir(exist_ok=True)
        for i, frame in enumerate(frames):
            cv2.imwrite(str(folder / "frames" / f"{i:06d}.png"), frame)
