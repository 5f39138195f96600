"""The aim clips' renderer: its shortcuts draw the frames the whole-frame way would."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import aim_synth


@pytest.fixture(scope="module")
def still_scene() -> aim_synth.AimScene:
    return aim_synth.AimScene(aim_synth.random_spec(8_000_003, fps=30, seats=5, shake_px=0.0, lens_k1=0.14))


def _whole_frame(scene: aim_synth.AimScene, canvas: np.ndarray) -> np.ndarray:
    mx, my = scene._lens
    return cv2.GaussianBlur(cv2.remap(canvas, mx, my, cv2.INTER_LINEAR), (0, 0), scene.spec.blur_sigma)


@pytest.mark.parametrize("box", [(300, 200, 40, 30), (0, 0, 60, 50), (660, 500, 60, 60), (10, 250, 700, 8),
                                 (355, 0, 1, 560), (0, 0, 0, 0)])
def test_a_still_camera_films_a_changed_part_as_it_films_the_whole_frame(still_scene, box):
    x, y, w, h = box
    canvas = still_scene.static.copy()
    rng = np.random.default_rng(x + y)
    canvas[y:y + h, x:x + w] = rng.integers(0, 256, canvas[y:y + h, x:x + w].shape, dtype=np.uint8)
    assert np.array_equal(still_scene._filmed(canvas, 3), _whole_frame(still_scene, canvas))


def test_shadows_blended_where_they_fall_are_blended_as_over_their_whole_box(still_scene):
    img = still_scene.static.copy()
    rng = np.random.default_rng(2)
    groups = [[np.column_stack([rng.uniform(-40, 40, 5), rng.uniform(-30, 30, 5), rng.uniform(2, 40, 5)])
               for _ in range(3)] for _ in range(4)]
    expected = img.copy()
    mask = np.zeros(img.shape[:2], np.uint8)
    for poly in (p for group in groups for p in group):
        shadow = np.column_stack([poly[:, :2] + poly[:, 2:3] * still_scene._sun, np.zeros(len(poly))])
        cv2.fillPoly(mask, [np.round(still_scene.camera.project(shadow)).astype(np.int32)], 255)
    soft = cv2.blur(mask, (9, 9)).astype(np.float32) * (still_scene._shadow / 255.0)
    expected = (expected * (1 - soft[..., None])).astype(np.uint8)
    still_scene._shade(img, groups)
    assert np.array_equal(img, expected) and not np.array_equal(img, still_scene.static)


def test_late_pointers_come_in_when_asked_and_the_default_draws_stay() -> None:
    """``late_arrival``: late pointers that come to rest at the end of the watch (``VERY_LATE``), brought in over
    the picture's edge after the deadline; without it every seed draws the clip it always drew."""
    for seed in range(8_490_100, 8_490_104):
        spec = aim_synth.random_spec(seed, seats=5, behaviours=["late"] * 5, late_arrival=aim_synth.VERY_LATE)
        late = [w for w in spec.weapons if w.behaviour == "late"]
        assert late
        for plan in late:
            assert aim_synth.VERY_LATE[0] <= plan.arrive_at <= aim_synth.VERY_LATE[1]
            assert plan.appear_at > aim_synth.DEADLINE  # out of the picture, or below the table's edge, until then
        assert aim_synth.random_spec(seed) == aim_synth.random_spec(seed, late_arrival=aim_synth.ARRIVE_LATE)
    with pytest.raises(ValueError, match="late_arrival"):
        aim_synth.random_spec(1, late_arrival=(0.2, 1.0))  # before the deadline: not late


def test_a_card_under_a_weapon_held_higher_is_told_hidden_and_a_clear_one_is_not() -> None:
    """``card_hidden`` and ``aim_evaluation.hidden_at_rest``: seat 2's gun of clip 8280000 rests from +0.26 s
    under seat 3's tanto blade, held higher (half its card covered to the end); seat 0's gun of clip 8250008
    comes to rest with nothing over it."""
    from vision.aim_evaluation import hidden_at_rest

    covered = aim_synth.AimScene(aim_synth.random_spec(8_280_000))
    gun = next(w for w in covered.spec.weapons if w.seat == 2)
    assert covered.card_hidden(gun, 0.0) == 0.0
    assert all(0.3 < (covered.card_hidden(gun, t) or 0.0) < 0.7 for t in (0.5, 1.0, 1.5, 2.0))
    assert hidden_at_rest(covered, gun)
    clear = aim_synth.AimScene(aim_synth.random_spec(8_250_008))
    gun = next(w for w in clear.spec.weapons if w.seat == 0)
    assert clear.card_hidden(gun, 1.0) == 0.0 and not hidden_at_rest(clear, gun)
    assert clear.card_hidden(gun, -1.0) is None  # not yet in the picture
