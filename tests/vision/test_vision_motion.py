"""The motion detector's registration: brightness matched to the reference, clipped pixels too."""

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from vision.motion import Anchors, MotionDetector


def _table(exposure: float, seed: int = 0) -> np.ndarray:
    """An over-exposed table (its brighter half clipped at 255) with dark cards, at ``exposure``."""
    rng = np.random.default_rng(seed)
    x = np.arange(640)
    radiance = 170 + 200 * x / 640 + 20 * np.sin(x / 9.0)[None, :] + np.zeros((480, 1))
    radiance[100:160, 440:500] = 40  # a dark card
    radiance[300:340, 400:470] = 120  # a mid-grey one
    noise = rng.normal(0, 2, (480, 640))
    img = np.clip(radiance * exposure + noise, 0, 255).astype(np.uint8)
    return np.repeat(img[..., None], 3, axis=2)


def test_an_exposure_change_on_a_clipped_table_is_no_motion():
    """Auto exposure darkens an over-exposed table: the clipped pixels come down from 255 by less
    than the rest; nothing moved, so nothing counts as changed."""
    motion = MotionDetector(px_per_cm=7.0, fps=30)
    motion.set_reference([_table(1.0, seed) for seed in range(3)])
    for seed, exposure in enumerate((0.95, 0.85, 0.75, 0.75), start=3):
        motion.update(_table(exposure, seed))
    assert motion.changed_now().mean() < 0.01
    assert not motion.arm_mask().any()


def test_a_card_that_moves_on_a_clipped_table_is_seen():
    motion = MotionDetector(px_per_cm=7.0, fps=30)
    motion.set_reference([_table(1.0, seed) for seed in range(3)])
    frame = _table(0.8, 3)
    frame[100:160, 440:500] = frame[200:260, 440:500]  # the dark card gone from its place
    motion.update(frame)
    changed = motion.changed_now()
    assert changed[25:40, 110:125].mean() > 0.8 and changed.mean() < 0.05


def _texture(seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 255, (240, 320)).astype(np.uint8)
    return cv2.GaussianBlur(cv2.resize(small, (640, 480), interpolation=cv2.INTER_CUBIC), (0, 0), 1.0)


def _moved(img: np.ndarray, dx: float, dy: float) -> np.ndarray:
    return cv2.warpAffine(img, np.float32([[1, 0, dx], [0, 1, dy]]), (img.shape[1], img.shape[0]),
                          borderMode=cv2.BORDER_REFLECT)


def test_fixed_markers_that_disagree_do_not_register_a_frame():
    """A falling standee lies over one of two fixed markers found in a dim frame: that one correlates
    with what covers it, 7 and 15 px off. The median of two disagreeing shifts would put the frame
    between them (and every crown read against it would "move"): no shift instead. Three markers,
    two agreeing: theirs."""
    ref = _texture()
    centres = [np.array([100.0, 100.0]), np.array([500.0, 380.0]), np.array([300.0, 240.0])]
    frame = _moved(ref, 1.0, 0.0)
    covered = _moved(ref, -7.0, -15.0)  # what lies over the last marker moves on its own
    frame[240 - 40:240 + 40, 300 - 40:300 + 40] = covered[240 - 40:240 + 40, 300 - 40:300 + 40]
    two = Anchors([centres[0], centres[2]], (640, 480))
    two.set_reference(ref)
    assert two.shift(frame) is None
    three = Anchors(centres, (640, 480))
    three.set_reference(ref)
    shift = three.shift(frame)
    assert shift is not None and shift == pytest.approx((1.0, 0.0), abs=0.3)


def test_two_fixed_markers_an_arm_sweeps_over_do_not_register_a_frame():
    """The thrower's arm sweeps over two of five fixed markers, which agree on the arm's motion
    (7 and 15 px) while the other three, in a dim frame, correlate with nothing: two of five is no
    registration."""
    ref = _texture()
    centres = [np.array(c, float) for c in ((100, 100), (500, 380), (300, 240), (540, 90), (90, 400))]
    frame = _moved(ref, 1.0, 0.0)
    arm = _moved(ref, -7.0, -15.0)
    rng = np.random.default_rng(3)
    for i, (x, y) in enumerate(((300, 240), (100, 100), (500, 380), (540, 90), (90, 400))):
        patch = (slice(y - 40, y + 40), slice(x - 40, x + 40))
        frame[patch] = arm[patch] if i < 2 else rng.integers(0, 255, (80, 80)).astype(np.uint8)
    anchors = Anchors(centres, (640, 480))
    anchors.set_reference(ref)
    assert anchors.shift(frame) is None


