"""Cards partly hidden by glare, found from the straight sides the glare leaves in sight.

A glare spot clips every channel. Where it falls across a card's edge, card and table are
both pure white and no cue can tell them apart: the card's region runs into the spot and
on into the table, and no cue outlines the card. Cut out of a cue's mask, the spot leaves
the card's visible part a region of its own, whose outline keeps the card's straight sides
wherever they are seen. Four such sides make the card's outline. Three make it too when
one side is lost in the spot: the lost side is placed as the cards lying on the same table
are proportioned, and without two such cards nothing is guessed. Perspective varies a
card's proportions in the photo by about a tenth across a table, so such a side may lie
that far off; the index the reader needs is at the end in sight.

An outline is kept only if it is card-shaped, holds the whole visible region, adds to it
only what the spot hides, has a real edge along every side the spot leaves in sight, and
is not a back's patterned panel inside a white margin the spot has blanked.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .quads import (
    MAX_CARD_AREA_FRACTION,
    MIN_CARD_AREA_FRACTION,
    MIN_EDGE_SUPPORT,
    card_shaped,
    card_sized,
    clear_of_border,
    contains,
    inward_normals,
    order_clockwise,
    side_lengths,
    side_support,
    values_at,
)
from .sides import corners_of, intersect

GLARE_LEVEL = 254  # every channel at least this: clipped (white card stock stays below)
GLARE_RIM = 5  # pixels (locating scale): the spot's soft rim, where a step is still too weak
MIN_GLARE_PIXELS = 50  # fewer clipped pixels than this hide no card's side
# Share of a region's outline along the spot: less, and the spot merely grazes it (the
# ordinary cues see that card); more, and too little of it is in sight.
TOUCH_RANGE = (0.03, 0.7)
MIN_OUTLINE_POINTS = 60  # a region with a shorter outline is no card's visible part
STRAIGHT = 2.0  # pixels an outline may stray from a straight side
MIN_SIDE = 12  # pixels of straight outline (locating scale) that may be a card's side
SAME_LINE = (math.radians(4), 2.5)  # angle and mean distance (px) within which pieces are one side
PARALLEL = math.radians(20)  # opposite sides under perspective
CROSSING = math.radians(60)  # at least this between adjacent sides
MAX_LINES = 8  # the longest sides of one region tried against each other
# Outlines tried per region, best first: a card's own sides are its region's longest, so
# its outline ranks near the top; past this the region is no card.
MAX_HYPOTHESES = 30
# Short over long side a card may show under the camera's perspective; a side lost in the
# spot is tried at each, and the table's own proportions pick among those that fit.
RATIOS = (0.58, 0.64, 0.71, 0.78)
# Outline points a hypothesis gives up per unit of log-ratio off the table's proportions.
PROPORTION_WEIGHT = 100.0
MIN_COVER = 0.92  # of the outline: the visible region and the spot between them
MAX_SPILL = 0.04  # of the outline's area: visible region lying outside it
HIDDEN_SHARE = (0.01, 0.75)  # of the outline: hidden by the spot
SEEN_SIDE = 0.3  # share of a side's samples in sight that makes it a side to test
MIN_SEEN_SIDES = 3
LOST_SIDE_HIDDEN = 0.7  # share of a side placed by proportion that the spot must hide
# A back's printed panel is card-shaped; just outside it lies the back's white margin
# (stock, or blanked by the spot), a few pixels wide at the locating scale.
MARGIN_OFFSETS = (4.0, 5.0, 6.0)
MARGIN_SAMPLES = 40
FRAMED = 0.9


@dataclass(frozen=True, eq=False)
class Side:
    """A straight piece of a region's outline: its line (vx, vy, x, y) and its points."""

    line: np.ndarray
    points: np.ndarray

    @property
    def angle(self) -> float:
        return math.atan2(float(self.line[1]), float(self.line[0])) % math.pi


@dataclass(frozen=True)
class Hypothesis:
    outline: np.ndarray  # 4×2 float32
    sides: tuple[Side, ...]  # the seen sides it is built on
    penalty: float  # how far off the table's proportions it is
    placed: int | None  # index of the side placed by proportion, if one was

    @property
    def score(self) -> float:
        return sum(len(s.points) for s in self.sides) - PROPORTION_WEIGHT * self.penalty


@dataclass(frozen=True)
class Proportions:
    """The cards already found on this table: median short/long ratio and side lengths."""

    aspect: float
    short: float
    long: float


