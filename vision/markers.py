"""Marker conventions of the table (table-conventions.md) and ArUco detection.

Ids: 0-3 corner markers (5 cm), 10+seat crown markers (4 cm), 20+seat base markers (3 cm),
30+seat weapon markers (3 cm, on each gun or tanto, read by ``vision.aims``), all from DICT_4X4_50.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

DICTIONARY_ID = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)
CROWN_BASE_ID = 10
BASE_BASE_ID = 20
WEAPON_BASE_ID = 30
MAX_SEATS = 9
CORNER_SIZE_CM = 5.0
CROWN_SIZE_CM = 4.0
BASE_SIZE_CM = 3.0
WEAPON_SIZE_CM = 3.0


class MarkerKind(Enum):
    CORNER = "corner"
    CROWN = "crown"
    BASE = "base"


def to_gray(image: np.ndarray) -> np.ndarray:
    """The frame in grey: a grey image as it is, a BGR one converted (the one place that does)."""
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def sharpened(gray: np.ndarray, amount: float, sigma_px: float) -> np.ndarray:
    """``gray`` with the lens's and the sensor's blur partly undone (an unsharp mask): the cells of a small
    marker, run together by a blur of about a pixel, separate again, and its outline's corners are found
    where they are rather than inside them."""
    if amount <= 0:
        return gray
    return cv2.addWeighted(gray, 1 + amount, cv2.GaussianBlur(gray, (0, 0), sigma_px), -amount, 0)


def crown_id(seat: int) -> int:
    return CROWN_BASE_ID + seat


def base_id(seat: int) -> int:
    return BASE_BASE_ID + seat


def weapon_id(seat: int) -> int:
    """The marker on the weapon of ``seat`` (its top edge towards the muzzle or tip)."""
    return WEAPON_BASE_ID + seat


def kind_of(marker_id: int) -> tuple[MarkerKind, int] | None:
    """(kind, index) of a marker id: index is the corner number or the seat; None if not ours."""
    if marker_id in CORNER_IDS:
        return MarkerKind.CORNER, marker_id
    if CROWN_BASE_ID <= marker_id < CROWN_BASE_ID + MAX_SEATS:
        return MarkerKind.CROWN, marker_id - CROWN_BASE_ID
    if BASE_BASE_ID <= marker_id < BASE_BASE_ID + MAX_SEATS:
        return MarkerKind.BASE, marker_id - BASE_BASE_ID
    return None


def size_cm(marker_id: int) -> float:
    kind = kind_of(marker_id)
    if kind is None:
        raise ValueError(f"marker id {marker_id} is not a table marker")
    return {MarkerKind.CORNER: CORNER_SIZE_CM, MarkerKind.CROWN: CROWN_SIZE_CM,
            MarkerKind.BASE: BASE_SIZE_CM}[kind[0]]


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY_ID)


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The marker's black-and-white image (one-cell black border included), side_px square."""
    return cv2.aruco.generateImageMarker(dictionary(), marker_id, side_px, borderBits=1)


def pattern(marker_id: int) -> np.ndarray:
    """A marker's 6 x 6 cells (its black border included), 1 for white, row by row."""
    img = marker_image(marker_id, 60)
    return np.asarray((img.reshape(6, 10, 6, 10).mean(axis=(1, 3)) > 127).astype(np.int8).ravel())


_UNIT = np.array([[0, 0], [6, 0], [6, 6], [0, 6]], np.float32)  # a marker's corners, in cells
_GRID = (np.arange(12, dtype=np.float32) + 0.5) / 2  # four samples a cell (two rows of two), in cells
_UV = np.stack(np.meshgrid(_GRID, _GRID), axis=-1).reshape(-1, 1, 2)


def sample_points(quad: np.ndarray) -> np.ndarray:
    """Where the 12 x 12 samples (four a cell) of a marker seen at ``quad`` (its corners from the first,
    clockwise) lie in the image, row by row: a 12 x 12 x 2 array."""
    h = cv2.getPerspectiveTransform(_UNIT, np.asarray(quad, np.float32))
    return cv2.perspectiveTransform(_UV, h).reshape(12, 12, 2)


def cell_means(gray: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The mean grey of each of the 6 x 6 cells of a marker seen at ``quad`` (its corners from the first,
    clockwise); None when it lies partly outside the image."""
    pts = sample_points(quad)
    if pts[..., 0].min() < 0 or pts[..., 1].min() < 0 or pts[..., 0].max() > gray.shape[1] - 1 \
            or pts[..., 1].max() > gray.shape[0] - 1:
        return None
    vals = cv2.remap(gray, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR).astype(np.float32)
    return np.asarray(vals.reshape(6, 2, 6, 2).mean(axis=(1, 3)).ravel())


def quad_side(corners: np.ndarray) -> float:
    """The mean side (px) of a marker's four image corners."""
    return float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]))