def _rolled(img: np.ndarray, amplitude: float, cycles: float, phase: float = 0.0) -> np.ndarray:
    """``img`` as a rolling shutter films it from a vibrating camera: row ``y`` shifted by
    ``amplitude`` px along x (and 0.7 of it along y) times a sine over ``cycles`` cycles down the frame."""
    h, w = img.shape[:2]
    rows = amplitude * np.sin(2 * np.pi * cycles * np.arange(h) / h + phase).astype(np.float32)[:, None]
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(img, xs + rows, ys + 0.7 * rows, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


_ANCHORS_DOWN_THE_FRAME = [np.array(c, float) for c in ((80, 60), (560, 60), (200, 150), (440, 170), (120, 250),
                                                        (520, 270), (260, 340), (400, 360), (80, 420), (560, 420))]


def _spread(anchors: Anchors, frame: np.ndarray) -> float:
    """How far apart the fixed markers' shifts lie in ``frame`` (px, the larger of x and y)."""
    found = np.array(anchors.each_shift(frame))[:, 1:]
    assert len(found) == len(anchors.boxes)
    return float(np.ptp(found, axis=0).max())


def test_a_rolling_shutter_s_bent_rows_are_put_back_in_line():
    """A vibrating camera filmed by a rolling shutter: each row shifted by where the camera was when it was
    read, up to 2.5 px either way over 0.8 of a cycle down the frame. The fixed markers, from the top of the
    image to its bottom, disagree by 4-5 px: half of them agree on no shift; steadied, they agree to a few
    tenths of a pixel, and the frame is registered as a shaking one is."""
    ref = _texture()
    anchors = Anchors(_ANCHORS_DOWN_THE_FRAME, (640, 480))
    anchors.set_reference(ref)
    frame = _moved(_rolled(ref, 2.5, 0.8), 1.0, 0.5)
    assert _spread(anchors, frame) > 4.0
    steadied = anchors.steady(frame)
    assert steadied is not frame and _spread(anchors, steadied) < 0.8
    assert anchors.shift(steadied) is not None


@pytest.mark.parametrize("cycles", [1.2, 1.8])
def test_rows_bent_by_a_fast_vibration_are_put_back_in_line(cycles):
    """A camera mount ringing at 45-70 Hz under a rolling shutter that reads a frame's rows in 27 ms: 1.2-1.8
    cycles of the vibration down one frame, more than any cubic of the row follows (such frames were left bent,
    and every crown seemed to move). One wave of the rows is followed: steadied, the fixed markers agree to within a
    pixel (each marker's patch, 64 rows high, averages a bend that changes within it)."""
    ref = _texture()
    anchors = Anchors(_ANCHORS_DOWN_THE_FRAME, (640, 480))
    anchors.set_reference(ref)
    frame = _moved(_rolled(ref, 2.0, cycles, 0.7), 1.0, 0.5)
    assert _spread(anchors, frame) > 3.0
    steadied = anchors.steady(frame)
    assert steadied is not frame and _spread(anchors, steadied) < 1.0
    assert anchors.shift(steadied) is not None


def test_rows_far_from_every_fixed_marker_are_put_back_in_line_with_a_doubt():
    """Six fixed markers found on three bands of rows (83-93, 306-311, 408-418): a ringing camera's rolling shutter bent
    the rows by one wave, 1.1 cycles down the frame. Waves of several frequencies pass by all six markers and part in
    the rows between the bands: the frame is steadied, and each row says how far it may still be off, a few tenths of a
    pixel on the markers' rows, several pixels half-way between (a crown there seen to move in this frame alone may have
    moved by the bend). Markers down the whole frame leave no row in doubt by more than a pixel and a half."""
    ref = _texture()
    frame = _moved(_rolled(ref, 2.5, 1.1, 2.0), 1.0, 0.5)
    bands = [np.array(c, float) for c in ((100, 83), (540, 93), (200, 306), (440, 311), (90, 408), (560, 418))]
    anchors = Anchors(bands, (640, 480))
    anchors.set_reference(ref)
    assert anchors.steady(frame) is not frame
    assert max(anchors.row_doubt(row) for row in (88, 308, 413)) < 1.0
    assert min(anchors.row_doubt(row) for row in range(150, 260, 10)) > 3.0
    anchors = Anchors(_ANCHORS_DOWN_THE_FRAME, (640, 480))
    anchors.set_reference(ref)
    assert anchors.steady(frame) is not frame
    assert max(anchors.row_doubt(row) for row in range(60, 421, 10)) < 1.5
    shaken = _moved(ref, 1.5, -1.0)
    assert anchors.steady(shaken) is shaken and anchors.row_doubt(200) == 0.0


def test_a_clear_fixed_marker_off_the_frame_s_shift_leaves_every_row_in_doubt():
    """A ringing camera smears a frame's rows, bent too sharply for a bend through the markers: the markers agree on a
    shift but one, as clear as at rest (nothing over it), lies 2.1 px off it. Its rows moved otherwise, and the rows
    between it and the others are unknown: every row is in doubt by that much. An arm over a marker is no such sign:
    it correlates with the arm, not clearly, and leaves no doubt."""
    ref = _texture()
    anchors = Anchors(_ANCHORS_DOWN_THE_FRAME, (640, 480))
    anchors.set_reference(ref)
    frame = _moved(ref, 1.0, 0.5)
    assert anchors.shift(frame) == pytest.approx((1.0, 0.5), abs=0.3)
    assert anchors.row_doubt(200) < 0.3
    x, y = 120, 250
    patch = (slice(y - 40, y + 40), slice(x - 40, x + 40))
    bent = frame.copy()
    bent[patch] = _moved(ref, 3.2, 0.5)[patch]
    assert anchors.shift(bent) == pytest.approx((1.0, 0.5), abs=0.3)
    assert all(anchors.row_doubt(row) == pytest.approx(2.1, abs=0.3) for row in (60, 250, 420))
    covered = frame.copy()
    covered[patch] = _texture(seed=5)[patch]
    assert anchors.shift(covered) == pytest.approx((1.0, 0.5), abs=0.3)
    assert anchors.row_doubt(250) < 0.3


def test_a_shaking_frame_and_an_arm_over_two_markers_bend_no_rows():
    """A camera that shakes as a whole moves every row alike: the frame is left as it is. So is one where an
    arm lies over two of the fixed markers (they correlate with the arm): the others agree on one shift."""
    ref = _texture()
    anchors = Anchors(_ANCHORS_DOWN_THE_FRAME, (640, 480))
    anchors.set_reference(ref)
    shaken = _moved(ref, 1.5, -1.0)
    assert anchors.steady(shaken) is shaken
    arm = _moved(ref, -4.0, 3.0)
    for x, y in ((200, 150), (120, 250)):
        patch = (slice(y - 40, y + 40), slice(x - 40, x + 40))
        shaken[patch] = arm[patch]
    assert anchors.steady(shaken) is shaken


def test_one_marker_at_the_end_of_the_rows_asks_for_no_bend():
    """A hand reaches over the topmost fixed marker, alone on its rows: it correlates 9 px off, the others agree
    on one shift. A polynomial of the rows could follow it with a bend at the top (and the crowns there would
    "move"): no other marker foretells it, so no row is moved."""
    ref = _texture()
    centres = [np.array((320.0, 45.0)), *_ANCHORS_DOWN_THE_FRAME[2:]]
    anchors = Anchors(centres, (640, 480))
    anchors.set_reference(ref)
    frame = _moved(ref, -1.0, -0.7)
    hand = _moved(ref, 7.8, -2.1)
    frame[5:85, 280:360] = hand[5:85, 280:360]
    assert anchors.steady(frame) is frame


_CORNERS = [np.array(c, float) for c in ((60, 60), (580, 60), (60, 420), (580, 420))]


def test_fixed_markers_agreeing_on_a_few_rows_do_not_vouch_for_a_bent_frame():
    """Only the four corner markers are found, on two rows; a vibrating camera's rolling shutter bent the upper
    rows 2 px away from the lower ones, and no bend of the rows can be followed on two rows. The upper two agree
    with each other, the lower two too: either pair's shift holds for its own rows only, and crowns read against
    it elsewhere would "move". No shift. A frame moved alike everywhere has one; so has one where an arm lies
    over the two right-hand markers, the left-hand pair agreeing from the top of the image to its bottom."""
    ref = _texture()
    anchors = Anchors(_CORNERS, (640, 480))
    anchors.set_reference(ref)
    h, w = ref.shape
    bend = (3.0 * (1 - np.arange(h, dtype=np.float32) / h) ** 3)[:, None]
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    bent = cv2.remap(ref, xs + bend, ys + 0.5 * bend, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    assert _spread(anchors, bent) > 1.5
    assert anchors.steady(bent) is bent and anchors.shift(bent) is None
    moved = _moved(ref, 1.0, 0.5)
    assert anchors.shift(moved) == pytest.approx((1.0, 0.5), abs=0.3)
    arm = _moved(ref, -6.0, 4.0)
    for x, y in ((580, 60), (580, 420)):
        patch = (slice(y - 40, y + 40), slice(x - 40, x + 40))
        moved[patch] = arm[patch]
    assert anchors.shift(moved) == pytest.approx((1.0, 0.5), abs=0.3)


def test_fixed_markers_that_barely_correlate_do_not_register_a_frame(monkeypatch):
    """A frame gone bad under shake in a dim room: three of six fixed markers correlate with their
    reference by 0.15-0.2 only, agreeing on a shift of 11 px (the crowns, read against it, all
    "moved" 1.5-2 cm); the others correlate with nothing. Markers in view correlate by far more:
    these register nothing, and no marker's picture is there to be matched either."""
    ref = _texture()
    anchors = Anchors([np.array(c, float) for c in ((100, 100), (500, 380), (300, 240), (540, 90), (90, 400),
                                                    (400, 100))], (640, 480))
    anchors.set_reference(ref)
    readings = iter([((9.0, 7.0), 0.2), ((9.3, 7.1), 0.18), ((8.8, 6.9), 0.19), ((-14.0, 11.0), 0.0),
                     ((0.1, 0.2), 0.1), ((5.0, -3.0), 0.05)])
    monkeypatch.setattr(cv2, "phaseCorrelate", lambda *a, **k: next(readings))
    gone_bad = _texture(seed=2)
    assert anchors.shift(gone_bad) is None


def _dim_jpeg_table(seed: int, dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
    """A dim table (grey 52) with five dark, low-contrast markers, moved by (dx, dy), through sensor noise of 8.4
    grey levels and a JPEG of quality 74: its 8 px block grid stays where it is while the picture moves."""
    rng = np.random.default_rng(seed)
    img = np.full((480, 640), 52.0, np.float32)
    for cx, cy in _DIM_MARKERS:
        img[cy - 20:cy + 20, cx - 20:cx + 20] = 22
        img[cy - 10:cy + 10, cx - 12:cx + 2] = 48
        img[cy - 6:cy + 14, cx + 2:cx + 8] = 46
    img = _moved(cv2.GaussianBlur(img, (0, 0), 1.0), dx, dy)
    img = np.repeat(np.clip(img + rng.normal(0, 8.4, img.shape), 0, 255).astype(np.uint8)[..., None], 3, axis=2)
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 74])[1], cv2.IMREAD_COLOR)


