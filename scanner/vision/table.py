"""The table view: find every card lying on a table in a photo, flatten it, and read it.

Locating works on a copy of the photo shrunk to ``LOCATE_MAX_SIDE``. Five cues propose
card outlines, because none suffices alone: card stock brighter than its surroundings
(white-bordered faces and backs on dark, wood and cloth tables), regions closed off by
colour edges (cards on light tables), the same after a blur that wipes out a weave or a
back's motif (a patterned back on patterned cloth), regions dense with edges (borderless
patterned backs), and regions of fine strong contrast (a borderless check whose colours
average to the table's). A candidate must be a convex quadrilateral with a card's
proportions that fills its outline and whose every side is a real colour step; two cards
side by side that make one such outline are told apart. A card whose edge a glare spot has
blanked, so that no cue outlines it, is found from the straight sides the spot leaves in
sight (``glare``). Each outline is then snapped to the card's edges in the full-resolution
photo and the card rectified from there straight to the reader's size, so a 12 MP picture
gives the reader every pixel of the index; the reader, handed all of a frame's cards at
once, decides face, back, or abstain.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import cv2
import numpy as np

from ..cards import Card
from .corner_net import CornerReader, default_reader
from .glare import glare_outlines
from .image_io import bgr_frame
from .index import CANONICAL_SIZE, canonical
from .indices import find_index_corners, one_card_by_both_indices
from .levels import median, percentiles
from .profile import DeckProfile
from .quads import (
    ASPECT_RANGE,
    MAX_CARD_AREA_FRACTION,
    MIN_CARD_AREA_FRACTION,
    MIN_EDGE_SUPPORT,
    NEXT,
    card_shaped,
    clear_of_border,
    contains,
    edge_support,
    flatten,
    lengths,
    order_clockwise,
    region_around,
    side_lengths,
)
from .reading import Reading, indices_seen, read_card_images
from .sides import crossings, fit_sides
from .station import locate_station_card, read_station

LOCATE_MAX_SIDE = 640
CARD_ASPECTS = (57 / 89, 63 / 89)
MIN_FILL = 0.95  # contour area over quadrilateral area: a card misses only its rounded corners
MAX_FILL = 1.04
# Hull over quad: a blurred corner may bulge a little; two cards in one blob bulge a lot.
MAX_HULL = 1.08
MIN_RECT_FILL = 0.75  # contour area over its minimum-area rectangle, before the corner fit
SIDE_FIT_TOLERANCES = (0.08, 0.03)  # of the side's length: how far a point may lie off it
TEXTURE_WINDOW = 9  # pixels per 1280 px of photo: a back's motif repeats within it
TEXTURE_DENSITY = 0.7  # share of edge pixels in that window that makes it texture
# Mean Laplacian over a window (pixels per 640 of photo) that only a fine print reaches: a
# checked back scores 30–160, a grained or woven table under 22.
BUSY_WINDOW = 7
BUSY_LEVEL = 26
COARSE_BLUR = 2.0  # pixels at the locating scale: wipes out a baize weave or a back's motif
CLEARLY_STRONGER = 0.25  # edge support by which a smaller outline inside beats a larger
PART_OF_PAIR = 0.62  # area share of an outline, at most, for one of two cards merged in it
# Area share of an outline that cards side by side in it must fill, and that they must
# span (their hull): two cards leave a gap between them, but reach the outline's every
# side, which the two framed halves of a court card's picture (at most three quarters of
# the card) do not.
PAIR_FILL = 0.7
PAIR_SPAN = 0.85
SNAP_SAMPLES = 16  # normals per side when snapping an outline to the card's edge
SNAP_REACH = (0.03, 0.05)  # of the card's height: how far inside and outside to look
SNAP_MIN_STEP = 12.0  # grey levels over one pixel that count as an edge
SNAP_FRAME_GAP = 0.025  # of the card's height: a printed frame lies closer than this inside
RECTIFIED_HEIGHT = 356  # 4 px/mm: enough for any reader, and the reader resizes anyway


@dataclass(frozen=True, eq=False)
class Detection:
    """One card found on the table: what the reader made of it and where it lies.

    ``outline`` is four (x, y) points in the photo's pixels, clockwise on screen: the
    card's outline, starting at a corner of one of its short sides (``seen`` "card"), or,
    for a card overlapped so that only its index shows, the index's corner window,
    starting at its top left as the card stands (``seen`` "corner").
    """

    face: str
    card: Card | None
    confidence: float
    outline: np.ndarray
    seen: str = "card"

    def to_dict(self) -> dict[str, object]:
        return {
            "face": self.face,
            "card": None if self.card is None else str(self.card),
            "confidence": round(float(self.confidence), 4),
            "outline": [[round(float(x), 1), round(float(y), 1)] for x, y in self.outline],
            "seen": self.seen,
        }


def float32_point(point: np.ndarray) -> tuple[float, float]:
    """A point's coordinates rounded to float32, as ``cv2.pointPolygonTest`` reads them."""
    x, y = np.asarray(point, np.float32).tolist()
    return x, y


_BOX_SLACK = 1e-3  # px


