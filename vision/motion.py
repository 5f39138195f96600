"""Cheap motion detection at reduced resolution: what moves, and which moving blob is the shuriken.

Frames are shrunk (default 1/4 per side, 160x120 from 640x480) and compared with the armed
reference and with the frame about 1/30 s earlier. A pixel that differs from both belongs to
something that moves now. Blobs touching the image border are arms or hands; a blob about the size
of the foam star, away from the border, is the shuriken.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

from vision.errors import VisionError
from vision.markers import to_gray

STAR_AREA_CM2 = 14.0  # a 6 cm four- or six-pointed foam star seen from above
STAR_SHARE_MIN = 0.35  # the least of the star's area a star-sized thing shows (partly hidden, or lying on a crown)
STAR_WITH_SHADOW = 2.5  # the most of the star's area a star at rest changes, its shadow with it (a fallen standee: 3.5)
ARM_THRESHOLD_SHARE = 0.6  # arms are traced at this share of the motion threshold
SETTLED_FRAMES = 5  # latest frames whose per-pixel median shows the table at rest (``changed_at_rest``)
# the median's lowered threshold is at least this many times what its difference from the reference is at three
# pixels in four, mostly the table that did not change: the light a change of exposure leaves in it
AT_REST_RESIDUE = 2.5
AT_REST_RESIDUE_PERCENTILE = 75
SHADOW_LIGHT_MAX = 0.9  # a shadow keeps at most this share of the light (``MotionDetector.shadowed``)
SHADOW_HUE_TOLERANCE = 0.08  # every colour channel keeps the same share of its light, within this
SHADOW_LIT_MIN = 20  # reference level (0-255) below which a channel's share says nothing


class BlobKind(Enum):
    SHURIKEN = "shuriken"
    ARM = "arm"
    OTHER = "other"  # a falling or wobbling standee, a shadow


def box_length(box: tuple[int, int, int, int]) -> int:
    """The longer side of a box (x0, y0, x1, y1)."""
    return max(box[2] - box[0], box[3] - box[1])


@dataclass(frozen=True)
class Blob:
    kind: BlobKind
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in full-resolution pixels
    area_px: int  # at full resolution
    centre: tuple[float, float]

    @property
    def length_px(self) -> int:
        """The longer side of its box, full-resolution pixels."""
        return box_length(self.box)


@dataclass(frozen=True)
class MotionFrame:
    # low-resolution pixels that changed since ~1/30 s ago, in 2 by 2 blocks of them, clear of the sides the
    # registration filled in (``MotionDetector.update``)
    activity: int
    stirred: int  # the same, each with two more changed beside it (not in blocks)
    changed: np.ndarray  # low-resolution mask (uint8 0/1) of the pixels changed in blocks, to the frame's sides
    moving: np.ndarray  # low-resolution mask (uint8 0/1) of what moves now and is not background
    blobs: list[Blob]


@dataclass(frozen=True)
class AtRest:
    """The per-pixel median of the latest ``SETTLED_FRAMES`` frames against the reference (``changed_at_rest``)."""

    difference: np.ndarray  # how far the median differs from the reference (low resolution)
    threshold: float  # the change threshold, lowered for a median's noise
    changed: np.ndarray  # where the difference is beyond it (bool)


DARK = 20  # below this a pixel's brightness ratio is mostly noise
ROW_LIGHT_SPREAD = 1.2  # largest brightness ratio of one row to the frame's (rolling-shutter bands)
SATURATED = 250  # a pixel this bright is clipped: it says only that the scene is at least this bright there
MAX_SHIFT_LOW = 3.0  # low-resolution pixels: a larger shift of the whole image is not camera shake
SHIFT_LEFT_LOW = 0.02  # low-resolution pixels: a smaller shift is left as it is (nothing moved in from the sides)
EDGE_TOLERANCE = 0.35  # low-resolution pixels of registration error an edge may show without being motion
UNLIT = 12  # a pixel of the reference no brighter than this in any channel, joined to the frame's border: no picture
RIM_GROW = 2  # low-resolution pixels the view's border reaches into the picture from where the picture ends
# a lens's black corners and sides lie within this share of the frame's smaller side from its border: unlit reaching
# deeper, joined to the border, is a dark table in a dark room, not where the picture ends
UNLIT_DEPTH = 1 / 6


ANCHOR_HALF = 32  # full-resolution half side of the patch around each fixed marker used to register frames
ANCHOR_AGREE = 1.5  # full-resolution px: fixed markers whose shifts differ by more do not vouch for each other
# a fixed marker's patch correlating with its reference by less is covered or lost in a frame gone bad
# (markers in view correlated by 0.85 or more in the dim, blurred and shaking frames looked at): three
# such, agreeing with one another, were seen putting a dim, shaking frame 11 px off while every crown
# stood still
ANCHOR_MIN_RESPONSE = 0.3
# a marker correlating at least this well with its reference is in view, nothing over it (an arm or a standee over a
# part of its patch: about 0.35); one off the frame's shift is then on rows a vibration moved otherwise
ANCHOR_CLEAR_RESPONSE = 0.8
# a fixed marker phase correlation found no shift of is looked for by correlation within this many px, and found
# where it matches its reference by this much at least
ANCHOR_MATCH_REACH = 10
ANCHOR_MIN_MATCH = 0.6
# a rolling shutter filming a vibrating camera shifts each row by where the camera was when it was read: the fixed
# markers' shifts are followed down the image by a polynomial of the row of this degree at most, or by one wave
# (a mount vibrating at its own frequency: a sine of the row, of one frequency across and along the image, of any
# of ROW_WAVE_TURNS cycles over the image's height: the vibration's frequency times the rows' readout time), fitted
# to markers spread over this share of the image's height at least; rows bent by more than this many px (the
# frame's bend and the reference frame's, each up to a few px) are no camera's shake
ROW_SHIFT_DEGREE = 3
ROW_WAVE_TURNS = np.linspace(0.3, 2.0, 35)
ROW_SPREAD = 0.4
ROW_BEND_MAX = 12.0
ROW_APART_PX = 8  # markers closer than this in rows count as on one row for that fit
BEND_AS_CLOSE = 0.5  # px: a bend the markers follow by no more than this farther (root mean square) follows as well
ROW_FORETOLD_PX = 2 * ANCHOR_AGREE  # a marker's shift this far from the bend the others follow is not on it


class Anchors:
    """Registers frames to the reference with the markers that never move (the corner markers and
    the base markers, flat on the table): each one's shift is found by phase correlation of a small
    full-resolution patch around it (or, where that finds none, by matching the patch's picture), and the
    median over them is the frame's shift. An arm or the star over a few of them does not move the median.
    A frame whose rows a vibrating camera's rolling shutter bent is put back in line first (``steady``)."""

    def __init__(self, centres: list[np.ndarray], size: tuple[int, int]) -> None:
        w, h = size
        a = ANCHOR_HALF
        self.boxes = [(int(c[0]) - a, int(c[1]) - a) for c in centres
                      if a <= c[0] < w - a and a <= c[1] < h - a]
        self.window = cv2.createHanningWindow((2 * a, 2 * a), cv2.CV_32F)
        self.reference: list[np.ndarray] = []
        self._measured: tuple[np.ndarray, list[tuple[float, float, float]]] | None = None  # the latest frame's
        self._grid: tuple[np.ndarray, np.ndarray] | None = None  # every pixel's column and row, for ``steady``
        # the latest frame ``steady`` put back in line: the markers its bend went through, (rows, shifts, how closely
        # they follow it), the bend, and the other bends they follow as well, once asked for (``row_doubt``)
        self._bent: tuple[np.ndarray, np.ndarray, float, np.ndarray] | None = None
        self._others: list[tuple[Basis, np.ndarray]] | None = None
        self._clear: list[bool] = []  # whether each marker ``each_shift`` found correlates clearly
        self._off_shift = 0.0  # the latest frame ``shift`` registered: how far off it the clear markers lie, at most
        self.bend = (0.0, 0.0)  # how far ``steady`` moved the latest frame's rows at most, across and down, px

    def _patches(self, frame: np.ndarray) -> list[np.ndarray]:
        a2 = 2 * ANCHOR_HALF
        out = []
        for x, y in self.boxes:
            patch = frame[y:y + a2, x:x + a2]
            out.append(to_gray(patch).astype(np.float32))
        return out

    def set_reference(self, frame: np.ndarray) -> None:
        self.reference = self._patches(frame)

    def each_shift(self, frame: np.ndarray) -> list[tuple[float, float, float]]:
        """(row, dx, dy) of each fixed marker in view whose patch correlates with its reference well enough: its
        shift against the reference, full-resolution pixels. Worked out once per frame."""
        if self._measured is not None and self._measured[0] is frame:
            return self._measured[1]
        found: list[tuple[float, float, float]] = []
        clear: list[bool] = []
        for (_, y), ref, patch in zip(self.boxes, self.reference, self._patches(frame)):
            (dx, dy), response = cv2.phaseCorrelate(ref.copy(), patch, self.window)
            if response >= ANCHOR_MIN_RESPONSE and abs(dx) < ANCHOR_HALF / 2 and abs(dy) < ANCHOR_HALF / 2:
                found.append((float(y + ANCHOR_HALF), float(dx), float(dy)))
                clear.append(response >= ANCHOR_CLEAR_RESPONSE)
            elif (matched := _matched_shift(ref, patch)) is not None:
                found.append((float(y + ANCHOR_HALF), *matched))
                clear.append(False)
        self._measured = (frame, found)
        self._clear = clear
        return found

    def shift(self, frame: np.ndarray) -> tuple[float, float] | None:
        """The frame's shift against the reference, full-resolution pixels: the median of the largest
        group of markers agreeing to ``ANCHOR_AGREE`` px (the whole image moves alike), when it holds
        two of them or more and at least half of the markers in view; None otherwise. A marker a
        falling standee or an arm lies over correlates with what covers it: two that disagree say
        nothing (their median would put the frame between them), and two an arm sweeps over agree
        with each other on the arm's motion while the others, in view, do not. A group that leaves markers
        out and lies on rows closer than ``ROW_SPREAD`` of the image's height says nothing either: a vibrating
        camera's rolling shutter moves rows apart, and the rows the group holds moved alike while the others,
        which disagree, may not have (a bend too smeared to follow). A marker that correlates clearly
        (``ANCHOR_CLEAR_RESPONSE``: nothing lies over it) off the shift, in the group or left out, says its rows moved
        otherwise: by how much is kept as a doubt on every row (``row_doubt``), the rows between it and the others
        being unknown."""
        self._off_shift = 0.0
        found = self.each_shift(frame)
        member = self._agreeing_mask(found)
        if member is None:
            return None
        points = np.array(found)
        group = points[member]
        rows = group[:, 0] / frame.shape[0]
        if len(group) < len(found) and float(np.ptp(rows)) < ROW_SPREAD:
            return None
        dx, dy = np.median(group[:, 1:], axis=0)
        clear = np.array(self._clear, bool)
        if clear.any():
            self._off_shift = float(np.hypot(points[clear, 1] - dx, points[clear, 2] - dy).max())
        return float(dx), float(dy)

    def _agreeing(self, found: list[tuple[float, float, float]]) -> np.ndarray | None:
        """The (row, dx, dy) (n, 3) of the largest group of ``found`` agreeing to ``ANCHOR_AGREE`` px, when it
        holds two of them or more and at least half of the markers in view; None otherwise."""
        member = self._agreeing_mask(found)
        return None if member is None else np.asarray(np.array(found)[member])

    def _agreeing_mask(self, found: list[tuple[float, float, float]]) -> np.ndarray | None:
        """Which of ``found`` are in ``_agreeing``'s group (bool), or None."""
        if len(found) < 2:
            return None
        shifts = np.array(found)[:, 1:]
        near = np.linalg.norm(shifts[:, None, :] - shifts[None, :, :], axis=2) <= ANCHOR_AGREE
        group = near[int(np.argmax(near.sum(axis=1)))]
        if int(group.sum()) < max(2, math.ceil(len(self.boxes) / 2)):
            return None
        return np.asarray(group)

    def steady(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with its rows put back in line when a rolling shutter filmed a vibrating camera: its rows are
        read one after the other over most of a frame's time, so each is shifted by where the camera was then,
        and the fixed markers at different heights of the image disagree. When more of them follow the image's
        rows smoothly (``_row_shifts``) than agree on one shift, and the rows bend by more than markers that
        agree may differ, each row is moved by its difference from the middle row's shift; the frame's shift
        that is left is registered as any other (``row_doubt`` then says how far a row may still be off). Else
        ``frame`` itself."""
        self._bent, self._others = None, None
        self.bend = (0.0, 0.0)
        found = self.each_shift(frame)
        group = self._agreeing(found)
        if group is not None and len(group) == len(found):
            return frame
        fitted = self._row_shifts(found, frame.shape[0])
        if fitted is None:
            return frame
        rows, following, markers = fitted
        if (group is not None and following <= len(group)) or float(np.ptp(rows, axis=0).max()) <= ANCHOR_AGREE:
            return frame
        self._bent = (*markers, rows)
        h, w = frame.shape[:2]
        if self._grid is None or self._grid[0].shape != (h, w):
            self._grid = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        rows = rows - rows[h // 2]
        self.bend = (float(np.abs(rows[:, 0]).max()), float(np.abs(rows[:, 1]).max()))
        map_x = self._grid[0] + rows[:, :1].astype(np.float32)
        map_y = self._grid[1] + rows[:, 1:].astype(np.float32)
        return cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def _row_shifts(self, found: list[tuple[float, float, float]], height: int
                    ) -> tuple[np.ndarray, int, tuple[np.ndarray, np.ndarray, float]] | None:
        """Each image row's shift (height, 2), px, and how many fixed markers follow it: of the bends of the rows
        (``_ROW_BENDS``: polynomials of the row up to ``ROW_SHIFT_DEGREE``, one wave) that the shifts of at least
        half the fixed markers in view (and one more than the bend's parameters per axis), on rows spread over
        ``ROW_SPREAD`` of the image's height, follow to ``ANCHOR_AGREE`` px, each within ``ROW_FORETOLD_PX`` of the
        bend the others follow (those farthest off left out one by one: an arm over a marker), the one most follow,
        and of those the one they follow most closely; held at its ends beyond the markers' rows; with how many
        follow it, and those markers' rows (shares of the height from its middle), shifts and root mean square
        distance from it. None when none does, or when it bends the rows by more than camera shake
        (``ROW_BEND_MAX`` px)."""
        if len(found) < 4:
            return None
        points = np.array(found)
        u_all = points[:, 0] / height - 0.5
        best: tuple[np.ndarray, tuple[int, float], np.ndarray] | None = None
        for kind in _ROW_BENDS:
            keep = np.ones(len(points), bool)
            terms = kind[0](u_all[:1]).shape[1] + (len(kind) > 1)  # and which of its bases, a parameter too
            while int(keep.sum()) >= max(terms + 1, math.ceil(len(self.boxes) / 2)):
                u = u_all[keep]
                if not _rows_enough(u, height, terms + 1):
                    break  # markers side by side on too few rows to follow a bend of this kind
                bend, foretold = _bend(kind, u, points[keep, 1:])
                off = np.hypot(*(bend(u_all) - points[:, 1:]).T)
                worst = int(np.argmax(np.where(keep, off, -1.0)))
                if off[worst] > ANCHOR_AGREE:
                    keep[worst] = False
                    continue
                # each marker foretold by the others: a bend that only one marker asks for (an arm over it, at
                # the end of the rows) is no bend
                worst = int(np.argmax(foretold))
                if foretold[worst] > ROW_FORETOLD_PX:
                    keep[np.flatnonzero(keep)[worst]] = False
                    continue
                follow = off <= ANCHOR_AGREE
                fit = (int(follow.sum()), -float(np.sqrt(np.mean(off[follow] ** 2))))
                if float(np.ptp(u)) >= ROW_SPREAD and (best is None or fit > best[1]):
                    shifts = bend(np.clip(np.arange(height) / height - 0.5, u.min(), u.max()))
                    if float(np.ptp(shifts, axis=0).max()) <= ROW_BEND_MAX:
                        best = (shifts, fit, follow)
                break
        if best is None:
            return None
        shifts, fit, follow = best
        return shifts, fit[0], (u_all[follow], points[follow, 1:], -fit[1])

    def row_doubt(self, row: int) -> float:
        """How far (px) ``row`` of the latest frame, put back in line by ``steady``, may still be off: the farthest any
        other bend of ``_ROW_BENDS`` that each marker the chosen bend went through follows as well (to ``ANCHOR_AGREE``
        px, and by root mean square no more than ``BEND_AS_CLOSE`` farther, on enough rows for its parameters, within
        ``ROW_BEND_MAX``) puts it. Near a marker every such bend passes by it; between markers on a few bands of rows far
        apart, waves of several frequencies pass by all of them and part in the rows between (a ringing mount, its
        frequency unknown): what a crown there seems to move in that frame may be the bend's. At least how far off the
        frame's shift the markers found clearly lie (``shift``): the rows between them are not known to lie closer.
        The other bends are found once a frame, when first asked for."""
        if self._bent is None:
            return self._off_shift
        u, shifts, spread, bent = self._bent
        height = len(bent)
        if self._others is None:
            self._others = []
            for kind in _ROW_BENDS:
                for basis in kind:
                    if not _rows_enough(u, height, basis(u[:1]).shape[1]):
                        continue
                    _, _, coeffs, off = _fit(basis, u, shifts)
                    if float(off.max()) > ANCHOR_AGREE or float(np.sqrt(np.mean(off ** 2))) > spread + BEND_AS_CLOSE:
                        continue
                    span = basis(np.linspace(u.min(), u.max(), 33)) @ coeffs  # its swing over the markers' rows
                    if float(np.ptp(span, axis=0).max()) <= ROW_BEND_MAX:
                        self._others.append((basis, coeffs))
        at = np.clip(np.array([row / height - 0.5]), u.min(), u.max())
        here = bent[min(max(row, 0), height - 1)]
        return max([self._off_shift, *(float(np.hypot(*(basis(at) @ coeffs)[0] - here)) for basis, coeffs in self._others)])


Basis = Callable[[np.ndarray], np.ndarray]


def _polynomial(degree: int) -> Basis:
    return lambda u: np.vander(u, degree + 1)


def _wave(turns: float) -> Basis:
    w = 2 * math.pi * turns
    return lambda u: np.column_stack([np.sin(w * u), np.cos(w * u), np.ones_like(u)])


# the kinds of bend a row's shift may follow, each as the functions of the rows ``u`` (shares of the height from its
# middle) giving a column per coefficient that it may take (a kind with several takes the one followed best):
# polynomials of degree 1 to ``ROW_SHIFT_DEGREE``, then one wave of any of ``ROW_WAVE_TURNS``
_ROW_BENDS: list[list[Basis]] = [*([_polynomial(d)] for d in range(1, ROW_SHIFT_DEGREE + 1)),
                                 [_wave(float(turns)) for turns in ROW_WAVE_TURNS]]


def _matched_shift(ref: np.ndarray, patch: np.ndarray) -> tuple[float, float] | None:
    """The shift of ``patch`` against ``ref`` (a fixed marker's patch in a frame and in the reference) by the
    normalised cross-correlation of the middle of ``ref`` within ``patch``, to a fraction of a pixel (the peak of a
    parabola through the best score and its neighbours), when it matches by ``ANCHOR_MIN_MATCH``; else None.
    Asked when phase correlation found no shift: it weighs every spatial frequency alike, so in a dim, noisy frame
    the JPEG's 8 px block grid, fixed in the image, outweighs a low-contrast marker moved by a pixel or two;
    correlation weighs them by the marker's own contrast."""
    m = ANCHOR_MATCH_REACH
    scores = cv2.matchTemplate(patch, ref[m:-m, m:-m], cv2.TM_CCOEFF_NORMED)
    _, best, _, (x, y) = cv2.minMaxLoc(scores)
    if best < ANCHOR_MIN_MATCH or not (0 < x < 2 * m and 0 < y < 2 * m):
        return None

    def vertex(before: float, at: float, after: float) -> float:  # the peak of the parabola through three scores
        curve = before - 2 * at + after
        return 0.0 if curve >= 0 else float(np.clip(0.5 * (before - after) / curve, -0.5, 0.5))

    return (x - m + vertex(*scores[y, x - 1:x + 2]), y - m + vertex(*scores[y - 1:y + 2, x]))


def _rows_enough(u: np.ndarray, height: int, count: int) -> bool:
    """Whether the markers at rows ``u`` (shares of ``height`` from its middle) lie on ``count`` rows or more
    (``ROW_APART_PX`` apart)."""
    return len(np.unique(np.round(u * height / ROW_APART_PX))) >= count


def _fit(basis: Basis, u: np.ndarray, shifts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The least-squares fit of ``basis`` through ``shifts`` (n, 2) at rows ``u``: its terms at those rows, their
    pseudo-inverse, the coefficients, and how far (px) each marker's shift lies from it."""
    terms = basis(u)
    inverse = np.linalg.pinv(terms)
    coeffs = inverse @ shifts
    return terms, inverse, coeffs, np.hypot(*(shifts - terms @ coeffs).T)


def _bend(kind: list[Basis], u: np.ndarray, shifts: np.ndarray) -> tuple[Basis, np.ndarray]:
    """The least-squares bend of ``kind`` (the basis of it that fits best) through ``shifts`` (n, 2) at rows ``u``:
    a function giving the shifts (m, 2) at any rows, and how far (px) each marker's shift lies from the bend the
    others give (its residual over one minus its leverage; infinite for a marker the fit rests on alone)."""
    fits = [(basis, *_fit(basis, u, shifts)) for basis in kind]
    basis, terms, inverse, coeffs, residual = min(fits, key=lambda fit: float(np.sum(fit[4] ** 2)))
    apart = 1.0 - np.einsum("ij,ji->i", terms, inverse)  # one minus each marker's leverage
    foretold = np.where(apart > 1e-6, residual / np.maximum(apart, 1e-6), math.inf)
    return (lambda rows: np.asarray(basis(rows) @ coeffs)), foretold


class MotionDetector:
    """Keeps the reference and the recent low-resolution frames; ``update`` classifies one frame.

    Every frame is first put into the reference's frame: its shift against the reference (camera
    shake, a slow drift) is found by phase correlation and undone, and its brightness is brought to
    the reference's row by row (auto exposure, a lamp's flicker, rolling-shutter bands). A pixel
    then counts as changed when it differs by more than the noise threshold plus what an edge shows
    when the registration is off by a fraction of a pixel."""

    def __init__(self, px_per_cm: float, fps: float, scale: int = 4, min_threshold: int = 12) -> None:
        self.scale = scale
        self.lag = max(1, round(fps / 30))
        self.min_threshold = min_threshold
        self.threshold = float(min_threshold)
        self.star_area = STAR_AREA_CM2 * px_per_cm * px_per_cm  # full-resolution pixels
        self.anchors: Anchors | None = None  # fixed markers to register frames with (else the whole frame)
        self.reference: np.ndarray | None = None
        self._ref_gray: np.ndarray | None = None
        self._ref_edges: np.ndarray | None = None
        self._window: np.ndarray | None = None
        # (frame, its edges, the columns and rows at each side its registration filled from beyond the view:
        # ``_brought_in``)
        self.recent: deque[tuple[np.ndarray, np.ndarray, tuple[int, int]]] = deque(maxlen=self.lag + 1)
        self.latest: deque[np.ndarray] = deque(maxlen=SETTLED_FRAMES)  # latest frames, registered
        self.reference_count = 1  # frames averaged into the reference
        self.size = (0, 0)
        self.rim: np.ndarray | None = None  # low-resolution mask of the view's border (``_view_rim``)
        self.shift = (0.0, 0.0)  # latest frame's shift against the reference, full-resolution pixels
        # whether the fixed markers registered the latest frame (else the whole frame's correlation did,
        # which things moving in a dim, blurred frame can throw off by several pixels)
        self.anchored = False
        self.reference_shifts: list[tuple[float, float]] = []
        self.gain = 1.0  # latest frame's brightness against the reference (median over rows)
        self._speck = np.ones((2, 2), np.uint8)
        self._around = np.ones((3, 3), np.float32)
        self._arm_margin = np.ones((5, 5), np.uint8)

    def shrink(self, frame: np.ndarray) -> np.ndarray:
        """The frame at low resolution, colour kept: a skin-coloured arm over a brown table can
        have the table's brightness but not its hue."""
        h, w = frame.shape[:2]
        return cv2.resize(frame, (w // self.scale, h // self.scale), interpolation=cv2.INTER_AREA)

    @staticmethod
    def _gray(small: np.ndarray) -> np.ndarray:
        return to_gray(small).astype(np.float32)

    @staticmethod
    def _edges(small: np.ndarray) -> np.ndarray:
        """How much each pixel changes per pixel of displacement (largest colour gradient)."""
        gx = cv2.Sobel(small, cv2.CV_16S, 1, 0, ksize=3)
        gy = cv2.Sobel(small, cv2.CV_16S, 0, 1, ksize=3)
        g = cv2.max(cv2.convertScaleAbs(gx, alpha=0.25), cv2.convertScaleAbs(gy, alpha=0.25))
        if g.ndim == 3:
            g = np.max(g, axis=2)
        return cv2.dilate(g, np.ones((3, 3), np.uint8))

    def _register(self, small: np.ndarray, frame: np.ndarray) -> np.ndarray:
        """``small`` moved onto the reference and brought to its brightness, row by row."""
        gray = self._gray(small)
        if self._ref_gray is not None:
            anchored = self.anchors.shift(frame) if self.anchors is not None else None
            self.anchored = anchored is not None
            if anchored is not None:
                dx, dy = anchored[0] / self.scale, anchored[1] / self.scale
            else:
                # copies: phaseCorrelate applies the window in place when no padding is needed
                (dx, dy), response = cv2.phaseCorrelate(self._ref_gray.copy(), gray.copy(), self._window)
                if not (abs(dx) <= MAX_SHIFT_LOW and abs(dy) <= MAX_SHIFT_LOW) or response < 0.02:
                    dx, dy = self.shift[0] / self.scale, self.shift[1] / self.scale
            self.shift = (dx * self.scale, dy * self.scale)
            if abs(dx) > SHIFT_LEFT_LOW or abs(dy) > SHIFT_LEFT_LOW:
                m = np.array([[1, 0, -dx], [0, 1, -dy]], np.float32)
                small = cv2.warpAffine(small, m, (small.shape[1], small.shape[0]), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE)
                gray = self._gray(small)
            ratio = _row_ratios(self._ref_gray, gray)
            self.gain = float(1.0 / np.median(ratio))
            if np.abs(ratio - 1.0).max() > 0.01:
                gains = ratio[:, None, None] if small.ndim == 3 else ratio[:, None]
                clipped = small >= SATURATED
                small = np.clip(small.astype(np.float32) * gains, 0, 255).astype(np.uint8)
                if self.reference is not None and clipped.any():
                    # a clipped pixel was at least this bright: as bright as the reference is no change
                    small = np.where(clipped, np.maximum(small, self.reference), small)
        return small

    def _brought_in(self) -> tuple[int, int]:
        """How many low-resolution columns and rows at each side of the latest registered frame its registration
        filled from beyond the view: its shift against the reference and how far ``steady`` moved its rows, rounded
        up."""
        bend = self.anchors.bend if self.anchors is not None else (0.0, 0.0)
        return (math.ceil((abs(self.shift[0]) + bend[0]) / self.scale - SHIFT_LEFT_LOW),
                math.ceil((abs(self.shift[1]) + bend[1]) / self.scale - SHIFT_LEFT_LOW))

    def difference(self, a: np.ndarray, b: np.ndarray, edges: np.ndarray) -> np.ndarray:
        """How far ``a`` differs from ``b`` beyond what a fraction of a pixel of registration error
        shows at ``b``'s edges (largest over the colour channels)."""
        d = cv2.absdiff(a, b)
        if d.ndim == 3:
            blue, green, red = cv2.split(d)
            d = cv2.max(cv2.max(blue, green), red)
        return cv2.subtract(d, cv2.convertScaleAbs(edges, alpha=EDGE_TOLERANCE))

    def set_reference(self, frames: list[np.ndarray], anchors: list[np.ndarray] | None = None) -> list[np.ndarray]:
        """The scene at rest; the noise between these frames sets the change threshold. ``anchors``:
        image centres of markers that never move, to register every frame with. Returns ``frames`` steadied
        against the first (``steady``), as every later frame is to be."""
        if anchors:
            self.anchors = Anchors(anchors, (frames[0].shape[1], frames[0].shape[0]))
            self.anchors.set_reference(frames[0])
            if len(self.anchors.boxes) < 3:
                self.anchors = None
        first = self.shrink(frames[0])
        self._arms = self._arms_at_rest = self._diff_now = self._at_rest = None
        self.reference = first
        self._ref_gray = self._gray(first)
        self._window = cv2.createHanningWindow((first.shape[1], first.shape[0]), cv2.CV_32F)
        self.shift = (0.0, 0.0)
        small = [first]
        self.reference_shifts = [(0.0, 0.0)]  # each reference frame's shift against the first
        steadied = [frames[0]]
        brought = [(0, 0)]
        for f in frames[1:]:
            f = self.steady(f)  # registered next, its fixed markers' shifts measured once
            steadied.append(f)
            small.append(self._register(self.shrink(f), f))
            self.reference_shifts.append(self.shift)
            brought.append(self._brought_in())
        self._take_reference(small)
        self.latest.clear()
        if len(small) > 1:
            spread = np.mean([np.percentile(self.difference(a, b, self._edges(b)), 99.5)
                              for a, b in itertools.pairwise(small)])
            self.threshold = max(float(self.min_threshold), 1.5 * float(spread))
        self.rim = _view_rim(self.reference)
        self.recent.clear()
        keep = self.recent.maxlen or len(small)  # the deque is always made with a maxlen
        self.recent.extend((f, self._edges(f), b) for f, b in zip(small[-keep:], brought[-keep:], strict=True))
        self.size = frames[0].shape[1], frames[0].shape[0]
        return steadied

    def steady(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with its rows put back in line against the reference's fixed markers (``Anchors.steady``):
        a vibrating camera's rolling shutter; ``frame`` itself without fixed markers or when they agree."""
        return frame if self.anchors is None else self.anchors.steady(frame)

    def rebase(self) -> None:
        """Takes the table at rest now as the new reference (after something moved and settled): the mean of the
        latest frames, as the first reference is the mean of its frames. One frame alone brings its own noise, and
        the blur of its registration's interpolation, into every comparison after: in a shaking room the sharpest
        cards then show changed, star-sized, in frames shaken otherwise."""
        self._arms = self._arms_at_rest = self._diff_now = self._at_rest = None
        if self.recent:  # already registered: the reference's coordinates stay those of the first
            self._take_reference(list(self.latest) or [self.recent[-1][0]])

    def _take_reference(self, small: list[np.ndarray]) -> None:
        """The mean of ``small`` (low-resolution frames, registered) as the reference, with its gray and edges."""
        self.reference = np.mean(np.stack(small), axis=0).round().astype(np.uint8)
        self.reference_count = len(small)
        self._ref_gray = self._gray(self.reference)
        self._ref_edges = self._edges(self.reference)

    def changed_now(self) -> np.ndarray:
        """Low-resolution mask (bool) of what differs from the reference in the latest frame."""
        return self._from_reference() > self.threshold

    def _from_reference(self) -> np.ndarray:
        """The latest frame's difference from the reference (worked out once a frame: ``update`` keeps
        the one it measured motion with)."""
        if self._diff_now is None:
            reference, edges = self._referenced()
            self._diff_now = self.difference(self.recent[-1][0], reference, edges)
        return self._diff_now

    def changed_at_rest(self) -> np.ndarray | None:
        """Low-resolution mask (bool) of what differs from the reference in the per-pixel median of
        the latest ``SETTLED_FRAMES`` frames, for a caller that knows them all still; None before
        three frames. Sensor noise, different in every frame, mostly drops out of a median: the
        threshold is lowered by as much as the noise of that comparison is below the noise of two
        single frames compared (the median of n frames keeps about pi / 2n of a frame's noise
        variance, the mean of the reference 1 / its frames), so a change of little contrast (a dim
        standee lying on a table of nearly its shade) shows whole where one frame shows its parts.

        An exposure brightening a bright table clips a colour channel over much of it: that channel
        cannot brighten with the rest, and brought back to the reference's light with its row it reads
        darker. The median then differs from the reference by a few grey levels over much of the table:
        a sixth of the view shows changed at the lowered threshold, specks all over it, and beside a star
        lying on a crown they add up to a fallen standee's area. So the threshold is never below
        ``AT_REST_RESIDUE`` times the difference at three pixels in four (``AT_REST_RESIDUE_PERCENTILE``),
        which is the table's own: a grey level or two at rest, far below the lowered threshold, even with
        a hand over a seventh of the view."""
        at_rest = self._median_against_reference()
        return None if at_rest is None else at_rest.changed

    def arm_mask_at_rest(self) -> np.ndarray | None:
        """Low-resolution mask (bool) of arms and hands in the per-pixel median of the latest ``SETTLED_FRAMES``
        frames (``changed_at_rest``'s comparison, traced as ``arm_mask`` traces the latest frame's), for a
        caller that knows them all still; None before three frames. A still hand of nearly the table's shade,
        in a dim or noisy room, shows whole there, its arm across the border, where one frame shows its parts."""
        if self._arms_at_rest is None:
            at_rest = self._median_against_reference()
            if at_rest is None:
                return None
            self._arms_at_rest = self._arm_mask(at_rest.difference, at_rest.threshold)
        return self._arms_at_rest

    def _median_against_reference(self) -> AtRest | None:
        """The per-pixel median of the latest frames compared with the reference (worked out once a frame); None
        before three frames."""
        if self._at_rest is None:
            median = self._settled_median()
            if median is None:
                return None
            reference, edges = self._referenced()
            share = math.sqrt((math.pi / (2 * len(self.latest)) + 1 / self.reference_count) / 2)
            difference = self.difference(median.astype(np.uint8), reference, edges)
            residue = float(np.percentile(difference, AT_REST_RESIDUE_PERCENTILE))
            threshold = max(share * self.threshold, AT_REST_RESIDUE * residue)
            self._at_rest = AtRest(difference, threshold, difference > threshold)
        return self._at_rest

    def _settled_median(self) -> np.ndarray | None:
        """The per-pixel median of the latest ``SETTLED_FRAMES`` frames (float); None before three."""
        if len(self.latest) < 3:
            return None
        return np.asarray(np.median(np.stack(self.latest), axis=0))

    def shadowed(self, *, at_rest: bool = False) -> np.ndarray | None:
        """Low-resolution mask (bool) of the table in shadow since the reference, in the latest frame (or
        the per-pixel median of the latest frames, with ``at_rest``; None before three): darker, its colour
        kept. A shadow takes the same share of every colour channel's light (at most ``SHADOW_LIGHT_MAX``
        of it, the channels' shares within ``SHADOW_HUE_TOLERANCE`` of their mean, on a part of the
        reference lit enough to tell: ``SHADOW_LIT_MIN``); a thing lying there shows its own colour."""
        if self.reference is None or not self.recent or self.reference.ndim != 3:
            return None
        image = self._settled_median() if at_rest else self.recent[-1][0]
        if image is None:
            return None
        ref = self.reference.astype(np.float32)
        shares = (image.astype(np.float32) + 1.0) / (ref + 1.0)
        mean = shares.mean(axis=2)
        even = np.abs(shares - mean[..., None]).max(axis=2) <= SHADOW_HUE_TOLERANCE
        return np.asarray(even & (mean <= SHADOW_LIGHT_MAX) & (ref.min(axis=2) >= SHADOW_LIT_MIN))

    def arm_in(self, box: tuple[int, int, int, int]) -> bool:
        """Whether an arm or hand (something from the border) covers part of ``box`` (low
        resolution) in the latest frame."""
        x0, y0, x1, y1 = box
        return bool(self.arm_mask()[y0:y1, x0:x1].any())

    def arm_mask(self) -> np.ndarray:
        """Low-resolution mask (bool) of arms and hands in the latest frame (worked out once a frame)."""
        if self._arms is None:
            self._arms = self._arm_mask(self._from_reference(), self.threshold)
        return self._arms

    _arms: np.ndarray | None = None
    _arms_at_rest: np.ndarray | None = None
    _diff_now: np.ndarray | None = None
    _at_rest: AtRest | None = None  # ``_median_against_reference``, worked out once a frame

    def _referenced(self) -> tuple[np.ndarray, np.ndarray]:
        """The reference frame and its edges; comparing with no reference is a caller's mistake."""
        if self.reference is None or self._ref_edges is None:
            raise VisionError("the motion detector has no reference: set_reference comes first")
        return self.reference, self._ref_edges

    def update(self, frame: np.ndarray) -> MotionFrame:
        self._arms = self._arms_at_rest = self._diff_now = self._at_rest = None
        small = self._register(self.shrink(frame), frame)
        edges = self._edges(small)
        past, past_edges, past_in = self.recent[0] if len(self.recent) == self.recent.maxlen else self.recent[-1]
        brought = self._brought_in()
        self.recent.append((small, edges, brought))
        self.latest.append(small)
        thr = self.threshold
        changed: np.ndarray = (self.difference(small, past, past_edges) > thr).astype(np.uint8)
        # changed pixels with two more changed beside them, lone noisy pixels left out: a star dimmed by the room or
        # blurred by its flight changes scattered pixels, no 2 by 2 block of them whole
        beside = cv2.filter2D(changed, -1, self._around, borderType=cv2.BORDER_CONSTANT)
        scattered = changed & (beside >= 3)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, self._speck)  # in 2 by 2 blocks: what moves
        reference, reference_edges = self._referenced()
        from_reference = self._diff_now = self.difference(small, reference, reference_edges)
        moving = changed & (from_reference > thr).astype(np.uint8)
        # how much moves is counted clear of what the registration of either frame filled in at each side (copies
        # of the pixels at the frame's edge), where the camera saw a sliver of table the other frame did not: a
        # camera shaken each frame otherwise changes those columns or rows in every frame, and the table would never
        # seem still; with a pixel more, which the interpolation mixes with them
        mx, my = (m + 1 if m else 0 for m in (max(brought[0], past_in[0]), max(brought[1], past_in[1])))
        inner = (slice(my, changed.shape[0] - my), slice(mx, changed.shape[1] - mx))
        stirred = int(np.count_nonzero(scattered[inner]))
        activity = int(changed[inner].sum())
        return MotionFrame(activity, stirred, changed, moving, self._blobs(moving, from_reference) if activity else [])

    def lying_at_rest(self, within: np.ndarray | None = None) -> list[float]:
        """The full-resolution areas of the things that differ from the reference in the median of the latest still
        frames (``changed_at_rest``) clear of the view's rim: things left lying on the table (a hand or arm at rest
        reaches the rim); with ``within`` (a low-resolution mask), only those that reach into it; none before three
        frames."""
        changed = self.changed_at_rest()
        return [] if changed is None else self._lying(changed, within)

    def _lying(self, changed: np.ndarray, within: np.ndarray | None) -> list[float]:
        """The full-resolution areas of the pieces of ``changed`` (a low-resolution mask) clear of the view's rim
        (reaching into ``within``)."""
        n, labels, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
        wanted = set(range(1, n)) - set(np.unique(labels[self._rim_of(labels.shape)]).tolist())
        if within is not None:
            wanted &= set(np.unique(labels[within]).tolist())
        return [float(stats[i, cv2.CC_STAT_AREA] * self.scale * self.scale) for i in sorted(wanted)]

    def left_at_rest(self, within: np.ndarray | None = None) -> float:
        """The full-resolution area of the largest thing ``lying_at_rest`` (within ``within``), 0 when none."""
        return max(self.lying_at_rest(within), default=0.0)

    def left_now(self, within: np.ndarray | None = None) -> float:
        """The full-resolution area of the largest piece of what differs from the reference in the latest frame
        (``changed_now``) clear of the view's rim (reaching into ``within``), 0 when none."""
        return max(self._lying(self.changed_now(), within), default=0.0)

    def reaches_rim(self, mask: np.ndarray) -> bool:
        """Whether a low-resolution mask reaches the view's border (``rim``)."""
        return bool((mask & self._rim_of(mask.shape)).any())

    def _rim_of(self, shape: tuple[int, ...]) -> np.ndarray:
        """The view's border for low-resolution masks of ``shape``: ``rim``, or the frame's edge before a reference."""
        return self.rim if self.rim is not None and self.rim.shape == shape else _frame_edge(shape)

    def _arm_mask(self, difference: np.ndarray, threshold: float) -> np.ndarray:
        """Everything of ``difference`` (from the reference) above ``ARM_THRESHOLD_SHARE`` of the change
        ``threshold`` that reaches the view's border (``rim``): arms and hands come in from outside the view, the
        star flies free of them. The lower threshold and a margin keep an arm of nearly the table's colour in one
        piece with its fingers."""
        differs = (difference > ARM_THRESHOLD_SHARE * threshold).astype(np.uint8)
        _, labels = cv2.connectedComponents(cv2.dilate(differs, self._arm_margin), connectivity=8)
        arms = np.unique(labels[self._rim_of(labels.shape)])
        return np.asarray(np.isin(labels, arms[arms != 0]))

    def arm_entry(self, mask: np.ndarray) -> np.ndarray:
        """Where the hands or arms of the latest frame that cover a part of ``mask`` (low-resolution) cross the
        view's border (``rim``): a hand resting anywhere keeps its arm across the border there."""
        arms = self.arm_mask()
        _, labels = cv2.connectedComponents(arms.astype(np.uint8), connectivity=8)
        over = np.unique(labels[mask & arms])
        return np.asarray(np.isin(labels, over[over != 0]) & self._rim_of(labels.shape))

    def star_sized(self, area_px: float, length_px: float) -> bool:
        """Whether a moving blob of ``area_px`` full-resolution pixels, ``length_px`` long (its box's
        longer side), can be the star: a star's area, blurred by its flight or partly hidden, and no
        longer than a star's blur in one exposure."""
        return STAR_SHARE_MIN * self.star_area <= area_px <= 6.0 * self.star_area and length_px <= 5.0 * math.sqrt(self.star_area)

    def _blobs(self, moving: np.ndarray, from_reference: np.ndarray) -> list[Blob]:
        if not moving.any():
            return []
        # the frame's arm mask, kept for ``arm_mask`` (``update`` measured ``from_reference`` as ``_diff_now``)
        arm = self.arm_mask() if from_reference is self._diff_now else self._arm_mask(from_reference, self.threshold)
        grown = cv2.dilate(moving, np.ones((3, 3), np.uint8))
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(grown, connectivity=8)
        s = self.scale
        blobs = []
        for i in range(1, n):
            x, y, bw, bh, area = (int(v) for v in stats[i])
            full_area = area * s * s
            box = (x * s, y * s, (x + bw) * s, (y + bh) * s)
            if arm[y:y + bh, x:x + bw][labels[y:y + bh, x:x + bw] == i].any():
                kind = BlobKind.ARM
            elif self.star_sized(full_area, box_length(box)):
                kind = BlobKind.SHURIKEN
            else:
                kind = BlobKind.OTHER
            blobs.append(Blob(kind, box, full_area, (float(centroids[i][0]) * s, float(centroids[i][1]) * s)))
        return blobs


def _frame_edge(shape: tuple[int, ...]) -> np.ndarray:
    """Mask of a frame's outermost pixels."""
    edge = np.zeros(shape[:2], bool)
    edge[0] = edge[-1] = True
    edge[:, 0] = edge[:, -1] = True
    return edge


def _view_rim(reference: np.ndarray) -> np.ndarray:
    """Low-resolution mask of where the view ends: the frame's outermost pixels and, where the lens leaves
    no picture (the black corners and sides of a frame whose barrel distortion was drawn or undone), the
    picture's own edge: what of the reference no channel lights (``UNLIT``) joined to the frame's border,
    grown ``RIM_GROW`` pixels into the picture (its edge blurred, and the change there held back as at
    any edge of the reference). An arm reaches in from there as from the frame's border. Unlit reaching
    deeper into the frame than a lens's corners do (``UNLIT_DEPTH``) is a dark table in a dark room, and
    the frame's border stays the view's there."""
    edge = _frame_edge(reference.shape)
    lit = reference.max(axis=2) if reference.ndim == 3 else reference
    unlit = (lit <= UNLIT).astype(np.uint8)
    if not unlit[edge].any():
        return edge
    _, labels = cv2.connectedComponents(unlit, connectivity=8)
    h, w = unlit.shape
    ys, xs = np.mgrid[0:h, 0:w]
    depth = np.minimum(np.minimum(xs, w - 1 - xs), np.minimum(ys, h - 1 - ys))
    joined = np.unique(labels[edge & unlit.astype(bool)])
    deepest = np.zeros(int(labels.max()) + 1)
    np.maximum.at(deepest, np.asarray(labels, np.intp).ravel(), depth.ravel())
    outside = [i for i in joined.tolist() if i != 0 and deepest[i] <= UNLIT_DEPTH * min(h, w)]
    if not outside:
        return edge
    none = np.isin(labels, outside).astype(np.uint8)
    grown: np.ndarray = cv2.dilate(none, np.ones((3, 3), np.uint8), iterations=RIM_GROW).astype(bool)
    return np.asarray(edge | grown)


def _row_ratios(reference: np.ndarray, gray: np.ndarray) -> np.ndarray:
    """Per row, the median brightness ratio of the reference to the frame (auto exposure, a lamp's
    flicker, rolling-shutter bands), smoothed over five rows. Pixels clipped in either image are
    left out: an over-exposed table stays at 255 whatever the exposure does, and would hold the
    ratio at 1 while everything else dims or brightens."""
    ratios = (reference + 2.0) / (gray + 2.0)
    # dark pixels say little about a ratio (the sensor's offset and noise weigh on them)
    unclipped = (reference < SATURATED) & (gray < SATURATED) & (reference >= DARK) & (gray >= DARK)
    ranked = np.sort(np.where(unclipped, ratios, np.inf), axis=1)
    counts = unclipped.sum(axis=1)
    row: np.ndarray = ranked[np.arange(len(ranked)), np.maximum(counts - 1, 0) // 2]
    # a row clipped or dark nearly all through: its few other pixels may be just what moved, and the
    # light changes smoothly from row to row
    few = counts < max(8, ratios.shape[1] // 16)
    if few.all():
        return np.ones(len(row), np.float32)
    # rows differ by a lamp's bands, a few per cent, not by more than a fifth from the frame's median
    middle = float(np.median(row[~few]))
    row = np.clip(row, middle / ROW_LIGHT_SPREAD, middle * ROW_LIGHT_SPREAD)
    if few.any():
        rows = np.arange(len(row))
        row[few] = np.interp(rows[few], rows[~few], row[~few])
    return cv2.blur(row.reshape(-1, 1).astype(np.float32), (1, 5)).ravel()