_DIM_MARKERS = ((100, 88), (540, 88), (320, 240), (100, 400), (540, 400))


def test_a_dim_noisy_marker_phase_correlation_misses_is_found_by_its_picture(monkeypatch):
    """In a dim, noisy JPEG frame phase correlation, which weighs every spatial frequency alike, finds no shift of
    some low-contrast fixed markers (the noise and the block grid outweigh them), and frames of a vibrating
    camera lost so many that their bent rows went unsteadied. Such a marker is matched by its picture: every
    marker of 20 such frames is found; and when phase correlation misses them all, each is found to 0.5 px."""
    centres = [np.array(c, float) for c in _DIM_MARKERS]
    anchors = Anchors(centres, (640, 480))
    found = []
    for seed in range(20):
        anchors.set_reference(_dim_jpeg_table(100 + seed))
        found += anchors.each_shift(_dim_jpeg_table(seed, 2.0, 1.0))
    assert len(found) == 100
    monkeypatch.setattr(cv2, "phaseCorrelate", lambda *a, **k: ((0.0, 0.0), 0.05))
    anchors.set_reference(_dim_jpeg_table(7))
    found = anchors.each_shift(_dim_jpeg_table(8, 2.0, 1.0))
    assert len(found) == 5 and all(abs(dx - 2.0) < 0.5 and abs(dy - 1.0) < 0.5 for _, dx, dy in found)