@dataclass(frozen=True)
class Glare:
    """The photo's clipped spots: ``spots`` with their soft rim, and ``near`` a little
    wider (an outline point there may be the rim's, not the card's)."""

    spots: np.ndarray
    near: np.ndarray


def find_glare(image: np.ndarray, found: Sequence[np.ndarray] = ()) -> Glare | None:
    """The clipped spots that may hide a card, or None. Bright light clips white card stock
    too; clipped pixels inside the cards already ``found`` are their own stock, and hide
    no other card."""
    clipped = cv2.inRange(image, (GLARE_LEVEL,) * 3, (255,) * 3)
    if found:
        cv2.fillPoly(clipped, [np.round(outline).astype(np.int32) for outline in found], 0)
    if cv2.countNonZero(clipped) < MIN_GLARE_PIXELS:
        return None
    rim = np.ones((GLARE_RIM, GLARE_RIM), np.uint8)
    spots = cv2.dilate(clipped, rim)
    return Glare(spots, cv2.dilate(spots, rim))


def table_proportions(outlines: Sequence[np.ndarray]) -> Proportions | None:
    if len(outlines) < 2:
        return None
    halves = np.array([sorted((s[0] + s[2], s[1] + s[3])) for s in map(side_lengths, outlines)])
    short, long_ = halves[:, 0] / 2, halves[:, 1] / 2
    return Proportions(float(np.median(short / long_)), float(np.median(short)),
                       float(np.median(long_)))


