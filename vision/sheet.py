"""Printable marker sheets: every marker at its true size, with ids, cut lines and the crown card.

The sheets are A4 PNG pages at a stated resolution (300 dpi by default); the resolution is also
written into the PNG (its pHYs chunk) so print dialogs pick the true size. Print at 100 %, no
"fit to page", and check the 10 cm scale bar with a ruler.
"""

from __future__ import annotations

import logging
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import markers

log = logging.getLogger(__name__)

A4_CM = (21.0, 29.7)
MARGIN_CM = 1.0
GAP_CM = 0.5
LABEL_CM = 0.7
FLAP_CM = 1.5  # crown card flaps folded down over the standee's top edge
CUT = (150, 150, 150)
FOLD = (190, 190, 190)


@dataclass(frozen=True)
class Piece:
    """One thing to cut out: a marker card (or crown card with flaps) and its label."""

    marker_id: int
    card_cm: float  # the square card around the marker
    label: str
    flaps: bool = False

    @property
    def size_cm(self) -> tuple[float, float]:
        return self.card_cm, self.card_cm + (2 * FLAP_CM if self.flaps else 0.0)


def pieces(seats: int = markers.MAX_SEATS) -> list[list[Piece]]:
    """The pieces, page by page: corners and bases first, crown cards second."""
    corners = [Piece(i, markers.CORNER_SIZE_CM + 1.0, f"corner {i} (id {i})") for i in markers.CORNER_IDS]
    bases = [Piece(markers.base_id(s), markers.BASE_SIZE_CM + 0.8, f"base seat {s} (id {markers.base_id(s)})")
             for s in range(seats)]
    crowns = [Piece(markers.crown_id(s), markers.CROWN_SIZE_CM + 1.0, f"crown seat {s} (id {markers.crown_id(s)})",
                    flaps=True) for s in range(seats)]
    return [corners + bases, crowns]


class _Page:
    def __init__(self, dpi: int, title: str) -> None:
        self.dpi = dpi
        self.img = np.full((self.px(A4_CM[1]), self.px(A4_CM[0]), 3), 255, np.uint8)
        self.x = self.y = MARGIN_CM
        self.row_h = 0.0
        self.text(title, MARGIN_CM, MARGIN_CM + 0.4, 0.45)
        self.text(f"Print at 100 % ({dpi} dpi, A4), no scaling. This bar must measure 10 cm:", MARGIN_CM,
                  MARGIN_CM + 1.0, 0.3)
        bar_y = self.px(MARGIN_CM + 1.3)
        cv2.rectangle(self.img, (self.px(MARGIN_CM), bar_y), (self.px(MARGIN_CM + 10), bar_y + self.px(0.2)), (0, 0, 0), -1)
        for cm in range(11):
            x = self.px(MARGIN_CM + cm)
            cv2.line(self.img, (x, bar_y - self.px(0.2)), (x, bar_y), (0, 0, 0), max(1, dpi // 150))
        self.y = MARGIN_CM + 2.0

    def px(self, cm: float) -> int:
        return int(round(cm * self.dpi / 2.54))

    def text(self, s: str, x_cm: float, y_cm: float, height_cm: float) -> None:
        scale = self.px(height_cm) / 22.0
        cv2.putText(self.img, s, (self.px(x_cm), self.px(y_cm)), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0),
                    max(1, int(scale * 1.6)), cv2.LINE_AA)

    def fits(self, w: float, h: float) -> bool:
        return self._next_y(w) + h + LABEL_CM <= A4_CM[1] - MARGIN_CM

    def _next_y(self, w: float) -> float:
        return self.y if self.x + w <= A4_CM[0] - MARGIN_CM else self.y + self.row_h + GAP_CM

    def place(self, piece: Piece) -> None:
        w, h = piece.size_cm
        if self.x + w > A4_CM[0] - MARGIN_CM:
            self.x, self.y, self.row_h = MARGIN_CM, self.y + self.row_h + GAP_CM, 0.0
        self.text(piece.label, self.x, self.y + 0.45, 0.28)
        top = self.y + LABEL_CM
        self._draw(piece, self.x, top)
        self.x += w + GAP_CM
        self.row_h = max(self.row_h, h + LABEL_CM)

    def _dashed_rect(self, x0: int, y0: int, x1: int, y1: int, colour: tuple[int, int, int], dash: int) -> None:
        for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
            length = int(np.hypot(b[0] - a[0], b[1] - a[1]))
            for start in range(0, length, 2 * dash):
                f0, f1 = start / length, min(start + dash, length) / length
                p0 = (int(a[0] + (b[0] - a[0]) * f0), int(a[1] + (b[1] - a[1]) * f0))
                p1 = (int(a[0] + (b[0] - a[0]) * f1), int(a[1] + (b[1] - a[1]) * f1))
                cv2.line(self.img, p0, p1, colour, max(1, self.dpi // 150))

    def _draw(self, piece: Piece, x_cm: float, y_cm: float) -> None:
        card = piece.card_cm
        top = y_cm + (FLAP_CM if piece.flaps else 0.0)
        side_cm = markers.size_cm(piece.marker_id)
        side = self.px(side_cm)
        mx, my = self.px(x_cm + (card - side_cm) / 2), self.px(top + (card - side_cm) / 2)
        self.img[my:my + side, mx:mx + side] = cv2.cvtColor(markers.marker_image(piece.marker_id, side),
                                                            cv2.COLOR_GRAY2BGR)
        w, h = piece.size_cm
        self._dashed_rect(self.px(x_cm), self.px(y_cm), self.px(x_cm + w), self.px(y_cm + h), CUT, self.px(0.25))
        if piece.flaps:  # fold lines between the card's top face and its two flaps
            for y in (top, top + card):
                yy = self.px(y)
                for x in np.arange(x_cm, x_cm + w, 0.3):
                    cv2.line(self.img, (self.px(x), yy), (self.px(min(x + 0.12, x_cm + w)), yy), FOLD, max(1, self.dpi // 150))
            self.text("fold", x_cm + 0.2, y_cm + FLAP_CM - 0.4, 0.22)
            self.text("fold", x_cm + 0.2, top + card + 0.6, 0.22)


def render_sheets(dpi: int = 300, seats: int = markers.MAX_SEATS) -> list[np.ndarray]:
    """The A4 pages as BGR images."""
    titles = ["Cash'n Guns table markers: corners (5 cm) and bases (3 cm)",
              "Crown cards (4 cm markers), flaps fold over the standee's top"]
    pages = []
    for title, group in zip(titles, pieces(seats)):
        page = _Page(dpi, title)
        for piece in group:
            if not page.fits(*piece.size_cm):
                pages.append(page.img)
                page = _Page(dpi, title + " (continued)")
            page.place(piece)
        pages.append(page.img)
    return pages


def _png_with_dpi(img: np.ndarray, dpi: int) -> bytes:
    """PNG bytes with a pHYs chunk stating the resolution."""
    ok, buf = cv2.imencode(".png", img)
    if not ok:
        raise RuntimeError("PNG encoding failed")
    data = buf.tobytes()
    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, IHDR length, type, data, crc
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def write_sheets(folder: Path, dpi: int = 300, seats: int = markers.MAX_SEATS) -> list[Path]:
    """Writes ``markers-<dpi>dpi-page<N>.png`` into ``folder``; returns the paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, img in enumerate(render_sheets(dpi, seats), start=1):
        path = folder / f"markers-{dpi}dpi-page{n}.png"
        path.write_bytes(_png_with_dpi(img, dpi))
        log.info("wrote %s", path)
        paths.append(path)
    return paths
