"""Cheap motion detection at reduced resolution: what moves, and which moving blob is the shuriken.

Frames are shrunk (default 1/4 per side, 160x120 from 640x480) and compared with the armed
reference and with the frame about 1/30 s earlier. A pixel that differs from both belongs to
something that moves now. Blobs touching the image border are arms or hands; a blob about the size
of the foam star, away from the border, is the shuriken.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

STAR_AREA_CM2 = 14.0  # a 6 cm four- or six-pointed foam star seen from above
ARM_THRESHOLD_SHARE = 0.6  # arms are traced at this share of the motion threshold


class BlobKind(Enum):
    SHURIKEN = "shuriken"
    ARM = "arm"
    OTHER = "other"  # a falling or wobbling standee, a shadow


@dataclass(frozen=True)
class Blob:
    kind: BlobKind
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in full-resolution pixels
    area_px: int  # at full resolution
    centre: tuple[float, float]


@dataclass(frozen=True)
class MotionFrame:
    activity: int  # low-resolution pixels that changed since ~1/30 s ago
    changed: np.ndarray  # low-resolution mask (uint8 0/1) of those pixels
    moving: np.ndarray  # low-resolution mask (uint8 0/1) of what moves now and is not background
    blobs: list[Blob]


class MotionDetector:
    """Keeps the reference and the recent low-resolution frames; ``update`` classifies one frame."""

    def __init__(self, px_per_cm: float, fps: float, scale: int = 4, min_threshold: int = 12) -> None:
        self.scale = scale
        self.lag = max(1, round(fps / 30))
        self.min_threshold = min_threshold
        self.threshold = float(min_threshold)
        self.star_area = STAR_AREA_CM2 * px_per_cm * px_per_cm  # full-resolution pixels
        self.reference: np.ndarray | None = None
        self.recent: deque[np.ndarray] = deque(maxlen=self.lag + 1)
        self.size = (0, 0)
        self._speck = np.ones((2, 2), np.uint8)
        self._arm_margin = np.ones((5, 5), np.uint8)

    def shrink(self, frame: np.ndarray) -> np.ndarray:
        """The frame at low resolution, colour kept: a skin-coloured arm over a brown table can
        have the table's brightness but not its hue."""
        h, w = frame.shape[:2]
        return cv2.resize(frame, (w // self.scale, h // self.scale), interpolation=cv2.INTER_AREA)

    @staticmethod
    def _difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        d = cv2.absdiff(a, b)
        if d.ndim == 2:
            return d
        blue, green, red = cv2.split(d)
        return cv2.max(cv2.max(blue, green), red)

    def set_reference(self, frames: list[np.ndarray]) -> None:
        """The scene at rest; the noise between these frames sets the change threshold."""
        small = [self.shrink(f) for f in frames]
        self.reference = np.mean(small, axis=0).round().astype(np.uint8)
        if len(small) > 1:
            spread = np.mean([np.percentile(self._difference(a, b), 99.5) for a, b in zip(small, small[1:])])
            self.threshold = max(float(self.min_threshold), 1.5 * float(spread))
        self.recent.clear()
        self.recent.extend(small[-self.recent.maxlen:])
        self.size = frames[0].shape[1], frames[0].shape[0]

    def rebase(self) -> None:
        """Takes the latest frame as the new reference (after something moved and settled)."""
        if self.recent:
            self.reference = self.recent[-1].copy()

    def arm_in(self, box: tuple[int, int, int, int]) -> bool:
        """Whether an arm or hand (something from the border) covers part of ``box`` (low
        resolution) in the latest frame."""
        x0, y0, x1, y1 = box
        return bool(self._arm_mask(self._difference(self.recent[-1], self.reference))[y0:y1, x0:x1].any())

    def update(self, frame: np.ndarray) -> MotionFrame:
        small = self.shrink(frame)
        past = self.recent[0] if len(self.recent) == self.recent.maxlen else self.recent[-1]
        self.recent.append(small)
        thr = self.threshold
        changed = (self._difference(small, past) > thr).astype(np.uint8)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, self._speck)  # lone noisy pixels are no motion
        from_reference = self._difference(small, self.reference)
        moving = changed & (from_reference > thr).astype(np.uint8)
        activity = int(changed.sum())
        return MotionFrame(activity, changed, moving, self._blobs(moving, from_reference) if activity else [])

    def _arm_mask(self, from_reference: np.ndarray) -> np.ndarray:
        """Everything that differs from the reference and reaches the image border: arms and hands
        come in from outside the view, the star flies free of them. A lower threshold and a margin
        keep an arm of nearly the table's colour in one piece with its fingers."""
        differs = (from_reference > ARM_THRESHOLD_SHARE * self.threshold).astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(differs, self._arm_margin), connectivity=8)
        hl, wl = differs.shape
        arm = np.zeros(n, bool)
        for i in range(1, n):
            x, y, bw, bh, area = stats[i]
            arm[i] = x <= 0 or y <= 0 or x + bw >= wl or y + bh >= hl
        return arm[labels]

    def _blobs(self, moving: np.ndarray, from_reference: np.ndarray) -> list[Blob]:
        if not moving.any():
            return []
        arm = self._arm_mask(from_reference)
        grown = cv2.dilate(moving, np.ones((3, 3), np.uint8))
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(grown, connectivity=8)
        s = self.scale
        blobs = []
        for i in range(1, n):
            x, y, bw, bh, area = (int(v) for v in stats[i])
            full_area = area * s * s
            if arm[y:y + bh, x:x + bw][labels[y:y + bh, x:x + bw] == i].any():
                kind = BlobKind.ARM
            elif 0.35 * self.star_area <= full_area <= 6.0 * self.star_area \
                    and max(bw, bh) * s <= 5.0 * np.sqrt(self.star_area):
                kind = BlobKind.SHURIKEN
            else:
                kind = BlobKind.OTHER
            blobs.append(Blob(kind, (x * s, y * s, (x + bw) * s, (y + bh) * s), full_area,
                              (float(centroids[i][0]) * s, float(centroids[i][1]) * s)))
        return blobs
