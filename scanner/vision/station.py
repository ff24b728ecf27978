"""The shoe's read station: a fixed camera, a dark window, one card at a time.

``read_station(frame)`` finds the card against the station's dark background, flattens it
to the reader's canonical size and reads it. The window is dark and matte, so a card of any
design (a white face, a printed back) is the only large bright shape; an empty window has
none and reads as ``none``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import cv2
import numpy as np

from .corner_net import CornerReader
from .edges import MIN_STEP, EdgeScan, brightest_channel, fit_card_edges
from .image_io import bgr_frame
from .index import CANONICAL_SIZE
from .levels import levels_below
from .profile import DeckProfile
from .quads import flatten
from .reading import Reading, read_station_card
from .sources import Frame

_DOWNSCALE = 4
_MIN_AREA, _MAX_AREA = 0.12, 0.92  # of the frame: the card fills a known share of the window
_MIN_RISE = 28  # grey levels a card must stand above the empty window
_STEP_SHARE = 0.35  # of the card's rise above the window: its edge; a glare's soft halo rises
# far less across an edge scan's span, however bright it gets
# The first scan starts from the rough outline, whose sides glare may have pushed far out
# and the polygon's coarse fit pulled some way in; the second from the sides the first
# one fitted, close to them.
_FIRST_PASS = EdgeScan(along=(0.25, 0.75), outside=32, inside=12, inside_share=0.5, lines=16)
_SECOND_PASS = EdgeScan(along=(0.12, 0.88), outside=8, inside=8, inside_share=0.0, lines=24)


def _order_corners(quad: np.ndarray) -> np.ndarray:
    """Top-left, top-right, bottom-right, bottom-left, for a card standing upright."""
    pts = quad.reshape(4, 2).astype(np.float32)
    s, d = pts.sum(axis=1), np.diff(pts, axis=1).ravel()
    return np.array([pts[np.argmin(s)], pts[np.argmin(d)], pts[np.argmax(s)], pts[np.argmax(d)]],
                    np.float32)


def locate_station_card(frame: np.ndarray) -> np.ndarray | None:
    """The card's four corners in frame pixels (TL, TR, BR, BL), or None for an empty window.

    A threshold of a downscaled frame finds the bright shape roughly; glare on the window
    beside the card joins it. Scan lines across each rough side then find where the frame
    rises sharply from the window to the card, which a glare's soft halo never does, and a
    line fitted to each side's rises gives the card's corners to a fraction of a pixel.
    """
    return _locate(bgr_frame(frame))


def _locate(frame: np.ndarray) -> np.ndarray | None:
    """``locate_station_card`` of a frame already checked to be BGR."""
    h, w = frame.shape[:2]
    small = brightest_channel(cv2.resize(frame, (w // _DOWNSCALE, h // _DOWNSCALE),
                                          interpolation=cv2.INTER_LINEAR))
    rough = _rough_outline(small)
    if rough is None:
        return None
    threshold = _edge_threshold(small, rough)
    rough = rough * _DOWNSCALE + (_DOWNSCALE - 1) / 2
    first = fit_card_edges(frame, rough, _FIRST_PASS, threshold)
    if first is None or not _in_window(first, frame.shape):
        return rough
    # A side the first pass found tells where its straight middle is: look there again,
    # close to it, for the sub-pixel edge.
    corners = fit_card_edges(frame, first, _SECOND_PASS, threshold)
    return rough if corners is None or not _in_window(corners, frame.shape) else corners


def _rough_outline(small: np.ndarray) -> np.ndarray | None:
    """Corners (TL, TR, BR, BL) of the bright shape in a downscaled window, or None."""
    floor, top = levels_below(small, (0.05, 0.95))
    if top - floor < _MIN_RISE:
        return None
    level, _ = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    _, mask = cv2.threshold(small, max(level, floor + _MIN_RISE / 2), 255, cv2.THRESH_BINARY)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(contour) / float(mask.shape[0] * mask.shape[1])
    if not _MIN_AREA <= area <= _MAX_AREA:
        return None
    hull = cv2.convexHull(contour)
    quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    if len(quad) != 4:
        quad = cv2.boxPoints(cv2.minAreaRect(hull))
    return _order_corners(np.asarray(quad, np.float32))


def _edge_threshold(small: np.ndarray, quad: np.ndarray) -> float:
    """How far the frame must rise to be the card's edge: a share of how far the card's
    paper stands above the empty window."""
    x, y = (int(v) for v in quad.mean(axis=0))
    r = max(int(np.linalg.norm(quad[1] - quad[0]) / 4), 1)
    # The card's paper, not its pips: most of the middle of a card is paper.
    (card_level,) = levels_below(small[max(y - r, 0):y + r, max(x - r, 0):x + r], (0.75,))
    (window_level,) = levels_below(small, (0.05,))
    return max(MIN_STEP, _STEP_SHARE * (card_level - window_level))


def _in_window(corners: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether corners lie in the frame, as a card at the station always does."""
    h, w = shape[:2]
    return bool(np.all((corners >= -1) & (corners <= (w, h))))


def rectify(frame: np.ndarray, corners: np.ndarray,
            size: tuple[int, int] = CANONICAL_SIZE) -> np.ndarray:
    """The card flattened to ``size`` (width, height), portrait."""
    return flatten(frame, corners, size)


def station_card(frame: np.ndarray) -> np.ndarray | None:
    """The flattened card at the station, or None when the window is empty."""
    frame = bgr_frame(frame)
    corners = _locate(frame)
    if corners is None:
        return None
    return rectify(frame, corners)


def read_station(frame: np.ndarray, profile: DeckProfile | None = None,
                 letters: str | None = None, *, reader: CornerReader | None = None
                 ) -> Reading:
    """Read the card in the station window: none, a back (``down``), or a face; or abstain.

    ``profile``, ``letters`` and ``reader`` are as for ``reading.read_card_image``.
    """
    frame = bgr_frame(frame)
    corners = _locate(frame)
    if corners is None:
        return Reading("none", None, 1.0)
    reading = read_station_card(rectify(frame, corners), profile, letters, reader=reader)
    if reading.card is not None and not card_shaped(corners):
        # Glare or a shadow bent the outline: the rectified card is distorted, and a
        # distorted index can look like another one.
        return Reading("up", None, min(reading.confidence, 0.499))
    return reading


# Opposite sides of the card as the station's fixed camera sees it, and width over height
# (bridge 0.64, poker 0.71): generous, as glare may widen an outline that still reads.
_SIDE_RATIO = 1.3
_ASPECT = (0.5, 0.95)


def card_shaped(corners: np.ndarray) -> bool:
    """Whether an outline (TL, TR, BR, BL) has a card's shape as the station sees one."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    if min(sides) < 1:
        return False
    top, right, bottom, left = sides
    aspect = (top + bottom) / (left + right)
    return (max(top, bottom) / min(top, bottom) <= _SIDE_RATIO
            and max(left, right) / min(left, right) <= _SIDE_RATIO
            and _ASPECT[0] <= aspect <= _ASPECT[1])


def card_passes(frames: Iterable[Frame], one_card_per_frame: bool) -> Iterator[np.ndarray]:
    """Each card that passes the station, flattened, once.

    In a video a card stays in the window for several frames and an empty window separates
    two cards; the middle frame of each run is used. From a folder, each file is one card.
    """
    run: list[np.ndarray] = []
    for frame in frames:
        card = station_card(frame.image)
        if card is None:
            if run:
                yield run[len(run) // 2]
            run = []
        elif one_card_per_frame:
            yield card
        else:
            run.append(card)
    if run:
        yield run[len(run) // 2]