@dataclass(frozen=True)
class Detection:
    """One detected marker: its four image corners (clockwise from the marker's top-left)."""

    marker_id: int
    corners: np.ndarray  # shape (4, 2), float32, full-image pixels

    @property
    def center(self) -> np.ndarray:
        return np.asarray(self.corners.mean(axis=0))

    @property
    def side_px(self) -> float:
        return quad_side(self.corners)

    @property
    def area_px(self) -> float:
        return float(abs(cv2.contourArea(self.corners.astype(np.float32))))

    @property
    def angle_deg(self) -> float:
        """Direction of the marker's top edge in the image, degrees."""
        d = self.corners[1] - self.corners[0]
        return float(np.degrees(np.arctan2(d[1], d[0])))


def detector_parameters(min_perimeter_rate: float = 0.02) -> cv2.aruco.DetectorParameters:
    """The ArUco settings every marker reader starts from: corners refined to a fraction of a pixel,
    outlines shorter than ``min_perimeter_rate`` times the image's larger side ignored, and a card at
    the image's edge read like any other (calibration asks for the play area as large as the view
    allows; a cut marker still has to decode)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.minMarkerPerimeterRate = min_perimeter_rate
    params.minDistanceToBorder = 0
    return params


class MarkerDetector:
    """ArUco detection of the table's markers, on a whole frame or a crop of it."""

    def __init__(self) -> None:
        params = detector_parameters()
        self._detector = cv2.aruco.ArucoDetector(dictionary(), params)
        # a defocused or JPEG-blocked marker's cells bleed into each other: read each from its
        # middle only (the same bits and error correction, fewer pixels of each cell)
        params.perspectiveRemoveIgnoredMarginPerCell = 0.3
        self._cell_middles = cv2.aruco.ArucoDetector(dictionary(), params)
        # a faint card in a dim room, blurred: its black and white cells differ by a few grey levels
        # only, less than the outline threshold's margin over the local mean (7 levels)
        faint = detector_parameters()
        faint.perspectiveRemoveIgnoredMarginPerCell = 0.3
        faint.adaptiveThreshConstant = FAINT_THRESHOLD_LEVELS
        self._faint = cv2.aruco.ArucoDetector(dictionary(), faint)

    def detect(self, image: np.ndarray, origin: tuple[int, int] = (0, 0),
               upscale: int = 1, sharpen: float = 0.0, cell_middles: bool = False,
               faint: bool = False) -> dict[int, Detection]:
        """Markers found in ``image`` (BGR or gray); ``origin`` shifts crop coordinates back to the
        full frame, ``upscale`` enlarges a small crop first (small markers decode better),
        ``sharpen`` (an unsharp mask's amount) restores the cells of a defocused marker,
        ``cell_middles`` reads each cell from its middle only and ``faint`` (cells read from their
        middles too) takes an outline a few grey levels darker than its surroundings: meant for an
        image whose sensor noise is averaged out (a median of frames at rest), where such a small
        margin is the card's and not the noise's."""
        gray = to_gray(image)
        if upscale > 1:
            gray = cv2.resize(gray, None, fx=upscale, fy=upscale,
                              interpolation=cv2.INTER_CUBIC if sharpen else cv2.INTER_LINEAR)
        gray = sharpened(gray, sharpen, 1.5 * upscale)
        reader = self._faint if faint else self._cell_middles if cell_middles else self._detector
        corners, ids, _ = reader.detectMarkers(gray)
        found: dict[int, Detection] = {}
        if ids is None:
            return found
        for quad, marker_id in zip(corners, ids.ravel()):
            pts = quad.reshape(4, 2).astype(np.float32)
            if upscale > 1:
                pts = ((pts + 0.5) / upscale - 0.5).astype(np.float32)
            pts += np.asarray(origin, np.float32)
            mid = int(marker_id)
            if kind_of(mid) is None:
                continue
            if mid in found:  # the same id twice: keep the larger, the other is a reflection or a spare
                if found[mid].area_px >= abs(cv2.contourArea(pts)):
                    continue
            found[mid] = Detection(mid, pts)
        return found

    def outlines(self, image: np.ndarray, upscale: int = 1) -> list[np.ndarray]:
        """The outlines ArUco finds in ``image`` (BGR or gray; enlarged ``upscale`` times first) whose code decodes
        as no marker: (4, 2) corners each, in ``image``'s pixels."""
        gray = to_gray(image)
        if upscale > 1:
            gray = cv2.resize(gray, None, fx=upscale, fy=upscale, interpolation=cv2.INTER_LINEAR)
        _, _, rejected = self._detector.detectMarkers(gray)
        return [((q.reshape(4, 2) + 0.5) / upscale - 0.5).astype(np.float32) for q in rejected]

    def detect_in(self, frame: np.ndarray, box: tuple[int, int, int, int],
                  upscale: int = 2, sharpen: float = 0.0, cell_middles: bool = False) -> dict[int, Detection]:
        """Markers inside ``box`` = (x0, y0, x1, y1) of ``frame``, clipped to the frame."""
        h, w = frame.shape[:2]
        x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])
        if x1 - x0 < 8 or y1 - y0 < 8:
            return {}
        return self.detect(frame[y0:y1, x0:x1], origin=(x0, y0), upscale=upscale, sharpen=sharpen,
                           cell_middles=cell_middles)

    def find_in(self, frame: np.ndarray, box: tuple[int, int, int, int], marker_id: int,
                upscale: int = 1) -> Detection | None:
        """Marker ``marker_id`` inside ``box``: as is first, then enlarged and sharpened (a dim,
        defocused or small marker), None if no way shows it."""
        for up, amount, middles in [p for p in HARD_PASSES if p[0] >= upscale]:
            found = self.detect_in(frame, box, max(up, upscale), amount, middles).get(marker_id)
            if found is not None:
                return found
        return None

    def detect_hard(self, image: np.ndarray) -> dict[int, Detection]:
        """Every marker any pass finds in a whole frame (as is, enlarged, enlarged and sharpened);
        a marker found as is keeps those corners."""
        found: dict[int, Detection] = {}
        for up, amount, middles in HARD_PASSES:
            for mid, det in self.detect(image, upscale=up, sharpen=amount, cell_middles=middles).items():
                found.setdefault(mid, det)
        return found


