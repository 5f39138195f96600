"""Comparing frames and marker cells for the aim reader.

A weapon marker's contrast as seen in a frame (``cell_contrast``; its cells as printed and as seen are
``markers.pattern`` and ``markers.cell_means``), and what two frames of the same table share: the frame's
own change between them (``least_change``), the camera's shake (``shake``) and the change of its gain
(``gain``), so that a place can be compared at the deadline with what it showed before the count.
"""

from __future__ import annotations

import math

import numpy as np

from vision import markers


def least_change(diff: np.ndarray, cell: int) -> float | None:
    """The frame's own change between two frames (noise, JPEG, shake) from their absolute difference ``diff``:
    the mean difference of the quarter of ``cell``-sized squares that changed least. At the deadline the
    players' arms and weapons may cover half of the frame, and a median would then be their change."""
    h, w = diff.shape[:2]
    grid = [float(diff[y:y + cell, x:x + cell].mean())
            for y in range(0, h - cell + 1, cell) for x in range(0, w - cell + 1, cell)]
    return float(np.percentile(grid, 25)) if grid else None


def shake(first: np.ndarray, later: np.ndarray, box: tuple[int, int, int, int], reach: int) -> tuple[int, int]:
    """How far (whole pixels, at most ``reach`` each way) the image ``box`` (x0, y0, x1, y1) of ``first`` moved in
    ``later``: the camera shaken between them (a bumped table). The shift that matches them best; none when the
    box is too close to the image's edge to try them all."""
    h, w = first.shape[:2]
    x0, y0, x1, y1 = box
    x0, y0, x1, y1 = max(x0, reach), max(y0, reach), min(x1, w - reach), min(y1, h - reach)
    if x1 - x0 < 4 or y1 - y0 < 4 or reach <= 0:
        return 0, 0
    a = first[y0:y1, x0:x1]
    best, shift = math.inf, (0, 0)
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            diff = float(np.abs(a - later[y0 + dy:y1 + dy, x0 + dx:x1 + dx]).mean()) + 1e-3 * (abs(dx) + abs(dy))
            if diff < best:
                best, shift = diff, (dx, dy)
    return shift


def gain(first: np.ndarray, later: np.ndarray, cell: int = 32) -> float:
    """The change of the camera's gain (or of the room's light) from the grey frame ``first`` to ``later``: the
    ratio of their brightness that the most squares of ``cell`` pixels agree on, their texture (the spread of
    grey in a square) scaled alike. Where nothing moved a square's ratio is the gain; at the deadline the
    players' arms and weapons may cover more than half of the frame, and over a dark table they brighten it:
    the ratio of the whole frames' means would be theirs, not the camera's. A sleeve over a square changes its
    texture as well as its brightness."""
    h, w = first.shape[:2]
    rows, cols = h // cell, w // cell
    whole = max(float(later.mean()), 1.0) / max(float(first.mean()), 1.0)
    if rows == 0 or cols == 0:
        return whole

    def squares(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        blocks = img[:rows * cell, :cols * cell].reshape(rows, cell, cols, cell).transpose(0, 2, 1, 3) \
            .reshape(rows * cols, cell * cell)
        return blocks.mean(axis=1), blocks.std(axis=1)

    (ma, sa), (mb, sb) = squares(first), squares(later)
    lit = ma >= 12.0  # squares so dark that noise decides their ratio say nothing of it
    if not lit.any():
        return whole
    ratios = np.log(np.maximum(mb[lit], 1.0) / ma[lit])
    spreads = np.log((sb[lit] + 2.0) / (sa[lit] + 2.0))
    near = np.abs(ratios[:, None] - ratios[None, :]) <= 0.04
    alike = np.abs(spreads[None, :] - ratios[:, None]) <= 0.35  # the texture scaled by the same ratio
    support = (near & alike).sum(axis=1)
    if int(support.max()) < max(3, len(ratios) // 4):
        support = near.sum(axis=1)  # a plain table: its spread is the camera's noise, not scaled with the gain
    best = ratios[int(np.argmax(support))]
    return float(np.exp(np.median(ratios[np.abs(ratios - best) <= 0.04])))


def cell_contrast(gray: np.ndarray, quad: np.ndarray, pattern: np.ndarray) -> float:
    """The difference between the marker's white and black cells as read (0 when unknown)."""
    seen = markers.cell_means(gray, quad)
    if seen is None or not pattern.any() or pattern.all():
        return 0.0
    return float(np.median(seen[pattern == 1]) - np.median(seen[pattern == 0]))


__all__ = ["cell_contrast", "gain", "least_change", "shake"]