def glare_outlines(image: np.ndarray, regions: Sequence[np.ndarray], stock: np.ndarray,
                   found: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Outlines (locating scale) of cards that glare hid from the other cues.

    ``regions`` are cue masks in which a card is a filled region, ``stock`` the card-stock
    mask, ``found`` the outlines already located: a card among them is not proposed again.
    """
    glare = find_glare(image, found)
    if glare is None:
        return []
    proportions = table_proportions(found)
    known = list(found)
    added = []
    for mask in regions:
        contours, _ = cv2.findContours(cv2.bitwise_and(mask, cv2.bitwise_not(glare.spots)),
                                       cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            outline = _card_behind(image, contour, glare, stock, proportions)
            if outline is not None and not any(_same_card(outline, k) for k in known):
                known.append(outline)
                added.append(outline)
    return added


def _card_behind(image: np.ndarray, contour: np.ndarray, glare: Glare, stock: np.ndarray,
                 proportions: Proportions | None) -> np.ndarray | None:
    """The card whose visible part ``contour`` outlines, if it is one the spot cut into."""
    if len(contour) < MIN_OUTLINE_POINTS:
        return None
    # At most HIDDEN_SHARE[1] of a card is hidden: its visible part is at least the rest.
    area = cv2.contourArea(contour)
    image_area = image.shape[0] * image.shape[1]
    if not ((1 - HIDDEN_SHARE[1]) * MIN_CARD_AREA_FRACTION * image_area <= area
            <= MAX_CARD_AREA_FRACTION * image_area):
        return None
    points = contour.reshape(-1, 2)
    touching = glare.near[points[:, 1], points[:, 0]] > 0
    if not TOUCH_RANGE[0] <= touching.mean() <= TOUCH_RANGE[1]:
        return None
    box = cv2.boundingRect(contour)
    if not clear_of_border(box, image.shape):
        return None
    window = _Window(image.shape, box)
    sides = _merged([side for run in _runs(points, ~touching) for side in _straight_sides(run)])
    if len(sides) < 3:
        return None
    moments = cv2.moments(contour)
    centre = np.array([moments["m10"], moments["m01"]], np.float32) / moments["m00"]
    region = window.fill_contour(contour)
    hidden = window.cut(glare.spots)

    def fits(hypothesis: Hypothesis) -> bool:
        outline = hypothesis.outline
        return (card_sized(outline, image.shape) and card_shaped(outline)
                and (hypothesis.placed is None
                     or _hidden_share_of_side(outline, hypothesis.placed, glare.spots)
                     >= LOST_SIDE_HIDDEN)
                and _explains(window, outline, region, hidden)
                and _edges_where_seen(image, order_clockwise(outline), glare.spots)
                and not _framed(outline, stock, glare.spots))

    # Best first: the first that fits is the answer.
    hypotheses = sorted(itertools.chain(_four_sided(sides),
                                        _three_sided(sides, proportions, centre)),
                        key=lambda h: -h.score)
    best = next((h for h in hypotheses[:MAX_HYPOTHESES] if fits(h)), None)
    return None if best is None else order_clockwise(best.outline)


def _runs(points: np.ndarray, keep: np.ndarray) -> list[np.ndarray]:
    """The stretches of a closed outline's points that ``keep`` holds, in order."""
    if keep.all():
        return [points]
    start = int(np.argmin(keep))  # a dropped point: no run wraps around the start
    order = np.roll(np.arange(len(points)), -start)
    breaks = np.flatnonzero(~keep[order])
    return [points[order[a + 1:b]] for a, b in zip(breaks, [*breaks[1:], len(order)], strict=True)
            if b - a > 1]


def _straight_sides(run: np.ndarray) -> list[Side]:
    """The straight pieces of a stretch of outline, each refit to its own points."""
    if len(run) < MIN_SIDE:
        return []
    corners = cv2.approxPolyDP(run.reshape(-1, 1, 2).astype(np.int32), STRAIGHT, False)
    indices = [int(np.argmin(np.abs(run - c).sum(axis=1))) for c in corners.reshape(-1, 2)]
    sides = []
    for a, b in itertools.pairwise(indices):
        # A couple of points either end belong to the bend into the next piece.
        points = run[a + 2:b - 1].astype(np.float32)
        if len(points) < MIN_SIDE // 2 or np.linalg.norm(run[b] - run[a]) < MIN_SIDE:
            continue
        sides.append(Side(cv2.fitLine(points, cv2.DIST_L2, 0, 0.01, 0.01).reshape(4), points))
    return sides


def _angle_between(a: Side, b: Side) -> float:
    difference = abs(a.angle - b.angle) % math.pi
    return min(difference, math.pi - difference)


def _merged(sides: list[Side]) -> list[Side]:
    """Pieces of one straight side (split where a pip or the spot's rim touched it) joined,
    longest first."""
    merged: list[Side] = []
    for side in sorted(sides, key=lambda s: -len(s.points)):
        for k, other in enumerate(merged):
            normal = np.array([-other.line[1], other.line[0]])
            if (_angle_between(side, other) < SAME_LINE[0]
                    and np.abs((side.points - other.line[2:]) @ normal).mean() < SAME_LINE[1]):
                points = np.vstack([other.points, side.points])
                merged[k] = Side(cv2.fitLine(points, cv2.DIST_L2, 0, 0.01, 0.01).reshape(4),
                                 points)
                break
        else:
            merged.append(side)
    return merged[:MAX_LINES]


def _parallel_pairs(sides: list[Side]) -> Iterator[tuple[Side, Side]]:
    for a, b in itertools.combinations(sides, 2):
        if _angle_between(a, b) <= PARALLEL:
            yield a, b


def _four_sided(sides: list[Side]) -> Iterator[Hypothesis]:
    """Outlines made of two pairs of opposite sides, all four seen."""
    pairs = list(_parallel_pairs(sides))
    for (a, b), (c, d) in itertools.combinations(pairs, 2):
        if len({id(a), id(b), id(c), id(d)}) < 4 or _angle_between(a, c) < CROSSING:
            continue
        ring = [a, c, b, d]
        corners = corners_of([side.line for side in ring])
        if corners is not None:
            yield Hypothesis(corners, tuple(ring), 0.0, None)


def _three_sided(sides: list[Side], proportions: Proportions | None, centre: np.ndarray
                 ) -> Iterator[Hypothesis]:
    """Outlines made of two opposite sides and one crossing them, seen, and a fourth lost
    in the spot: placed opposite the crossing side at each plausible proportion, either
    as an end (the crossing side is a short side) or as a long side."""
    if proportions is None:
        return
    for a, b in _parallel_pairs(sides):
        for c in sides:
            if c is a or c is b or min(_angle_between(a, c), _angle_between(b, c)) < CROSSING:
                continue
            start_a, start_b = intersect(a.line, c.line), intersect(b.line, c.line)
            if start_a is None or start_b is None:
                continue
            across = float(np.linalg.norm(start_a - start_b))
            if across < 1:
                continue
            away_a, away_b = (_towards(side.line, start, centre)
                              for side, start in ((a, start_a), (b, start_b)))
            if away_a @ away_b <= 0:
                continue  # the region lies on opposite sides of ``c`` along the two
            # The lost side lies beyond every point seen on the sides that run into it.
            reach = max(float(((a.points - start_a) @ away_a).max()),
                        float(((b.points - start_b) @ away_b).max())) - STRAIGHT
            for ratio in (proportions.aspect, *RATIOS):
                off_ratio = abs(math.log(ratio / proportions.aspect))
                for length, size in ((across / ratio, abs(math.log(across / proportions.short))),
                                     (across * ratio, abs(math.log(across / proportions.long)))):
                    if length < reach:
                        continue
                    outline = np.array([start_a, start_b, start_b + away_b * length,
                                        start_a + away_a * length], np.float32)
                    yield Hypothesis(outline, (a, b, c), size + off_ratio, 2)


def _towards(line: np.ndarray, start: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """The unit direction along ``line`` from ``start`` towards the region's centre."""
    direction = np.array(line[:2], np.float32)
    return direction if (centre - start) @ direction >= 0 else -direction


_ALONG_SIDE = np.linspace(0.1, 0.9, 20, dtype=np.float32)[:, None]


def _hidden_share_of_side(outline: np.ndarray, index: int, spots: np.ndarray) -> float:
    start, end = outline[index], outline[(index + 1) % 4]
    return float(np.count_nonzero(values_at(spots, start + (end - start) * _ALONG_SIDE))
                 ) / len(_ALONG_SIDE)


class _Window:
    """A crop of the locating image around one region, with room for the card it may be
    part of: the masks a hypothesis is tested against, at a fraction of the photo's size."""

    def __init__(self, shape: tuple[int, ...], box: tuple[int, int, int, int]) -> None:
        x, y, w, h = box
        # A card three quarters hidden may reach three times its visible part's length
        # beyond it.
        reach = 3 * max(w, h)
        self.x0, self.y0 = max(x - reach, 0), max(y - reach, 0)
        self.x1, self.y1 = min(x + w + reach, shape[1]), min(y + h + reach, shape[0])

    def cut(self, mask: np.ndarray) -> np.ndarray:
        return mask[self.y0:self.y1, self.x0:self.x1]

    def blank(self) -> np.ndarray:
        return np.zeros((self.y1 - self.y0, self.x1 - self.x0), np.uint8)

    def fill_contour(self, contour: np.ndarray) -> np.ndarray:
        filled = self.blank()
        cv2.drawContours(filled, [contour - np.array([self.x0, self.y0], np.int32)], -1, 255, -1)
        return filled

    def fill_outline(self, outline: np.ndarray) -> np.ndarray:
        filled = self.blank()
        shifted = outline - np.array([self.x0, self.y0], np.float32)
        cv2.fillPoly(filled, [shifted.round().astype(np.int32)], 255)
        return filled


def _explains(window: _Window, outline: np.ndarray, region: np.ndarray, hidden: np.ndarray
              ) -> bool:
    """The outline holds the visible region, and what it adds to it the spot hides."""
    inside = window.fill_outline(outline)
    area = cv2.countNonZero(inside)
    if area == 0:
        return False
    covered = cv2.countNonZero(inside & (region | hidden)) / area
    spill = cv2.countNonZero(region & ~inside) / area
    unseen = cv2.countNonZero(inside & hidden & ~region) / area
    # An outline running off the window claims more than the window can show.
    within = area >= 0.98 * cv2.contourArea(outline)
    return (within and covered >= MIN_COVER and spill <= MAX_SPILL
            and HIDDEN_SHARE[0] <= unseen <= HIDDEN_SHARE[1])


def _edges_where_seen(image: np.ndarray, outline: np.ndarray, spots: np.ndarray) -> bool:
    support, seen = side_support(image, outline, spots)
    tested = seen >= SEEN_SIDE
    return int(tested.sum()) >= MIN_SEEN_SIDES and bool((support[tested] >= MIN_EDGE_SUPPORT).all())


def _framed(outline: np.ndarray, stock: np.ndarray, spots: np.ndarray) -> bool:
    """Just outside the outline lies white stock or glare all round: a back's panel."""
    directions, inward = inward_normals(outline)
    along = np.linspace(0.05, 0.95, MARGIN_SAMPLES, dtype=np.float32)[None, :, None]
    on_sides = outline[:, None, :] + directions[:, None, :] * along
    for offset in MARGIN_OFFSETS:
        points = on_sides - inward[:, None, :] * offset
        if ((values_at(stock, points) > 0) | (values_at(spots, points) > 0)).mean() >= FRAMED:
            return True
    return False


def _same_card(outline: np.ndarray, other: np.ndarray) -> bool:
    """Either outline's centre lies inside the other."""
    return contains(other, outline.mean(axis=0)) or contains(outline, other.mean(axis=0))
