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