STANDEE_LYING = (slice(200, 260), slice(240, 400), 11)  # a standee of nearly the table's shade lying on it
HAND_RESTING = (slice(200, 240), slice(0, 330), 12)  # a still hand and forearm reaching in from the left border


def _dim_table(seed: int, thing: tuple[slice, slice, int] | None = None) -> np.ndarray:
    """A dim, noisy table (grey 40, sensor noise 6 grey levels); ``thing``: rows, columns and how many grey
    levels lighter than the table something of nearly its shade lies there."""
    img = np.full((480, 640), 40.0)
    if thing is not None:
        rows, cols, lighter = thing
        img[rows, cols] += lighter
    img += np.random.default_rng(seed).normal(0, 6, img.shape)
    return np.repeat(np.clip(img, 0, 255).astype(np.uint8)[..., None], 3, axis=2)


def _median_before_and_after(thing: tuple[slice, slice, int],
                             read: Callable[[MotionDetector], np.ndarray | None]) -> tuple[MotionDetector, np.ndarray, np.ndarray]:
    """A detector referenced on the dim table, ``read`` (a median reading) after five still frames of the table alone
    and after five more with ``thing`` on it; None before any frame since the reference."""
    motion = MotionDetector(px_per_cm=7.0, fps=30)
    motion.set_reference([_dim_table(seed) for seed in range(3)])
    assert read(motion) is None  # no frame since the reference
    for seed in range(3, 8):
        motion.update(_dim_table(seed))
    quiet = read(motion)
    for seed in range(8, 13):
        motion.update(_dim_table(seed, thing))
    after = read(motion)
    assert quiet is not None and after is not None
    return motion, quiet, after


