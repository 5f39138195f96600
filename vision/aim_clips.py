"""Aim clip folders: ``clip.json`` (``fps``, ``seats``, ``three_at``) and ``video.avi`` or ``frames/``.

``read_aim_clip_info`` reads and checks ``clip.json``; ``open_aim_clip`` opens the frames as a throw
clip's are (``vision.sources``: the size of the files, of each frame, the same size throughout);
``read_aim_clip`` reads the aims of a clip folder with the aim reader (``vision.aims``). A clip that starts
late in the count, arms already over a table corner or a standee in its first frames, has its table found in
frames spread over the whole clip: the markers do not move, and what an arm covers in one frame shows in others.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

import cv2
import numpy as np

from vision import markers
from vision.aims import AimConfig, AimReading, find_table, read_frames, table_frame_count, table_of
from vision.calibration import Calibration
from vision.errors import AimError, ClipError, TableUnseenError
from vision.sources import FrameSource, clip_number, open_frames, read_clip_json
from vision.table_plane import TablePlane

MAX_CLIP_SECONDS = 600.0  # the "3" at most this long after the first frame
SPREAD_FRAMES = 16  # frames spread over a whole clip to find its table in (16-31 kept)


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
        if "thrower" in data and "three_at" not in data:
            raise AimError(f"{path}: a throw clip (it gives 'thrower', no 'three_at'): judge it with 'vision judge'")
        fps = clip_number(data, "fps", path, 1, 1000)
        seats = int(clip_number(data, "seats", path, 3, markers.MAX_SEATS, integer=True))
        three_at = clip_number(data, "three_at", path, 0, MAX_CLIP_SECONDS)
    except ClipError as exc:
        raise AimError(str(exc)) from None
    return AimClipInfo(fps, seats, three_at)


def open_aim_clip(folder: Path | str) -> tuple[AimClipInfo, FrameSource]:
    """An aim clip's info and its frames, opened as every clip's are (``vision.sources.open_frames``: a
    Motion-JPEG video checked frame by frame, the limits on files and frames); the caller closes them."""
    folder = Path(folder)
    if not folder.is_dir():
        raise AimError(f"{folder}: not a clip folder")
    info = read_aim_clip_info(folder)
    try:
        return info, open_frames(folder, info.fps)
    except ClipError as exc:
        raise AimError(str(exc)) from None


def read_aim_clip(folder: Path | str, *, calibration: Calibration | None = None,
                  config: AimConfig = AimConfig()) -> AimReading:
    """Reads an aim clip folder. Raises :class:`AimError` (a ``ClipError``) for a broken clip."""
    info, source = open_aim_clip(folder)
    try:
        plane = TablePlane.from_calibration(calibration) if calibration is not None else None
        frames = source.frames() if calibration is None else _sized_as(source.frames(), calibration)
        if plane is None:
            plane, rest = _clip_table(frames, info)
            if rest is None:  # read through to find the table: from the start again
                source.close()
                info, source = open_aim_clip(folder)
                rest = source.frames()
            frames = rest
        reading = read_frames(frames, seats=info.seats, fps=info.fps, three_at=info.three_at, plane=plane,
                              config=config)
    except AimError as exc:
        raise AimError(f"{folder}: {exc}") from None
    except ClipError as exc:  # a frame that cannot be read: its message names the file and the frame
        raise AimError(str(exc)) from None
    except (cv2.error, MemoryError) as exc:
        raise AimError(f"{folder}: the frames cannot be read ({str(exc).strip().splitlines()[-1][:80]})") from None
    finally:
        source.close()
    _check_seat_count(reading, info.seats, Path(folder) / "clip.json")
    return reading


def _clip_table(frames: Iterator[np.ndarray], info: AimClipInfo) -> tuple[TablePlane, Iterator[np.ndarray] | None]:
    """The table of a clip read without a calibration: found in its frames before the count's "1" (``table_of``,
    as ``read_frames`` finds it). When those do not show every corner marker or every seat's standee (a clip that
    starts late in the count, arms already raised over them), in frames spread over the whole clip instead, if
    those show more: the markers do not move, and what an arm covers in one frame shows in others. With it, the
    clip's frames from the first when only those before the "1" were read; None when the whole clip was."""
    want = table_frame_count(info.fps, info.three_at)
    head: list[np.ndarray] = []
    for frame in frames:
        head.append(frame)
        if len(head) >= want:
            break
    try:
        first: TablePlane | None = table_of(head, info.seats)
    except TableUnseenError:
        first = None
    if first is not None and first.by_corners and all(seat in first.standees for seat in range(info.seats)):
        return first, chain(head, frames)
    try:
        spread = find_table(spread_frames(chain(head, frames), SPREAD_FRAMES), info.seats)
    except TableUnseenError as exc:
        if first is not None:
            return first, None
        raise TableUnseenError(f"{exc}; nor anywhere else in the clip (covered throughout): calibrate with the "
                               "table clear and give that calibration with --calibration") from None
    if first is None:
        return spread, None
    # the corner markers' frame first, then the more standees; between two tables fitted without corner markers,
    # the one found over the whole clip (more flat markers to fit)
    ordered = (first, spread) if first.by_corners else (spread, first)
    return max(ordered, key=lambda p: (p.by_corners, len(p.standees))), None


def spread_frames(frames: Iterator[np.ndarray], keep: int) -> list[np.ndarray]:
    """Frames spread evenly over all of ``frames``, ``keep`` to ``2 * keep - 1`` of them (fewer if there are
    fewer), without knowing how many there are: every ``step``-th is kept, the step doubling (and every other
    one kept dropped) each time ``2 * keep`` are held."""
    kept: list[np.ndarray] = []
    step = 1
    for i, frame in enumerate(frames):
        if i % step == 0:
            kept.append(frame)
            if len(kept) >= 2 * keep:
                kept = kept[::2]
                step *= 2
    return kept


def _sized_as(frames: Iterator[np.ndarray], calibration: Calibration) -> Iterator[np.ndarray]:
    """The clip's frames, refused when they are not of the size the calibration was made at: its markers' pixels
    would then be other places on the table."""
    for frame in frames:
        if (problem := calibration.size_problem(frame)) is not None:
            raise AimError(problem)
        yield frame


def _check_seat_count(reading: AimReading, seats: int, where: Path) -> None:
    """A weapon aimed at a standee of a seat beyond ``clip.json``'s ``seats``: the clip and its frames disagree
    on the table, and no answer can be given for a player that is not in the game."""
    beyond = sorted({aim.target for aim in reading.seats.values() if aim.target is not None and aim.target >= seats})
    if beyond:
        named = " and ".join(f"seat {seat}" for seat in beyond)
        raise AimError(f"{where}: seats is {seats}, but its frames show a weapon aimed at the standee of {named}: "
                       "give the number of seats at the table")


__all__ = ["AimClipInfo", "open_aim_clip", "read_aim_clip", "read_aim_clip_info", "spread_frames"]
