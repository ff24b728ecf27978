"""The suit told by the large pips in the middle of the card.

The index pip is small (about 5 mm), so a spade and a club differ there by a few pixels. The
middle of almost every card repeats the suit much larger: the pips of a number card, the
ace's single pip, the pip in a court card's picture. Pips below the card's middle are
printed upside down and are turned back before they are compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from ..cards import Suit
from .glyphs import GlyphMatch, GlyphModel
from .index import glyph_feature, ink
from .levels import histogram, histogram_percentiles
from .pip_net import PipReader

_FIELD = (0.2, 0.1, 0.8, 0.9)  # x0, y0, x1, y1 of the pip field, as fractions of the card
_PIP_HEIGHT = (0.06, 0.3)  # of the card height
# Pips are about as wide as tall, stripes and frame lines are not; a narrow design's
# diamond, cut out at its blurred edges, can be 1.8 times as tall as it is wide.
_MAX_ASPECT = 2.2
# Pips this close to the middle row (the ace, a court card's pip, the middle pip of a 3)
# are upright only if the card is; such a pip is compared both ways up.
_MIDDLE = (0.44, 0.56)
_AROUND_A_PIP = cv2.getStructuringElement(cv2.MORPH_RECT, (41, 41))  # canonical pixels


@dataclass(frozen=True)
class Pip:
    # The shape's ink (0..255 coverage), upright; or both ways up when that is unknown.
    looks: tuple[np.ndarray, ...]
    centre: tuple[float, float]  # as fractions of the card (x, y)

    @property
    def features(self) -> tuple[np.ndarray, ...]:
        """Each look as a glyph template's feature (``index.glyph_feature``)."""
        return tuple(glyph_feature(look) for look in self.looks)


def centre_pips(card: np.ndarray) -> list[Pip]:
    """Pip-sized shapes in the middle of a canonical card, each turned upright."""
    h, w = card.shape[:2]
    x0, y0, x1, y1 = (int(f * s) for f, s in zip(_FIELD, (w, h, w, h), strict=True))
    amount = cv2.GaussianBlur(ink(card[y0:y1, x0:x1]), (3, 3), 0)
    counts = histogram(amount)
    high, low = histogram_percentiles(counts, (99.5, 30))
    if high - low < 40:
        return []
    _, binary = cv2.threshold(amount, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # A glare spot lifts the paper and the pips under it alike, and one threshold for the
    # whole field loses those pips. Measured above the paper around it (a top-hat wider
    # than a number card's pip), such a pip stands out as the others do; a larger pip (an
    # ace's) is found whole by the first threshold.
    lifted = cv2.morphologyEx(amount, cv2.MORPH_TOPHAT, _AROUND_A_PIP)
    _, local = cv2.threshold(lifted, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    binary = cv2.bitwise_or(binary, local)
    # A club's lobes meet at a pixel or two; thresholded, the top lobe parts from the rest
    # and neither piece is pip-sized. Pips stand several pixels apart, so closing a
    # one-pixel gap joins no two of them.
    binary = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    # OpenCV 5's default labelling (Spaghetti) spends three times as long on the stats as
    # BBDT, which labels the same components.
    _, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        binary, 8, cv2.CV_32S, cv2.CCL_BBDT)
    ink_counts = histogram(amount, binary)
    paper_counts = counts - ink_counts
    (paper,) = histogram_percentiles(paper_counts, (50,)) if paper_counts.any() else (0.0,)
    (full,) = histogram_percentiles(ink_counts, (90,))
    pips = []
    for i in _pip_sized(stats, binary.shape, h):
        x, y, cw, ch, _ = stats[i]
        mask = cv2.dilate((labels[y:y + ch, x:x + cw] == i).astype(np.uint8),
                          np.ones((3, 3), np.uint8))
        level = (amount[y:y + ch, x:x + cw].astype(np.float32) - paper) / max(full - paper, 1)
        coverage = (np.clip(level, 0, 1) * mask * 255).astype(np.uint8)
        cx, cy = (centroids[i][0] + x0) / w, (centroids[i][1] + y0) / h
        if _MIDDLE[0] <= cy <= _MIDDLE[1]:
            looks: tuple[np.ndarray, ...] = (coverage, cv2.flip(coverage, -1))
        elif cy > 0.5:
            looks = (cv2.flip(coverage, -1),)
        else:
            looks = (coverage,)
        pips.append(Pip(looks, (cx, cy)))
    return pips


def _pip_sized(stats: np.ndarray, shape: tuple[int, ...], card_height: int) -> np.ndarray:
    """The labels of the components (``stats`` as OpenCV gives them, row 0 the background)
    that have a pip's size and build and lie wholly inside the field of ``shape``."""
    x, y, cw, ch, area = stats[1:].T
    # Compared in float64, as the scalar tests of each row were, so no bound moves.
    cw_f, ch_f = cw.astype(np.float64), ch.astype(np.float64)
    sized = (_PIP_HEIGHT[0] * card_height <= ch_f) & (ch_f <= _PIP_HEIGHT[1] * card_height)
    built = (np.maximum(cw_f / ch_f, ch_f / cw_f) <= _MAX_ASPECT) & (area >= 0.35 * cw_f * ch_f)
    inside = (x > 0) & (y > 0) & (x + cw < shape[1]) & (y + ch < shape[0])
    return np.flatnonzero(sized & built & inside) + 1


def pip_matches(card: np.ndarray, model: GlyphModel | PipReader,
                excluded: frozenset[Suit] = frozenset()) -> list[GlyphMatch]:
    """What ``model`` (the pip net, or glyph templates such as a learnt deck's) makes of
    each middle pip of a canonical card. A pip whose way up is unknown is read once either
    way up by the net, and against the templates counts in the orientation that matches
    best."""
    return pip_matches_of([card], model, excluded)[0]


def pip_matches_of(cards: Sequence[np.ndarray], model: GlyphModel | PipReader,
                   excluded: frozenset[Suit] = frozenset()) -> list[list[GlyphMatch]]:
    """``pip_matches`` for each of several cards. Their pips go through the net, or meet
    the templates, in one pass: its cost is mostly the pass, however many pips there are."""
    pips = [centre_pips(card) for card in cards]
    every = [pip for card_pips in pips for pip in card_pips]
    if not every:
        return [[] for _ in cards]
    if isinstance(model, PipReader):
        looks = model.matches([pip.looks for pip in every], excluded)
    else:
        looks = _template_matches(every, model, excluded)
    out, row = [], 0
    for card_pips in pips:
        out.append(looks[row:row + len(card_pips)])
        row += len(card_pips)
    return out


def _template_matches(pips: Sequence[Pip], model: GlyphModel, excluded: frozenset[Suit]
                      ) -> list[GlyphMatch]:
    features = [pip.features for pip in pips]
    looks = model.decide_each(model.label_similarities(np.array([f for fs in features
                                                                  for f in fs])),
                              "pip", None, excluded)
    out, row = [], 0
    for fs in features:
        out.append(max(looks[row:row + len(fs)], key=lambda m: m.similarity))
        row += len(fs)
    return out
