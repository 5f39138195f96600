import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import aims, markers, sheet
from vision.markers import MarkerDetector, MarkerKind


def test_ids_follow_the_table_conventions():
    assert markers.crown_id(0) == 10 and markers.crown_id(8) == 18
    assert markers.base_id(3) == 23
    assert markers.kind_of(2) == (MarkerKind.CORNER, 2)
    assert markers.kind_of(14) == (MarkerKind.CROWN, 4)
    assert markers.kind_of(28) == (MarkerKind.BASE, 8)
    assert markers.kind_of(5) is None and markers.kind_of(19) is None
    assert markers.size_cm(1) == 5.0 and markers.size_cm(11) == 4.0 and markers.size_cm(21) == 3.0


def _canvas_with(marker_id: int, side: int, at: tuple[int, int]) -> np.ndarray:
    canvas = np.full((240, 320), 255, np.uint8)
    x, y = at
    canvas[y:y + side, x:x + side] = markers.marker_image(marker_id, side)
    return canvas


def test_detect_in_a_crop_reports_full_frame_corners():
    canvas = _canvas_with(13, 48, (200, 100))
    found = MarkerDetector().detect_in(canvas, (180, 80, 270, 170), upscale=2)
    assert set(found) == {13}
    corners = found[13].corners
    assert np.allclose(corners.min(axis=0), [200, 100], atol=1.5)
    assert found[13].side_px == pytest.approx(48, abs=1.5)


def test_markers_of_other_dictionaries_or_ids_are_ignored():
    canvas = _canvas_with(40, 60, (50, 50))  # id 40 is in DICT_4X4_50 but not a table marker
    assert MarkerDetector().detect(canvas) == {}


def test_sheets_hold_every_marker_at_its_true_size():
    dpi = 150
    pages = sheet.render_sheets(dpi=dpi, seats=9)
    detector = MarkerDetector()
    found = {}
    for page in pages:
        assert page.shape[:2] == (round(29.7 * dpi / 2.54), round(21.0 * dpi / 2.54))
        found.update(detector.detect(page))
    expected = set(markers.CORNER_IDS) | {markers.crown_id(s) for s in range(9)} | {markers.base_id(s) for s in range(9)}
    assert set(found) == expected
    for marker_id, det in found.items():
        assert det.side_px == pytest.approx(markers.size_cm(marker_id) * dpi / 2.54, rel=0.02), marker_id


def test_sheet_png_states_its_resolution(tmp_path):
    paths = sheet.write_sheets(tmp_path, dpi=100, seats=6)
    assert [p.name for p in paths][0] == "markers-100dpi-page1.png"
    data = paths[0].read_bytes()
    i = data.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[i + 4:i + 13])
    assert (ppm_x, ppm_y, unit) == (round(100 / 0.0254), round(100 / 0.0254), 1)
    assert cv2.imread(str(paths[0])) is not None  # still a valid PNG


def test_a_card_touching_the_image_edge_is_read():
    # the bottom right of a frame from the independent renderer: corner marker 1's black square 12 px
    # from the lower edge, its white card reaching it (OpenCV's default border distance misses it)
    image = cv2.imread(str(Path(__file__).parent.parent / "data" / "corner-card-at-image-edge.png"),
                       cv2.IMREAD_GRAYSCALE)
    assert 1 in MarkerDetector().detect(image)
    _, ids, _ = aims._detector().detectMarkers(image)
    assert ids is not None and 1 in ids.ravel()


def _blurred_card(marker_id, side, sigma, background=170):
    """A crown-like card (the marker in a white margin) on a grey table, blurred by ``sigma`` px."""
    img = np.full((160, 160), background, np.uint8)
    card = np.full((side * 8 // 6, side * 8 // 6), 235, np.uint8)
    o = side // 6
    card[o:o + side, o:o + side] = np.where(markers.marker_image(marker_id, side) > 127, 235, 20)
    img[50:50 + card.shape[0], 60:60 + card.shape[1]] = card
    return cv2.GaussianBlur(img, (0, 0), sigma)


def test_a_blurred_card_whose_code_fails_is_read_by_its_cells():
    """A card blurred beyond its code's error correction still shows its outline, and its cells still follow its
    pattern: it is read as that marker only when that marker is wanted there, with its corners from its top
    left whichever corner the outline starts at."""
    detector = MarkerDetector()
    img = _blurred_card(15, 24, 1.6)
    assert 15 not in detector.detect(img)
    outlines = detector.outlines(img)
    read = [d for d in (markers.read_by_cells(img, q, {15, 25}) for q in outlines) if d is not None]
    assert [d.marker_id for d in read] == [15]
    sharp = detector.detect(_blurred_card(15, 24, 0.5))[15]
    assert np.abs(read[0].corners - sharp.corners).max() < 1.5
    for turn in range(4):  # the outline's first corner any of the four
        again = markers.read_by_cells(img, np.roll(read[0].corners, turn, axis=0), {15})
        assert again is not None and np.allclose(again.corners, read[0].corners)
    # not wanted there (a card already read elsewhere, or no seat of this table): not read
    assert all(markers.read_by_cells(img, q, {16, 25}) is None for q in outlines)


def test_an_outline_whose_cells_follow_no_pattern_clearly_is_no_card():
    """A dark square in a white margin with noise inside, a card of random cells that decode as no marker, or a
    card too blurred for its cells to show: no marker, whatever is wanted."""
    rng = np.random.default_rng(3)
    detector = MarkerDetector()
    wanted = set(range(50))
    looked = 0
    for k in range(60):
        img = np.full((160, 160), 170, np.uint8)
        img[50:82, 60:92] = 235
        if k % 2:
            img[54:78, 64:88] = 20
            img[58:74, 68:84] = rng.integers(20, 236, (16, 16)).astype(np.uint8)
        else:
            grid = np.zeros((6, 6))
            grid[1:5, 1:5] = rng.integers(0, 2, (4, 4))
            img[54:78, 64:88] = np.kron(grid, np.ones((4, 4))) * 215 + 20
        img = cv2.GaussianBlur(img, (0, 0), 0.8)
        if detector.detect(img):
            continue  # random cells that happen to decode as a marker
        for q in detector.outlines(img):
            looked += 1
            assert markers.read_by_cells(img, q, wanted) is None
    assert looked >= 60
    img = _blurred_card(15, 20, 3.5)
    assert all(markers.read_by_cells(img, q, wanted) is None for q in detector.outlines(img))
