import json

import cv2
import numpy as np
import pytest

from vision import calibration, markers, synth
from vision.calibration import Calibration, CalibrationError, calibrate
from vision.markers import MarkerDetector

SPEC = synth.random_spec(4242, seats=7, light=0.9, noise_sigma=2.0, jpeg_quality=85, tilt_deg=5.0)


@pytest.fixture(scope="module")
def scene():
    frame = synth.still_scene(SPEC)
    return frame, MarkerDetector().detect(frame, upscale=2)


def _cover(frame, det, colour=None, pad=0.15):
    """Paints over a marker as if it were missing (table colour from just outside it)."""
    out = frame.copy()
    c = det.corners
    pad = pad * det.side_px
    x0, y0 = (c.min(0) - pad).astype(int)
    x1, y1 = (c.max(0) + pad).astype(int)
    fill = colour if colour is not None else out[max(0, y0 - 4), max(0, x0 - 4)].tolist()
    cv2.rectangle(out, (x0, y0), (x1, y1), fill, -1)
    return out


def test_good_scene_calibrates_and_round_trips(scene, tmp_path):
    frame, _ = scene
    cal = calibrate([frame], SPEC.seats)
    assert cal.seat_count == 7 and all(s.standing and s.base is not None for s in cal.seats.values())
    assert 5.0 < cal.px_per_cm < 10.0
    path = tmp_path / "calibration.json"
    cal.save(path)
    again = Calibration.load(path)
    assert again.seat_count == 7
    assert np.allclose(again.seats[3].crown, cal.seats[3].crown, atol=1e-3)
    assert np.allclose(again.play_area_homography, cal.play_area_homography, atol=1e-6)


def test_seat_count_is_found_from_the_markers(scene):
    frame, _ = scene
    assert calibrate([frame]).seat_count == 7


def test_missing_corner_marker_is_named(scene):
    frame, found = scene
    with pytest.raises(CalibrationError) as err:
        calibrate([_cover(frame, found[2])], SPEC.seats)
    assert any("corner marker id 2 not found" in p for p in err.value.problems)


def test_missing_crown_is_named_with_its_seat(scene):
    frame, found = scene
    with pytest.raises(CalibrationError) as err:
        calibrate([_cover(frame, found[markers.crown_id(3)])], SPEC.seats)
    assert err.value.problems == ["seat 3: crown marker id 13 not found (is the standee up, with its crown card facing the camera?)"]


def test_in_game_a_standee_may_lie_down(scene):
    frame, found = scene
    cal = calibrate([_cover(frame, found[markers.crown_id(3)])], SPEC.seats, setup=False)
    assert not cal.seats[3].standing and cal.seats[4].standing


def test_too_dark(scene):
    frame, _ = scene
    with pytest.raises(CalibrationError) as err:
        calibrate([(frame * 0.12).astype(np.uint8)], SPEC.seats)
    assert any(p.startswith("too dark") for p in err.value.problems)


def test_markers_below_the_size_limit_are_reported(scene, monkeypatch):
    frame, _ = scene
    monkeypatch.setattr(calibration, "MIN_SIDE_PX", 26.0)  # crowns (~30 px) pass, bases (~20 px) do not
    with pytest.raises(CalibrationError) as err:
        calibrate([frame], SPEC.seats)
    small = [p for p in err.value.problems if "px wide, needs at least 26 px" in p]
    assert small and all(p.startswith("seat ") and ": base marker id 2" in p for p in small)


def test_markers_near_the_size_limit_are_warnings_that_say_what_to_do_in_seat_order(scene, monkeypatch):
    frame, _ = scene
    monkeypatch.setattr(calibration, "MIN_SIDE_PX", 16.0)  # bases (~20 px) pass, under 1.3 times that
    cal = calibrate([frame], SPEC.seats)
    small = [w for w in cal.warnings if "px wide" in w]
    assert small and all(w.endswith("bring the camera closer or raise its resolution)") for w in small)
    assert small == sorted(small, key=lambda w: int(w.split("id ")[1].split()[0]))


def test_a_camera_too_far_away_is_refused(scene):
    frame, _ = scene
    far = cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    with pytest.raises(CalibrationError) as err:
        calibrate([far], SPEC.seats)
    assert any("px wide" in p or "not found" in p for p in err.value.problems)


