"""Sub-pixel tracking of a printed card (a crown or base marker with its white border) by normalised
correlation with its look at rest.

An ArUco detection needs every cell of a marker decoded: motion blur, JPEG blocks, a dim room or a
corner covered by the star lose it. The card's grey pattern is still there, and where it lies is
found to a tenth of a pixel by correlating it with the armed look of the same card: the peak of
the normalised cross-correlation (insensitive to brightness and contrast changes), refined by a
parabola through its neighbours. The four quarters of the card are matched too: one covered by the
star or a finger drops out, and the median of the quarters that still look like the card is the
displacement. A swinging crown card tilts a few degrees only, which correlation shrugs off.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.markers import to_gray

MIN_SCORE = 0.7  # correlation of a quarter of the card with its armed look: it is seen (a swinging, blurred card)
MIN_SCORE_AT_REST = 0.85  # the same for a card at rest, seen in the median of still frames: as it looked when armed
MIN_QUARTERS = 2  # quarters that must agree for the card to count as seen

# a card found: its displacement (px, image axes), how many quarters agreed, the weakest correlation among them
Displacement = tuple[np.ndarray, int, float] | None


def gray(image: np.ndarray) -> np.ndarray:
    return to_gray(image).astype(np.float32)


@dataclass(frozen=True)
class Look:
    """Where a card's quarters lay at rest: full-resolution top-left corners and patches."""

    origins: tuple[tuple[int, int], ...]
    patches: tuple[np.ndarray, ...]
    search: int  # pixels searched each way

    @staticmethod
    def of(rest: np.ndarray, centre: np.ndarray, half: float, search: int) -> Look | None:
        """The card's look around ``centre`` (``half``: half its side, px) in the resting image;
        None too close to the image's border or too small to correlate."""
        h, w = rest.shape[:2]
        q = max(4, int(round(half)))
        cx, cy = int(round(float(centre[0]))), int(round(float(centre[1])))
        if cx - q - search < 1 or cy - q - search < 1 or cx + q + search >= w - 1 or cy + q + search >= h - 1:
            return None
        if q < 6:
            return None
        g = gray(rest[cy - q:cy + q, cx - q:cx + q])
        origins, patches = [], []
        for oy in (0, q):
            for ox in (0, q):
                patch = g[oy:oy + q, ox:ox + q]
                if float(patch.std()) < 4.0:  # a blank quarter cannot be located
                    continue
                origins.append((cx - q + ox, cy - q + oy))
                patches.append(np.ascontiguousarray(patch))
        if len(patches) < MIN_QUARTERS:
            return None
        return Look(tuple(origins), tuple(patches), search)

    def displacement(self, frame: np.ndarray, offset: tuple[float, float] = (0.0, 0.0),
                     min_score: float = MIN_SCORE) -> Displacement:
        """The card's displacement from its armed place (px, image axes) in ``frame``, searched
        around the place moved by ``offset`` (the frame's shift against the reference), how many
        quarters agreed and the weakest correlation among them; None when fewer than two quarters
        correlate with the card's look by ``min_score`` or more."""
        h, w = frame.shape[:2]
        s = self.search
        ox, oy = int(round(offset[0])), int(round(offset[1]))
        boxes = [(x + ox - s, y + oy - s, patch) for (x, y), patch in zip(self.origins, self.patches)]
        boxes = [(x0, y0, patch) for x0, y0, patch in boxes
                 if x0 >= 0 and y0 >= 0 and x0 + patch.shape[1] + 2 * s <= w and y0 + patch.shape[0] + 2 * s <= h]
        if len(boxes) < MIN_QUARTERS:
            return None
        # the grey of the part of the frame every quarter is searched in, converted once
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right = max(x0 + patch.shape[1] + 2 * s for x0, _, patch in boxes)
        bottom = max(y0 + patch.shape[0] + 2 * s for _, y0, patch in boxes)
        searched = gray(frame[top:bottom, left:right])
        found = []
        for x0, y0, patch in boxes:
            ph, pw = patch.shape
            area = searched[y0 - top:y0 - top + ph + 2 * s, x0 - left:x0 - left + pw + 2 * s]
            score = cv2.matchTemplate(area, patch, cv2.TM_CCOEFF_NORMED)
            _, best, _, (bx, by) = cv2.minMaxLoc(score)
            if best < min_score:
                continue
            dx, dy = float(bx), float(by)
            if 0 < bx < score.shape[1] - 1:
                dx += _vertex(score[by, bx - 1], score[by, bx], score[by, bx + 1])
            if 0 < by < score.shape[0] - 1:
                dy += _vertex(score[by - 1, bx], score[by, bx], score[by + 1, bx])
            found.append((dx - s + ox, dy - s + oy, float(best)))
        if len(found) < MIN_QUARTERS:
            return None
        pts = np.array(found)
        med = np.median(pts[:, :2], axis=0)
        agree = pts[np.linalg.norm(pts[:, :2] - med, axis=1) <= 1.0]
        if len(agree) < MIN_QUARTERS:
            return None
        return agree[:, :2].mean(axis=0), len(agree), float(agree[:, 2].min())


def _vertex(left: float, mid: float, right: float) -> float:
    """Sub-pixel offset of a peak from three samples (a parabola's vertex), within half a pixel."""
    left, mid, right = float(left), float(mid), float(right)
    den = left - 2 * mid + right
    if abs(den) < 1e-9:
        return 0.0
    return max(-0.5, min(0.5, 0.5 * (left - right) / den))


def masked_shift(template: np.ndarray, mask: np.ndarray, area: np.ndarray) -> tuple[float, float, float] | None:
    """Where the pixels of ``template`` under ``mask`` lie in ``area`` (grey, larger than the template by
    the search range each way): their displacement from the middle of ``area`` (px, sub-pixel) and the
    normalised correlation there; None when too few masked pixels, or too plain ones, to locate. A card
    partly covered by something that stays (the star lying on it) is followed by the part left in view."""
    m = mask.astype(np.float32)
    if m.shape != template.shape or float(m.sum()) < 0.1 * m.size or float(template[mask > 0].std()) < 3.0:
        return None
    score = cv2.matchTemplate(area, template, cv2.TM_CCOEFF_NORMED, mask=m)
    score = np.nan_to_num(score, nan=-1.0, posinf=-1.0, neginf=-1.0)
    _, best, _, (bx, by) = cv2.minMaxLoc(score)
    dx, dy = float(bx), float(by)
    if 0 < bx < score.shape[1] - 1:
        dx += _vertex(score[by, bx - 1], score[by, bx], score[by, bx + 1])
    if 0 < by < score.shape[0] - 1:
        dy += _vertex(score[by - 1, bx], score[by, bx], score[by + 1, bx])
    return dx - (score.shape[1] - 1) / 2, dy - (score.shape[0] - 1) / 2, float(best)
