"""Percentiles of 8-bit pixels, from their histogram.

Readers set thresholds from percentiles of an image's levels (its paper, its darkest ink).
``np.percentile`` sorts, which for a few thousand pixels costs far more than the rest of
the reading; 8-bit pixels take only 256 values, so counting them gives the same order
statistics at once. Counting under a mask also spares copying the masked pixels out.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

_MAX_PIXELS = 1 << 24  # cv2.calcHist counts in float32, exact up to here


def histogram(pixels: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """How many of the uint8 ``pixels`` (where ``mask`` is non-zero, if given) take each
    of the 256 levels."""
    if pixels.dtype != np.uint8:
        raise TypeError(f"a histogram of 8-bit pixels only, not {pixels.dtype}")
    if pixels.size > _MAX_PIXELS:
        raise ValueError(f"{pixels.size} pixels: too many to count exactly")
    image = np.ascontiguousarray(pixels if pixels.ndim == 2 else pixels.reshape(1, -1))
    if mask is not None:
        mask = np.ascontiguousarray(mask.reshape(image.shape), np.uint8)
    counts = cv2.calcHist([image], [0], mask, [256], [0, 256])
    return counts.ravel().astype(np.int64)


def percentiles(pixels: np.ndarray, shares: Sequence[float]) -> list[float]:
    """``np.percentile(pixels, shares)`` (its default linear interpolation, shares in
    percent) of a non-empty uint8 array, exactly."""
    return histogram_percentiles(histogram(pixels), shares)


def median(pixels: np.ndarray) -> float:
    """``np.median`` of a non-empty uint8 array, exactly."""
    return percentiles(pixels, (50,))[0]


def histogram_percentiles(counts: np.ndarray, shares: Sequence[float]) -> list[float]:
    """``percentiles`` of the pixels a ``histogram`` counted."""
    cumulative = np.cumsum(counts)
    total = int(cumulative[-1])
    if total == 0:
        raise ValueError("percentiles of no pixels")
    last = total - 1
    out = []
    for share in shares:
        position = share / 100 * last
        below = int(np.floor(position))
        above = min(below + 1, last)
        low, high = (float(v) for v in np.searchsorted(cumulative, (below, above), side="right"))
        out.append(float(_between(low, high, position - below)))
    return out


def row_percentiles(counts: np.ndarray, share: float) -> np.ndarray:
    """``histogram_percentiles`` of each row of ``counts`` (histograms × 256), at one
    ``share``, all at once."""
    cumulative = np.cumsum(counts, axis=1)
    if not cumulative[:, -1].all():
        raise ValueError("percentiles of no pixels")
    last = cumulative[:, -1] - 1
    position = share / 100 * last
    below = np.floor(position)
    above = np.minimum(below + 1, last)
    # Where each order statistic falls: how many cumulative counts lie at or below it.
    low = (cumulative <= below[:, None]).sum(axis=1).astype(float)
    high = (cumulative <= above[:, None]).sum(axis=1).astype(float)
    return _between(low, high, position - below)


def _between(low: float | np.ndarray, high: float | np.ndarray,
             fraction: float | np.ndarray) -> np.ndarray:
    """numpy's own interpolation between two neighbouring order statistics, from whichever
    end is nearer, so the floats match ``np.percentile``'s."""
    return np.where(fraction < 0.5, low + (high - low) * fraction,
                    high - (high - low) * (1 - fraction))


def levels_below(pixels: np.ndarray, shares: Sequence[float]) -> list[float]:
    """The least grey levels below or at which these shares (0..1) of the uint8 ``pixels``
    lie: order statistics without interpolation."""
    cumulative = np.cumsum(histogram(pixels))
    return [float(np.searchsorted(cumulative, share * cumulative[-1])) for share in shares]
