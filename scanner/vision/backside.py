"""Tell a card's back from its face: a back is a fine motif repeated over the whole card.

A face is mostly bare paper around a few pips or a framed picture, so many small patches of
its centre are flat. A back's motif repeats every few millimetres, so nearly every patch
holds some of it. The share of textured patches separates them, whatever the colours.
"""

from __future__ import annotations

import cv2
import numpy as np

from .index import canonical, ink

_CENTRE = (0.14, 0.12, 0.86, 0.88)  # x0, y0, x1, y1 as fractions of the card
_TILES = (8, 10)  # columns, rows of patches in the centre
_TEXTURE_STD = 8.0  # ink standard deviation (after a light blur against sensor noise)
# Rendered faces of every style reach at most ~0.78 under all perturbations, backs at least
# ~0.9 (measured by bench/vision_station.py); the threshold sits between them.
BACK_TEXTURE_SHARE = 0.85


def texture_share(card_img: np.ndarray) -> float:
    """Fraction of patches of the card's centre that carry texture."""
    card = canonical(card_img)
    h, w = card.shape[:2]
    x0, y0, x1, y1 = (int(f * s) for f, s in zip(_CENTRE, (w, h, w, h), strict=True))
    centre = cv2.GaussianBlur(ink(card[y0:y1, x0:x1]), (5, 5), 0)
    cols, rows = _TILES
    th, tw = centre.shape[0] // rows, centre.shape[1] // cols
    tiles = centre[:th * rows, :tw * cols].astype(np.float32)
    # Area resizing to one pixel a patch gives each patch's mean, of the levels and of
    # their squares: the variance without cutting the centre into patches.
    mean = cv2.resize(tiles, (cols, rows), interpolation=cv2.INTER_AREA)
    square = cv2.resize(tiles * tiles, (cols, rows), interpolation=cv2.INTER_AREA)
    return np.count_nonzero(square - mean * mean > _TEXTURE_STD ** 2) / (cols * rows)


def back_confidence(card_img: np.ndarray) -> float:
    """0.5 at the threshold; towards 1 for a motif over the whole card, towards 0 for a face."""
    share = texture_share(card_img)
    return float(0.5 + 0.5 * np.tanh((share - BACK_TEXTURE_SHARE) / 0.05))