def test_a_change_of_little_contrast_shows_whole_in_the_median_of_still_frames():
    """One frame's noise hides most of a dim standee lying on a table of nearly its shade; in the
    median of five still frames it shows whole, and the noise alone shows nothing."""
    motion, quiet, at_rest = _median_before_and_after(STANDEE_LYING, MotionDetector.changed_at_rest)
    assert quiet.mean() < 0.002
    lying = np.zeros(at_rest.shape, bool)
    lying[52:63, 62:98] = True  # the standee's inside, at a quarter of the frame's size
    assert motion.changed_now()[lying].mean() < 0.3
    assert at_rest[lying].mean() > 0.9
    assert at_rest[~cv2.dilate(lying.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)].mean() < 0.002


def _unevenly_lit_table(seed: int, uneven: float, lying: tuple[slice, slice, int] | None = None) -> np.ndarray:
    """A grey table (sensor noise 3 grey levels) whose light changed by up to ``uneven`` grey levels, differently
    from column to column (a second lamp dimmed as the room's exposure changed): no row's brightness evens it out.
    ``lying``: rows, columns and how many grey levels lighter something lies there."""
    img = np.full((480, 640), 90.0) + uneven * np.sin(np.arange(640) / 25.0)[None, :]
    if lying is not None:
        rows, cols, lighter = lying
        img[rows, cols] += lighter
    img += np.random.default_rng(seed).normal(0, 3, img.shape)
    return np.repeat(np.clip(img, 0, 255).astype(np.uint8)[..., None], 3, axis=2)


