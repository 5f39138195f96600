"""The table plane: where the table is in the camera image, and the camera above it.

``TablePlane`` maps image pixels to table centimetres by the homography the four corner markers (5 cm)
give, with the lens's barrel distortion measured from every marker flat on the table (each must map to a
square) and undone first; from that homography (principal point at the image centre,
square pixels, the focal length solved from the table's perspective) come the camera's foot point on the
table (its nadir) and its height, and from them where a marker card held above the table stands on it
(``TablePlane.ground``, read as a level card's; ``TablePlane.card_poses``, the two poses a pitched or rolled card's
outline fits) and where each seat's standee stands. Built from the markers found in a view of
the table (``from_markers``) or from a calibration (``from_calibration``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision import markers
from vision.calibration import Calibration, base_reach_px
from vision.errors import AimError, TableUnseenError
from vision.homography import map_points
from vision.plane_from_squares import SquaresFit, check_fit, fit_squares

KAPPA_STEPS = np.linspace(-1.0e-6, 3.5e-6, 31)
GROW_STEPS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5)
SQUARES_GROW = 1.0  # the outline growth the distortion is measured at when corner markers do not show
FOCAL_PRIOR = 0.75  # focal length over the image's larger side (a lens of about 67 degrees across) ...
FOCAL_PRIOR_WEIGHT = 1e-2  # ... weighed against what the table's perspective says (in units free of the table's size)
FOCAL_RANGE = (0.5, 1.3)  # focal length over the image's larger side: lenses of 42-90 degrees across


@dataclass(frozen=True)
class CardPose:
    """A marker card's pose solved from its outline: its pitch (its top edge's rise) and roll (its right edge's
    rise), radians; its top edge's outward normal laid flat on the table (radians, table frame); its foot point
    on the table (cm) and height (cm)."""

    pitch: float
    roll: float
    direction: float
    foot: tuple[float, float]
    height_cm: float


@dataclass(frozen=True)
class CardPoses:
    """The two mirror poses (last axis but for ``foot``'s x and y) of each of several marker cards (first axis), as
    ``CardPose`` holds one; ``solved`` is False for a card nearly under the camera (its poses mean nothing)."""

    pitch: np.ndarray  # (n, 2)
    roll: np.ndarray  # (n, 2)
    direction: np.ndarray  # (n, 2)
    foot: np.ndarray  # (n, 2, 2)
    height_cm: np.ndarray  # (n, 2)
    solved: np.ndarray  # (n,) bool


@dataclass
class TablePlane:
    """The table as the camera sees it: image -> table centimetres, the camera's nadir and height,
    and where each seat's standee stands (table cm)."""

    to_table: np.ndarray  # 3x3, image px -> table cm
    nadir: np.ndarray  # (2,) table cm below the camera
    camera_height_cm: float
    standees: dict[int, np.ndarray]  # seat -> (2,) table cm
    image_size: tuple[int, int]
    kappa: float = 0.0  # radial distortion: ideal = c + (p - c) (1 + kappa |p - c|^2), image centre c
    grow: float = 0.0  # px a detected marker's sides are short of its true outline
    by_corners: bool = True  # the frame is the corner markers' (False: fitted to the flat markers seen, some corners not)
    flat: dict[int, np.ndarray] = field(default_factory=dict)  # marker id -> image corners of those fitted to

    def undistort(self, pts: np.ndarray) -> np.ndarray:
        return _undistort(pts, self.image_size, self.kappa)

    def table_point(self, pts: np.ndarray) -> np.ndarray:
        """Image points of the table plane -> table cm."""
        return map_points(self.to_table, self.undistort(pts))

    @classmethod
    def from_markers(cls, found: dict[int, np.ndarray], image_size: tuple[int, int]) -> TablePlane:
        """From marker corners (id -> (4, 2) image px): the corner markers 0-3 and the standees'.

        The lens's barrel distortion is measured first: every marker flat on the table (corners 5 cm,
        bases 3 cm) must map to a square; the one-parameter radial model that makes their outlines most
        square is kept and undoes the distortion of every point read later. Then how far the outlines
        were detected short of the markers' true sides (``grow``): the one that makes their sizes agree
        best (a marker's shape does not tell it, its size does).

        When corner markers do not show (an arm over them), the table is fitted to the flat markers that do
        (``vision.plane_from_squares``): its frame's origin and turn are then its own, the distances, angles and
        the camera's height the same; ``by_corners`` is False."""
        misread = _misread_bases(found, image_size)
        flat = {m: q for m, q in found.items() if m not in misread and (
            m in markers.CORNER_IDS or markers.BASE_BASE_ID <= m < markers.BASE_BASE_ID + markers.MAX_SEATS)}
        missing = [c for c in markers.CORNER_IDS if c not in found]
        if missing:
            kappa, grow, to_table = _fit_without_corners(flat, image_size, missing)
        else:
            kappa, grow, to_table = _fit_to_corners(flat, image_size)
        nadir, height = _camera_over(to_table, image_size)
        plane = cls(to_table, nadir, height, {}, image_size, kappa, grow, not missing, flat)
        for seat in range(markers.MAX_SEATS):
            place = plane.standee_place(found.get(markers.crown_id(seat)),
                                        None if markers.base_id(seat) in misread else found.get(markers.base_id(seat)))
            if place is not None:
                plane.standees[seat] = place
        return plane

    def standee_place(self, crown: np.ndarray | None, base: np.ndarray | None) -> np.ndarray | None:
        """Where a standee stands (table cm) from its crown marker's corners (image px) or, without them, its
        base marker's; None without either."""
        if crown is not None:
            return np.asarray(self.ground(crown, markers.CROWN_SIZE_CM)[0])
        if base is not None:
            return np.asarray(self.table_point(base.mean(axis=0, keepdims=True))[0])
        return None

    @classmethod
    def from_calibration(cls, calibration: Calibration) -> TablePlane:
        found: dict[int, np.ndarray] = {c: np.asarray(q, np.float64) for c, q in calibration.corners.items()}
        for seat, m in calibration.seats.items():
            if m.crown is not None:
                found[markers.crown_id(seat)] = np.asarray(m.crown, np.float64)
            if m.base is not None:
                found[markers.base_id(seat)] = np.asarray(m.base, np.float64)
        return cls.from_markers(found, tuple(calibration.image_size))  # type: ignore[arg-type]

    def ground(self, corners: np.ndarray, size_cm: float) -> tuple[np.ndarray, float, float]:
        """A marker card held about level, seen at ``corners``: its foot point on the table (cm), the
        direction of its top edge's outward normal (radians, table frame) and its height (cm).

        Mapped onto the table plane from the camera, a level card of side ``size_cm`` at height ``h``
        is a square scaled by ``ratio = D / (D - h)`` about the nadir. A card tipped up or down (a
        weapon held with its muzzle raised, or rolled in the hand) adds to each edge a part along the
        ray from the nadir (its rise, seen from the camera, falls along that ray); so the direction and
        the size are read from the edges' parts across that ray, which the tip does not change."""
        q = self.table_point(_grown(corners, self.grow))
        centre = q.mean(axis=0)
        up = (q[0] - q[3]) + (q[1] - q[2])  # both side edges, bottom to top ...
        right = (q[1] - q[0]) + (q[2] - q[3])  # ... and both others
        cross = float(right[0] * up[1] - right[1] * up[0])
        sigma = -1.0 if cross > 0 else 1.0  # the right edge is the top edge turned by sigma quarter turns
        radial = centre - self.nadir
        reach = float(np.linalg.norm(radial))
        if reach > 2 * size_cm:
            across = np.array([-radial[1], radial[0]]) / reach
            x, y = float(across @ up) / 2, float(across @ right) / 2
            side = math.hypot(x, y)
            direction = math.atan2(across[1], across[0]) + math.atan2(-sigma * y, x)
        else:  # under the camera: nothing to tip along
            turn = np.array([right[1], -right[0]]) if cross < 0 else np.array([-right[1], right[0]])
            d = up / max(float(np.linalg.norm(up)), 1e-9) + turn / max(float(np.linalg.norm(turn)), 1e-9)
            side = markers.quad_side(q)
            direction = math.atan2(d[1], d[0])
        foot, height = self._raised(radial, side, size_cm)
        return foot, direction, float(height)

    def card_poses(self, corners: np.ndarray, size_cm: float) -> tuple[CardPose, CardPose] | None:
        """The two poses of a marker card, pitched and rolled as they may be, that give its outline ``corners``:
        None for a card nearly under the camera (nothing to tell a tip from there). See ``card_pose_arrays``."""
        poses = self.card_pose_arrays(np.asarray(corners, np.float64).reshape(1, 4, 2), size_cm)
        if not poses.solved[0]:
            return None
        first, second = (CardPose(float(poses.pitch[0, k]), float(poses.roll[0, k]), float(poses.direction[0, k]),
                                  (float(poses.foot[0, k, 0]), float(poses.foot[0, k, 1])), float(poses.height_cm[0, k]))
                         for k in (0, 1))
        return first, second

    def card_pose_arrays(self, corners: np.ndarray, size_cm: float) -> CardPoses:
        """The two poses of each of several marker cards (``corners``: (n, 4, 2) image px), pitched and rolled as
        they may be, that give its outline; a card nearly under the camera is not solved (nothing to tell a tip
        from there).

        The mapping onto the table plane is a projection along the camera's ray, so the card's pose is found
        as an orthographic one seen along that ray: two poses, mirror images across the plane square to the
        ray, give the same outline (which of them a weapon held is for its whole rest to tell: see
        ``vision.aims``). Each gives its top edge's normal laid flat on the table (the line of fire of a
        weapon pitched at its target), and its side, foot and height as a level card of that side would."""
        quads = np.asarray(corners, np.float64).reshape(-1, 4, 2)
        q = self.table_point(_grown_many(quads, self.grow).reshape(-1, 2)).reshape(-1, 4, 2)
        centre = q.mean(axis=1)
        up = ((q[:, 0] - q[:, 3]) + (q[:, 1] - q[:, 2])) / 2  # the side edges, bottom to top ...
        right = ((q[:, 1] - q[:, 0]) + (q[:, 2] - q[:, 3])) / 2  # ... and the others
        radial = centre - self.nadir
        reach = np.hypot(radial[:, 0], radial[:, 1])
        solved = reach > 2 * size_cm
        out = radial / np.maximum(reach, 1e-9)[:, None]
        across = np.column_stack([-out[:, 1], out[:, 0]])
        slope = reach / self.camera_height_cm  # the ray's run per unit of fall
        norm = np.hypot(1.0, slope)
        p = np.column_stack([(across * up).sum(axis=1), (out * up).sum(axis=1) / norm])  # the edges seen square
        w = np.column_stack([(across * right).sum(axis=1), (out * right).sum(axis=1) / norm])  # to the ray
        depth = np.sqrt(((w * w).sum(axis=1) - (p * p).sum(axis=1)) - 2j * (p * w).sum(axis=1))  # along the ray
        signs = np.array([1.0, -1.0])
        du, dw = signs * depth.real[:, None], signs * depth.imag[:, None]  # (n, 2): each mirror pose
        side = np.maximum(np.sqrt((p * p).sum(axis=1)[:, None] + du * du), 1e-9)
        rise = norm[:, None] * side  # each edge's rise over its length:
        pitch = np.arcsin(np.clip((p[:, 1:2] * slope[:, None] + du) / rise, -1.0, 1.0))
        roll = np.arcsin(np.clip((w[:, 1:2] * slope[:, None] + dw) / rise, -1.0, 1.0))
        muzzle_out = (p[:, 1:2] - du * slope[:, None]) / norm[:, None]
        muzzle = p[:, 0, None, None] * across[:, None, :] + muzzle_out[..., None] * out[:, None, :]
        foot, height = self._raised(radial[:, None, :], side, size_cm)
        return CardPoses(pitch, roll, np.arctan2(muzzle[..., 1], muzzle[..., 0]), foot, height, solved)

    def _raised(self, radial: np.ndarray, side: np.ndarray | float, size_cm: float) -> tuple[np.ndarray, np.ndarray]:
        """A level card of side ``size_cm`` whose centre maps ``radial`` (cm, (..., 2)) from the nadir and whose
        side maps to ``side`` (cm, (...)): its foot point and height. Mapped onto the table plane, a card at height
        ``h`` is a square scaled by ``ratio = D / (D - h)`` about the nadir (``D`` the camera's height)."""
        ratio = np.maximum(side / size_cm, 0.2)
        return self.nadir + radial / ratio[..., None], self.camera_height_cm * (1 - 1 / ratio)

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        """Table cm -> image px (the distortion put back, by a few fixed-point steps)."""
        ideal = map_points(np.linalg.inv(self.to_table), pts)
        out = ideal.copy()
        for _ in range(6):
            out = out + (ideal - self.undistort(out))
        return out


BASE_TO_CROWN = (0.3, 1.3)  # a base marker's side over its crown's: 3 cm on the table against 4 cm raised, 0.55-0.8


def _misread_bases(found: dict[int, np.ndarray], image_size: tuple[int, int]) -> set[int]:
    """The base markers that cannot be where they were read, their seat's crown marker seen: of a size no base
    beside that crown has (``BASE_TO_CROWN``), or beyond a base's reach from it (``calibration.base_reach_px``):
    another marker, or a card's printed border, decoded as that base. Fitted as a square of 3 cm, one would scale the
    whole table wrongly (a corner marker's card read as a base once halved it)."""
    out = set()
    for seat in range(markers.MAX_SEATS):
        base, crown = found.get(markers.base_id(seat)), found.get(markers.crown_id(seat))
        if base is None or crown is None:
            continue
        b, c = np.asarray(base, np.float64).reshape(4, 2), np.asarray(crown, np.float64).reshape(4, 2)
        b_side, c_side = markers.quad_side(b), markers.quad_side(c)
        apart = float(np.linalg.norm(b.mean(axis=0) - c.mean(axis=0)))
        if (not BASE_TO_CROWN[0] <= b_side / max(c_side, 1e-9) <= BASE_TO_CROWN[1]
                or apart > base_reach_px(c_side, b_side, image_size)):
            out.add(markers.base_id(seat))
    return out


def _fit_to_corners(flat: dict[int, np.ndarray], image_size: tuple[int, int]) -> tuple[float, float, np.ndarray]:
    """The lens's distortion, the outline growth and the image -> table cm homography, the corner markers' centres
    giving the table's frame (see ``TablePlane.from_markers``)."""
    centre = np.array([image_size[0] / 2, image_size[1] / 2], np.float64)
    kappa = _distortion_of(flat, centre)
    best = (math.inf, 0.0, np.eye(3))
    for grow in GROW_STEPS:
        try:
            fit = _metric({m: _grown(q, grow) for m, q in flat.items()}, centre, kappa)
        except AimError:
            continue
        if fit.size_spread < best[0]:
            best = (fit.size_spread, grow, fit.to_table)
    if not math.isfinite(best[0]):
        raise AimError("the corner markers do not lie on one plane as seen: check they are flat and in order")
    return kappa, best[1], best[2]


def _fit_without_corners(flat: dict[int, np.ndarray], image_size: tuple[int, int],
                         missing: list[int]) -> tuple[float, float, np.ndarray]:
    """As ``_fit_to_corners`` when corner markers ``missing`` do not show: every flat marker a square of its side
    (``vision.plane_from_squares``), for each distortion and outline growth tried (the distortion first, at a
    middle growth), the best fit kept."""
    ids = list(flat)
    quads = np.stack([np.asarray(flat[m], np.float64).reshape(4, 2) for m in ids]) if ids else np.zeros((0, 4, 2))
    sides = np.array([markers.CORNER_SIZE_CM if m in markers.CORNER_IDS else markers.BASE_SIZE_CM for m in ids])

    def fit(kappa: float, grow: float) -> SquaresFit:
        und = _undistort(_grown_many(quads, grow).reshape(-1, 2), image_size, kappa).reshape(-1, 4, 2)
        return fit_squares(und, sides, image_size)

    try:
        kappas = KAPPA_STEPS[::3]
        rms = np.array([fit(float(k), SQUARES_GROW).rms_cm for k in kappas])
        kappa = _parabola_minimum(kappas, rms, int(np.argmin(rms)))
        best, grow = min(((fit(kappa, grow), grow) for grow in GROW_STEPS), key=lambda f: f[0].rms_cm)
        check_fit(best)
    except TableUnseenError as exc:
        raise TableUnseenError(f"corner marker{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                               f"not found, and {exc}: the table plane is unknown") from None
    return kappa, grow, best.to_table


def _undistort(pts: np.ndarray, image_size: tuple[int, int], kappa: float) -> np.ndarray:
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    if kappa == 0.0:
        return pts
    c = np.array([image_size[0] / 2, image_size[1] / 2])
    d = pts - c
    return np.asarray(c + d * (1 + kappa * (d * d).sum(axis=1, keepdims=True)))


def _grown_many(quads: np.ndarray, grow: float) -> np.ndarray:
    """Detected quads ((n, 4, 2)) each grown by ``grow`` px along each side: detection on a blurred image puts
    a marker's corners slightly inside its true outline."""
    if grow == 0.0:
        return quads
    c = quads.mean(axis=1, keepdims=True)
    side = np.linalg.norm(quads - quads[:, [1, 2, 3, 0]], axis=2).mean(axis=1)[:, None, None]
    return np.asarray(c + (quads - c) * (side + grow) / np.maximum(side, 1e-6))


def _grown(quad: np.ndarray, grow: float) -> np.ndarray:
    """One detected quad grown as ``_grown_many`` grows several."""
    return np.asarray(_grown_many(np.asarray(quad, np.float64).reshape(1, 4, 2), grow)[0])


# each marker's edges and diagonals, as (from corner, to corner, length in sides)
_EDGES = ((0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0), (3, 0, 1.0), (0, 2, 2.0), (1, 3, 2.0))
_EDGE_FROM = np.array([i for i, _, _ in _EDGES])
_EDGE_TO = np.array([j for _, j, _ in _EDGES])
_EDGE_LENGTH = np.array([length for _, _, length in _EDGES])


@dataclass(frozen=True)
class _MarkerFit:
    """The table plane one distortion gives: its image -> table cm homography, the spread of the flat markers'
    mapped sizes (variance of log mapped over true side) and how far their mapped outlines are from squares
    (mean squared offset of a corner from the nearest square, over the square's side squared)."""

    to_table: np.ndarray
    size_spread: float
    shape_error: float


_SQUARE = np.array([0, 1, 1 + 1j, 1j]) - (0.5 + 0.5j)  # a marker's corners as ArUco orders them, about its centre


def _shape_errors(quads: np.ndarray) -> np.ndarray:
    """For each quad ((n, 4, 2), table cm) its mean squared offset from the nearest square (any size, turn and
    place; either handedness), over that square's side squared: 0 for a true square, whatever its size."""
    z = quads[..., 0] + 1j * quads[..., 1]
    z = z - z.mean(axis=1, keepdims=True)
    errors = []
    for square in (_SQUARE, _SQUARE.conj()):
        a = (z * square.conj()).sum(axis=1) / float((abs(square) ** 2).sum())  # the best turn and scale
        residual = (abs(z - a[:, None] * square[None, :]) ** 2).mean(axis=1)
        errors.append(residual / np.maximum(abs(a) ** 2, 1e-12))
    return np.asarray(np.minimum(errors[0], errors[1]))


def _distortion_of(flat: dict[int, np.ndarray], centre: np.ndarray) -> float:
    """The lens's distortion ``kappa`` measured from the flat markers' shapes: the one that maps every one of them
    (on the table plane the corner markers' centres give) nearest to a square. A marker's outline detected a
    little short or long changes its size but not its shape, so the shape tells the distortion apart from it;
    the distortion bends a marker far from the image centre more along its ray than across it."""
    errors = []
    for kappa in KAPPA_STEPS:
        try:
            errors.append(_metric(flat, centre, float(kappa)).shape_error)
        except AimError:
            errors.append(math.inf)
    i = int(np.argmin(errors))
    if not math.isfinite(errors[i]):
        raise AimError("the corner markers do not lie on one plane as seen: check they are flat and in order")
    return _parabola_minimum(KAPPA_STEPS, np.asarray(errors), i)


def _parabola_minimum(xs: np.ndarray, ys: np.ndarray, i: int) -> float:
    """The minimum of the parabola through the sampled minimum ``i`` and its neighbours (the sample at an end)."""
    if i == 0 or i == len(xs) - 1 or not np.all(np.isfinite(ys[i - 1:i + 2])):
        return float(xs[i])
    y0, y1, y2 = (float(y) for y in ys[i - 1:i + 2])
    bend = y0 - 2 * y1 + y2
    if bend <= 0:
        return float(xs[i])
    step = float(xs[i + 1] - xs[i])
    return float(xs[i]) + step * 0.5 * (y0 - y2) / bend


def _metric(flat: dict[int, np.ndarray], centre: np.ndarray, kappa: float) -> _MarkerFit:
    """For one distortion ``kappa``: the image -> table cm homography (the corner markers' centres
    give the plane, every flat marker's edges its centimetres), the spread of the flat markers'
    mapped sizes and their outlines' distance from squares. Every marker at once: this runs for each of
    the distortions and outline growths tried."""
    size = (int(centre[0] * 2), int(centre[1] * 2))
    ids = list(flat)
    quads = np.stack([np.asarray(flat[m], np.float64).reshape(4, 2) for m in ids])
    und = _undistort(quads.reshape(-1, 2), size, kappa).reshape(-1, 4, 2)
    centres = np.array([und[ids.index(c)].mean(axis=0) for c in markers.CORNER_IDS], np.float32)
    square = np.array([[0, 0], [0, 1], [1, 1], [1, 0]], np.float32)
    unit = cv2.getPerspectiveTransform(centres, square).astype(np.float64)
    corner = np.array([m in markers.CORNER_IDS for m in ids])
    true = np.where(corner, markers.CORNER_SIZE_CM, markers.BASE_SIZE_CM)[:, None]
    weight = np.where(corner, 1.0, 0.5)[:, None]  # the corner markers are larger: read more surely
    mapped = map_points(unit, und.reshape(-1, 2)).reshape(-1, 4, 2)
    d = mapped[:, _EDGE_TO] - mapped[:, _EDGE_FROM]  # (markers, edges, x and y)
    rows = np.stack([weight * d[..., 0] ** 2 / true ** 2, weight * d[..., 1] ** 2 / true ** 2], axis=-1)
    rhs = weight * _EDGE_LENGTH[None, :]
    sol, *_ = np.linalg.lstsq(rows.reshape(-1, 2), rhs.reshape(-1), rcond=None)
    if sol.min() <= 0:
        raise AimError("no metric scale")
    scale = np.sqrt(sol)
    sides = (mapped[:, [1, 2, 3, 0]] - mapped) * scale
    mean_side = np.sqrt((sides * sides).sum(axis=-1)).mean(axis=1)
    logs = [math.log(max(float(m), 1e-6) / float(t)) for m, t in zip(mean_side, true[:, 0])]
    shape = float((weight[:, 0] * _shape_errors(mapped * scale)).sum() / weight.sum())
    return _MarkerFit(np.diag([scale[0], scale[1], 1.0]) @ unit, float(np.var(logs)), shape)


def _camera_over(to_table: np.ndarray, image_size: tuple[int, int]) -> tuple[np.ndarray, float]:
    """The camera's nadir (table cm) and height (cm) from the table homography, for a camera with
    its principal point at the image centre and square pixels; its focal length is solved from the
    homography (and taken as the image width when the view is too square-on to tell)."""
    w, h = image_size
    scale = float(max(w, h))
    shift = np.array([[1 / scale, 0, -w / 2 / scale], [0, 1 / scale, -h / 2 / scale], [0, 0, 1]])
    g = shift @ np.linalg.inv(to_table)  # table cm -> centred, scaled image
    g1, g2 = g[:, 0] / np.linalg.norm(g[:, :2]), g[:, 1] / np.linalg.norm(g[:, :2])  # free of the table's units
    a = np.array([g1[0] * g2[0] + g1[1] * g2[1], g1[0] ** 2 + g1[1] ** 2 - g2[0] ** 2 - g2[1] ** 2])
    b = np.array([g1[2] * g2[2], g1[2] ** 2 - g2[2] ** 2])
    prior = 1.0 / FOCAL_PRIOR ** 2
    inv_f2 = (-float(a @ b) + FOCAL_PRIOR_WEIGHT * prior) / (float(a @ a) + FOCAL_PRIOR_WEIGHT)
    focal = 1.0 / math.sqrt(inv_f2) if inv_f2 > 0 else FOCAL_PRIOR
    focal = min(max(focal, FOCAL_RANGE[0]), FOCAL_RANGE[1])
    m = np.diag([1 / focal, 1 / focal, 1.0]) @ g
    lam = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * lam, m[:, 1] * lam, m[:, 2] * lam
    if t[2] < 0:
        r1, r2, t = -r1, -r2, -t
    rot = np.column_stack([r1, r2, np.cross(r1, r2)])
    u, _, vt = np.linalg.svd(rot)
    rot = u @ vt
    centre = -rot.T @ t
    return centre[:2].copy(), float(abs(centre[2]))


__all__ = ["CardPose", "CardPoses", "TablePlane"]
