"""Points mapped through a plane-to-plane homography (a 3x3 matrix acting on homogeneous points)."""

from __future__ import annotations

import numpy as np

# a point whose homogeneous weight is smaller than this lies at the horizon (infinitely far on the other plane):
# it is mapped as if its weight were this small, far away but finite, so a fit can still move away from it
HORIZON_WEIGHT = 1e-9


def map_points(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """``pts`` (any shape ending in 2) mapped through ``h``: an (N, 2) array."""
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    q = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    w = q[:, 2:3]
    w = np.where(np.abs(w) < HORIZON_WEIGHT, HORIZON_WEIGHT, w)
    return np.asarray(q[:, :2] / w)


__all__ = ["HORIZON_WEIGHT", "map_points"]
