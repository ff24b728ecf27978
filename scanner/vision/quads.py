"""Card-shaped quadrilaterals in a photo: their order, their proportions, and whether each
side is a real edge between card and table.

The table view's locator and its glare path both propose four-cornered outlines; these are
the tests every proposal must pass, whichever cue made it.
"""

from __future__ import annotations

import cv2
import numpy as np

# Short side over long side, as the camera may see it: bridge is 57/89 = 0.64, poker
# 63/89 = 0.71; perspective can push either way. A tilted poker card reaches 0.85 one
# time in a hundred, past 0.88 one in four hundred; a square score pad tilted as much
# seldom comes below 0.88.
ASPECT_RANGE = (0.42, 0.88)
# Longer over shorter of two opposite sides: a card under the camera's perspective stays
# within 1.1; the rest is room for the fit's error.
MAX_OPPOSITE_RATIO = 1.2
MIN_CARD_AREA_FRACTION = 0.0025  # a card smaller than this holds no readable index
MAX_CARD_AREA_FRACTION = 0.9  # a close-up of one card may nearly fill the photo
EDGE_SAMPLES = 24  # points sampled along each side
EDGE_OFFSET = 3.0  # pixels either side of the outline: past blur, within the card's margin
EDGE_STEP = 18  # grey levels (any channel) between inside and outside that make an edge
MIN_EDGE_SUPPORT = 0.5  # share of a side's samples that must be an edge, for every side


def order_clockwise(points: np.ndarray) -> np.ndarray:
    """Four points clockwise (in image coordinates) starting with the top-left-most."""
    # ufunc reductions and slices rather than mean and roll: the same numbers, without
    # their Python-level wrappers, which cost more than the arithmetic on four points.
    centre = np.add.reduce(points, axis=0) / len(points)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    ordered = points[np.argsort(angles)]
    start = int(np.argmin(np.add.reduce(ordered, axis=1)))
    return np.concatenate((ordered[start:], ordered[:start])).astype(np.float32, copy=False)


# Each corner's next, clockwise: quad[NEXT] - quad are the sides. Indexing costs a tenth of
# np.roll, and these few-point geometries run thousands of times a frame.
NEXT = [1, 2, 3, 0]
PREVIOUS = [3, 0, 1, 2]


def lengths(vectors: np.ndarray) -> np.ndarray:
    """The length of each vector along the last axis (``np.linalg.norm``'s, exactly)."""
    return np.sqrt(np.add.reduce(vectors * vectors, axis=-1))


def side_lengths(quad: np.ndarray) -> np.ndarray:
    return lengths(quad[NEXT] - quad)


def card_shaped(quad: np.ndarray) -> bool:
    """A card's proportions, with opposite sides as nearly equal as perspective leaves a
    card's (a patch of grain between two cards, or a cup's rim, is a lopsided quad)."""
    sides = np.maximum(side_lengths(quad), 1.0)
    short, long_ = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    opposite = np.maximum(sides[:2] / sides[2:], sides[2:] / sides[:2])
    return (ASPECT_RANGE[0] <= short / long_ <= ASPECT_RANGE[1]
            and float(opposite.max()) <= MAX_OPPOSITE_RATIO)


def card_sized(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Large enough to hold a readable index, and not the whole photo."""
    area = abs(cv2.contourArea(quad.reshape(-1, 1, 2)))
    image_area = float(shape[0] * shape[1])
    return MIN_CARD_AREA_FRACTION * image_area <= area <= MAX_CARD_AREA_FRACTION * image_area


def inward_normals(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each side's vector (from its corner to the next) and its unit normal pointing into
    the quad, whichever way round the corners run."""
    directions = quad[NEXT] - quad
    sides = lengths(directions)[:, None]
    normals = np.stack([-directions[:, 1], directions[:, 0]], axis=1) / np.maximum(sides, 1e-6)
    if cv2.contourArea(quad.reshape(-1, 1, 2), oriented=True) < 0:
        normals = -normals
    return directions, normals


def values_at(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The image's pixels nearest ``points`` (…×2, x then y), clamped to the image."""
    xy = np.rint(points).astype(np.intp)
    np.clip(xy, 0, (image.shape[1] - 1, image.shape[0] - 1), out=xy)
    return image[xy[..., 1], xy[..., 0]]


def contains(quad: np.ndarray, point: np.ndarray) -> bool:
    """Whether ``point`` lies inside or on ``quad``."""
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32),
                                (float(point[0]), float(point[1])), False) >= 0


def clear_of_border(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> bool:
    """Whether a bounding box (x, y, w, h) keeps off the photo's edge: a region touching
    it is not a whole card (and may be the table itself)."""
    x, y, w, h = box
    return x > 0 and y > 0 and x + w < shape[1] and y + h < shape[0]


_ALONG = np.linspace(0.15, 0.85, EDGE_SAMPLES, dtype=np.float32)[None, :, None]


def side_support(image: np.ndarray, quad: np.ndarray, hidden: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """For each side of ``quad``: the share of its visible samples that are a real step
    between card and table, and the share of its samples that are visible at all.

    A card's edge is one continuous step in colour all along each side. A patch of wood
    grain boxed in by grain lines has two sides that cut across the stripes, where the
    step comes and goes. A sample is hidden where ``hidden`` (a mask the size of
    ``image``) covers either of its two points: glare leaves no step to see there.
    """
    directions, normals = inward_normals(quad)
    points = quad[:, None, :] + directions[:, None, :] * _ALONG
    offset = normals[:, None, :] * EDGE_OFFSET
    both = np.stack([points + offset, points - offset])  # inside, outside
    samples = values_at(image, both).astype(np.int16)
    visible = (np.ones((4, EDGE_SAMPLES), bool) if hidden is None
               else (values_at(hidden, both) == 0).all(axis=0))
    step = (np.abs(samples[0] - samples[1]).max(axis=2) > EDGE_STEP) & visible
    seen = visible.sum(axis=1)
    return step.sum(axis=1) / np.maximum(seen, 1), seen / EDGE_SAMPLES


def edge_support(image: np.ndarray, quad: np.ndarray) -> float:
    """How much of the quad's weakest side is a real step between card and table, 0..1."""
    support, _ = side_support(image, quad)
    return float(support.min())


def region_around(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The part of ``image`` that a warp of the quad ``corners`` reads (a couple of pixels
    round it, cut at the image's edge), and the corners in that part's pixels."""
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 3
    return image[y0:y1, x0:x1], (corners - (x0, y0)).astype(np.float32)


def flatten(image: np.ndarray, corners: np.ndarray, size: tuple[int, int],
            border: int = cv2.BORDER_CONSTANT) -> np.ndarray:
    """The quad ``corners`` (its first corner to the output's top left, clockwise on
    screen) warped to ``size`` (width, height); outside ``image``, ``border`` fills."""
    # Only the region the warp reads, not the whole photo, need be converted below.
    region, corners = region_around(image, corners)
    width, height = size
    target = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]],
                      np.float32)
    warp = cv2.getPerspectiveTransform(corners, target)
    colour = region.ndim == 3 and region.shape[2] == 3
    if colour:
        # OpenCV warps four interleaved channels about three times as fast as three: the
        # same pixels in less time, even counting both conversions.
        region = cv2.cvtColor(region, cv2.COLOR_BGR2BGRA)
    card = cv2.warpPerspective(region, warp, size, flags=cv2.INTER_LINEAR, borderMode=border)
    return cv2.cvtColor(card, cv2.COLOR_BGRA2BGR) if colour else card
