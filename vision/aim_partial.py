"""Following a weapon's marker that is partly covered (another player's weapon or arm held over it).

ArUco reads a marker only from its whole outline; the weapon's identity is known all the same (marker 30 +
seat), and so is its pattern. Where part of the marker shows, a pose that puts the pattern's light and dark
cells where the frame shows them says the marker is there: each pair of neighbouring cells of different colour
that the pose puts over the visible part of the marker shows the pattern's order (the white cell lighter), a
pair over the cover shows no difference, and a pose that is not the marker's shows as many pairs one way as the
other (``scores``). A hand holding a weapon still moves it by its tremor (a few millimetres, a degree or two):
the marker is looked for at the poses that near (``best_near``), all scored in one pass over the frame.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision import markers

_PAIRS = np.array([(r * 6 + c, r * 6 + c + 1) for r in range(6) for c in range(5)]
                  + [(r * 6 + c, (r + 1) * 6 + c) for r in range(5) for c in range(6)])  # neighbouring cells
# the samples of ``markers.sample_points`` (row by row) cell by cell, each cell's four together
_ORDER = np.arange(144).reshape(6, 2, 6, 2).transpose(0, 2, 1, 3).ravel()


def pairs_of(pattern: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of neighbouring cells of different colour in ``pattern``, and whether the first of each is
    the lighter."""
    pairs = _PAIRS[pattern[_PAIRS[:, 0]] != pattern[_PAIRS[:, 1]]]
    return pairs, pattern[pairs[:, 0]] > pattern[pairs[:, 1]]


def turned(quad: np.ndarray, turn_deg: float) -> np.ndarray:
    """``quad`` turned about its centre in the image."""
    centre = quad.mean(axis=0)
    c, s = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    return np.asarray(centre + (quad - centre) @ np.array([[c, s], [-s, c]]))


def _samples(quad: np.ndarray) -> np.ndarray:
    """The 144 sample points (four a cell: two rows of two, cell by cell) of a marker seen at ``quad``."""
    return markers.sample_points(quad).reshape(144, 2)[_ORDER]


def scores(gray: np.ndarray, points: np.ndarray, pattern: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """For each pose's sample points (N x 144 x 2, see ``_samples``), the pairs of neighbouring cells showing the
    pattern's light/dark order and those showing the opposite (a pair counts when its cells differ by ``margin``
    grey levels); a pose leaving the image agrees with nothing and is against nothing."""
    n = len(points)
    h_img, w_img = gray.shape[:2]
    low, high = points.min(axis=1), points.max(axis=1)
    inside = (low[:, 0] >= 0) & (low[:, 1] >= 0) & (high[:, 0] <= w_img - 1) & (high[:, 1] <= h_img - 1)
    vals = cv2.remap(gray, points[..., 0], points[..., 1], cv2.INTER_LINEAR).astype(np.float32)
    cells = vals.reshape(n, 36, 4).sum(axis=2) * 0.25
    pairs, lighter = pairs_of(pattern)
    diff = cells[:, pairs[:, 0]] - cells[:, pairs[:, 1]]
    diff *= np.where(lighter, 1.0, -1.0).astype(np.float32)
    agree = np.where(inside, np.count_nonzero(diff > margin, axis=1), 0)
    against = np.where(inside, np.count_nonzero(diff < -margin, axis=1), 0)
    return agree, against


def poses_near(quad: np.ndarray, reach_cells: float, turns_deg: tuple[float, ...], steps: int = 5) -> np.ndarray:
    """The sample points of ``quad`` turned about its centre by each of ``turns_deg`` and moved by up to
    ``reach_cells`` of its cells each way (``steps`` steps across), as an N x 144 x 2 array, turn by turn."""
    cell = markers.quad_side(quad) / 6
    centre = quad.mean(axis=0).astype(np.float32)
    base = _samples(quad) - centre
    moves = np.linspace(-reach_cells, reach_cells, steps, dtype=np.float32) * np.float32(cell)
    dx, dy = np.meshgrid(moves, moves)
    shifts = np.column_stack([dx.ravel(), dy.ravel()]) + centre
    out = np.empty((len(turns_deg), len(shifts), 144, 2), np.float32)
    for k, turn in enumerate(turns_deg):
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        rot = base @ np.array([[c, s], [-s, c]], np.float32)
        out[k] = rot[None, :, :] + shifts[:, None, :]
    return out.reshape(-1, 144, 2)


def best_near(gray: np.ndarray, quad: np.ndarray, pattern: np.ndarray, margin: float, reach_cells: float,
              turns_deg: tuple[float, ...]) -> tuple[int, int] | None:
    """The pairs agreeing and against at the pose near ``quad`` (see ``poses_near``) the pattern shows best at
    (most agreeing beyond those against); None when every such pose leaves the image."""
    agree, against = scores(gray, poses_near(quad, reach_cells, turns_deg), pattern, margin)
    best = int(np.argmax(agree - against))
    if agree[best] == 0 and against[best] == 0:
        return None
    return int(agree[best]), int(against[best])


__all__ = ["best_near", "pairs_of", "poses_near", "scores", "turned"]
