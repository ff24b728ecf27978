"""Percentiles of 8-bit pixels from their histogram are numpy's own, exactly."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scanner.vision.levels import (
    histogram,
    histogram_percentiles,
    levels_below,
    median,
    percentiles,
    row_percentiles,
)

pixels = arrays(np.uint8, st.integers(1, 400))
shares = st.lists(st.floats(0, 100), min_size=1, max_size=5)


@given(pixels, shares)
def test_percentiles_equal_numpys_linear_interpolation(values, wanted):
    assert percentiles(values, wanted) == [float(np.percentile(values, q)) for q in wanted]


@given(pixels)
def test_median_equals_numpys(values):
    assert median(values) == float(np.median(values))


def test_percentiles_of_no_pixels_are_refused():
    with pytest.raises(ValueError, match="no pixels"):
        percentiles(np.zeros(0, np.uint8), (50,))


def test_percentiles_of_wider_pixels_are_refused():
    with pytest.raises(TypeError, match="8-bit"):
        percentiles(np.zeros(4, np.float32), (50,))


@given(pixels, shares)
def test_percentiles_under_a_mask_are_those_of_the_masked_pixels(values, wanted):
    mask = (np.arange(values.size) % 3 == 0).astype(np.uint8) * 255
    assert (histogram_percentiles(histogram(values, mask), wanted)
            == [float(np.percentile(values[mask > 0], q)) for q in wanted])


@given(pixels, st.lists(st.floats(0.01, 1), min_size=1, max_size=5))
def test_levels_below_are_the_least_levels_holding_each_share(values, wanted):
    for share, level in zip(wanted, levels_below(values, wanted), strict=True):
        assert np.count_nonzero(values <= level) >= share * values.size
        assert np.count_nonzero(values < level) < share * values.size


@given(st.lists(pixels, min_size=1, max_size=6), st.floats(0, 100))
def test_percentiles_of_many_histograms_at_once_equal_numpys(groups, share):
    counts = np.stack([histogram(values) for values in groups])
    assert (row_percentiles(counts, share).tolist()
            == [float(np.percentile(values, share)) for values in groups])


def test_percentiles_of_a_histogram_of_no_pixels_are_refused():
    with pytest.raises(ValueError, match="no pixels"):
        row_percentiles(np.zeros((2, 256), np.int64), 50)