@dataclass(frozen=True)
class Candidate:
    outline: np.ndarray  # 4×2 float32 in locate-scale pixels, clockwise
    area: float
    contour: np.ndarray
    hull: np.ndarray

    @cached_property
    def centre(self) -> tuple[float, float]:
        """The mean of the outline's corners (``float32_point``)."""
        return float32_point(self.outline.mean(axis=0))

    @cached_property
    def _box(self) -> tuple[float, float, float, float]:
        # A hair wider than the outline: the polygon test counts a point a rounding error
        # outside a corner as on it, and the box must never turn away what it would hold.
        (x0, y0), (x1, y1) = self.outline.min(axis=0), self.outline.max(axis=0)
        return (float(x0) - _BOX_SLACK, float(y0) - _BOX_SLACK,
                float(x1) + _BOX_SLACK, float(y1) + _BOX_SLACK)

    def holds(self, point: tuple[float, float]) -> bool:
        """Whether ``point`` lies inside or on the outline. Its coordinates are to be
        float32 values (``float32_point``): all the polygon test reads of them."""
        # Each region's centre is tested against every card kept so far: a point outside
        # the outline's box is outside the outline, and the box costs a tenth of the
        # polygon test.
        x, y = point
        x0, y0, x1, y1 = self._box
        return x0 <= x <= x1 and y0 <= y <= y1 and contains(self.outline, point)


# ---------------------------------------------------------------- cues


def _white_balanced_stock(image: np.ndarray) -> np.ndarray:
    """How much each pixel looks like card stock: bright in every channel.

    Each channel is scaled by its own bright percentile first, so a warm or coloured
    light does not hide white card under one dim channel.
    """
    channels = cv2.split(image)
    balanced = []
    for channel in channels:
        (top,) = percentiles(channel[::8, ::8], (99.5,))
        balanced.append(cv2.convertScaleAbs(channel, alpha=255.0 / max(top, 1.0)))
    return cv2.min(cv2.min(balanced[0], balanced[1]), balanced[2])