def test_light_no_row_evens_out_shows_no_change_in_the_median_of_still_frames():
    """The table's light changed by eight grey levels, more in some columns than others: at the median's lowered
    threshold most of the view would show changed, specks that add up beside a star to a fallen standee. The
    threshold stays above the difference most of the table shows; a standee lying there, 40 grey levels lighter,
    still shows whole."""
    motion = MotionDetector(px_per_cm=7.0, fps=30)
    motion.set_reference([_unevenly_lit_table(seed, 0.0) for seed in range(3)])
    for seed in range(3, 8):
        motion.update(_unevenly_lit_table(seed, 8.0))
    quiet = motion.changed_at_rest()
    assert quiet is not None and quiet.mean() < 0.01
    for seed in range(8, 13):
        motion.update(_unevenly_lit_table(seed, 8.0, (slice(200, 260), slice(240, 400), 40)))
    at_rest = motion.changed_at_rest()
    assert at_rest is not None
    assert at_rest[52:63, 62:98].mean() > 0.9  # the standee's inside, at a quarter of the frame's size
    assert at_rest[:40].mean() < 0.01


def _barrel_view(seed: int) -> np.ndarray:
    """A table (mid grey, textured, with black-bordered cards inside the picture) whose picture ends short of the
    frame's border: black beyond a rounded edge, 12 to 45 px in, as a frame with its lens's barrel drawn or undone."""
    rng = np.random.default_rng(seed)
    img = (110 + 20 * _texture(7) / 255.0 + rng.normal(0, 2, (480, 640))).astype(np.float32)
    for x, y in ((150, 200), (450, 120), (600, 240)):
        img[y:y + 30, x:x + 30] = 5  # a card's black print, inside the picture
        img[y + 8:y + 22, x + 8:x + 22] = 230
    yy, xx = np.mgrid[0:480, 0:640]
    img[np.abs((xx - 320) / 305.0) ** 6 + np.abs((yy - 240) / 228.0) ** 6 > 1.0] = 0
    return np.repeat(np.clip(img, 0, 255).astype(np.uint8)[..., None], 3, axis=2)


