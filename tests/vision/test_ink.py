"""Ink is each pixel's darkest channel, inverted, for any crop or turn of a card."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scanner.vision.index import ink

colour_images = st.tuples(st.integers(1, 40), st.integers(1, 40)).flatmap(
    lambda size: arrays(np.uint8, (*size, 3)))


def darkest_inverted(image: np.ndarray) -> np.ndarray:
    return 255 - image.min(axis=2)


@given(colour_images)
def test_ink_is_the_darkest_channel_inverted(image):
    assert np.array_equal(ink(image), darkest_inverted(image))


@given(colour_images, st.integers(0, 5), st.integers(0, 5))
def test_ink_of_a_crop_is_the_crop_of_the_ink(image, top, left):
    crop = image[top:, left:]
    if crop.size:
        assert np.array_equal(ink(crop), darkest_inverted(image)[top:, left:])


@given(colour_images)
def test_ink_of_a_half_turned_view_is_the_half_turned_ink(image):
    assert np.array_equal(ink(image[::-1, ::-1]), darkest_inverted(image)[::-1, ::-1])
