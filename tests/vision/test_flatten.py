"""Flattening a card warps only the region around it, yet gives the card a warp of the whole
photo gives."""

import cv2
import numpy as np
import pytest

from scanner.vision.quads import flatten

SIZE = (60, 90)


def photo() -> np.ndarray:
    rng = np.random.default_rng(5)
    return cv2.GaussianBlur(rng.integers(0, 256, (120, 160, 3), np.uint8), (5, 5), 0)


def warp_whole(image: np.ndarray, corners: np.ndarray, border: int) -> np.ndarray:
    w, h = SIZE
    target = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    matrix = cv2.getPerspectiveTransform(corners, target)
    return cv2.warpPerspective(image, matrix, SIZE, flags=cv2.INTER_LINEAR, borderMode=border)


@pytest.mark.parametrize("corners", [
    np.float32([[40.3, 20.7], [95.2, 25.1], [90.8, 110.4], [35.6, 104.9]]),
    np.float32([[-0.8, -0.6], [50.5, 2.2], [47.9, 80.3], [1.4, 77.7]]),  # past the top left
])
@pytest.mark.parametrize("border", [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE])
def test_flattening_from_the_cards_region_matches_warping_the_whole_photo(corners, border):
    image = photo()
    difference = np.abs(flatten(image, corners, SIZE, border).astype(int)
                        - warp_whole(image, corners, border))
    assert difference.max() <= 1  # the four-channel warp rounds a level differently


def test_a_grey_photo_flattens_to_a_grey_card():
    grey = cv2.cvtColor(photo(), cv2.COLOR_BGR2GRAY)
    corners = np.float32([[40, 20], [95, 25], [90, 110], [35, 105]])
    assert flatten(grey, corners, SIZE).shape == (SIZE[1], SIZE[0])