def test_an_arm_reaching_in_from_where_the_picture_ends_short_of_the_frame_is_an_arm():
    """Barrel distortion drawn into the frames leaves them black beyond the picture's rounded edge. An arm reaching
    in from the side ends where the picture ends, 20 px short of the frame's border: it comes from outside the view
    all the same. A star-sized blob inside the picture, and the black print of a card there, are not."""
    motion = MotionDetector(px_per_cm=6.0, fps=30)
    motion.set_reference([_barrel_view(seed) for seed in range(3)])
    assert motion.rim is not None and not motion.rim[60, 160 // 4 + 5] and not motion.rim[(200 + 15) // 4, (150 + 15) // 4]
    frame = _barrel_view(3)
    picture = frame[240, :, 0] > 0
    right = int(np.nonzero(picture)[0].max())
    assert right < 630  # the picture ends short of the frame's border
    frame[220:270, 480:right + 1][picture[480:right + 1][None, :].repeat(50, axis=0)] = (150, 170, 200)  # an arm
    frame[330:345, 250:265] = (40, 160, 60)  # a star
    motion.update(frame)
    arms = motion.arm_mask()
    assert arms[245 // 4, 500 // 4] and not arms[337 // 4, 257 // 4] and not arms[215 // 4, 165 // 4]
    assert motion.reaches_rim(motion.changed_now() & arms) and not motion.reaches_rim(motion.changed_now() & ~arms)


def test_a_dark_table_in_a_dark_room_is_no_end_of_the_picture():
    """A black cloth in a dark room is as unlit as a lens's black corners, and joined to the frame's border too, but
    it reaches deep into the frame and covers most of it: the view's border stays the frame's, and a star on the
    cloth is no arm."""
    rng = np.random.default_rng(0)

    def dark(seed: int) -> np.ndarray:
        img = np.clip(6 + rng.normal(0, 1.5, (480, 640)), 0, 255).astype(np.uint8)
        img[200:260, 280:340] = 200  # a white card
        return np.repeat(img[..., None], 3, axis=2)

    motion = MotionDetector(px_per_cm=6.0, fps=30)
    motion.set_reference([dark(seed) for seed in range(3)])
    edge = np.zeros_like(motion.rim)
    edge[0] = edge[-1] = edge[:, 0] = edge[:, -1] = True
    assert (motion.rim == edge).all()
    frame = dark(3)
    frame[100:115, 100:115] = (60, 200, 80)  # a star
    motion.update(frame)
    assert motion.changed_now()[107 // 4, 107 // 4] and not motion.arm_mask().any()


def test_a_faint_still_hand_is_traced_from_the_border_in_the_median_of_still_frames():
    """One frame's noise breaks a faint hand's arm into parts, and its fingers are not traced to the border;
    in the median of five still frames the arm is traced to the fingers, and the noise alone traces nothing."""
    motion, quiet, at_rest = _median_before_and_after(HAND_RESTING, MotionDetector.arm_mask_at_rest)
    assert not quiet.any()
    fingers = np.zeros(at_rest.shape, bool)
    fingers[52:58, 70:80] = True  # the hand's end, at a quarter of the frame's size
    assert motion.arm_mask()[fingers].mean() < 0.3
    assert at_rest[fingers].mean() > 0.8
    assert not at_rest[80:, :].any()  # nothing traced away from the hand


def _scattered(seed: int, at: tuple[int, int] | None, lone: bool = False) -> np.ndarray:
    """A dim table (grey 40, sensor noise 1.5 grey levels). ``at``: a star-sized thing 40 px across there that
    shows only in scattered pixels (every other 4 px square of a checkerboard 22 grey levels lighter: a star
    dimmed by the room and blurred by its flight, half its pixels under the threshold). ``lone``: single 4 px
    squares as much lighter, 32 px apart all over the table (lone changed pixels at a quarter of the size)."""
    img = np.full((480, 640), 40.0)
    if at is not None:
        y, x = at
        yy, xx = np.mgrid[0:40, 0:40]
        img[y:y + 40, x:x + 40] += 22.0 * ((yy // 4 + xx // 4) % 2 == 0)
    if lone:
        yy, xx = np.mgrid[0:480, 0:640]
        img += 22.0 * ((yy % 32 >= 8) & (yy % 32 < 12) & (xx % 32 >= 8) & (xx % 32 < 12))
    img += np.random.default_rng(seed).normal(0, 1.5, img.shape)
    return np.repeat(np.clip(img, 0, 255).astype(np.uint8)[..., None], 3, axis=2)


def test_a_star_seen_only_in_scattered_pixels_is_motion_and_lone_pixels_are_not():
    """No 2 by 2 block of the dim star's low-resolution pixels is changed whole, but each changed one has changed
    ones beside it: it stirs (more pixels than 0.3 of the star's, the judge's quiet, enough to leave waiting for a
    throw). Lone changed pixels, as many, do not."""
    motion = MotionDetector(px_per_cm=7.0, fps=30)
    motion.set_reference([_scattered(seed, None) for seed in range(3)])
    assert motion.update(_scattered(3, None)).stirred == 0
    flying = motion.update(_scattered(4, (200, 200)))
    assert flying.stirred >= 40 > 0.3 * motion.star_area / 16 and flying.activity == 0
    motion = MotionDetector(px_per_cm=7.0, fps=30)
    motion.set_reference([_scattered(seed, None) for seed in range(3)])
    motion.update(_scattered(3, None))
    assert motion.update(_scattered(4, None, lone=True)).stirred == 0


def test_a_shaken_camera_s_new_picture_at_the_frame_s_sides_is_no_motion():
    """A camera shaken by up to 2.5 px each frame over a table textured to its edges: each frame shows a sliver of
    table at one side the reference did not, and registering it fills the other side with copies of its edge. Nothing
    on the table moved: no frame shows activity (else the table never seems still and no throw is judged)."""
    rng = np.random.default_rng(4)
    small = rng.integers(0, 255, (130, 170)).astype(np.uint8)
    wide = cv2.GaussianBlur(cv2.resize(small, (680, 520), interpolation=cv2.INTER_CUBIC), (0, 0), 4.0)
    wide = np.repeat(wide[..., None], 3, axis=2)

    def view(dx: float, dy: float) -> np.ndarray:
        m = np.float32([[1, 0, -20 - dx], [0, 1, -20 - dy]])
        return cv2.warpAffine(wide, m, (640, 480), flags=cv2.INTER_LINEAR)

    motion = MotionDetector(px_per_cm=7.0, fps=30)
    motion.set_reference([view(0.0, 0.0), view(0.3, -0.2), view(-0.2, 0.1)])
    activity = [motion.update(view(*rng.uniform(-2.5, 2.5, 2))).activity for _ in range(12)]
    assert activity == [0] * 12