# an outline ArUco finds but whose code does not decode within the dictionary's error correction (a card blurred
# or smeared by a vibrating camera, its cells bled into each other) is read as a marker when its 36 cells follow
# that marker's pattern (their correlation) at least this well ...
BY_CELLS_LEAST = 0.6
# ... and better by this much than they follow any other marker's of the dictionary at any of its four turns,
# or its own turned
BY_CELLS_LEAD = 0.08


def read_by_cells(gray: np.ndarray, quad: np.ndarray, wanted: set[int]) -> Detection | None:
    """The marker among ``wanted`` that the outline ``quad`` in ``gray`` shows by its cells' grey levels
    (``BY_CELLS_LEAST``, ``BY_CELLS_LEAD``), with its corners from its top left; None when its cells follow no
    marker's pattern that clearly, or follow one not wanted."""
    looks = []
    for turn in range(4):
        corners = np.roll(np.asarray(quad, np.float32), -turn, axis=0)
        seen = cell_means(gray, corners)
        if seen is None:
            return None
        spread = float(seen.std())
        if spread <= 0:
            return None
        looks.append((corners, (seen - seen.mean()) / spread))
    scores = np.stack([z for _, z in looks]) @ _all_patterns().T / 36  # turn x marker: correlations
    order = np.argsort(scores, axis=None)[::-1]
    turn, marker_id = np.unravel_index(order[0], scores.shape)
    best, second = float(scores.flat[order[0]]), float(scores.flat[order[1]])
    if int(marker_id) not in wanted or best < BY_CELLS_LEAST or best - second < BY_CELLS_LEAD:
        return None
    return Detection(int(marker_id), looks[int(turn)][0])


@functools.cache
def _all_patterns() -> np.ndarray:
    """Every marker's pattern of the dictionary, a row each (its id the row's index), each cell's colour less their
    mean over their spread (a correlation is then a dot product over 36); worked out once."""
    rows = [pattern(mid).astype(np.float32) for mid in range(len(dictionary().bytesList))]
    return np.stack([(p - p.mean()) / p.std() for p in rows])


# grey levels by which a faint card's outline may be darker than its surroundings (``MarkerDetector.detect``)
FAINT_THRESHOLD_LEVELS = 3

# (upscale, sharpening, cells read from their middles) tried in turn
HARD_PASSES = ((1, 0.0, False), (2, 0.0, False), (2, 0.8, False), (2, 1.5, False), (1, 0.0, True), (2, 0.0, True))
