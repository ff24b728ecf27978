"""Finding a card's straight edges from a rough outline, to a fraction of a pixel.

Scan lines cross each side of the rough outline from outside the card inwards and stop
where the image first rises sharply, by a given step across a few pixels: the card's edge.
A glare's soft halo or a shadow rises too slowly to count, however bright it gets; a scan
line that glare robbed of its edge and that ran on to a pip or an index finds a point off
the side's line, and the robust line fit leaves it out. Lines through each side's points
meet at the card's corners: those of its rectangle, not of its rounded corners.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .sides import corners_of


def brightest_channel(img: np.ndarray) -> np.ndarray:
    """Per pixel, its brightest channel: a card of any colour is bright in one of them."""
    return np.maximum(np.maximum(img[..., 0], img[..., 1]), img[..., 2])


@dataclass(frozen=True)
class EdgeScan:
    """Where along each side to look for the card's edge: scan lines across the side's
    middle (``along``, a share of its length), from ``outside`` pixels beyond the side to
    ``inside`` pixels (plus ``inside_share`` of the card's width) within it; ``lines`` scan
    lines per side."""

    along: tuple[float, float]
    outside: float
    inside: float
    inside_share: float
    lines: int = 32


_SPAN = 4  # px: a step is measured across 2 × _SPAN, enough for a blurred edge to rise whole
MIN_STEP = 24  # grey levels: a smaller rise may be sensor noise
_RETRY_SHARES = (1.0, 0.5)  # of the threshold, for a side that showed too little edge
_MIN_HITS = 8  # scan lines per side that must find the edge
_INLIER = 1.5  # px from a side's line: an edge point on it


def fit_card_edges(frame: np.ndarray, quad: np.ndarray, scan: EdgeScan, threshold: float
                   ) -> np.ndarray | None:
    """Corners (in ``quad``'s order) where lines fitted to the card's edge along each side
    of ``quad`` meet, or None if a side shows too little edge. The edge is where the
    brightest channel first rises by ``threshold`` across 2 × _SPAN px."""
    quad = quad.astype(np.float32)
    centre = quad.mean(axis=0)
    width = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    ends = np.roll(quad, -1, axis=0)
    direction = (ends - quad) / np.maximum(np.linalg.norm(ends - quad, axis=1), 1.0)[:, None]
    outward = np.stack([direction[:, 1], -direction[:, 0]], axis=1)
    outward *= np.sign(np.einsum("sk,sk->s", outward, quad - centre))[:, None]
    t = np.linspace(*scan.along, scan.lines, dtype=np.float32)
    starts = (quad[:, None] + t[None, :, None] * (ends - quad)[:, None]
              + scan.outside * outward[:, None]).reshape(-1, 2)  # side by side, line by line
    depth = np.arange(0, scan.outside + scan.inside + scan.inside_share * width, dtype=np.float32)
    inward = -np.repeat(outward, scan.lines, axis=0)
    xs = starts[:, :1] + inward[:, :1] * depth
    ys = starts[:, 1:] + inward[:, 1:] * depth
    colour = cv2.remap(frame, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # Smoothed along each line against sensor noise; a sharp edge stays a sharp rise.
    profiles = cv2.GaussianBlur(brightest_channel(colour).astype(np.float32), (5, 1), 0)
    def side_line(rows: slice, found: np.ndarray, edge_depth: np.ndarray) -> np.ndarray | None:
        return _robust_line((starts[rows] + edge_depth[:, None] * inward[rows])[found])

    first_share, *retry_shares = _RETRY_SHARES
    all_found, all_depths = _first_rise(profiles, max(MIN_STEP, first_share * threshold))
    lines = []
    for side in range(4):
        rows = slice(side * scan.lines, (side + 1) * scan.lines)
        line = side_line(rows, all_found[rows], all_depths[rows])
        # Where glare lies over a side, the window beside the card is lit nearly as bright
        # as the card and the edge rises less: such a side is looked at again for smaller
        # (still sharp) rises.
        for share in retry_shares:
            if line is not None:
                break
            line = side_line(rows, *_first_rise(profiles[rows], max(MIN_STEP, share * threshold)))
        if line is None:
            return None
        lines.append(line)
    return corners_of(lines)


def _first_rise(profiles: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """Per profile, whether it rises by ``threshold`` across 2 × _SPAN samples, and the
    middle of the first such rise: its steepest point, to a fraction of a sample by a
    parabola through its neighbours."""
    rising = (profiles[:, 2 * _SPAN:] - profiles[:, :-2 * _SPAN]) > threshold
    slope = np.zeros_like(profiles)
    slope[:, 1:-1] = profiles[:, 2:] - profiles[:, :-2]
    at = np.minimum(rising.argmax(axis=1)[:, None] + np.arange(1, 2 * _SPAN),
                    profiles.shape[1] - 2)
    rows = np.arange(len(profiles))
    window = slope[rows[:, None], at]
    k = window.argmax(axis=1)
    centre = at[rows, k]
    left, mid, right = slope[rows, centre - 1], slope[rows, centre], slope[rows, centre + 1]
    curve = left - 2 * mid + right
    offset = np.where(curve < 0, 0.5 * (left - right) / np.where(curve < 0, curve, -1), 0.0)
    return rising.any(axis=1), centre + np.clip(offset, -1.0, 1.0)


def _robust_line(points: np.ndarray) -> np.ndarray | None:
    """A line (vx, vy, x, y) through the points most of them lie on, so that a scan line
    that missed the edge (glare flattened it) and found a pip or the index is left out.

    Each point of the first half of the side and its partner in the second half propose a
    line; the one most points lie on wins, and is refitted to them.
    """
    half = len(points) // 2
    if half * 2 < _MIN_HITS:
        return None
    first, second = points[:half], points[half:2 * half]
    chord = second - first
    length = np.linalg.norm(chord, axis=1)
    normals = np.stack([-chord[:, 1], chord[:, 0]], axis=1) / np.maximum(length, 1e-6)[:, None]
    off = np.abs(normals @ points.T - np.einsum("ck,ck->c", normals, first)[:, None])
    on_line = (off <= _INLIER) & (length > 1.0)[:, None]
    keep = on_line[int(on_line.sum(axis=1).argmax())]
    if keep.sum() < _MIN_HITS:
        return None
    return cv2.fitLine(points[keep], cv2.DIST_L2, 0, 0.01, 0.01).reshape(4)
