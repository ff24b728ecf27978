"""Find the corner index of a rectified card and cut it into a rank glyph and a suit glyph.

A card carries its index (rank above suit) in the top-left corner and, turned half a
turn, in the bottom-right one; so a card rectified upright or upside down shows an upright
index in both places. Each corner is binarised on its own, its ink is split into
connected components, and components that share rows form a band: the first band is the
rank (``1`` and ``0`` of a ten are two components on one row), the next is the suit. Ink
that touches the edge of the corner window (a border line, a pip, the table) is ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from ..cards import Suit
from .levels import histogram, histogram_percentiles

CANONICAL_SIZE = (240, 360)  # width, height a rectified card is resized to before reading
# Fraction of width and height searched for the index: tall enough for the big indices of
# real decks (ancient-egyptians, bellot), whose suit pip sits lower than a third down.
CORNER_WINDOW = (0.255, 0.40)
GLYPH_SIDE = 22
FEATURE_SIZE = GLYPH_SIDE * GLYPH_SIDE + 1

_MIN_CONTRAST = 40  # ink levels between paper and glyph; below this there is no print
_MIN_GLYPH_H = 0.028  # of the card height
_MAX_GLYPH_H = 0.18  # real decks' rank glyphs reach 0.14 of the card's height
_MAX_STRAY_COMPONENTS = 3  # more loose ink than this around the index means it is no index


# Ink colour classes, after white balance against the card's own paper.
NEUTRAL, WARM, GREEN, BLUE = "neutral", "warm", "green", "blue"
INKS = (NEUTRAL, WARM, GREEN, BLUE)  # every class ``_ink_class`` gives
_NEUTRAL_CHROMA = 0.22  # chroma per unit of darkness below which ink counts as black
# Which inks each suit is printed in, across two-colour and four-colour decks.
SUIT_INKS: dict[Suit, frozenset[str]] = {
    Suit.S: frozenset({NEUTRAL}),
    Suit.H: frozenset({WARM}),
    Suit.D: frozenset({WARM, BLUE}),
    Suit.C: frozenset({NEUTRAL, GREEN}),
}


def ink_allows(suit: Suit, ink_class: str | None,
               inks: Mapping[Suit, frozenset[str]] = SUIT_INKS) -> bool:
    """Whether a suit could be printed in this ink (``inks``: each suit's, by default the
    families real decks use); an unknown ink rules nothing out."""
    return ink_class is None or ink_class in inks[suit]


def suits_ruled_out(ink_class: str | None,
                    inks: Mapping[Suit, frozenset[str]] = SUIT_INKS) -> frozenset[Suit]:
    return frozenset(suit for suit in Suit if not ink_allows(suit, ink_class, inks))


@dataclass(frozen=True)
class CornerGlyphs:
    """The two glyphs cut from one corner, as feature vectors, or None where none was found;
    and the colour class of the suit's ink."""

    rank: np.ndarray | None
    suit: np.ndarray | None
    clean: bool
    suit_ink: str | None = None


def canonical(card_img: np.ndarray) -> np.ndarray:
    """Resize a rectified card to the reader's canonical size."""
    if card_img.ndim == 2:
        card_img = cv2.cvtColor(card_img, cv2.COLOR_GRAY2BGR)
    if card_img.shape[1] == CANONICAL_SIZE[0] and card_img.shape[0] == CANONICAL_SIZE[1]:
        return card_img
    return cv2.resize(card_img, CANONICAL_SIZE, interpolation=cv2.INTER_AREA)


_ACROSS_CHANNELS = np.ones((1, 3), np.uint8)
# Share of the paper's level by which the darkest channel drops on printed ink, in a photo
# found by the index finder and the barcode check alike: a shadow dims ink and paper alike.
INK_DROP = 0.27


def ink(img: np.ndarray) -> np.ndarray:
    """How much ink covers each pixel: the darkest channel, inverted (any ink colour is dark
    in at least one channel, white paper is bright in all three)."""
    # Along a row of interleaved B, G, R, a 1×3 erosion centred on each G is the pixel's
    # darkest channel: one vector pass, where numpy's minimum strides through three views.
    h, w = img.shape[:2]
    darkest = cv2.erode(img.reshape(h, w * 3), _ACROSS_CHANNELS)[:, 1::3]
    return cv2.bitwise_not(darkest)


