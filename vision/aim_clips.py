"""Aim clip folders: ``clip.json`` (``fps``, ``seats``, ``three_at``) and ``video.avi`` or ``frames/``.

``read_aim_clip_info`` reads and checks ``clip.json``; ``open_aim_clip`` opens the frames with the
reader's limits (the size of the files, of each frame, the same size throughout, the clip's length);
``read_aim_clip`` reads the aims of a clip folder with the aim reader (``vision.aims``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import markers
from vision.aims import AimConfig, AimReading, read_frames
from vision.calibration import Calibration
from vision.errors import AimError, ClipError
from vision.sources import MAX_FRAME_SIDE, FrameFolder, VideoFile, clip_number, read_clip_json
from vision.table_plane import TablePlane

MAX_VIDEO_BYTES = 512 * 1024 * 1024
MAX_FRAME_FILES = 20_000
MAX_FRAME_FILE_BYTES = 16 * 1024 * 1024
MAX_CLIP_SECONDS = 600.0


@dataclass(frozen=True)
class AimClipInfo:
    fps: float
    seats: int
    three_at: float


def read_aim_clip_info(folder: Path) -> AimClipInfo:
    """``clip.json``'s fps, seats and time of the "3", read with every clip's limits (``vision.sources``)."""
    path = Path(folder) / "clip.json"
    try:
        data = read_clip_json(folder)
        fps = clip_number(data, "fps", path, 1, 1000)
        seats = int(clip_number(data, "seats", path, 3, markers.MAX_SEATS, integer=True))
        three_at = clip_number(data, "three_at", path, 0, MAX_CLIP_SECONDS)
    except ClipError as exc:
        raise AimError(str(exc)) from None
    return AimClipInfo(fps, seats, three_at)


class _Checked:
    """Frames of a clip with the reader's limits: size of each frame, same size throughout."""

    def __init__(self, source: Any, where: Path, limit: int) -> None:
        self.source, self.where, self.limit = source, where, limit

    def __iter__(self) -> Iterator[np.ndarray]:
        shape = None
        for i, frame in enumerate(self.source.frames()):
            if i >= self.limit:
                raise AimError(f"{self.where}: more than {self.limit} frames")
            if frame.ndim not in (2, 3) or max(frame.shape[:2]) > MAX_FRAME_SIDE or min(frame.shape[:2]) < 32:
                raise AimError(f"{self.where}: frame {i} is {frame.shape[1]}x{frame.shape[0]}, not a camera frame")
            if shape is None:
                shape = frame.shape
            elif frame.shape != shape:
                raise AimError(f"{self.where}: frame {i} is {frame.shape[1]}x{frame.shape[0]}, the first was "
                               f"{shape[1]}x{shape[0]}")
            yield frame


def open_aim_clip(folder: Path | str) -> tuple[AimClipInfo, Any, Iterable[np.ndarray]]:
    """An aim clip's info, its source (to close) and its checked frames."""
    folder = Path(folder)
    if not folder.is_dir():
        raise AimError(f"{folder}: not a clip folder")
    info = read_aim_clip_info(folder)
    limit = int(info.fps * MAX_CLIP_SECONDS)
    video = folder / "video.avi"
    if video.exists():
        size = video.stat().st_size
        if size > MAX_VIDEO_BYTES:
            raise AimError(f"{video}: {size // 2**20} MB, more than a clip may hold ({MAX_VIDEO_BYTES // 2**20} MB)")
        if size == 0:
            raise AimError(f"{video}: empty")
        source: Any = VideoFile(video, info.fps)
        return info, source, _Checked(source, video, limit)
    frames = folder / "frames"
    if frames.is_dir():
        for files, p in enumerate(frames.iterdir(), start=1):
            if files > MAX_FRAME_FILES:
                raise AimError(f"{frames}: more than {MAX_FRAME_FILES} files")
            if p.is_file() and p.stat().st_size > MAX_FRAME_FILE_BYTES:
                raise AimError(f"{p}: {p.stat().st_size // 2**20} MB, too large for a frame")
        source = FrameFolder(frames, info.fps)
        return info, source, _Checked(source, frames, limit)
    raise AimError(f"{folder}: neither video.avi nor frames/ found")


def read_aim_clip(folder: Path | str, *, calibration: Calibration | None = None,
                  config: AimConfig = AimConfig()) -> AimReading:
    """Reads an aim clip folder. Raises :class:`AimError` (a ``ClipError``) for a broken clip."""
    info, source, frames = open_aim_clip(folder)
    try:
        plane = TablePlane.from_calibration(calibration) if calibration is not None else None
        return read_frames(frames, seats=info.seats, fps=info.fps, three_at=info.three_at, plane=plane,
                           config=config)
    except AimError as exc:
        raise AimError(f"{folder}: {exc}") from None
    except (cv2.error, MemoryError) as exc:
        raise AimError(f"{folder}: the frames cannot be read ({str(exc).strip().splitlines()[-1][:80]})") from None
    finally:
        source.close()


__all__ = ["AimClipInfo", "open_aim_clip", "read_aim_clip", "read_aim_clip_info"]
