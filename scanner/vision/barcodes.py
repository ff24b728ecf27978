"""Barcodes printed beside a card's index, for dealing machines.

Cards made for duplicate bridge carry a short barcode along their edges, by each corner,
so that a dealing machine can tell them apart. Cut out upright, a few of its bars over any
ink below them look to the corner net like a "10" over a suit: read alone, in a fanned
hand, the barcode would name a ten that is not there. A rank glyph is never one of a row
of alike, solid, straight bars lying side by side; a bar of a barcode always is. (The "1"
of a "10" is a bar, but the "0" beside it is hollow, and the edges of the cards over it
run far longer than a glyph.)
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from .index import INK_DROP, ink

MIN_BAR_PIXELS = 8
BAR_ASPECT = 3.0  # a bar's length over its width, at least
BAR_FILL = 0.6  # the share of its rectangle a bar's ink fills, at least: it is solid
# Of the other bars beside a glyph that is a bar, so many make it one bar of a barcode:
# each parallel to it, about as long, level with it, and no further off than its length.
OTHER_BARS = 2
PARALLEL_DEGREES = 12.0
LENGTH_RATIO = (0.7, 1.4)
LEVEL_SHARE = 0.3  # how far along the bar another's centre may lie, of the bar's length
BESIDE_SHARE = 0.8  # how far across, of the bar's length


class Bar(NamedTuple):
    label: int
    centre: np.ndarray  # x, y
    direction: np.ndarray  # unit vector along the bar
    length: float


def spreads(labels: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each label of ``count`` (the background 0 among them): how far its pixels
    spread along their long axis and across it (variances, from their second moments),
    and that long axis (a unit x, y vector)."""
    ys, xs = np.nonzero(labels)
    which = labels[ys, xs]
    pixels = np.maximum(np.bincount(which, minlength=count), 1)
    mean_x = np.bincount(which, xs, count) / pixels
    mean_y = np.bincount(which, ys, count) / pixels
    xx = np.bincount(which, xs * xs.astype(np.float64), count) / pixels - mean_x ** 2
    yy = np.bincount(which, ys * ys.astype(np.float64), count) / pixels - mean_y ** 2
    xy = np.bincount(which, xs * ys.astype(np.float64), count) / pixels - mean_x * mean_y
    middle, reach = (xx + yy) / 2, np.sqrt(((xx - yy) / 2) ** 2 + xy ** 2)
    angle = np.arctan2(2 * xy, xx - yy) / 2
    return middle + reach, middle - reach, np.stack([np.cos(angle), np.sin(angle)], axis=1)


def bars(window: np.ndarray) -> tuple[np.ndarray, list[Bar]]:
    """The window's ink labelled in 8-connected blobs, and those blobs that are solid
    straight bars: ink spread as a filled rectangle's is (second moments), long and thin."""
    darkest = cv2.bitwise_not(ink(window))
    paper = float(np.percentile(darkest, 90))
    inked = (darkest < paper * (1 - INK_DROP)).astype(np.uint8)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(inked, connectivity=8)
    along, across, axes = spreads(labels, count)
    # A filled rectangle L long and W wide spreads its pixels by L²/12 and W²/12.
    length, width = (np.sqrt(12 * np.maximum(spread, 1 / 12)) for spread in (along, across))
    area = stats[:, cv2.CC_STAT_AREA]
    solid = ((area >= MIN_BAR_PIXELS) & (length >= BAR_ASPECT * width)
             & (area >= BAR_FILL * length * width))
    solid[0] = False  # the background
    return labels, [Bar(int(i), centres[i], axes[i], float(length[i]))
                    for i in np.flatnonzero(solid)]


def in_a_barcode(window: np.ndarray, glyph_at: tuple[float, float]) -> bool:
    """Whether the ink at ``glyph_at`` (x, y; or the blob nearest it) in the window is one
    bar of a barcode."""
    labels, found = bars(window)
    if len(found) <= OTHER_BARS:
        return False
    ys, xs = np.nonzero(labels)
    nearest = int(np.argmin((xs - glyph_at[0]) ** 2 + (ys - glyph_at[1]) ** 2))
    label = int(labels[ys[nearest], xs[nearest]])
    glyph = next((bar for bar in found if bar.label == label), None)
    if glyph is None:
        return False
    alike = 0
    for bar in found:
        if bar.label == glyph.label:
            continue
        offset = bar.centre - glyph.centre
        along = abs(float(offset @ glyph.direction))
        across = abs(float(offset[0] * glyph.direction[1] - offset[1] * glyph.direction[0]))
        parallel = abs(float(bar.direction @ glyph.direction)) >= np.cos(
            np.deg2rad(PARALLEL_DEGREES))
        alike += (parallel and LENGTH_RATIO[0] <= bar.length / glyph.length <= LENGTH_RATIO[1]
                  and along <= LEVEL_SHARE * glyph.length
                  and across <= BESIDE_SHARE * glyph.length)
    return alike >= OTHER_BARS
