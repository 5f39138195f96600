"""The table plane from the flat markers it shows when some corner markers do not show.

Every marker lying flat on the table (a corner marker, 5 cm; a standee's base marker, 3 cm) is a square of known
side. The mapping from the (undistorted) image to table centimetres that turns every one of them into a square of
its own side is the table plane, up to where its origin is and which way its axes turn: nothing the aim reader
reads depends on either (it reads distances, angles and the camera's height). The perspective shows in how the
markers' sizes and shapes change across the image; what they cannot tell (a camera looking nearly straight down)
changes the table's geometry little for the same reason.

``fit_squares`` finds that mapping by least squares (Levenberg-Marquardt over the six numbers of a homography
whose origin is fixed; each marker's place and turn solved in closed form at every step) for each lens distortion
and outline growth tried, as the corner markers' fit does, and keeps the one that fits best. Its frame has the
handedness of the corner markers' frame (corner 0 to 1 to 2 clockwise seen from above).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision import markers
from vision.errors import TableUnseenError
from vision.homography import map_points

MIN_MARKERS = 3  # flat markers the fit needs: fewer, and the perspective is a guess (see docs/vision.md)
MAX_RMS_CM = 0.25  # a fit whose corners lie further from their squares (root mean square) is refused
HANDEDNESS = -1.0  # the sign of the corner markers' frame's determinant: the fit's frame is turned to match
_SQUARE = np.array([0, 1, 1 + 1j, 1j]) - (0.5 + 0.5j)  # a unit marker's corners as ArUco orders them


@dataclass(frozen=True)
class SquaresFit:
    """The image (undistorted) -> table cm homography the flat markers give, and how well they fit (root mean
    square distance, cm, of a marker corner from its square)."""

    to_table: np.ndarray
    rms_cm: float


def _unpack(p: np.ndarray, norm: np.ndarray) -> np.ndarray:
    h = np.array([[p[0], p[1], 0.0], [p[2], p[3], 0.0], [p[4], p[5], 1.0]])
    return np.asarray(h @ norm)


def _residuals(p: np.ndarray, norm: np.ndarray, quads: np.ndarray, sides: np.ndarray, weights: np.ndarray,
               template: np.ndarray) -> np.ndarray:
    """Each marker's corners (mapped by the homography ``p``) less the nearest square of its side (any place and
    turn), weighted: (markers * 8,)."""
    h = _unpack(p, norm)
    mapped = map_points(h, quads).reshape(-1, 4, 2)
    z = mapped[..., 0] + 1j * mapped[..., 1]
    z = z - z.mean(axis=1, keepdims=True)
    squares = sides[:, None] * template[None, :]
    a = (z * squares.conj()).sum(axis=1)
    turn = a / np.maximum(np.abs(a), 1e-12)
    r = (z - turn[:, None] * squares) * weights[:, None]
    return np.concatenate([r.real, r.imag], axis=1).ravel()


def _levenberg_marquardt(p: np.ndarray, args: tuple[np.ndarray, ...], iterations: int = 40) -> tuple[np.ndarray, float]:
    r = _residuals(p, *args)
    cost = float(r @ r)
    damping = 1e-3
    for _ in range(iterations):
        jac = np.empty((len(r), len(p)))
        for k in range(len(p)):
            step = 1e-6 * max(1.0, abs(float(p[k])))
            d = np.zeros_like(p)
            d[k] = step
            jac[:, k] = (_residuals(p + d, *args) - _residuals(p - d, *args)) / (2 * step)
        jtj = jac.T @ jac
        g = jac.T @ r
        improved = False
        for _ in range(8):
            try:
                delta = np.linalg.solve(jtj + damping * np.diag(np.diag(jtj) + 1e-12), -g)
            except np.linalg.LinAlgError:
                damping *= 10
                continue
            trial = p + delta
            rt = _residuals(trial, *args)
            ct = float(rt @ rt)
            if ct < cost:
                p, r, cost = trial, rt, ct
                damping = max(damping / 3, 1e-9)
                improved = True
                break
            damping *= 10
        if not improved or float(np.abs(delta).max()) < 1e-10:
            break
    return p, cost


def handedness(to_table: np.ndarray, image_size: tuple[int, int]) -> float:
    """The sign of the determinant of ``to_table``'s derivative at the image centre: whether it mirrors."""
    c = np.array([image_size[0] / 2, image_size[1] / 2])
    m = map_points(to_table, np.array([c, c + [1.0, 0], c + [0, 1.0]]))
    (ax, ay), (bx, by) = m[1] - m[0], m[2] - m[0]
    return float(np.sign(ax * by - ay * bx))


def fit_squares(quads: np.ndarray, sides: np.ndarray, image_size: tuple[int, int]) -> SquaresFit:
    """The homography (undistorted image px -> table cm) that maps each of ``quads`` ((n, 4, 2), as ArUco orders
    their corners) nearest to a square of its side in ``sides`` ((n,), cm), and how near (``check_fit`` tells
    whether that is near enough). Raises :class:`TableUnseenError` when too few markers show."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    sides = np.asarray(sides, np.float64).reshape(-1)
    if len(quads) < MIN_MARKERS:
        seen = f"{len(quads)} marker{'' if len(quads) == 1 else 's'}"
        raise TableUnseenError(f"{seen} flat on the table seen (at least {MIN_MARKERS} needed)")
    scale = float(max(image_size))
    norm = np.array([[1 / scale, 0, -image_size[0] / 2 / scale], [0, 1 / scale, -image_size[1] / 2 / scale],
                     [0, 0, 1]])
    weights = np.where(sides >= markers.CORNER_SIZE_CM, 1.0, math.sqrt(0.5))
    # a start with no perspective: the mean size of a marker in the image gives the scale
    px = np.linalg.norm(quads - quads[:, [1, 2, 3, 0]], axis=2).mean(axis=1)
    cm_per_unit = float(np.median(sides / px)) * scale
    best: tuple[float, np.ndarray] | None = None
    p0 = np.array([cm_per_unit, 0.0, 0.0, cm_per_unit, 0.0, 0.0])
    for template in (_SQUARE, _SQUARE.conj()):  # the image may show the table turned over (a mirror)
        p, cost = _levenberg_marquardt(p0, (norm, quads, sides, weights, template))
        if best is None or cost < best[0]:
            best = (cost, p)
    assert best is not None
    cost, p = best
    h = _unpack(p, norm)
    if HANDEDNESS * handedness(h, image_size) < 0:
        h = np.diag([1.0, -1.0, 1.0]) @ h
    rms = math.sqrt(cost / (float((weights ** 2).sum()) * 4))
    return SquaresFit(h, rms if math.isfinite(rms) else math.inf)


def check_fit(fit: SquaresFit) -> None:
    """Raises :class:`TableUnseenError` when the markers fit no plane well enough to read the table by."""
    if fit.rms_cm > MAX_RMS_CM:
        raise TableUnseenError(f"the markers flat on the table do not fit one plane ({fit.rms_cm:.2f} cm off)")


__all__ = ["SquaresFit", "check_fit", "fit_squares", "handedness"]