def test_base_marker_of_another_seat_is_reported(scene):
    frame, found = scene
    out = frame.copy()
    # move seat 5's base marker next to seat 1's standee
    b5, b1 = found[markers.base_id(5)], found[markers.base_id(1)]
    x0, y0 = (b5.corners.min(0) - 3).astype(int)
    x1, y1 = (b5.corners.max(0) + 3).astype(int)
    patch = frame[y0:y1, x0:x1].copy()
    out = _cover(out, b5)
    out = _cover(out, b1)
    cx, cy = b1.center.astype(int)
    out[cy - patch.shape[0] // 2:cy - patch.shape[0] // 2 + patch.shape[0],
        cx - patch.shape[1] // 2:cx - patch.shape[1] // 2 + patch.shape[1]] = patch
    with pytest.raises(CalibrationError) as err:
        calibrate([out], SPEC.seats)
    assert any("seat 5: base marker id 25 is far from crown marker id 15" in p for p in err.value.problems)


def test_a_tall_standee_s_crown_at_the_edge_of_a_wide_view_may_lie_more_than_four_of_its_sides_from_its_base():
    """Seen from 77 cm at the edge of a 960x720 view, a standee's crown looks 14 % larger than a 4 cm card on the
    table there (it stands that much nearer the camera), and its image lies 108 px, four of its sides, from its
    base marker's: that is where such a standee's crown shows, and the base is its own. A crown no larger than a
    card on the table there stands no higher: four of its sides is then the reach."""
    for base_side, reach in ((17.8, None), (20.25, 4 * 27.0)):
        got = calibration.base_reach_px(27.0, base_side, (960, 720))
        assert got > 108.0 if reach is None else got == pytest.approx(reach)


def test_seats_must_go_clockwise():
    square = np.eye(3)
    around = {s: np.array([0.5 + 0.4 * np.cos(-np.pi / 2 - 2 * np.pi * s / 6),
                           0.5 + 0.4 * np.sin(-np.pi / 2 - 2 * np.pi * s / 6)]) for s in range(6)}
    assert calibration._clockwise_problem(around, square) is None
    around[2], around[3] = around[3], around[2]
    problem = calibration._clockwise_problem(around, square)
    assert problem and "seats out of order" in problem


def test_seats_go_clockwise_past_the_unread_ones():
    """Three seats of seven read (0, 5 and 6): from seat 0 to seat 5 is more than half a turn
    clockwise, and still in order; seats 5 and 6 changed over are not."""
    square = np.eye(3)
    around = {s: np.array([0.5 + 0.4 * np.cos(-np.pi / 2 - 2 * np.pi * s / 7),
                           0.5 + 0.4 * np.sin(-np.pi / 2 - 2 * np.pi * s / 7)]) for s in (0, 5, 6)}
    assert calibration._clockwise_problem(around, square) is None
    around[5], around[6] = around[6], around[5]
    problem = calibration._clockwise_problem(around, square)
    assert problem and "seats out of order" in problem


def test_in_game_without_every_corner_the_corners_found_give_the_scale(scene):
    """A corner card unread during a game: the table's scale comes from the corner cards found,
    which lie on the table, not from the crown cards, which stand a standee's height nearer the
    camera and look larger."""
    frame, found = scene
    cal = calibrate([_cover(frame, found[2])], SPEC.seats, setup=False)
    assert sorted(cal.corners) == [0, 1, 3]
    sides = [markers.Detection(c, q).side_px for c, q in cal.corners.items()]
    assert cal.px_per_cm == pytest.approx(np.mean(sides) / markers.CORNER_SIZE_CM)
    crowns = [markers.Detection(markers.crown_id(s), m.crown).side_px for s, m in cal.seats.items() if m.crown is not None]
    assert cal.px_per_cm < np.median(crowns) / markers.CROWN_SIZE_CM
    whole = calibrate([frame], SPEC.seats, setup=False)
    assert cal.px_per_cm == pytest.approx(whole.px_per_cm, rel=0.08)


def test_in_game_a_marker_of_a_seat_the_table_lacks_is_left_out(scene):
    """A card with the crown marker of a seat the table does not have (a stray card, or a marker
    misread in a dim, noisy frame): setting up, a fault to fix; during a game, left out."""
    frame, _ = scene
    out = frame.copy()
    card = np.full((64, 64), 235, np.uint8)
    card[8:56, 8:56] = markers.marker_image(markers.crown_id(8), 48)
    out[200:264, 290:354] = cv2.cvtColor(card, cv2.COLOR_GRAY2BGR)  # the middle of the table is empty
    with pytest.raises(CalibrationError, match="crown marker id 18 seen but the table has 7 seats"):
        calibrate([out], SPEC.seats)
    cal = calibrate([out], SPEC.seats, setup=False)
    assert cal.seat_count == 7 and any("id 18" in w and "left out" in w for w in cal.warnings)


def test_during_a_game_markers_too_dim_and_noisy_for_single_frames_are_read_in_their_median():
    """A dim room (a third of the light), faint print, a defocused lens, heavy noise and JPEG 50,
    the camera shaking 2 px: no marker decodes in any single frame. The still frames' median,
    registered against the shake, averages the noise away; stretched in contrast, the cards' cells
    come back: during a game that is enough to judge by (no single frame gives the table's scale)."""
    spec = synth.random_spec(10, seats=8, thrower=2, scenario=synth.Scenario.MISS, light=0.34, noise_sigma=9.0,
                             jpeg_quality=50, shake_px=1.9, print_black=39, print_white=150, blur_sigma=1.26,
                             camera_height_cm=96.0, table_kind="wood", tilt_deg=-12.0, lens_k1=0.05,
                             exposure_change=1.0, drift_px=0.0, rolling_flicker=0.0)
    scene = synth.Scene(spec)
    frames = [scene.render(i) for i in range(3)]
    cal = calibrate(frames, spec.seats, setup=False)
    assert len(cal.corners) == 4 and sum(m.crown is not None for m in cal.seats.values()) >= 4


@pytest.mark.parametrize("seats", [4, 5])
def test_a_table_of_the_base_game_calibrates(seats):
    """The 1st and 2nd editions play with 4 or 5 players, and the camera reads their aims too."""
    spec = synth.random_spec(4242, seats=seats, light=0.9, noise_sigma=2.0, jpeg_quality=85, tilt_deg=5.0)
    frame = synth.still_scene(spec)
    assert calibrate([frame]).seat_count == seats
    assert calibrate([frame], seats).seat_count == seats


def test_too_few_seats_are_named():
    spec = synth.random_spec(4242, seats=4, light=0.9, noise_sigma=2.0, jpeg_quality=85, tilt_deg=5.0)
    with pytest.raises(CalibrationError) as err:
        calibrate([synth.still_scene(spec)], 3)
    assert any("3 seats" in p and "4 to 9" in p for p in err.value.problems)


def _edited(scene, tmp_path, edit):
    frame, _ = scene
    data = calibrate([frame], SPEC.seats).to_json()
    edit(data)
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d["corners"]["0"][0].__setitem__(0, float("nan")), "corner marker 0: not four corners in pixels"),
    (lambda d: d["corners"]["0"][0].__setitem__(0, -1e300), "corner marker 0: not four corners in pixels"),
    (lambda d: d["corners"]["2"][1].__setitem__(0, 5000.0), "corner marker 2: outside the"),
    (lambda d: d["seats"]["3"].__setitem__("crown", [[0, 0]] * 4), "seat 3's crown marker: its corners enclose no area"),
    (lambda d: d["seats"]["3"].__setitem__("crown", d["seats"]["1"]["crown"]), "seat 3's crown marker: on the place of seat 1's"),
    (lambda d: d.__setitem__("image_size", [0, 480]), "image_size [0, 480]"),
    (lambda d: d.__setitem__("px_per_cm", -3), "px_per_cm"),
])
def test_a_calibration_file_with_markers_where_none_can_be_is_refused(scene, tmp_path, edit, message):
    """A marker at no place, off the image or on another's place would put a standee where none is."""
    with pytest.raises(CalibrationError) as err:
        Calibration.load(_edited(scene, tmp_path, edit))
    assert message in err.value.problems[0]


