"""Where a card's straight sides meet.

A card's corners are rounded, so the vertices of a polygon fitted to its outline lie on the
rounding, a few pixels inside the card; the corner index, a few millimetres from the true
corner, then falls off a reader's window. Fitting a line to the straight middle of each side
and intersecting neighbours gives the corners of the card's rectangle. The table view fits
its outlines' pixels so; the read station fits edges it scans for (``edges``).
"""

from __future__ import annotations

import cv2
import numpy as np

from .quads import NEXT, PREVIOUS, lengths

_SIDE_MIDDLE = (0.15, 0.85)  # of a side: the straight part, clear of the rounded corners
_MIN_POINTS = 5


def intersect(line_a: np.ndarray, line_b: np.ndarray) -> np.ndarray | None:
    """The crossing of two lines given as ``cv2.fitLine`` gives them (vx, vy, x, y)."""
    (vx1, vy1, x1, y1), (vx2, vy2, x2, y2) = line_a, line_b
    det = vx1 * (-vy2) - vy1 * (-vx2)
    if abs(det) < 1e-6:
        return None
    t = ((x2 - x1) * (-vy2) - (y2 - y1) * (-vx2)) / det
    return np.array([x1 + t * vx1, y1 + t * vy1], np.float32)


def crossings(lines: np.ndarray) -> np.ndarray:
    """Where each line of a ring of four crosses the one before it, for many rings at once
    (…×4×4 lines, as ``cv2.fitLine`` gives them): …×4×2, NaN where the two are parallel.
    ``intersect``'s float arithmetic, element by element."""
    before = lines[..., PREVIOUS, :]
    vx1, vy1, x1, y1 = (before[..., k] for k in range(4))
    vx2, vy2, x2, y2 = (lines[..., k] for k in range(4))
    det = vx1 * (-vy2) - vy1 * (-vx2)
    parallel = np.abs(det) < 1e-6
    t = ((x2 - x1) * (-vy2) - (y2 - y1) * (-vx2)) / np.where(parallel, 1, det)
    corners = np.stack([x1 + t * vx1, y1 + t * vy1], axis=-1)
    corners[parallel] = np.nan
    return corners


def corners_of(lines: list[np.ndarray]) -> np.ndarray | None:
    """The corners (4×2 float32) of one ring of four lines, each where a line crosses the
    one before it; None if two neighbours are parallel."""
    # One ring at a time, four scalar crossings cost less than the array arithmetic.
    corners = [intersect(lines[i - 1], lines[i]) for i in range(4)]
    return None if any(c is None for c in corners) else np.array(corners, np.float32)


def fit_sides(quad: np.ndarray, points: np.ndarray, tolerance: float, outset: float = 0.0
              ) -> np.ndarray | None:
    """The corners where lines fitted to the middle of each side of ``quad`` meet, or None.

    ``points`` are the outline's pixels; those within ``tolerance`` of a side's length
    (plus 2 px) of it count for that side. ``outset`` moves each line that many pixels away
    from the quad's centre (outline pixels are the card's outermost ones; its edge lies
    half a pixel further out).
    """
    directions = quad[NEXT] - quad
    sides = lengths(directions)
    if sides.min() < 1:
        return None
    directions /= sides[:, None]
    # Rows are sides, columns points: x and y apart, as a few plain products cost less
    # than building and contracting a sides × points × 2 array.
    (dx, dy), (px, py) = directions.T[:, :, None], points.T[:, None, :]
    rx, ry = px - quad[:, :1], py - quad[:, 1:]
    along = rx * dx + ry * dy
    across = np.abs(rx * -dy + ry * dx)
    near = ((along > _SIDE_MIDDLE[0] * sides[:, None])
            & (along < _SIDE_MIDDLE[1] * sides[:, None])
            & (across < tolerance * sides[:, None] + 2))
    if near.sum(axis=1).min() < _MIN_POINTS:
        return None
    lines = [cv2.fitLine(points[side], cv2.DIST_L2, 0, 0.01, 0.01).reshape(4) for side in near]
    if outset:
        centre = quad.mean(axis=0)
        for line in lines:
            normal = np.array([-line[1], line[0]])
            if normal @ (line[2:] - centre) < 0:
                normal = -normal
            line[2:] += outset * normal
    return corners_of(lines)