def corners(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The top-left window and the bottom-right window turned upright, of a canonical card."""
    h, w = card.shape[:2]
    cw, ch = int(w * CORNER_WINDOW[0]), int(h * CORNER_WINDOW[1])
    top_left = card[:ch, :cw]
    bottom_right = card[h - ch:, w - cw:][::-1, ::-1]
    return top_left, bottom_right


def in_a_square(mask: np.ndarray, side: int) -> np.ndarray:
    """A shape's 0..255 coverage image centred in a square, keeping its proportions, and
    shrunk (or grown) to ``side`` pixels a side."""
    h, w = mask.shape
    big = max(h, w)
    square = np.zeros((big, big), np.uint8)
    y0, x0 = (big - h) // 2, (big - w) // 2
    square[y0:y0 + h, x0:x0 + w] = mask
    return cv2.resize(square, (side, side), interpolation=cv2.INTER_AREA)


def glyph_feature(mask: np.ndarray) -> np.ndarray:
    """A glyph's 0..255 coverage image as a unit vector: centred in a square, scaled, plus
    its aspect."""
    h, w = mask.shape
    small = in_a_square(mask, GLYPH_SIDE)
    vec = np.empty(FEATURE_SIZE, np.float32)
    vec[:-1] = small.reshape(-1).astype(np.float32) / 255.0
    vec[:-1] -= vec[:-1].mean()
    vec[-1] = 0.35 * np.log(h / w)
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm > 1e-6 else vec


def _bands(stats: np.ndarray, keep: list[int]) -> list[list[int]]:
    """Group components whose rows overlap, top to bottom."""
    order = sorted(keep, key=lambda i: stats[i, cv2.CC_STAT_TOP])
    bands: list[list[int]] = []
    extents: list[list[int]] = []
    for i in order:
        top = stats[i, cv2.CC_STAT_TOP]
        bottom = top + stats[i, cv2.CC_STAT_HEIGHT]
        if extents and top < extents[-1][1] - 1:
            bands[-1].append(i)
            extents[-1][1] = max(extents[-1][1], bottom)
        else:
            bands.append([i])
            extents.append([top, bottom])
    return bands


def _band_box(stats: np.ndarray, band: list[int]) -> tuple[int, int, int, int]:
    x0 = min(stats[i, cv2.CC_STAT_LEFT] for i in band)
    y0 = min(stats[i, cv2.CC_STAT_TOP] for i in band)
    x1 = max(stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH] for i in band)
    y1 = max(stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT] for i in band)
    return x0, y0, x1, y1


def _band_feature(amount: np.ndarray, labels: np.ndarray, stats: np.ndarray, band: list[int],
                  paper: float, full: float) -> np.ndarray:
    """The band's ink as graded coverage (keeps what blur leaves of thin strokes), masked to
    the band's own components so neighbouring ink does not leak in."""
    x0, y0, x1, y1 = _band_box(stats, band)
    mask = np.isin(labels[y0:y1, x0:x1], band).astype(np.uint8)
    mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    level = (amount[y0:y1, x0:x1].astype(np.float32) - paper) / max(full - paper, 1.0)
    coverage = np.clip(level, 0.0, 1.0) * mask * 255
    return glyph_feature(coverage.astype(np.uint8))


def _ink_class(window: np.ndarray, labels: np.ndarray, stats: np.ndarray, band: list[int],
               background: np.ndarray) -> str | None:
    """Colour class of a band's ink, white-balanced against the paper around it."""
    x0, y0, x1, y1 = _band_box(stats, band)
    inside = np.isin(labels[y0:y1, x0:x1], band)
    if not background.any() or not inside.any():
        return None
    paper = np.median(window[background], axis=0).astype(np.float32) + 1.0
    balanced = window[y0:y1, x0:x1][inside].astype(np.float32).mean(axis=0) / paper
    darkness = 1.0 - float(balanced.mean())
    if darkness < 0.15:
        return None
    chroma = balanced - balanced.mean()
    if float(np.abs(chroma).max()) / darkness < _NEUTRAL_CHROMA:
        return NEUTRAL
    return (BLUE, GREEN, WARM)[int(np.argmax(chroma))]


def read_corner(window: np.ndarray, card_height: int) -> CornerGlyphs:
    """Cut one corner window into its rank and suit glyphs."""
    amount = cv2.GaussianBlur(ink(window), (3, 3), 0)
    counts = histogram(amount)
    low, high = histogram_percentiles(counts, (40, 99.5))
    if high - low < _MIN_CONTRAST:
        return CornerGlyphs(None, None, clean=True)
    _, binary = cv2.threshold(amount, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    h, w = binary.shape
    min_h, max_h = _MIN_GLYPH_H * card_height, _MAX_GLYPH_H * card_height
    glyphs, stray = [], 0
    for i in range(1, count):
        x, y, cw, ch, area = stats[i]
        if x == 0 or y == 0 or x + cw >= w or y + ch >= h:
            continue
        if area < 6:
            continue
        if ch < min_h * 0.3 or ch > max_h:
            stray += 1
            continue
        glyphs.append(i)
    bands = [b for b in _bands(stats, glyphs)
             if max(stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT] for i in b)
             - min(stats[i, cv2.CC_STAT_TOP] for i in b) >= min_h]
    stray += len(glyphs) - sum(len(b) for b in bands[:2])
    clean = stray <= _MAX_STRAY_COMPONENTS
    background = binary == 0
    ink_counts = histogram(amount, binary)
    (paper,) = histogram_percentiles(counts - ink_counts, (50,))
    (full,) = histogram_percentiles(ink_counts, (90,))
    rank = _band_feature(amount, labels, stats, bands[0], paper, full) if bands else None
    if len(bands) < 2:
        return CornerGlyphs(rank, None, clean)
    suit = _band_feature(amount, labels, stats, bands[1], paper, full)
    return CornerGlyphs(rank, suit, clean, _ink_class(window, labels, stats, bands[1], background))


def read_corners(card_img: np.ndarray) -> tuple[CornerGlyphs, CornerGlyphs]:
    """Both corner indices of a rectified card (any size with a card's aspect)."""
    card = canonical(card_img)
    top_left, bottom_right = corners(card)
    return read_corner(top_left, card.shape[0]), read_corner(bottom_right, card.shape[0])