def stock_mask(image: np.ndarray) -> np.ndarray:
    """Card stock brighter than its neighbourhood: robust to a light gradient across the table."""
    stock = _white_balanced_stock(image)
    block = (max(image.shape[:2]) // 3) | 1
    local = cv2.adaptiveThreshold(stock, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY,
                                  block, -12)
    _, global_bright = cv2.threshold(stock, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.bitwise_and(local, global_bright)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def colour_edges(image: np.ndarray) -> np.ndarray:
    """Edges found in each colour channel, thickened to close one-pixel gaps.

    Per channel, because a navy back on a teal cloth differs in hue far more than in
    brightness.
    """
    blurred = cv2.GaussianBlur(image, (5, 5), 0)
    edges = np.zeros(image.shape[:2], np.uint8)
    for channel in cv2.split(blurred):
        level = median(channel[::4, ::4])
        edges |= cv2.Canny(channel, max(10.0, 0.5 * level), max(30.0, 1.2 * level))
    return cv2.dilate(edges, np.ones((3, 3), np.uint8))


def edge_enclosed(edges: np.ndarray) -> np.ndarray:
    """Regions enclosed by edges: a plain face's outline separates it from any table."""
    return cv2.bitwise_not(edges)


def edge_textured(edges: np.ndarray) -> np.ndarray:
    """Regions dense with edges: a patterned back is one solid blob of them, while wood
    grain or a weave leaves gaps between its lines."""
    window = max(3, round(TEXTURE_WINDOW * max(edges.shape) / 1280))
    density = cv2.blur(edges, (window, window))
    _, dense = cv2.threshold(density, TEXTURE_DENSITY * 255, 255, cv2.THRESH_BINARY)
    return dense


def busy(image: np.ndarray) -> np.ndarray:
    """Regions of fine, strong contrast: a borderless back printed in a fine check, whose
    colours average out to the table's own under any blur, so that neither its outline nor
    its motif makes an edge. A table's weave or grain is far calmer at this scale."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    contrast = cv2.convertScaleAbs(cv2.Laplacian(grey, cv2.CV_16S, ksize=1))
    window = max(3, round(BUSY_WINDOW * max(image.shape[:2]) / 640))
    _, mask = cv2.threshold(cv2.blur(contrast, (window, window)), BUSY_LEVEL, 255,
                            cv2.THRESH_BINARY)
    # The window spreads a busy region by half its width, enough to join two cards lying
    # close: take that back.
    return cv2.erode(mask, np.ones((window, window), np.uint8))


class Cues(NamedTuple):
    """Binary masks in which a card is one region, each from an independent cue."""

    stock: np.ndarray
    enclosed: np.ndarray
    textured: np.ndarray
    coarse_enclosed: np.ndarray
    busy: np.ndarray


def cue_masks(image: np.ndarray) -> Cues:
    """Every cue's mask. Edges are found twice: finely, and after a blur that wipes out a
    fine weave or a back's motif, so that a patterned back on a patterned cloth is still
    enclosed by its outline.
    """
    edges = colour_edges(image)
    return Cues(stock_mask(image), edge_enclosed(edges), edge_textured(edges),
                edge_enclosed(colour_edges(cv2.GaussianBlur(image, (0, 0), COARSE_BLUR))),
                busy(image))


# ---------------------------------------------------------------- quadrilaterals


def initial_quad(hull: np.ndarray, rect: cv2.typing.RotatedRect) -> np.ndarray:
    """Four hull points nearest the card's corners: the farthest out along each diagonal of
    the hull's minimum-area rectangle ``rect``. Rounded corners put them slightly inside;
    the refit moves them out to where the sides meet."""
    centre = np.asarray(rect[0], np.float32)
    points = hull.reshape(-1, 2).astype(np.float32) - centre
    diagonals = cv2.boxPoints(rect).astype(np.float32) - centre
    return points[np.argmax(points @ diagonals.T, axis=0)] + centre


def refine_corners(quad: np.ndarray, contour: np.ndarray) -> np.ndarray:
    """Corners where the card's straight sides meet, not where its rounded corners are cut.

    Each side is refit to the contour points along its middle, away from the rounding:
    first loosely around the rough quad, then tightly around the first fit.
    """
    # Contours are traced pixel by pixel, so every side has points all along it.
    points = contour.reshape(-1, 2).astype(np.float32)
    refined = quad
    for tolerance in SIDE_FIT_TOLERANCES:
        fitted = fit_sides(refined, points, tolerance)
        if fitted is None:
            return refined
        refined = fitted
    # A refit that moves a corner far away means the sides were not straight: keep the rough.
    if np.max(np.linalg.norm(refined - quad, axis=1)) > 0.2 * side_lengths(quad).min() + 3:
        return quad
    return refined


@dataclass(frozen=True)
class Region:
    """A region of a cue's mask big enough to be a card and clear of the photo's border."""

    contour: np.ndarray
    area: float
    centre: tuple[float, float]  # the mean of its outline's pixels (``float32_point``)


def card_sized_regions(mask: np.ndarray) -> list[Region]:
    """The regions of the mask, and its holes (a dark card on a light table is a hole in
    the table's region), that could be whole cards by their size.

    A region touching the border is not a whole card (and may be the table itself).
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    # Traced pixel by pixel (a diagonal step is one point), a contour has at least
    # perimeter/√2 points, and no rectangle of area A has a perimeter under 4√A. Most
    # contours are specks of texture far shorter than that, dropped before any geometry.
    shortest = 2 * math.sqrt(2 * MIN_CARD_AREA_FRACTION * mask.size)
    smallest, largest = MIN_CARD_AREA_FRACTION * mask.size, MAX_CARD_AREA_FRACTION * mask.size
    regions = []
    for contour in [c for c in contours if len(c) >= shortest]:
        area = cv2.contourArea(contour)
        if smallest <= area <= largest and clear_of_border(cv2.boundingRect(contour), mask.shape):
            # The sum of integer pixels over their count: mean's value without its wrapper.
            centre = np.add.reduce(contour.reshape(-1, 2), axis=0) / len(contour)
            regions.append(Region(contour, area, float32_point(centre)))
    return regions


def rough_candidate(region: Region) -> Candidate | None:
    """The region as a candidate card if it is roughly card-shaped: cheap checks only;
    ``confirm`` does the exact corner fit for the few that pass."""
    hull = cv2.convexHull(region.contour)
    rect = cv2.minAreaRect(hull)
    (_, _), (w, h), _ = rect
    if not ASPECT_RANGE[0] <= min(w, h) / max(w, h, 1.0) <= ASPECT_RANGE[1]:
        return None
    # Loose here: a card under perspective fills its bounding rectangle only partly.
    if region.area / max(w * h, 1.0) < MIN_RECT_FILL:
        return None
    return Candidate(initial_quad(hull, rect), region.area, region.contour, hull)


def confirm(candidate: Candidate, image: np.ndarray) -> tuple[Candidate, float] | None:
    """The candidate with its corners refit, and its edge support, if it is still a
    card-shaped, well-filled quad whose every side is a real edge in ``image``."""
    quad = order_clockwise(refine_corners(order_clockwise(candidate.outline), candidate.contour))
    if not card_shaped(quad):
        return None
    quad_area = max(cv2.contourArea(quad), 1.0)
    fill = candidate.area / quad_area
    # The hull check catches two cards in one blob, whose hull a loose quad cuts short.
    if not MIN_FILL <= fill <= MAX_FILL or cv2.contourArea(candidate.hull) / quad_area > MAX_HULL:
        return None
    support = edge_support(image, quad)
    if support < MIN_EDGE_SUPPORT:
        return None
    return Candidate(quad, quad_area, candidate.contour, candidate.hull), support


@dataclass
class _Kept:
    card: Candidate
    support: float
    parts: list[Candidate]  # much smaller outlines inside: maybe two cards merged


def select_cards(regions: list[Region], image: np.ndarray) -> list[Candidate]:
    """One confirmed outline per card, largest first.

    Each card is proposed by several cues, and a card's printed frame or a back's inner
    panel is card-shaped too; anything centred inside a confirmed card is that card, and
    is not looked at further. Unless its edges are clearly stronger: then the larger
    outline had swallowed some of the table (a neighbour, a shadow, a crumb), and the
    smaller one is the card. Two cards lying side by side can make one card-shaped outline
    too; when strong outlines no bigger than half of it, side by side, fill it, they are
    the cards.
    """
    kept: list[_Kept] = []
    for region in sorted(regions, key=lambda r: -r.area):
        holder = next((k for k in kept if k.card.holds(region.centre)), None)
        if holder is not None and holder.support >= 1 - CLEARLY_STRONGER:
            # A printed frame or a back's panel is most of its card; half is a neighbour.
            if region.area <= PART_OF_PAIR * holder.card.area:
                part = rough_candidate(region)
                if part is not None:
                    holder.parts.append(part)
            continue
        candidate = rough_candidate(region)
        result = None if candidate is None else confirm(candidate, image)
        if result is None:
            continue
        confirmed, support = result
        if holder is None:
            kept.append(_Kept(confirmed, support, []))
        elif support >= holder.support + CLEARLY_STRONGER:
            holder.card, holder.support = confirmed, support
    cards = []
    for k in kept:
        parts = _pair_in(k, image)
        cards.extend(parts if parts else [k.card])
    return cards


def _pair_in(kept: _Kept, image: np.ndarray) -> list[Candidate]:
    """The cards lying side by side that ``kept`` is really the outline of, or none. Parts
    are confirmed only when they could fill it, which a court card's picture frame alone
    never does."""
    def fill(parts: list[Candidate]) -> bool:
        return len(parts) >= 2 and sum(p.area for p in parts) >= PAIR_FILL * kept.card.area

    if not fill(_side_by_side(kept.parts)):
        return []
    confirmed: list[Candidate] = []
    for part in sorted(kept.parts, key=lambda c: -c.area):
        if any(other.holds(part.centre) for other in confirmed):
            continue
        result = confirm(part, image)
        if result is not None and result[1] >= 1 - CLEARLY_STRONGER:
            confirmed.append(result[0])
    if not fill(confirmed):
        return []
    hull = cv2.convexHull(np.concatenate([part.outline for part in confirmed]))
    return confirmed if cv2.contourArea(hull) >= PAIR_SPAN * kept.card.area else []


def _side_by_side(parts: list[Candidate]) -> list[Candidate]:
    """The largest outlines among ``parts`` that are not inside one another."""
    chosen: list[Candidate] = []
    for part in sorted(parts, key=lambda c: -c.area):
        if not any(other.holds(part.centre) for other in chosen):
            chosen.append(part)
    return chosen


def _edge_offsets(image: np.ndarray, outlines: np.ndarray, heights: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where each card's edge crosses each of its sides' sample normals, for all the
    cards at once (rows: card, side, sample): the sample points on the located sides,
    their outward normals, and the edge's offset along each normal (NaN: no edge seen).

    A normal runs from ``SNAP_REACH[0]`` of the card's height inside to ``SNAP_REACH[1]``
    outside the side. Of the steps at least half as strong as the strongest, the one
    nearest the located side is taken, then followed outwards across any further step
    within ``SNAP_FRAME_GAP``: a printed frame line lies that close inside the card's
    edge, a neighbouring card further out.
    """
    ends = np.roll(outlines, -1, axis=1)
    directions = (ends - outlines) / np.maximum(
        np.linalg.norm(ends - outlines, axis=2, keepdims=True), 1e-6)
    outward = np.stack([directions[..., 1], -directions[..., 0]], axis=2)
    # Outlines run clockwise on screen (positive oriented area); a reversed one flips normals.
    turn = (outlines[..., 0] * ends[..., 1] - ends[..., 0] * outlines[..., 1]).sum(axis=1)
    outward[turn < 0] *= -1
    along = np.linspace(0.15, 0.85, SNAP_SAMPLES, dtype=np.float32)[None, None, :, None]
    points = (outlines[:, :, None, :] + (ends - outlines)[:, :, None, :] * along).reshape(-1, 2)
    normals = np.repeat(outward.reshape(-1, 2), SNAP_SAMPLES, axis=0)
    row_height = np.repeat(heights, 4 * SNAP_SAMPLES)
    inside, outside = SNAP_REACH[0] * row_height + 2, SNAP_REACH[1] * row_height + 2
    # A column per normal, a row per half-pixel step along it: the scans down the normals
    # below (running maxima, chain counts) then run over contiguous rows, in int16.
    offsets = -inside + 0.5 * np.arange(int(np.ceil(2 * (inside + outside).max())) + 1,
                                        dtype=np.float32)[:, None]
    xs = points[:, 0] + normals[:, 0] * offsets
    ys = points[:, 1] + normals[:, 1] * offsets
    profiles = cv2.remap(image, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    centres = offsets[1:-1]
    differences = cv2.absdiff(profiles[2:], profiles[:-2])
    steps = (differences if differences.ndim == 2 else np.maximum(
        np.maximum(differences[..., 0], differences[..., 1]), differences[..., 2])).astype(np.int16)
    steps[offsets[2:] > outside] = 0  # past this card's reach
    strongest = steps.max(axis=0)
    strong = (steps >= 0.5 * strongest) & (strongest >= SNAP_MIN_STEP)
    nearest = np.where(strong, np.abs(centres), np.inf).argmin(axis=0)
    # Strong steps split into chains wherever the gap to the previous one exceeds
    # frame_gap; the edge is the outermost step of the nearest step's chain.
    frame_gap = SNAP_FRAME_GAP * row_height
    index = np.arange(len(centres), dtype=np.int16)[:, None]
    none = np.int16(-1)
    previous = np.empty(strong.shape, np.int16)
    previous[0] = none
    np.maximum.accumulate(np.where(strong[:-1], index[:-1], none), axis=0, out=previous[1:])
    gap = centres - np.take_along_axis(centres, np.maximum(previous, 0), axis=0)
    breaks = strong & ((previous < 0) | (gap > frame_gap))
    chain = np.cumsum(breaks, axis=0, dtype=np.int16)
    same_chain = strong & (chain == chain[nearest, np.arange(chain.shape[1])]) & (index >= nearest)
    outermost = np.where(same_chain, index, none).max(axis=0)
    # Blur spreads the edge over a run of strong steps; it lies at the run's step-weighted
    # middle, not at its outer end. The run is the outermost one of the chain.
    run_starts = strong.copy()
    run_starts[1:] &= ~strong[:-1]
    start = np.where(run_starts & (index <= outermost), index, none).max(axis=0)
    weights = np.where((index >= start) & (index <= outermost), steps, 0)
    # Summed along each normal's own row, so the floats add in the order they always have.
    offset = (np.ascontiguousarray((weights * centres).T).sum(axis=1)
              / np.maximum(weights.sum(axis=0), 1))
    offset[~strong.any(axis=0)] = np.nan
    # A side's edge is one straight line: a step far off the side's typical offset
    # belongs to a neighbouring card or the back's motif.
    by_side = offset.reshape(-1, SNAP_SAMPLES)
    stray = np.abs(by_side - _medians(by_side)) > frame_gap.reshape(-1, SNAP_SAMPLES)
    by_side[stray] = np.nan
    return points, normals, offset


def _medians(rows: np.ndarray) -> np.ndarray:
    """Each row's median over its finite values (NaN where it has none), as a column."""
    ordered = np.sort(rows, axis=1)  # NaN sorts last
    count = np.isfinite(rows).sum(axis=1)[:, None]
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0) // 2, axis=1)
    high = np.take_along_axis(ordered, count // 2, axis=1)
    return (low + high) / 2


def snap_outlines(image: np.ndarray, outlines: list[np.ndarray]) -> list[np.ndarray]:
    """The outlines moved onto the cards' real edges in the full-resolution photo.

    Locating works on a shrunk copy and its masks are a pixel or two fat or thin; the
    reader needs the index where the card's geometry puts it, so each side is refit to
    the colour step found along its normals. A side with too few steps keeps its place.
    """
    if not outlines:
        return []
    stacked = np.stack(outlines).astype(np.float32)
    heights = np.minimum(np.linalg.norm(stacked - np.roll(stacked, -1, axis=1), axis=2).max(axis=1),
                         max(image.shape[:2])).astype(np.float32)
    points, normals, offset = _edge_offsets(image, stacked, heights)
    edges = (points + normals * np.nan_to_num(offset)[:, None]).reshape(-1, 4, SNAP_SAMPLES, 2)
    seen = np.isfinite(offset).reshape(-1, 4, SNAP_SAMPLES)
    lines = np.empty((len(stacked), 4, 4), np.float32)
    for (card, side), count in np.ndenumerate(seen.sum(axis=2)):
        if count < SNAP_SAMPLES // 2:
            a, b = stacked[card, side], stacked[card, NEXT[side]]
            lines[card, side, :2] = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
            lines[card, side, 2:] = a
        else:
            lines[card, side] = cv2.fitLine(edges[card, side][seen[card, side]], cv2.DIST_HUBER,
                                            0, 0.01, 0.01).reshape(4)
    moved = crossings(lines)
    # A side that snapped onto a neighbour, a shadow or the grain leaves a lopsided quad.
    unmoved = (np.isnan(moved).any(axis=(1, 2))
               | (lengths(moved - stacked).max(axis=1) > 0.1 * heights))
    return [outline if stay or not card_shaped(corners) else corners
            for outline, corners, stay in zip(stacked, moved, unmoved, strict=True)]


def locate_cards(image: np.ndarray) -> list[np.ndarray]:
    """Outlines (4×2 float32, clockwise, photo pixels) of every card lying in the photo."""
    small, scale = _shrink(image)
    cues = cue_masks(small)
    regions = [region for mask in cues for region in card_sized_regions(mask)]
    found = [card.outline for card in select_cards(regions, small)]
    found += glare_outlines(small, (cues.stock, cues.enclosed, cues.coarse_enclosed), cues.stock,
                            found)
    return snap_outlines(image, [outline / scale for outline in found])


def _shrink(image: np.ndarray) -> tuple[np.ndarray, float]:
    longest = max(image.shape[:2])
    if longest <= LOCATE_MAX_SIDE:
        return image, 1.0
    scale = LOCATE_MAX_SIDE / longest
    size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
    # Area averaging matters only for a big reduction; for a small one it costs 5× linear.
    method = cv2.INTER_LINEAR if scale >= 0.5 else cv2.INTER_AREA
    return cv2.resize(image, size, interpolation=method), scale


# ---------------------------------------------------------------- rectify and read


def portrait(outline: np.ndarray) -> np.ndarray:
    """The outline reordered so its first side is a short side (the card's top)."""
    sides = side_lengths(outline)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        return outline[NEXT]
    return outline


def rectify(image: np.ndarray, outline: np.ndarray,
            size: tuple[int, int] | None = None) -> np.ndarray:
    """The card under ``outline`` flattened to an upright-or-180° portrait image.

    ``size`` (width, height) defaults to ``RECTIFIED_HEIGHT`` tall at the nearest real
    card proportion (bridge or poker).
    """
    outline = portrait(outline)
    if size is None:
        sides = side_lengths(outline)
        measured = (sides[0] + sides[2]) / (sides[1] + sides[3])
        aspect = min(CARD_ASPECTS, key=lambda a: abs(a - measured))
        size = (round(RECTIFIED_HEIGHT * aspect), RECTIFIED_HEIGHT)
    image, outline = _card_region(image, outline, size[1])
    return flatten(image, outline, size, cv2.BORDER_REPLICATE)


def _card_region(image: np.ndarray, outline: np.ndarray, height: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The part of the photo around the card, area-averaged down if the card is far larger
    than ``height``: a perspective warp samples points, and sampling a big card down to
    a small one would drop strokes of the index."""
    region, outline = region_around(image, outline)
    shrink = 1.5 * height / float(side_lengths(outline).max())
    if shrink >= 1 or region.size == 0:
        return region, outline
    size = (max(1, round(region.shape[1] * shrink)), max(1, round(region.shape[0] * shrink)))
    return cv2.resize(region, size, interpolation=cv2.INTER_AREA), outline * shrink


def read_table(frame: np.ndarray, profile: DeckProfile | None = None,
               letters: str | None = None, *, reader: CornerReader | None = None,
               copies: int = 1, enlarge: bool = True) -> list[Detection]:
    """Every card lying in the photo: face up with rank and suit, face down, or abstained;
    and every card overlapped so that only its index corner shows (a fanned hand, a meld
    laid in a row), named once (``copies``: how many of each card the deck holds).
    ``enlarge`` is as for ``indices.find_index_corners``: False for a crop of a frame.

    An abstention is still a detection (``card`` None): a card is there and nobody knows
    which, which the table must hear rather than miss. ``profile``, ``letters`` and
    ``reader`` are as for ``reading.read_card_images``, which reads all the frame's whole
    cards in one call.
    """
    frame = bgr_frame(frame)
    outlines = [portrait(outline) for outline in locate_cards(frame)]
    cards = [rectify(frame, outline, CANONICAL_SIZE) for outline in outlines]
    readings = read_card_images(cards, profile=profile, letters=letters, reader=reader)
    found = [Detection(r.face, r.card, r.confidence, outline)
             for r, outline in zip(readings, outlines, strict=True)]
    # A back far larger than its neighbours is searched for indices as an unread face is;
    # a back shows none, so one found inside makes it faces.
    large = backs_twice_their_neighbours(readings, outlines)
    columns = {i for i, outline in enumerate(outlines) if longer_than_a_card(outline)}
    named = Counter(d.card for d in found if d.card is not None)
    known = [d.outline for i, d in enumerate(found) if i not in columns
             and (d.card is not None or (d.face == "down" and i not in large))]
    unread = [d.outline for i, d in enumerate(found)
              if (d.card is None and d.face == "up") or i in large or i in columns]
    for hit in find_index_corners(frame, letters, copies, reader=reader, known=known,
                                  unread=unread, enlarge=enlarge):
        if named[hit.card] >= copies:
            continue
        named[hit.card] += 1
        found.append(Detection("up", hit.card, hit.score, hit.corner, "corner"))
    for i in large:
        if any(contains(found[i].outline, d.outline.mean(axis=0))
               for d in found[len(outlines):]):
            found[i] = Detection("up", None, 0.0, found[i].outline)
    return found


# Width over height under which an outline is longer than a card seen from above (0.64 to
# 0.71): a dummy's column of two or three cards taken for one. Its bottom card may be named
# (its corner and its middle's pips agree), and the cards above it show only their
# indices, so it is searched for them as an unread card is. A card seen from a low seat
# can be as long; searching it finds its own index, named already.
LONGER_THAN_A_CARD = 0.55


def longer_than_a_card(outline: np.ndarray) -> bool:
    """Whether a portrait outline is longer for its width than a card seen from above."""
    sides = np.maximum(side_lengths(outline), 1.0)
    return (sides[0] + sides[2]) / (sides[1] + sides[3]) < LONGER_THAN_A_CARD


# Area, at least, over the cards read beside it at which an outline read as a back may hold
# two cards: two lying edge to edge make one outline about twice a card's area.
TWO_CARDS = 1.7
NEIGHBOURS = 3  # cards read whole nearest an outline: at its depth in an oblique photo


def backs_twice_their_neighbours(readings: list[Reading], outlines: list[np.ndarray]
                                 ) -> list[int]:
    """Which outlines read as backs are far larger than the cards read beside them. Every
    card at a table is the same size, and an outline's nearest neighbours lie at its depth;
    one about twice theirs may be two face-up cards lying edge to edge. With a court
    card's picture beside a number card's pips such an outline is textured all over, and
    its corners hold no index the right way up, so it reads as a back."""
    whole = [i for i, r in enumerate(readings) if r.card is not None]
    if len(whole) < NEIGHBOURS or not any(r.face == "down" for r in readings):
        return []
    areas = [cv2.contourArea(o.reshape(-1, 1, 2).astype(np.float32)) for o in outlines]
    centres = [o.mean(axis=0) for o in outlines]
    large = []
    for i, reading in enumerate(readings):
        if reading.face == "down":
            nearest = sorted(whole, key=lambda j: float(np.linalg.norm(centres[j] - centres[i])))
            if areas[i] >= TWO_CARDS * float(np.median([areas[j] for j in nearest[:NEIGHBOURS]])):
                large.append(i)
    return large


def read_single_card(photo: np.ndarray, profile: DeckProfile | None = None,
                     letters: str | None = None, *, reader: CornerReader | None = None
                     ) -> Reading:
    """Read a picture of one card: a read-station frame, one card lying on a table, or a
    tight crop that the card fills.

    The largest card the table locator finds is read; a frame where it finds none is
    handed to the read station, whose dark window it may be. Where neither names a card,
    the picture itself is read as the card, as a tight crop is (turned portrait), and
    then the card filling it straightened (``card_filling``: a crop cut round a card
    lying a little turned), then a card seen at a steep angle (``card_at_a_slant``); and
    failing that, the card's index corners are looked for anywhere in the picture
    (``indices``): both must show, and nothing else be named.
    """
    photo = bgr_frame(photo)
    outlines = locate_cards(photo)
    share = 0.0
    if outlines:
        largest = max(outlines, key=lambda o: cv2.contourArea(o.reshape(-1, 1, 2)))
        share = cv2.contourArea(largest.reshape(-1, 1, 2)) / float(photo.size // 3)
        [found] = read_card_images([rectify(photo, largest, CANONICAL_SIZE)],
                                   profile=profile, letters=letters, reader=reader)
    else:
        found = read_station(photo, profile, letters, reader=reader)
        corners = locate_station_card(photo)
        if corners is not None:
            share = cv2.contourArea(corners.reshape(-1, 1, 2)) / float(photo.size // 3)
    if found.card is not None:
        return found
    picture = _as_portrait(photo)
    [whole] = read_card_images([picture], profile=profile, letters=letters, reader=reader)
    if whole.card is not None:
        return whole
    filling = card_filling(photo)
    if filling is not None:
        [straight] = read_card_images([rectify(photo, filling, CANONICAL_SIZE)],
                                      profile=profile, letters=letters, reader=reader)
        if straight.card is not None:
            return straight
    slant = card_at_a_slant(photo)
    if slant is not None:
        # Seen steeply, a card's near side may look longer than its long sides: flattened
        # both ways, it is named only when one way names a card and the other no other.
        readings = read_card_images([_flattened(photo, slant), _flattened(photo, slant[NEXT])],
                                    profile=profile, letters=letters, reader=reader)
        named = {r.card for r in readings if r.card is not None}
        if len(named) == 1:
            return next(r for r in readings if r.card is not None)
    if (found.face == "down" and share >= FRAME_SHARE
            and indices_seen([canonical(picture)], reader or default_reader(), both=False)[0]):
        # What the locator took for a back is a court card's framed picture, much of a
        # crop whose corners show an index: a face, unread.
        return whole
    if found.face != "down" and profile is None:
        # No outline read (a pale table, a card half in shadow): its index corners may
        # still show, and name the card when both do.
        hit = one_card_by_both_indices(photo, letters, reader=reader)
        if hit is not None:
            return Reading("up", hit.card, hit.score)
    if (found.face == "none" and whole.face == "up" and edged_with_card_stock(photo)
            and indices_seen([canonical(picture)], reader or default_reader())[0]):
        # Nothing outlined, but the picture is edged with card stock and both its corners
        # show an index: a tight crop of a face not named (a king its corners name at
        # 0.9993, short of the calibrated 0.9995). A card face up and unread, which asks
        # a person, not an empty picture.
        return whole
    return found


# A tight crop's edge is the card's margin: this share of the band round the picture
# (EDGE_BAND of its size deep) is bright in every channel (STOCK_GREY of 255), as white
# stock in ordinary light is. A dark station window or a table is not.
EDGE_BAND = 0.08
STOCK_GREY = 150
STOCK_SHARE = 0.6


def edged_with_card_stock(picture: np.ndarray) -> bool:
    """Whether the band round the picture's edge is mostly white card stock."""
    h, w = picture.shape[:2]
    dy, dx = max(1, int(EDGE_BAND * h)), max(1, int(EDGE_BAND * w))
    band = np.ones((h, w), bool)
    band[dy:h - dy, dx:w - dx] = False
    return float((picture.min(axis=2)[band] >= STOCK_GREY).mean()) >= STOCK_SHARE


def _bright_stock(picture: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The picture, shrunk to the locating size (``scale``), as how much each pixel looks
    like card stock (``_white_balanced_stock``), and that split at Otsu's level: a card's
    stock against a darker table."""
    small, scale = _shrink(picture)
    level = _white_balanced_stock(small)
    _, stock = cv2.threshold(level, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return level, stock, scale


# Share of a picture, at least, that the rectangle round a card filling it takes.
FILLING = 0.5
# The table round a card is darker than its stock: at most this share of the stock's level
# (after white balance, on the darkest channel, so a wood or a cloth of any colour is dark).
TABLE_UNDER_STOCK = 0.75


def card_filling(picture: np.ndarray) -> np.ndarray | None:
    """The outline (4×2 float32, clockwise) of a card filling most of the picture, turned a
    little, as a crop cut to its bounding box leaves it: the least rectangle round the
    largest patch of bright stock, though its corners touch or pass the picture's edges
    (the locator takes no region that touches them, since the table does). There is table
    in at least two of the picture's corners, darker than the stock; the rectangle is
    card-shaped and fills at least ``FILLING`` of the picture. Else None."""
    level, stock, scale = _bright_stock(picture)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(stock)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    card = labels == largest
    h, w = card.shape
    if sum(not card[y, x] for y, x in ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1))) < 2:
        return None
    if np.median(level[~card]) > TABLE_UNDER_STOCK * np.median(level[card]):
        return None
    points = np.column_stack(np.nonzero(card)[::-1]).astype(np.float32)
    rect = cv2.minAreaRect(cv2.convexHull(points))
    (_, _), (rw, rh), _ = rect
    if (rw * rh < FILLING * h * w
            or not ASPECT_RANGE[0] <= min(rw, rh) / max(rw, rh, 1.0) <= ASPECT_RANGE[1]):
        return None
    return (order_clockwise(cv2.boxPoints(rect)) / scale).astype(np.float32)


# A card seen steeply from a phone held low is a quadrilateral of no card's proportions:
# its filled outline is convex (its hull adds at most this share) and four corners span it.
SLANT_CONVEX = 0.95
SLANT_QUAD_FILL = (0.92, 1.08)  # outline area over its four corners' area: rounded corners
SLANT_CORNERS = 0.04  # of the outline's length: how far a side may stray from a straight one


def card_at_a_slant(picture: np.ndarray) -> np.ndarray | None:
    """The outline (4×2 float32, clockwise, first corner anywhere) of the largest patch of
    bright stock, clear of the picture's edges, that is a convex quadrilateral on a darker
    table, whatever its proportions: a card the locator, which wants a card's shape, does
    not take when it is seen at a steep angle. Else None."""
    level, stock, scale = _bright_stock(picture)
    stock = cv2.morphologyEx(stock, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(stock)
    for label in 1 + np.argsort(-stats[1:count, cv2.CC_STAT_AREA]):
        if stats[label, cv2.CC_STAT_AREA] < MIN_CARD_AREA_FRACTION * stock.size:
            return None
        if not clear_of_border(tuple(stats[label, :4]), stock.shape):
            continue
        patch = labels == label
        contours, _ = cv2.findContours(patch.astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_NONE)
        outline = max(contours, key=cv2.contourArea)
        hull = cv2.convexHull(outline)
        # The outline's area, not the patch's: the card's ink is holes in its stock.
        area = cv2.contourArea(outline)
        if area < SLANT_CONVEX * cv2.contourArea(hull):
            continue
        corners = cv2.approxPolyDP(hull, SLANT_CORNERS * cv2.arcLength(hull, True), True)
        if len(corners) != 4:
            continue
        quad = order_clockwise(corners.reshape(4, 2).astype(np.float32))
        fill = area / max(cv2.contourArea(quad), 1.0)
        if not SLANT_QUAD_FILL[0] <= fill <= SLANT_QUAD_FILL[1]:
            continue
        if np.median(level[~patch]) > TABLE_UNDER_STOCK * np.median(level[patch]):
            continue
        return (quad / scale).astype(np.float32)
    return None


def _flattened(photo: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """The card under ``outline`` flattened with its first side as the card's top."""
    region, corners = _card_region(photo, outline, CANONICAL_SIZE[1])
    return flatten(region, corners, CANONICAL_SIZE, cv2.BORDER_REPLICATE)


# Share of a picture, at least, that a court card's framed picture takes in a tight crop of
# the card; a card lying on a table in a photo mostly takes less.
FRAME_SHARE = 0.2


def _as_portrait(picture: np.ndarray) -> np.ndarray:
    """A picture turned a quarter so it is taller than wide, as a card stands."""
    if picture.shape[1] > picture.shape[0]:
        return cv2.rotate(picture, cv2.ROTATE_90_CLOCKWISE)
    return picture
