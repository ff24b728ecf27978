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
from .index import CANONICAL_SIZE
from .profile import DeckProfile
from .reading import Reading, read_station_card
from .sides import fit_sides
from .sources import Frame

_DOWNSCALE = 4
_MIN_AREA, _MAX_AREA = 0.12, 0.92  # of the frame: the card fills a known share of the window
_MIN_RISE = 28  # grey levels a card must stand above the empty window
_MAX_SHIFT = 4.0  # small-image pixels: how far a rounded corner puts the polygon's vertex


def _order_corners(quad: np.ndarray) -> np.ndarray:
    """Top-left, top-right, bottom-right, bottom-left, for a card standing upright."""
    pts = quad.reshape(4, 2).astype(np.float32)
    s, d = pts.sum(axis=1), np.diff(pts, axis=1).ravel()
    return np.array([pts[np.argmin(s)], pts[np.argmin(d)], pts[np.argmax(s)], pts[np.argmax(d)]],
                    np.float32)


def locate_station_card(frame: np.ndarray) -> np.ndarray | None:
    """The card's four corners in frame pixels (TL, TR, BR, BL), or None for an empty window."""
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (w // _DOWNSCALE, h // _DOWNSCALE), interpolation=cv2.INTER_AREA)
    bright = small.max(axis=2)
    floor = float(np.percentile(bright, 5))
    if float(np.percentile(bright, 95)) - floor < _MIN_RISE:
        return None
    level, _ = cv2.threshold(bright, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    _, mask = cv2.threshold(bright, max(level, floor + _MIN_RISE / 2), 255, cv2.THRESH_BINARY)
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
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    # Outline points are the card's outermost pixels; its edge is half a pixel further.
    fitted = fit_sides(quad, contour.reshape(-1, 2).astype(np.float32), 0.0, outset=0.5)
    # A side bent by glare or a shadow fits badly; the polygon is then the better guess.
    if fitted is not None and float(np.abs(fitted - quad).max()) <= _MAX_SHIFT:
        quad = fitted
    return _order_corners(quad) * _DOWNSCALE + (_DOWNSCALE - 1) / 2



def rectify(frame: np.ndarray, corners: np.ndarray,
            size: tuple[int, int] = CANONICAL_SIZE) -> np.ndarray:
    """The card flattened to ``size`` (width, height), portrait."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    return cv2.warpPerspective(frame, matrix, (w, h), flags=cv2.INTER_LINEAR)


def station_card(frame: np.ndarray) -> np.ndarray | None:
    """The flattened card at the station, or None when the window is empty."""
    corners = locate_station_card(frame)
    if corners is None:
        return None
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    return rectify(frame, corners)


def read_station(frame: np.ndarray, profile: DeckProfile | None = None,
                 letters: str | None = None, *, reader: CornerReader | None = None
                 ) -> Reading:
    """Read the card in the station window: none, a back (``down``), or a face; or abstain.

    ``profile``, ``letters`` and ``reader`` are as for ``reading.read_card_image``.
    """
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    corners = locate_station_card(frame)
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