@pytest.mark.parametrize("depth", [17, 100_000])
def test_a_deeply_nested_calibration_file_is_named_as_such(tmp_path, depth):
    path = tmp_path / "calibration.json"
    path.write_text('{"warnings": ["[[[ in a string is not nesting"], "deep": ' + "[" * depth + "]" * depth + "}")
    with pytest.raises(CalibrationError) as err:
        Calibration.load(path)
    assert err.value.problems == [f"{path}: nested more than 16 deep, not a calibration file"]


def test_a_saved_calibration_is_not_too_deep_to_load(scene, tmp_path):
    frame, _ = scene
    path = tmp_path / "calibration.json"
    calibrate([frame], SPEC.seats).save(path)
    assert Calibration.load(path).seats.keys() == calibrate([frame], SPEC.seats).seats.keys()


def test_still_frames_of_a_dim_noisy_room_are_registered_by_their_smoothed_grey_levels():
    """A dim room, strong sensor noise and JPEG 41 on a checked cloth: a phase correlation of the frames' grey levels
    as they are finds the noise's and the compression blocks' shift, several pixels off, and a median of frames so
    moved blurs the cards it was meant to sharpen. Smoothed over 3 px, what is left is the table's own pattern:
    the shake found is within a pixel of the true one."""
    spec = synth.random_spec(11, seats=8, thrower=2, scenario=synth.Scenario.MISS, light=0.38, noise_sigma=7.3,
                             jpeg_quality=41, shake_px=0.0, drift_px=0.0, print_black=73, print_white=197,
                             blur_sigma=1.4, table_kind="cloth", exposure_change=1.0, rolling_flicker=0.0)
    scene = synth.Scene(spec)
    first, second = scene.render(0), scene.render(1)
    h, w = first.shape[:2]
    window = cv2.createHanningWindow((w, h), cv2.CV_32F)
    for true in ((1.3, -0.8), (0.0, 0.0), (-2.0, 0.5)):
        moved = cv2.warpAffine(second, np.array([[1, 0, true[0]], [0, 1, true[1]]], np.float32), (w, h),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        found = calibration.shake_between(calibration._smoothed(first), moved, window)
        assert np.hypot(found[0] - true[0], found[1] - true[1]) < 1.0, (true, found)
        (dx, dy), _ = cv2.phaseCorrelate(markers.to_gray(first).astype(np.float32),
                                         markers.to_gray(moved).astype(np.float32), window)
        assert np.hypot(dx - true[0], dy - true[1]) > 2.0  # the grey levels as they are: the noise's shift
