"""Percentiles of 8-bit pixels, from their histogram.

Readers set thresholds from percentiles of an image's levels (its paper, its darkest ink).
``np.percentile`` sorts, which for a few thousand pixels costs far more than the rest of
the reading; 8-bit pixels take only 256 values, so counting them gives the same order
statistics at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def percentiles(pixels: np.ndarray, shares: Sequence[float]) -> list[float]:
    """``np.percentile(pixels, shares)`` (its default linear interpolation, shares in
    percent) of a non-empty uint8 array, exactly."""
    if pixels.dtype != np.uint8:
        raise TypeError(f"percentiles of 8-bit pixels only, not {pixels.dtype}")
    if pixels.size == 0:
        raise ValueError("percentiles of no pixels")
    cumulative = np.cumsum(np.bincount(pixels.ravel(), minlength=256))
    last = pixels.size - 1
    out = []
    for share in shares:
        position = share / 100 * last
        below = int(np.floor(position))
        above = min(below + 1, last)
        low, high = (float(v) for v in np.searchsorted(cumulative, (below, above), side="right"))
        fraction = position - below
        # numpy's own interpolation, from whichever end is nearer, so the floats match.
        out.append(low + (high - low) * fraction if fraction < 0.5
                   else high - (high - low) * (1 - fraction))
    return out


def median(pixels: np.ndarray) -> float:
    """``np.median`` of a non-empty uint8 array, exactly."""
    return percentiles(pixels, (50,))[0]
