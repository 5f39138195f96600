import cv2
import numpy as np
import pytest

from vision import markers, patches
from vision.patches import MIN_SCORE_AT_REST, Look


def _scene(at: tuple[float, float], noise: float = 0.0, seed: int = 0) -> np.ndarray:
    """A crown card (marker 13 on a white card) on a grey table, its centre at ``at`` (sub-pixel)."""
    table = np.full((200, 240), 90, np.float32)
    card = np.full((44, 44), 235, np.float32)
    card[6:38, 6:38] = markers.marker_image(13, 32)
    m = np.float32([[1, 0, at[0] - 22], [0, 1, at[1] - 22]])
    warped = cv2.warpAffine(card, m, (240, 200), flags=cv2.INTER_LINEAR, borderValue=-1)
    img = np.where(warped >= 0, warped, table)
    if noise:
        img = img + np.random.default_rng(seed).normal(0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_card_is_found_where_it_moved_to_a_tenth_of_a_pixel():
    look = Look.of(_scene((120, 100)), np.array([120.0, 100.0]), 0.6 * 32, search=20)
    assert look is not None
    for dx, dy in [(0.0, 0.0), (0.4, -0.3), (3.6, 1.2), (-7.25, 5.5)]:
        found = look.displacement(_scene((120 + dx, 100 + dy), noise=4.0, seed=1))
        assert found is not None
        assert np.allclose(found[0], (dx, dy), atol=0.15)


def test_a_card_half_covered_by_the_star_is_still_located():
    frame = _scene((122, 101))
    frame[78:102, 95:125] = 40  # a dark star over the card's top-left quarters
    look = Look.of(_scene((120, 100)), np.array([120.0, 100.0]), 0.6 * 32, search=20)
    assert look is not None
    found = look.displacement(frame)
    assert found is not None and np.allclose(found[0], (2, 1), atol=0.3)


@pytest.mark.parametrize("frame", [np.full((200, 240), 90, np.uint8),  # the card gone: plain table
                                   np.random.default_rng(3).integers(0, 255, (200, 240)).astype(np.uint8)])
def test_no_card_is_no_displacement(frame):
    look = Look.of(_scene((120, 100)), np.array([120.0, 100.0]), 0.6 * 32, search=20)
    assert look is not None and look.displacement(frame) is None


def test_a_card_at_the_image_border_has_no_look():
    assert Look.of(_scene((120, 100)), np.array([10.0, 100.0]), 0.6 * 32, search=20) is None


def test_at_rest_a_weak_likeness_is_not_the_card():
    """A standee's picture lying where the card stood can correlate with a quarter of the card by
    0.7 or so; the card at rest correlates with its armed look by far more."""
    look = Look.of(_scene((120, 100)), np.array([120.0, 100.0]), 0.6 * 32, search=20)
    assert look is not None
    still = look.displacement(_scene((120.5, 100), noise=3.0, seed=2), min_score=MIN_SCORE_AT_REST)
    assert still is not None and np.allclose(still[0], (0.5, 0), atol=0.15)
    picture = np.full((200, 240), 200, np.uint8)  # a light card with a dark figure, not a marker
    cv2.ellipse(picture, (124, 96), (9, 12), 0, 0, 360, 60, -1)
    cv2.rectangle(picture, (112, 104), (136, 128), 60, -1)
    assert look.displacement(picture, min_score=MIN_SCORE_AT_REST) is None


def test_a_card_partly_covered_by_something_that_stays_is_followed_by_its_part_in_view():
    rng = np.random.default_rng(3)
    card = cv2.resize(rng.integers(0, 2, (8, 8)).astype(np.float32) * 200 + 30, (64, 64), interpolation=cv2.INTER_NEAREST)
    card = cv2.GaussianBlur(card, (0, 0), 1.0)
    covered = card.copy()
    cv2.circle(covered, (30, 34), 20, 128.0, -1)  # the star lying on it, still
    left = (np.abs(covered - card) < 1.0).astype(np.uint8)
    search = 8
    for dx, dy in ((0.0, 0.0), (2.4, -1.3), (-3.6, 0.7)):
        shifted = cv2.warpAffine(card, np.float32([[1, 0, dx], [0, 1, dy]]), (64, 64), borderMode=cv2.BORDER_REFLECT)
        cv2.circle(shifted, (30, 34), 20, 128.0, -1)  # the star stays where it lies, the card moves under it
        area = cv2.copyMakeBorder(shifted, search, search, search, search, cv2.BORDER_REFLECT)
        found = patches.masked_shift(covered[8:56, 8:56], left[8:56, 8:56], area[8:56 + 2 * search, 8:56 + 2 * search])
        assert found is not None
        # the star's pixels are left out: the part in view is found where the card went, not where the star
        # is; where the card slid under the star the match is pulled back towards where it stood: a swing
        # reads smaller (two thirds of it at least), never larger
        for moved, shift in ((found[0], dx), (found[1], dy)):
            assert abs(moved) <= abs(shift) + 0.1 and (abs(shift) < 0.1 or (moved * shift > 0 and abs(moved) >= 0.66 * abs(shift)))
    assert patches.masked_shift(covered[8:56, 8:56], np.zeros((48, 48), np.uint8), area[8:56 + 2 * search, 8:56 + 2 * search]) is None
