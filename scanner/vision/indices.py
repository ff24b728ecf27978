"""Cards known only by a visible corner: fanned hands, a meld laid down in a row.

Where cards overlap, only their index corners show, so no outline can be found. A printed
index is a rank glyph with its suit pip just below it, both dark or red ink on white
stock; whatever way the card lies, the line from the rank to the suit points down the
card. The ink is searched only where the photo, looked at every fourth pixel, shows
white stock that no card read whole explains: on a table of cards lying apart and all
read, nothing is left to search. A glyph that touches a thin line (the frame round a
court's picture, the edge of the card lying over it) makes one blob too large for a
glyph, or of a glyph's size but long and mostly empty; such a blob is opened, and what
that frees is paired with the glyphs found whole. A hairline is no glyph at all.
Every pair of ink blobs shaped and spaced like that proposes a corner: the window around
it is cut out turned upright, at the scale the pair gives, exactly as a flattened card's
corner window would be (``corner_net.WINDOW``), and the corner net reads all the proposals
in one pass. A photo whose indices the net reads have soft edges (out of focus) is
sharpened as much as they are soft and searched again; one taken from a seat, its
indices squashed along the line of sight, is searched again stretched along its height
(``FROM_A_SEAT``). A proposal is kept only when the
net names a card at the score calibrated for a corner read alone (``Calibration.corner``):
pips on a card's face, a court's picture or an index upside down make proposals too, and
the net, trained to call them no index, must not be trusted loosely there; and a glyph
that is one of a grid of pips alike in size and shape, as a number card's middle is, is
never taken for a rank (nor for a suit larger than its rank). Nor is a window the motif
net is sure was cut from a card back's repeating motif (``motifs``): close up, two
diamonds of a lattice back, one over the other, pass for a rank over its suit. A window
named short of that score is read again with everything right of its index painted over,
for the next card of a tight fan lies there and the net sometimes takes its suit; that
read stands only when it names the same rank in another suit, at the full score or, short
of it, on a second look held to the strictest bar (below). Two sure reads of one rank
glyph, the two ways up, naming different cards (a 9 over its suit, and turned half round a
6 over the pip of the card above it) name neither. A proposal just short of that score, on
an index no sure read has claimed, gets a second look: its window redrawn a little
shifted, scaled and turned (``CORNER_LOOKS``), each look read by the net and by its second
opinion (a net trained apart; ``corner_net.product_of_experts``), the beliefs averaged
over the looks, and the card named at the score calibrated for that
(``Calibration.corner_second``). One further short, down to half sure, gets a second look
too, held to a stricter score calibrated to let no wrong name through
(``corner_second_low``). A true index reads alike in every look and to both nets; a robe
or a pip that passed for one once seldom does. Each card is named once, at its surest
corner (a deck with two of each card, as pinochle's, may show a card twice, in two places
the same way up). A picture of one card is named by its index corners only when both show
and agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from ..cards import Card, Rank, Suit
from .barcodes import in_a_barcode, spreads
from .corner_net import (
    NONE,
    RANK_LABELS,
    SUIT_LABELS,
    WINDOW,
    Calibration,
    CornerReader,
    default_reader,
)
from .glyphs import meanings
from .index import INK_DROP, ink
from .levels import percentiles, row_percentiles
from .motifs import default_motif_reader

# Where a flattened card's index lies in its canonical corner window (x, y in canonical
# pixels, measured on real standard decks): the rank's centre and the suit pip's below it.
RANK_AT = (23.0, 37.0)
SUIT_AT = (23.0, 74.0)
WORK_SIDE = 1600  # photos are searched at most this large (long side)
# and at least this large: a smaller photo is enlarged smoothly first. The filters'
# sizes scale with the photo but their floors are whole pixels, and a whole deal taken at
# 720 px has indices 10 to 12 px tall: the bidly deals shrunk to 720 px name 304 of 345
# cards searched as they are (325 at 1,200 px), and 311 enlarged first.
SEARCH_FLOOR = 1200
# Ink blobs that may be a rank glyph or a suit pip, as fractions of the photo's long side.
# The floor is a small diamond's in a whole deal photographed from across the table (9 px
# of BridgeLens' 1,728: its 12 px indices). At 0.004, before the motif net, a lattice
# back's diamonds in a poker-table photo were named as hearts.
BLOB_HEIGHT = (0.005, 0.08)
MIN_BLOB_AREA = 12  # pixels
# Centre-to-centre distance of rank and suit over the rank's height, and their sizes.
PAIR_DISTANCE = (0.6, 1.9)
SIZE_RATIO = (0.35, 1.6)
ALIKE = 0.12  # blobs within this share of each other's width, height and ink: two pips
LIGHT_REACH = 0.03  # how far to look for the brightest stock, of the photo's long side
NEAR_LIGHT = 0.75  # stock is at least this share of the brightest stock around it
SHADOW_FLOOR = 0.4  # the dimmest stock, in a shadow, as a share of the photo's brightest
NEUTRAL = 0.75  # stock's darkest channel at least this share of its brightest: not coloured
# Ink is a drop below the paper's level, the brightest within this share of the photo's
# long side around a pixel: wider than a glyph's stroke.
PAPER_REACH = 0.012


# Two indices are one when their rank glyphs lie closer than this share of the window's
# width: a rank paired with its own suit and with a neighbour's pip reads as two cards on
# one rank. In the tightest fans seen, the next card's rank lies a third of a window away.
SAME_RANK_SHARE = 0.2


@dataclass(frozen=True)
class IndexHit:
    """A card named by one visible corner: the card, how sure, and the corner window's
    four corners in the photo (clockwise from the index's top left)."""

    card: Card
    score: float
    corner: np.ndarray
    down: np.ndarray  # unit vector from the rank to the suit: down the card

    def rank_centre(self) -> np.ndarray:
        """Where the rank glyph's centre lies in the photo."""
        return self._at(RANK_AT)

    def suit_centre(self) -> np.ndarray:
        """Where the suit pip's centre lies in the photo."""
        return self._at(SUIT_AT)

    def _at(self, point: tuple[float, float]) -> np.ndarray:
        w, h = WINDOW
        across, down = self.corner[1] - self.corner[0], self.corner[3] - self.corner[0]
        return self.corner[0] + point[0] / w * across + point[1] / h * down

    def on_one_rank(self, other: IndexHit) -> bool:
        """Whether the two hits read one rank glyph (``SAME_RANK_SHARE``)."""
        size = float(np.linalg.norm(self.corner[1] - self.corner[0]))
        return bool(np.linalg.norm(other.rank_centre() - self.rank_centre())
                    < SAME_RANK_SHARE * size)

    def same_index_or_card(self, other: IndexHit) -> bool:
        """Whether two hits are one index read twice (on one spot) or the two corners of
        one card (half a turn apart)."""
        size = float(np.linalg.norm(self.corner[1] - self.corner[0]))
        near = np.linalg.norm(self.corner.mean(axis=0) - other.corner.mean(axis=0)) < size
        return bool(near or float(self.down @ other.down) < -0.5)


def _ink_blobs(image: np.ndarray, skip: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Stats and centroids of blobs of ink on bright stock, glyph-sized, outside ``skip``;
    which of them were freed from a larger blob (``_with_lines_taken_off``,
    ``_shade_taken_off``), which of those were freed whole, not worn by an opening, and
    which were freed of shade. Only the parts of the photo holding card stock outside
    ``skip`` are searched (``_stock_regions``)."""
    side = max(image.shape[:2])
    sample = _sample(image)
    light = _light(sample, image.shape)
    sample = light.balanced(sample, step=STOCK_STEP)
    top = _stock_top(sample)
    found_stats, found_centroids, found_freed, found_intact, found_shaded = [], [], [], [], []
    for x, y, w, h in _stock_regions(sample, image.shape[:2], skip, top):
        crop = light.balanced(image[y:y + h, x:x + w], x, y)
        inked = _ink_on_stock(crop, side, top)
        if skip is not None:
            inked[skip[y:y + h, x:x + w] != 0] = 0
        # Block-based labelling: the same blobs in the same order as the default, sooner.
        _, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
            inked, 8, cv2.CV_32S, cv2.CCL_BBDT)
        found = len(stats)
        sized = _glyph_sized(stats, side)
        whole = sized & ~_hairlines(labels, stats, sized, side)
        stats, centroids, intact = _with_lines_taken_off(labels, stats, centroids, whole,
                                                         side)
        keep = _glyph_sized(stats, side)
        keep[:found] = whole
        freed = np.arange(len(stats)) >= found
        shaded_stats, shaded_centroids = _shade_taken_off(labels, stats[:found], crop, side)
        stats = np.concatenate([stats[keep], shaded_stats])
        centroids = np.concatenate([centroids[keep], shaded_centroids])
        centroids += (x, y)
        stats[:, :2] += (x, y)
        of_shade = np.ones(len(shaded_stats), bool)
        found_stats.append(stats)
        found_centroids.append(centroids)
        found_freed.append(np.concatenate([freed[keep], of_shade]))
        found_intact.append(np.concatenate([intact[keep], of_shade]))
        found_shaded.append(np.concatenate([np.zeros(int(keep.sum()), bool), of_shade]))
    if not found_stats:
        return (np.empty((0, 5), np.int32), np.empty((0, 2)), np.empty(0, bool),
                np.empty(0, bool), np.empty(0, bool))
    return (np.concatenate(found_stats), np.concatenate(found_centroids),
            np.concatenate(found_freed), np.concatenate(found_intact),
            np.concatenate(found_shaded))


def _ink_on_stock(image: np.ndarray, side: int, top: float) -> np.ndarray:
    """Which pixels are ink on card stock, in a photo (or a part of one) whose long side
    is ``side`` and whose brightest stock is ``top`` in its darkest channel."""
    h, w = image.shape[:2]
    darkest = cv2.bitwise_not(ink(image))
    size = max(3, round(side * PAPER_REACH)) | 1
    # A square neighbourhood: OpenCV dilates by one in two passes, a disc pixel by pixel.
    paper = cv2.dilate(darkest, np.ones((size, size), np.uint8))
    # Card stock is white: as bright in its darkest channel as in its brightest, where
    # wood, cork or felt is dark in at least one; and near the brightest stock around it.
    # "Around" is about a card's width, not the whole photo, so that cards in a hand's
    # shadow still count as stock, down to a floor under the photo's brightest.
    # The brightest channel around each pixel: along a row of interleaved B, G, R, a
    # dilation three times as wide, centred on each G, spans the neighbours' channels.
    brightest = cv2.dilate(image.reshape(h, w * 3), np.ones((size, 3 * size), np.uint8))[:, 1::3]
    light = _light_around(darkest, side)
    # Compared in float32 by OpenCV: numpy's comparisons of whole photos cost more than
    # all the filtering above.
    paper_level = paper.astype(np.float32)
    stock = (cv2.compare(paper_level, light * np.float32(NEAR_LIGHT), cv2.CMP_GE)
             & cv2.compare(paper_level, float(SHADOW_FLOOR * top), cv2.CMP_GE)
             & cv2.compare(paper_level, brightest.astype(np.float32) * np.float32(NEUTRAL),
                           cv2.CMP_GE))
    return _ink_below(paper, darkest) & stock


def _ink_below(paper: np.ndarray, darkest: np.ndarray) -> np.ndarray:
    """Which pixels are ink below the ``paper`` level given for each: ink is a drop below
    the paper in proportion to that paper, for a shadow dims ink and paper alike."""
    drop = cv2.subtract(paper, darkest).astype(np.float32)
    return cv2.compare(drop, paper.astype(np.float32) * np.float32(INK_DROP), cv2.CMP_GE)


# In a fan each card lies a little in the shade of the one over it. Beside the brighter
# card's edge, the paper ``_ink_on_stock`` sees around a pixel of the dimmer one is the
# brighter card's, and where the photo's midtones are dark that drop passes for ink: the
# shade runs into the glyphs along the edge, and rank and suit become one blob too large
# for a glyph. A closing (the brightest around, then the darkest of that around) keeps
# each card's own level, a step from one card to the next staying a step, and fills in a
# glyph's ink where it reaches across it. It reaches this many times as far as the paper
# around a pixel is looked for, so that a solid suit pip wider than that is filled too.
OWN_PAPER = 2.0
# A window cut round a glyph freed of shade is unlike those the corner score was
# calibrated on (``Calibration.corner``), so it is held to a stricter score: in real
# photos laid as a dummy, the shadow along each card's edge joins a column's indices, and
# taken off it leaves the pips the next card cuts, two of which, paired with a rank, read
# as cards not held at 0.9886 and 0.9903. Every right name such a window gave on the
# bidly deals, as they are and darkened, scored over this.
SHADED_CORNER = 0.999


def _ink_on_its_own_paper(image: np.ndarray, size: int) -> np.ndarray:
    """Which pixels are ink against the paper they lie on, not a brighter card beside it:
    the paper's level closed over a square ``size`` pixels wide (``OWN_PAPER``)."""
    darkest = cv2.bitwise_not(ink(image))
    square = np.ones((size, size), np.uint8)
    paper = cv2.erode(cv2.dilate(darkest, square), square, borderType=cv2.BORDER_REPLICATE)
    return _ink_below(paper, darkest)


def _shade_taken_off(labels: np.ndarray, stats: np.ndarray, image: np.ndarray, side: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Stats and centroids of the glyph-sized pieces each blob too large for a glyph
    (``stats`` rows, each labelled in ``labels``) leaves once the pixels that are ink only
    against a brighter card beside them are taken off (``_ink_on_its_own_paper``),
    hairlines left out. The pieces are whole glyphs, and two may pair (a rank and its suit
    both run into the shade); but a window cut round one is named only at
    ``SHADED_CORNER``, and at a first look only (``_Proposal.freed``): given a second look,
    such windows named cards not held in unseen decks laid as dummies."""
    height = np.maximum(stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_WIDTH])
    large = np.flatnonzero(height > BLOB_HEIGHT[1] * side)
    large = large[large > 0]
    # The closing reaches half its width out and half back: the crops look that far round.
    size = margin = max(3, round(side * PAPER_REACH * OWN_PAPER)) | 1
    h, w = labels.shape
    more_stats, more_centroids = [np.empty((0, 5), np.int32)], [np.empty((0, 2))]
    for i in large:
        x, y, bw, bh, _ = stats[i]
        x0, y0 = max(0, x - margin), max(0, y - margin)
        x1, y1 = min(w, x + bw + margin), min(h, y + bh + margin)
        own = _ink_on_its_own_paper(image[y0:y1, x0:x1], size)
        left = cv2.compare(labels[y0:y1, x0:x1], int(i), cv2.CMP_EQ) & own
        _, parts, part_stats, part_centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
            left, 8, cv2.CV_32S, cv2.CCL_BBDT)
        sized = _glyph_sized(part_stats, side)
        keep = sized & ~_hairlines(parts, part_stats, sized, side)
        part_stats = part_stats[keep].copy()
        part_stats[:, :2] += (x0, y0)
        more_stats.append(part_stats)
        more_centroids.append(part_centroids[keep] + (x0, y0))
    return np.concatenate(more_stats), np.concatenate(more_centroids)


# Card stock left to search is first sought on the sample taken every this many pixels:
# most of a table frame is cloth, wood or cards already read whole, and an index is
# printed on stock, so only the rest is searched at full size.
STOCK_STEP = 4
# Each part searched reaches this far beyond its stock, of the photo's long side: as far
# as the filters above look around a pixel, so that they see there what they would see in
# the whole photo.
STOCK_MARGIN = 0.035


def _sample(image: np.ndarray) -> np.ndarray:
    """Every ``STOCK_STEP``-th pixel of every ``STOCK_STEP``-th row: enough to know the
    stock's level by, and where stock lies."""
    return np.ascontiguousarray(image[::STOCK_STEP, ::STOCK_STEP])


# Under a warm lamp, white stock is a good deal dimmer in blue than in red, and would fail
# the test of being as bright in its darkest channel as in its brightest (``NEUTRAL``).
# The brightest stock in the photo shows the light's colour, and each channel is scaled to
# make it grey. A cast milder than this leaves white stock well inside ``NEUTRAL`` and is
# left alone: scaling would only move the edges of the ink a little.
MILD_CAST = 0.9
# A colour further off grey than this may be any light's; beyond it, down to
# ``DEEP_LAMP_CAST``, only a lamp's, which lies on the black-body line (``_a_lamps_colour``).
# White card under a lamp, photographed with the camera balanced for daylight
# (``synthetic.perturb.lamp_colour``): 0.65 at 4,000 K, 0.43 at 3,000 K, 0.35 at 2,700 K
# (a household bulb), 0.26 at 2,400 K. A phone balances most of that out, but not all,
# and a photo past 0.6 named nothing. A green cloth or a red back is off that line; a
# wooden or cork table is on it, and is taken for a lamp's light when no card is brighter.
LAMP_CAST = 0.6
DEEP_LAMP_CAST = 0.25
# On the black-body line green lies near the geometric mean of blue and red: 0.95 at
# 10,000 K, 1.0 by daylight, 1.15 at 2,700 K, 1.24 at 2,400 K.
LAMP_GREEN = (0.9, 1.3)
BRIGHTEST_SHARE = 1.0  # percent of the sampled pixels, brightest in their darkest channel


def _brightest_colour(sample: np.ndarray) -> np.ndarray:
    """The mean colour (B, G, R) of the pixels of a ``_sample`` brightest in their darkest
    channel (``BRIGHTEST_SHARE``)."""
    darkest = cv2.bitwise_not(ink(sample))
    (level,) = percentiles(darkest, (100 - BRIGHTEST_SHARE,))
    return np.array(cv2.mean(sample, cv2.compare(darkest, level, cv2.CMP_GE))[:3])


def _gains_for(colour: np.ndarray) -> np.ndarray | None:
    """Per channel (B, G, R), what to scale stock of this colour by to make it grey: ones
    for a colour near enough grey (``MILD_CAST``); None for one that is no light's
    (``LAMP_CAST``, ``DEEP_LAMP_CAST``)."""
    if colour.min() <= 0:
        return None
    cast = colour.min() / colour.max()
    if cast >= MILD_CAST:
        return np.ones(3)
    if cast < DEEP_LAMP_CAST or (cast < LAMP_CAST and not _a_lamps_colour(colour)):
        return None
    return colour.min() / colour


def _a_lamps_colour(colour: np.ndarray) -> bool:
    """Whether a colour (B, G, R) lies near the black-body line, as a lamp's light does."""
    blue, green, red = colour
    return LAMP_GREEN[0] <= green / np.sqrt(blue * red) <= LAMP_GREEN[1]


# A lamp on one side and daylight on the other light card stock in two colours, and no one
# scaling makes both grey. The photo is cut into this many cells along its long side, and
# the brightest stock of each shows the light there.
LIGHT_CELLS = 6
# A cell's brightest stock is taken for card under another light only when it is about as
# bright, in its brightest channel, as the photo's brightest stock: white card is the
# brightest thing on a table under any light. Without this, a cell of bare table or of a
# coloured object counted as another light in most photos under one light (all 22
# poker-table photos and all 104 single-card photos from outside; with it, 6 and 28).
BRIGHT_AS_STOCK = 0.85


@dataclass(frozen=True)
class _Light:
    """What to scale each channel of a photo by to make its card stock grey: one gain per
    channel for the whole photo (``gains``; None: none needed), or, where lights of
    different colours fall on it, one per pixel (``spread``: rows × columns × B, G, R)."""

    gains: np.ndarray | None
    spread: np.ndarray | None = None

    def balanced(self, image: np.ndarray, x: int = 0, y: int = 0, step: int = 1
                 ) -> np.ndarray:
        """``image``, the part of the photo at (``x``, ``y``), or every ``step``-th pixel
        of it (``_sample``), scaled: only ever down, so nothing clips."""
        if self.spread is not None:
            h, w = image.shape[:2]
            gains = np.ascontiguousarray(self.spread[y::step, x::step][:h, :w])
            return cv2.multiply(image, gains, dtype=cv2.CV_8U)
        if self.gains is None:
            return image
        return cv2.transform(image, np.diag(self.gains).astype(np.float32))


def _light(sample: np.ndarray, shape: tuple[int, ...]) -> _Light:
    """How the photo of ``shape`` whose ``_sample`` this is is lit (``_Light``): by the
    colour of its brightest stock; or, where that leaves some cell's brightest stock short
    of white (``NEUTRAL``), cell by cell, each cell not near grey by the colour of its own
    brightest stock, when that is a light's and about as bright as the photo's
    (``BRIGHT_AS_STOCK``), the cells' gains spread smoothly between their centres."""
    colour = _brightest_colour(sample)
    gains = _gains_for(colour)
    if gains is not None and bool(np.all(gains == 1)):
        gains = None
    whole = np.ones(3) if gains is None else gains
    colours = _cells_brightest_colours(sample)
    cells = np.tile(whole, (*colours.shape[:2], 1)).astype(np.float32)
    seen = colours * whole
    maybe_another = ((seen.min(axis=2) < MILD_CAST * seen.max(axis=2))
                     & (colours.max(axis=2) >= BRIGHT_AS_STOCK * colour.max()))
    other = False
    for row, col in zip(*np.nonzero(maybe_another), strict=True):
        own = _gains_for(colours[row, col])
        if own is not None:
            cells[row, col] = own
            # Short of white, this cell's stock would not be searched under the photo's
            # light; short only of grey, it would, and is left as the photo's light
            # leaves it unless another cell is short of white.
            other |= bool(seen[row, col].min() < NEUTRAL * seen[row, col].max())
    if not other:
        return _Light(gains)
    return _Light(gains, cv2.resize(cells, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR))


def _cells_brightest_colours(sample: np.ndarray) -> np.ndarray:
    """``_brightest_colour`` of each of ``LIGHT_CELLS`` square cells along the ``_sample``'s
    long side (rows × columns × B, G, R; the last row and column may be cut short), all
    at once."""
    h, w = sample.shape[:2]
    size = -(-max(h, w) // LIGHT_CELLS)
    rows, cols = -(-h // size), -(-w // size)
    cell = (np.arange(h)[:, None] // size) * cols + np.arange(w)[None, :] // size
    darkest = cv2.bitwise_not(ink(sample))
    counts = np.bincount((cell * 256 + darkest).ravel(), minlength=rows * cols * 256)
    levels = row_percentiles(counts.reshape(rows * cols, 256), 100 - BRIGHTEST_SHARE)
    brightest = (darkest >= levels[cell]).ravel()
    at = cell.ravel()[brightest]
    pixels = sample.reshape(-1, 3)[brightest].astype(np.float64)
    sums = np.stack([np.bincount(at, pixels[:, k], rows * cols) for k in range(3)], axis=1)
    return (sums / np.bincount(at, minlength=rows * cols)[:, None]).reshape(rows, cols, 3)


def _stock_top(sample: np.ndarray) -> float:
    """The brightest stock's level in the photo's ``_sample``, in its darkest channel."""
    (top,) = percentiles(cv2.bitwise_not(ink(sample)), (99,))
    return top


def _stock_regions(sample: np.ndarray, shape: tuple[int, ...], skip: np.ndarray | None,
                   top: float) -> list[tuple[int, int, int, int]]:
    """Rectangles (x, y, width, height), apart from each other, that hold all the white
    stock outside ``skip`` big enough to bear an index, found on the ``_sample`` of a
    photo of ``shape``; ``top`` is ``_stock_top``."""
    h, w = shape[:2]
    side = max(h, w)
    stock = _white(sample, side // STOCK_STEP, top)
    if skip is not None:
        stock[skip[::STOCK_STEP, ::STOCK_STEP] != 0] = 0
    # A sliver a sampled pixel wide is a read card's rim, never a visible index.
    stock = cv2.morphologyEx(stock, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
        stock, 8, cv2.CV_32S, cv2.CCL_BBDT)
    reach = round(STOCK_MARGIN * side)
    boxes = [(max(0, x * STOCK_STEP - reach), max(0, y * STOCK_STEP - reach),
              min(w, (x + bw) * STOCK_STEP + reach), min(h, (y + bh) * STOCK_STEP + reach))
             for x, y, bw, bh, _ in stats[1:count]]
    return [(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in _merged(boxes)]


def _white(image: np.ndarray, side: int, top: float) -> np.ndarray:
    """Which pixels are themselves white stock, by ``_ink_on_stock``'s measures without
    its look around each pixel: a pixel on the cloth beside a card is not white, so cards
    read whole leave no rim of stock around them."""
    h, w = image.shape[:2]
    darkest = cv2.bitwise_not(ink(image))
    brightest = cv2.dilate(image.reshape(h, w * 3), np.ones((1, 3), np.uint8))[:, 1::3]
    level = darkest.astype(np.float32)
    return (cv2.compare(level, _light_around(darkest, side) * np.float32(NEAR_LIGHT), cv2.CMP_GE)
            & cv2.compare(level, float(SHADOW_FLOOR * top), cv2.CMP_GE)
            & cv2.compare(level, brightest.astype(np.float32) * np.float32(NEUTRAL),
                          cv2.CMP_GE))


def _merged(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) merged until no two overlap: a blob is found in one only."""
    merged: list[tuple[int, int, int, int]] = []
    for box in boxes:
        # A box grown by a merge may reach others already kept: it takes them in too.
        while (k := next((k for k, kept in enumerate(merged) if _overlap(box, kept)),
                         None)) is not None:
            other = merged.pop(k)
            box = (min(box[0], other[0]), min(box[1], other[1]), max(box[2], other[2]),
                   max(box[3], other[3]))
        merged.append(box)
    return merged


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _glyph_sized(stats: np.ndarray, side: int) -> np.ndarray:
    """Which blobs (rows of connected-component stats, the background first) may be a
    rank glyph or a suit pip."""
    height = np.maximum(stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_WIDTH])
    keep = ((height >= BLOB_HEIGHT[0] * side) & (height <= BLOB_HEIGHT[1] * side)
            & (stats[:, cv2.CC_STAT_AREA] >= MIN_BLOB_AREA))
    keep[0] = False  # the background
    return keep


LINE_WIDTH = 0.003  # of the photo's long side: the widest line an opening takes off
# A straight run of ink at least this share of the photo's long side is a line (a court's
# frame, a card's edge), not a glyph's stroke: a rank's stem runs about half as long.
LINE_LENGTH = 0.06
# What painting the lines out leaves is kept as a glyph only if it touched them at a point,
# along at most this share of its size: a pip cut by the edge of the card over it touches
# along the whole cut. Nor is a piece under this share of the photo's long side kept: the
# rounded corner left between two painted sides of a card's outline is such a piece.
LINE_CONTACT = 0.5
LEFT_BY_LINES = 0.015
# Nor is a piece whose solid core, what an opening leaves of it, holds this share of its
# ink but spans less than this share of its size: a pip with the stub of an edge that ran
# into the line for less than a line's length. The opening frees the pip alone.
SOLID_CORE = (0.5, 0.75)


# A blob of a glyph's size this many times as long as it is wide, with ink over at most
# this share of its box, is a glyph and a line run together (a court's pip touching the
# frame round its picture), and is opened as a blob too large for a glyph is.
FUSED_SHAPE = (2.5, 0.3)


def _with_lines_taken_off(labels: np.ndarray, stats: np.ndarray, centroids: np.ndarray,
                          whole: np.ndarray, side: int
                          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The blobs, and what each blob too large for a glyph, or a glyph's size but run
    together with a line (``FUSED_SHAPE``), leaves once thin lines are taken off it, two
    ways; and which of the added blobs came of the second, freed whole.

    A court card's small suit pip or its letter often touches the thin frame line round its
    picture, and a rank may touch a neighbour's edge: glyph and line then make one blob too
    large to be either, or, where the line is short, one of a glyph's size but long, thin
    and mostly empty (a king of spades' pip and a stub of its frame, 22 by 57 px with ink
    over a fifth of its box, in a real fan). The first way is a morphological opening: it
    frees a solid pip but wears a thin letter away. The second paints out each long straight
    run (``LINE_LENGTH``) found by a Hough transform: it frees a thin letter whole, as it
    takes off the line alone. Only those blobs are opened, so a glyph found whole is never
    thinned; what is freed is added beside it. (Wood grain or a printed pattern opens into
    many pieces too: ``_pairs`` pairs a freed piece only with a blob found ``whole``, so a
    large blob with none within a pair's reach is not opened. A hairline is no glyph found
    whole, ``_hairlines``, and is not opened either.)"""
    intact = [np.zeros(len(stats), bool)]
    if not whole.any():
        return stats, centroids, intact[0]
    height = np.maximum(stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_WIDTH])
    reach = PAIR_DISTANCE[1] * float(height[whole].max())
    width = np.minimum(stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_WIDTH])
    fill = stats[:, cv2.CC_STAT_AREA] / np.maximum(height * width, 1)
    fused = whole & (height >= FUSED_SHAPE[0] * width) & (fill <= FUSED_SHAPE[1])
    large = np.nonzero((height > BLOB_HEIGHT[1] * side) | fused)[0]
    large = large[large > 0]
    x, y = stats[large, cv2.CC_STAT_LEFT, None], stats[large, cv2.CC_STAT_TOP, None]
    w, h = stats[large, cv2.CC_STAT_WIDTH, None], stats[large, cv2.CC_STAT_HEIGHT, None]
    near = ((centroids[whole, 0] >= x - reach) & (centroids[whole, 0] <= x + w + reach)
            & (centroids[whole, 1] >= y - reach) & (centroids[whole, 1] <= y + h + reach))
    k = max(3, round(side * LINE_WIDTH)) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    length = max(10, round(side * LINE_LENGTH))
    more_stats, more_centroids = [stats], [centroids]
    for i in large[near.any(axis=1)]:
        x, y, w, h, _ = stats[i]
        blob = cv2.compare(labels[y:y + h, x:x + w], int(i), cv2.CMP_EQ)
        # Nothing beyond the crop: a line along its edge must not survive as if it went on.
        opened = cv2.morphologyEx(blob, cv2.MORPH_OPEN, disc, borderType=cv2.BORDER_CONSTANT,
                                  borderValue=0)
        for (parts, middles), by_lines in ((_parts(opened), False),
                                           (_lines_painted_out(blob, opened, length, side),
                                            True)):
            parts[:, :2] += (x, y)
            more_stats.append(parts)
            more_centroids.append(middles + np.array([x, y], np.float64))
            intact.append(np.full(len(parts), by_lines))
    return np.concatenate(more_stats), np.concatenate(more_centroids), np.concatenate(intact)


# A blob found whole that runs a line's length (``LINE_LENGTH``) and is at least this many
# times as long as it is wide is a hairline: the shadowed edge of a card on a pale table,
# or a crease, never a glyph. A rank's stroke that long is a close-up's 1 of a 10, and a
# printed 1 is a tenth as wide as it is tall or more; the edge that made a jack of
# diamonds of a 6's pip on a beige table ran 36 times as long as it was wide.
HAIRLINE = 15.0


def _hairlines(labels: np.ndarray, stats: np.ndarray, asked: np.ndarray, side: int
               ) -> np.ndarray:
    """Which of the ``asked`` blobs (``stats`` rows, each labelled in ``labels``) are a
    hairline, not a glyph (``HAIRLINE``)."""
    out = np.zeros(len(stats), bool)
    long = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    for i in np.flatnonzero(asked & (long >= LINE_LENGTH * side)):
        x, y, w, h, _ = stats[i]
        blob = (labels[y:y + h, x:x + w] == i).astype(np.int32)
        out[i] = _long_for_width(blob, 2)[0][1] >= HAIRLINE
    return out


def _parts(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Stats and centroids of a mask's connected parts, the background left out."""
    _, _, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_BBDT)
    return stats[1:].copy(), centroids[1:]


# Ink spread at least this many times as long as it is wide is a straight stroke: a piece
# of a line, or the 1 of a 10.
STROKE = 6.0


def _long_for_width(labels: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """For each label of ``count``: how many times as long as it is wide its pixels
    spread, and its long axis (``barcodes.spreads``)."""
    along, across, axes = spreads(labels, count)
    return np.sqrt(along / np.maximum(across, 1e-9)), axes


def _lines_painted_out(blob: np.ndarray, opened: np.ndarray, length: int, side: int
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Stats and centroids of the pieces of a blob (a 0/255 crop) left once each straight
    run of ink ``length`` long is painted out: those that touched a line at a point, are
    not flecks, are not a solid core with a stub (``SOLID_CORE``, judged on what the
    blob's opening, ``opened``, left), and are not themselves a straight ``STROKE``: the
    transform takes a line's pixels off as it finds it, so a line crossing one found
    first is cut there into runs shorter than a line, each left whole."""
    lines = cv2.HoughLinesP(blob, 1, np.pi / 180, length, minLineLength=length,
                            maxLineGap=2)
    if lines is None:
        return np.empty((0, 5), np.int32), np.empty((0, 2))
    painted = np.zeros_like(blob)
    # A line thicker than the brush holds several runs side by side, each painted.
    for x1, y1, x2, y2 in lines.reshape(-1, 4):
        cv2.line(painted, (int(x1), int(y1)), (int(x2), int(y2)), 255, 3)
    left = cv2.subtract(blob, painted)
    count, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        left, 8, cv2.CV_32S, cv2.CCL_BBDT)
    touching = cv2.dilate(painted, np.ones((3, 3), np.uint8))
    contact = np.bincount(labels[(touching != 0) & (left != 0)], minlength=count)
    size = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    keep = ((contact <= LINE_CONTACT * size) & (size >= LEFT_BY_LINES * side)
            & (_long_for_width(labels, count)[0] < STROKE))
    keep[0] = False  # the background
    for j in np.flatnonzero(keep):
        x, y, w, h, area = stats[j]
        core = cv2.compare(labels[y:y + h, x:x + w], int(j), cv2.CMP_EQ) & opened[y:y + h, x:x + w]
        core_parts, _ = _parts(core)
        if len(core_parts):
            _, _, cw, ch, core_ink = core_parts[np.argmax(core_parts[:, cv2.CC_STAT_AREA])]
            keep[j] = not (core_ink >= SOLID_CORE[0] * area
                           and max(cw, ch) < SOLID_CORE[1] * size[j])
    return stats[keep].copy(), centroids[keep]


def _light_around(darkest: np.ndarray, side: int) -> np.ndarray:
    """The brightest stock within ``LIGHT_REACH`` of each pixel, worked out small."""
    step = max(1, side // 200)
    small = darkest[::step, ::step]
    reach = max(3, round(LIGHT_REACH * side / step)) | 1
    top = cv2.dilate(small, np.ones((reach, reach), np.uint8))
    top = cv2.blur(top, (reach, reach))
    big = cv2.resize(top, (darkest.shape[1], darkest.shape[0]), interpolation=cv2.INTER_LINEAR)
    return big.astype(np.float32)


@dataclass(frozen=True)
class _Blobs:
    """Ink blobs (``_ink_blobs``: stats, centroids, which were freed from a larger blob,
    which of those whole, and which of shade) and their measures, each worked out once whichever
    rules ask: on a busy table a thousand blobs make every blob-by-blob matrix cost tens
    of milliseconds."""

    stats: np.ndarray
    centroids: np.ndarray
    freed: np.ndarray | None = None
    intact: np.ndarray | None = None
    shaded: np.ndarray | None = None

    @cached_property
    def sizes(self) -> np.ndarray:
        return _sizes(self.stats)

    @cached_property
    def distances(self) -> np.ndarray:
        return _distances(self.centroids)

    @cached_property
    def alike(self) -> np.ndarray:
        return _alike(self.stats)


def _pairs(blobs: _Blobs) -> list[tuple[int, int]]:
    """Blob pairs (rank, suit) spaced and sized as an index is, and not two of a kind: two
    pips of one card are alike in width, height and ink, a rank and its suit are not; nor
    two blobs both ``freed`` from lines by an opening, which leaves pieces of wood grain
    and print as readily as glyphs. Two pieces freed whole (``intact``) may pair: a
    court's letter and its pip both touch its frame on some decks, and a rank and its suit
    both run into a fan's shade."""
    size, distance = blobs.sizes, blobs.distances
    ratio = size[None, :] / size[:, None]
    ok = ((distance >= PAIR_DISTANCE[0] * size[:, None])
          & (distance <= PAIR_DISTANCE[1] * size[:, None])
          & (ratio >= SIZE_RATIO[0]) & (ratio <= SIZE_RATIO[1]) & ~blobs.alike)
    np.fill_diagonal(ok, False)
    if blobs.freed is not None:
        both = blobs.freed[:, None] & blobs.freed[None, :]
        if blobs.intact is not None:
            both &= ~(blobs.intact[:, None] & blobs.intact[None, :])
        ok &= ~both
    return [(int(a), int(b)) for a, b in zip(*np.nonzero(ok), strict=True)]


# A blob with this many others alike, in shape too, within this many of its sizes is a pip
# of a number card's middle: a face seen whole, whose pips are all near misses for an index.
PATTERN_TWINS = 2
PATTERN_REACH = 2.5
SHAPE_SIDE = 16  # side, in pixels, of the square a blob's shape is shrunk to for comparing
# Overlap of two blobs' shapes (either turned half round: pips below a card's middle are
# printed upside down) at which they are one glyph. On the real deals, pips of one card's
# middle overlap by 0.8 to 0.96, neighbouring ranks of a fan (an 8 and a 6, an A and a 6)
# by 0.2 to 0.6.
SAME_SHAPE = 0.75
# Two twins' directions from a blob, at least this far from one line (the sine of the angle
# between them): the pattern spreads both ways.
GRID_TURN = 0.5
# A suit pip larger than its rank by this much, laid out in a grid, is a middle pip: an
# index's pip is seldom larger than its rank (at most 1.43 times on the real deals, where
# a J or a 10 is narrow), and never one of a grid.
SUIT_OVER_RANK = 1.2


def _at_the_edge(stats: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Which blobs (``stats`` rows: x, y, width, height) touch the edge of a photo of
    ``shape`` (height, width)."""
    x, y, w, h = (stats[:, k] for k in range(4))
    return (x <= 0) | (y <= 0) | (x + w >= shape[1]) | (y + h >= shape[0])


def _pip_twins(blobs: _Blobs, image: np.ndarray) -> list[np.ndarray]:
    """Per blob of ``image``, the others alike in width, height, ink and shape within
    ``PATTERN_REACH`` of its size, where there are at least ``PATTERN_TWINS`` of them (else
    none): the other pips of a number card's middle, where the blob is one. The ranks of a
    fan's cards lie as close and are often as big, but they are other glyphs."""
    near = blobs.alike & (blobs.distances <= PATTERN_REACH * blobs.sizes[:, None])
    np.fill_diagonal(near, False)
    shapes: dict[int, np.ndarray] = {}

    def shape(i: int) -> np.ndarray:
        if i not in shapes:
            shapes[i] = _shape(image, blobs.stats[i])
        return shapes[i]

    twins = [np.empty(0, np.intp)] * len(blobs.stats)
    for i in np.flatnonzero(near.sum(axis=1) >= PATTERN_TWINS):
        same = np.array([j for j in np.flatnonzero(near[i]) if _same_shape(shape(i), shape(j))],
                        np.intp)
        if len(same) >= PATTERN_TWINS:
            twins[i] = same
    return twins


def _in_a_pattern(twins: list[np.ndarray]) -> np.ndarray:
    """Which blobs are one of a pattern of pips alike (``_pip_twins``)."""
    return np.array([len(t) > 0 for t in twins], bool)


def _in_a_grid(twins: list[np.ndarray], centroids: np.ndarray) -> np.ndarray:
    """Which blobs are one of a pattern of pips alike laid out both ways, down and across,
    as a number card's middle is from the four up: not all on one line through the blob,
    as a row of one rank (kings laid down around) or the pips of a sorted fan's indices
    lie."""
    grid = np.zeros(len(twins), bool)
    for i, t in enumerate(twins):
        if len(t):
            ways = centroids[t] - centroids[i]
            # A piece freed of shade may lie where a blob found whole does: no direction.
            reach = np.linalg.norm(ways, axis=1, keepdims=True)
            ways = ways[reach[:, 0] > 0] / reach[reach[:, 0] > 0]
            # |sin| of the angle between every two directions: their cross product.
            across = np.abs(np.outer(ways[:, 0], ways[:, 1]) - np.outer(ways[:, 1], ways[:, 0]))
            grid[i] = bool((across >= GRID_TURN).any())
    return grid


def _shape(image: np.ndarray, stat: np.ndarray) -> np.ndarray:
    """The ink inside a blob's box, split at Otsu's level and shrunk to ``SHAPE_SIDE``."""
    x, y, w, h = (int(v) for v in stat[:4])
    _, mask = cv2.threshold(ink(image[y:y + h, x:x + w]), 0, 255,
                            cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return cv2.resize(mask, (SHAPE_SIDE, SHAPE_SIDE), interpolation=cv2.INTER_AREA
                      ).astype(np.float32)


def _same_shape(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two ``_shape``s overlap by ``SAME_SHAPE``, as they lie or one turned half
    round."""
    def overlap(u: np.ndarray, v: np.ndarray) -> float:
        return float(np.minimum(u, v).sum()) / max(float(np.maximum(u, v).sum()), 1.0)
    return max(overlap(a, b), overlap(a, b[::-1, ::-1])) >= SAME_SHAPE


def _sizes(stats: np.ndarray) -> np.ndarray:
    """Each blob's size: the longer side of its bounding box."""
    return np.maximum(stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_WIDTH]).astype(float)


def _distances(centroids: np.ndarray) -> np.ndarray:
    """Centre-to-centre distance of every two blobs."""
    return np.linalg.norm(centroids[:, None, :] - centroids[None, :, :], axis=2)


def _alike(stats: np.ndarray) -> np.ndarray:
    """Which two blobs are within ``ALIKE`` of each other in width, height and ink: two
    pips of one card, not a rank and its suit."""
    alike = np.ones((len(stats), len(stats)), bool)
    for stat in (cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT, cv2.CC_STAT_AREA):
        value = stats[:, stat].astype(float)
        alike &= np.abs(np.log(value[None, :] / value[:, None])) <= np.log(1 + ALIKE)
    return alike


def _window_transform(rank: np.ndarray, suit: np.ndarray, stretch: float = 1.0
                      ) -> np.ndarray:
    """The similarity taking the photo's rank and suit centres to ``RANK_AT``, ``SUIT_AT``;
    of the photo stretched ``stretch`` times along its height, when that is given."""
    if stretch != 1.0:
        m = _window_transform(rank * [1.0, stretch], suit * [1.0, stretch])
        m[:, 1] *= stretch
        return m
    src = np.array([rank, suit], np.float64)
    dst = np.array([RANK_AT, SUIT_AT], np.float64)
    # A similarity from two point pairs: rotation and scale from the two difference
    # vectors taken as complex numbers.
    ds, dd = complex(*(src[1] - src[0])), complex(*(dst[1] - dst[0]))
    z = dd / ds
    a, b = z.real, z.imag
    t = dst[0] - np.array([a * src[0][0] - b * src[0][1], b * src[0][0] + a * src[0][1]])
    return np.array([[a, -b, t[0]], [b, a, t[1]]], np.float64)


# A photo taken from a seat, not from over the table, is foreshortened along its height
# (the line of sight; a phone's photo is stood upright by its EXIF tag): every index is
# squashed, its rank and suit closer together and flatter than any the net learnt. Such a
# photo is searched again stretched this much along its height, and read so when that
# names more cards surely. The bidly deals taken from a seat (``from_a_seat``) with the
# depth at 0.6 name 265 of 345 cards as they are; searched stretched by 1.2 / 1.3 / 1.4,
# 291 / 301 / 297. With the depth at 0.8, 317 and 318; from above, as taken, 328 either way.
# A second search costs as much again, so it is made only when the corners the first
# names at half sure or more read surely more often cut stretched (``_surer_stretched``):
# for none of the deals as taken, 2 of 7 at depth 0.8 and 6 of 7 at 0.6, which name as
# many as when every photo is searched so.
FROM_A_SEAT = 1.3


def find_index_corners(image: np.ndarray, letters: str | None = None, copies: int = 1, *,
                       reader: CornerReader | None = None,
                       known: Sequence[np.ndarray] = (),
                       unread: Sequence[np.ndarray] = (),
                       enlarge: bool = True) -> list[IndexHit]:
    """Every card whose index corner shows in the photo, each once (up to ``copies`` times
    for a deck holding that many of each card), at its surest corner; a corner just short
    of sure is named on a second look (``CORNER_LOOKS``). ``known`` are the outlines of
    cards already read whole, whose ink is not looked at again; ``unread`` those of cards
    found whole but not read (blurred, say), whose corners (a pair with its rank or its
    suit on such a card) are named at a first look only:
    every pip and index of a blurred card is a near miss, and a second look at each of them
    gave a few wrong names on rendered tables where none was wanted. A corner with a glyph
    freed from a larger blob gets a first look only too: its window is cut from a thinned
    glyph or one freed of a fan's shade, unlike any the second look was calibrated on, and
    second looks at such corners named cards not held in unseen decks' fans and dummies.
    ``enlarge``: a photo under ``SEARCH_FLOOR`` is searched enlarged; a crop of a larger
    frame, whose indices are the frame's size, is not (``False``). A photo whose corners
    are named more surely stretched along its height (``FROM_A_SEAT``) is read so; it is
    searched so only when a look at its nearly named corners stretched promises it."""
    reader = reader or default_reader()
    proposals = _proposals(image, letters, reader, known, enlarge)
    threshold = reader.calibration.corner
    if _surer_stretched(image, proposals, letters, reader):
        seen_from_a_seat = _proposals(image, letters, reader, known, enlarge, FROM_A_SEAT)
        if _surely_named(seen_from_a_seat, reader) > _surely_named(proposals, reader):
            proposals = seen_from_a_seat
    sure = _undisputed([p for p in proposals if p.hit.score >= threshold], letters, reader)
    both_ways = _read_both_ways_up(sure)
    either_way = [h for h, both in zip(sure, both_ways, strict=True) if both]
    sure = _each_card_once([h for h, both in zip(sure, both_ways, strict=True) if not both],
                           copies)
    doubtful = [p for p in proposals if second_look_from(reader) <= p.hit.score < threshold
                and not p.freed and not p.patterned and _unclaimed(p.hit, sure, copies)
                and not any(p.hit.on_one_rank(h) for h in either_way)
                and not _inside(p.hit, unread)]
    return _each_card_once(sure + _second_look(doubtful, letters, reader), copies)


def _surer_stretched(image: np.ndarray, proposals: list[_Proposal], letters: str | None,
                     reader: CornerReader) -> bool:
    """Whether the corners named at half sure or more read surely more often cut from the
    photo stretched along its height (``FROM_A_SEAT``) than cut as it is: a look at a few
    windows before the whole photo is searched so, which costs as much again."""
    near = [p for p in proposals if p.hit.score >= SECOND_LOOK_LOW_FROM]
    if not near:
        return False
    scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
    work = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale,
                                                  interpolation=cv2.INTER_AREA)
    w, h = WINDOW
    cut = [[cv2.warpAffine(work, _window_transform(p.hit.rank_centre() * scale,
                                                   p.hit.suit_centre() * scale, stretch),
                           (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            for p in near] for stretch in (1.0, FROM_A_SEAT)]
    as_it_is, stretched = (_sure(corner_names(*reader.probabilities(windows), letters), reader)
                           for windows in cut)
    return stretched > as_it_is


def _inside(hit: IndexHit, outlines: Sequence[np.ndarray]) -> bool:
    """Whether a hit's rank glyph or its suit pip lies within any of the outlines: a pair
    with either on a card is a near miss of that card's (a middle pip of a six of hearts,
    paired with the shadow along the card's edge just outside its outline, was read as a 7
    of diamonds by both nets)."""
    points = [tuple(float(v) for v in centre) for centre in (hit.rank_centre(),
                                                             hit.suit_centre())]
    return any(cv2.pointPolygonTest(np.asarray(o, np.float32).reshape(-1, 1, 2), point, False)
               >= 0 for o in outlines for point in points)


# A proposal scoring at least this, short of the corner-alone score, gets a second look
# held to ``Calibration.corner_second``.
SECOND_LOOK_FROM = 0.8
# One scoring at least this, short of that, gets one too, held to ``corner_second_low``:
# calibrated letting no wrong name through, for most windows this low show no index. A
# plain index with the next card's index close beside it is often read this low by the
# net (a 2 of hearts beside a 9 of clubs, 0.70: the 9 taken for its rank), and surely by
# its second opinion.
SECOND_LOOK_LOW_FROM = 0.5


def second_look_from(reader: CornerReader) -> float:
    """The lowest first-look score that earns a corner a second look with this reader:
    ``SECOND_LOOK_LOW_FROM`` when its calibration holds a threshold for such looks."""
    if reader.calibration.corner_second_low is None:
        return SECOND_LOOK_FROM
    return SECOND_LOOK_LOW_FROM


def second_look_threshold(calibration: Calibration, first: float, alone: bool = False
                          ) -> float:
    """What a second look at a corner whose first look scored ``first`` must reach; one
    read again ``alone`` (``_read_again_alone``) is held to the stricter bar whatever its
    first look scored."""
    if alone and calibration.corner_second_low is not None:
        return max(calibration.corner_second, calibration.corner_second_low)
    if first >= SECOND_LOOK_FROM or calibration.corner_second_low is None:
        return calibration.corner_second
    return calibration.corner_second_low


# The second look's windows: each (dx, dy pixels; scale; degrees) redraws the first about
# the index's middle, a little off as a found pair of blobs may place it.
CORNER_LOOKS = ((0, 0, 1.0, 0), (2, 2, 1.04, 2), (-2, -2, 0.96, -2), (2, -2, 0.96, 2),
                (-2, 2, 1.04, -2))


def corner_looks(window: np.ndarray) -> list[np.ndarray]:
    """A found corner window redrawn at every ``CORNER_LOOKS``."""
    w, h = WINDOW
    middle = ((RANK_AT[0] + SUIT_AT[0]) / 2, (RANK_AT[1] + SUIT_AT[1]) / 2)
    out = []
    for dx, dy, scale, degrees in CORNER_LOOKS:
        m = cv2.getRotationMatrix2D(middle, degrees, scale)
        m[:, 2] += (dx, dy)
        out.append(cv2.warpAffine(window, m, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE))
    return out


def corner_names(rank_probs: np.ndarray, suit_probs: np.ndarray, letters: str | None
                 ) -> list[tuple[Card | None, float]]:
    """Per corner window, the card its likeliest rank and suit name (None: no index, or a
    letter this deck's set lacks) and how sure: the product of the two."""
    rank_meaning = meanings(RANK_LABELS, letters)
    r_best, s_best = rank_probs.argmax(axis=1), suit_probs.argmax(axis=1)
    out: list[tuple[Card | None, float]] = []
    for i in range(len(rank_probs)):
        rank, suit = rank_meaning[r_best[i]], SUIT_LABELS[s_best[i]]
        card = Card(rank, Suit(suit)) if isinstance(rank, Rank) and suit != NONE else None
        out.append((card, float(rank_probs[i, r_best[i]] * suit_probs[i, s_best[i]])))
    return out


def second_look_names(rank_probs: np.ndarray, suit_probs: np.ndarray, letters: str | None
                      ) -> list[tuple[Card | None, float]]:
    """``corner_names`` of each window's looks taken together: rows are window by window,
    look by look (``corner_looks``), and each window's beliefs are averaged over its
    looks."""
    looks = len(CORNER_LOOKS)
    return corner_names(rank_probs.reshape(-1, looks, rank_probs.shape[1]).mean(axis=1),
                        suit_probs.reshape(-1, looks, suit_probs.shape[1]).mean(axis=1),
                        letters)


def _unclaimed(hit: IndexHit, sure: list[IndexHit], copies: int) -> bool:
    """Whether a doubtful hit could add a card to the sure ones: its card is not named as
    often as the deck holds it, and its rank glyph is not one a sure hit stands on."""
    if sum(k.card == hit.card for k in sure) >= copies:
        return False
    return not any(hit.on_one_rank(k) for k in sure)


def _second_look(doubtful: list[_Proposal], letters: str | None, reader: CornerReader
                 ) -> list[IndexHit]:
    """The doubtful proposals whose looks together name a card surely enough."""
    if not doubtful:
        return []
    named = second_look_names(*reader.corner_second_look_probabilities(
        [w for p in doubtful for w in corner_looks(p.window)]), letters)
    return [IndexHit(card, score, p.hit.corner, p.hit.down)
            for p, (card, score) in zip(doubtful, named, strict=True)
            if card is not None
            and score >= second_look_threshold(reader.calibration, p.hit.score, p.alone)]


def one_card_by_both_indices(image: np.ndarray, letters: str | None = None, *,
                             reader: CornerReader | None = None) -> IndexHit | None:
    """The one card a picture of a single card shows, when both its index corners are
    found and name it, and no other card is named anywhere; else None. One corner alone
    is too little to name a card on: a patch of a court's robe or of a pip may pass for
    an index once, seldom twice half a turn apart."""
    hits = index_hits(image, letters, reader=reader)
    if len({hit.card for hit in hits}) != 1:
        return None
    best = max(hits, key=lambda hit: hit.score)
    if not any(_half_a_turn_apart(best, other) for other in hits):
        return None
    return best


def _half_a_turn_apart(a: IndexHit, b: IndexHit) -> bool:
    """Whether two hits are the two index corners of one card: pointing opposite ways, and
    apart by more than a corner window."""
    size = float(np.linalg.norm(a.corner[1] - a.corner[0]))
    apart = np.linalg.norm(a.corner.mean(axis=0) - b.corner.mean(axis=0)) > size
    return bool(apart and float(a.down @ b.down) < -0.5)


def index_hits(image: np.ndarray, letters: str | None = None, *,
               reader: CornerReader | None = None,
               known: Sequence[np.ndarray] = ()) -> list[IndexHit]:
    """Every proposed index corner the net names a card on, surely enough for a corner
    read alone; one card may be named at several."""
    reader = reader or default_reader()
    threshold = reader.calibration.corner
    return _undisputed([p for p in _proposals(image, letters, reader, known)
                        if p.hit.score >= threshold], letters, reader)


def _undisputed(sure: list[_Proposal], letters: str | None, reader: CornerReader
                ) -> list[IndexHit]:
    """The hits of proposals the net is sure of whose second opinion, the net a second
    look also reads by, names the same card: where two nets trained apart disagree about
    a window, it is no index either can be trusted on. On the real poker-table photos cut
    closer, two poker chips beside a white chip's rim were read as the 10 of clubs at
    0.9886 (sure from 0.9883), and by the second net as the 10 of hearts at 0.5. On four
    draws of the calibration windows cut as found, the second net disputed 2 of the 9
    wrong sure names and 5 of the 5,458 right ones; on the real deals and poker-table
    photos, none of 731 right ones."""
    second = reader.second_opinion
    if second is None or not sure:
        return [p.hit for p in sure]
    again = corner_names(*second.probabilities([p.window for p in sure]), letters)
    return [p.hit for p, (card, _) in zip(sure, again, strict=True) if card == p.hit.card]


@dataclass(frozen=True)
class _Proposal:
    """A proposed index corner the net names a card on, however unsurely, its window, and
    whether one of its glyphs was freed from a larger blob (``_with_lines_taken_off``,
    ``_shade_taken_off``)."""

    hit: IndexHit
    window: np.ndarray
    freed: bool
    patterned: bool  # its rank is one of a pattern of pips alike (``_in_a_pattern``)
    # Its window is the one read again alone (``_read_again_alone``), short of sure.
    alone: bool = False


@dataclass(frozen=True)
class _Cut:
    """The pairs of ink blobs in a photo placed as an index is, each cut out upright: the
    photo's search scale, the blobs, the pairs (rank, suit), and per pair the transform
    from the searched photo to its window, and the window."""

    scale: np.ndarray  # across and down
    blobs: _Blobs
    pairs: list[tuple[int, int]]
    transforms: list[np.ndarray]
    windows: list[np.ndarray]
    patterned: np.ndarray  # per blob: one of a pattern of pips alike (``_in_a_pattern``)
    work: np.ndarray  # the photo as searched
    skip: np.ndarray | None  # where it was not searched: cards read whole
    offset: np.ndarray  # where the part searched begins in the photo (x, y)


# A photo out of focus is searched again sharpened. How sharp its ink's edges are is
# measured in the windows its pairs are cut into, which put every index at one size, so
# the measure is of blur against the index, whatever the photo's resolution: the steepest
# change of brightness round the rank (its 99th percentile) as a share of the window's
# range from ink to paper. A step blurred by sigma pixels rises at most about
# 1 / (sigma * 2.5) of its height a pixel. Over the windows the net names a card on at
# half sure or more, the bidly deals as taken measure 0.385 and up (the median photo
# 0.49), blurred by 1.2 px 0.31, by 2 px 0.23. The net saw little blur that strong in
# training and reads a blurred club as a spade; an unsharp mask gives the strokes back
# their edges. It ramps from nothing at ``SOFT_EDGES`` to ``SHARPENING`` at
# ``BLURRED_EDGES``, for sharpening a photo already sharp costs cards (the deals as taken,
# all sharpened in full, named 247 of 345 against 326).
SOFT_EDGES = 0.34
BLURRED_EDGES = 0.26
SHARPENING = 1.5  # the unsharp mask's weight at full
# Its blur's sigma, in window pixels; at 1.8 the deals blurred by 2.5 px named a card
# they did not show.
SHARPENING_REACH = 1.5
EDGE_REGION = (slice(10, 64), slice(4, 44))  # rows and columns round ``RANK_AT``
# A window magnifies what it is cut round, and a small blob's window is soft however sharp
# the photo: a red lattice back's diamonds, each pair read as an index at up to 0.98,
# measured 0.16-0.41 close up in a poker-table photo in focus, and sharpened, one was named
# as a card. So the photo itself must be soft too: the edges of its ink blobs, each
# measured in the photo's pixels as a window's are (the steepest change of brightness
# round the blob against its range), three quarters of them under ``FOCUSED_INK``. The
# bidly deals as taken measure 0.50-0.70, the poker-table photos and the 748 tiles cut
# closer from them 0.41 and up (that lattice 0.41); the deals blurred by 1.6 px 0.31-0.39,
# by 2 px 0.26-0.34.
FOCUSED_INK = 0.38
FOCUSED_SHARE = 75  # percentile of the blobs' steepness held to ``FOCUSED_INK``


def _edge_steepness(window: np.ndarray) -> float:
    """The steepest change of brightness round a window's rank (its 99th percentile), as a
    share of its range."""
    grey = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return _steepness(grey[EDGE_REGION], 99)


def _ink_in_focus(cut: _Cut) -> bool:
    """Whether the photo's ink blobs (a cut has some) have sharp edges, in the pixels of
    the photo as searched: a small photo enlarged to be searched counts as soft when it is
    soft against its indices (``_proposals`` keeps any sure read sharpening would cost)."""
    grey = cv2.cvtColor(cut.work, cv2.COLOR_BGR2GRAY).astype(np.float32)
    steepness = []
    for x, y, w, h, _ in cut.blobs.stats:
        margin = max(2, int(0.3 * max(w, h)))
        around = grey[max(0, y - margin):y + h + margin, max(0, x - margin):x + w + margin]
        steepness.append(_steepness(around))
    return bool(np.percentile(steepness, FOCUSED_SHARE) >= FOCUSED_INK)


def _steepness(grey: np.ndarray, percentile: float = 100) -> float:
    """The steepest change of brightness in a grey patch (a percentile of it, the very
    steepest by default), as a share of its range from dark to light; a pixel apart."""
    steep = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3),
                     cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)) / 8
    low, high = np.percentile(grey, (5, 95))
    return float(np.percentile(steep, percentile) / max(float(high - low), 1.0))


def _sharpened(cut: _Cut, named: list[tuple[Card | None, float]]) -> _Cut | None:
    """The photo cut again sharpened as much as the edges are soft in the windows the net
    names a card on at half sure or more (pairs of anything else, wood grain or a court's
    picture, may be soft in a photo in focus); None when they are not soft, or none is
    named. The mask's reach is ``SHARPENING_REACH`` window pixels, in the photo's."""
    read = [i for i, (card, score) in enumerate(named)
            if card is not None and score >= SECOND_LOOK_LOW_FROM]
    if not read:
        return None
    steepness = float(np.median([_edge_steepness(cut.windows[i]) for i in read]))
    if steepness >= SOFT_EDGES or _ink_in_focus(cut):
        return None
    amount = SHARPENING * min(1.0, (SOFT_EDGES - steepness) / (SOFT_EDGES - BLURRED_EDGES))
    window_scale = float(np.median([np.hypot(*cut.transforms[i][:, 0]) for i in read]))
    soft = cv2.GaussianBlur(cut.work, (0, 0), SHARPENING_REACH / window_scale)
    return _cut_at(cv2.addWeighted(cut.work, 1 + amount, soft, -amount, 0), cut.skip,
                   cut.scale, cut.offset)


# A photo taken in a dim room, or by a small sensor, is speckled with noise that breaks a
# glyph's strokes: the bidly deals with noise of σ 8 / 12 / 16 grey levels added named
# 317 / 302 / 254 of 345; smoothed by ``SMOOTHING`` first when this noisy, 316 / 317 /
# 316. A photo without noise, so smoothed, names 5 fewer (321), so only a noisy one is.
# Measured as searched, the deals as taken are 0.25–6.4, the poker-table photos 1.5–3.0,
# the outside single cards under 1; a phone's JPEG takes most noise away (σ 12, then
# JPEG at quality 70: 0.5–3.5).
NOISY = 8.0
SMOOTHING = 0.6  # pixels
NOISE_STEP = 8  # of the photo's pixels, across and down, whose noise is measured


def _noise(image: np.ndarray) -> float:
    """The photo's noise, σ in grey levels: the median size of its green channel's second
    difference across and down (Immerkær's mask, blind to slopes; on noise of σ alone,
    spread 6 σ), at every ``NOISE_STEP``-th pixel. The median, as most of a photo is plain
    surface, and ink and grain only edge it. A photo under 3 pixels across has no second
    difference, and no noise is measured in it."""
    if min(image.shape[:2]) < 3:
        return 0.0
    mid = slice(1, -1, NOISE_STEP)
    before, after = slice(0, -2, NOISE_STEP), slice(2, None, NOISE_STEP)

    def g(rows: slice, cols: slice) -> np.ndarray:
        return image[rows, cols, 1].astype(np.int16)

    second = (4 * g(mid, mid) - 2 * (g(before, mid) + g(after, mid) + g(mid, before)
                                     + g(mid, after))
              + g(before, before) + g(before, after) + g(after, before) + g(after, after))
    (typical,) = percentiles(np.minimum(np.abs(second), 255).astype(np.uint8), (50,))
    # Normal noise's median size is 0.6745 of its σ.
    return typical / (0.6745 * 6)


# A deal photographed from standing height, or with a wide lens, lies in a part of the
# photo only. A large photo is shrunk to ``WORK_SIDE`` to be searched, and the indices
# shrink with it to a few pixels; against the photo's long side, by which the filters are
# sized, they are smaller than in any photo a deal fills. The bidly deals in the middle of
# a plain table twice, three and four times as wide (2,400 to 4,800 px) named 290, 149
# and 4 of 345 cards. So where the cards lie in a part of such a photo at least
# ``CLOSER`` times smaller across, that part is searched again as a photo of its own. A
# photo no larger than ``WORK_SIDE``, a camera frame, is searched once: all its pixels
# were searched, and a second search would double a frame's time.
CLOSER = 1.15
# Where the cards lie: round the corners named surely, if there are this many; else round
# every pair of blobs placed as an index is (a deal so far off that no corner is named
# surely). Corners first, for printed text and a poker table's chips hold such pairs too,
# and round all of them lies most of the photo.
CLOSER_CARDS = 3
CLOSER_MARGIN = 0.2  # of the part's extent, beyond the corners or pairs on each side


def _cut(image: np.ndarray, known: Sequence[np.ndarray] = (), enlarge: bool = True,
         part: tuple[int, int, int, int] | None = None, stretch: float = 1.0) -> _Cut | None:
    """Every pair of ink blobs outside ``known`` outlines placed as an index is, cut out
    upright; None when there is none. A photo under ``SEARCH_FLOOR`` is searched enlarged
    if ``enlarge``. Only the ``part`` (x, y, width, height) given is searched, as if it
    were the whole photo, when one is; and it is searched ``stretch`` times as high as it
    is (``FROM_A_SEAT``)."""
    offset = np.zeros(2)
    if part is not None:
        x, y, w, h = part
        image, offset = image[y:y + h, x:x + w], np.array([x, y], np.float64)
    side = max(image.shape[1], image.shape[0] * stretch)
    scale = min(1.0, WORK_SIDE / side)
    if enlarge and side < SEARCH_FLOOR:
        scale = SEARCH_FLOOR / side
    resampling = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    scales = np.array([scale, scale * stretch])
    work = image if scale == 1.0 and stretch == 1.0 else cv2.resize(
        image, None, fx=scales[0], fy=scales[1], interpolation=resampling)
    if _noise(work) >= NOISY:
        work = cv2.GaussianBlur(work, (0, 0), SMOOTHING)
    skip = None
    if known:
        skip = np.zeros(work.shape[:2], np.uint8)
        cv2.fillPoly(skip, [np.round((np.asarray(o) - offset) * scales).astype(np.int32)
                            for o in known], 1)
    return _cut_at(work, skip, scales, offset)


def _cut_at(work: np.ndarray, skip: np.ndarray | None, scale: np.ndarray, offset: np.ndarray
            ) -> _Cut | None:
    """``_cut`` on the photo as searched, ``scale`` times the part of the photo given,
    which begins at ``offset`` (x, y)."""
    blobs = _Blobs(*_ink_blobs(work, skip))
    pairs = _pairs(blobs)
    if not pairs:
        return None
    twins = _pip_twins(blobs, work)
    patterned, grid = _in_a_pattern(twins), _in_a_grid(twins, blobs.centroids)
    # A glyph the photo's edge cuts is only part of one: half a club pip, seen upside
    # down, passed for a 10's strokes.
    cut_off = _at_the_edge(blobs.stats, work.shape[:2])
    # A pip of a number card's middle, taken for a rank or a suit (searched whole when its
    # outline was not found, a face shows such pips all over), is not even read; nor is
    # a cut glyph.
    pairs = [(a, b) for a, b in pairs if not (
        cut_off[a] or cut_off[b] or grid[a]
        or (grid[b] and blobs.sizes[b] > SUIT_OVER_RANK * blobs.sizes[a]))]
    if not pairs:
        return None
    w, h = WINDOW
    transforms = [_window_transform(blobs.centroids[a], blobs.centroids[b]) for a, b in pairs]
    windows = [cv2.warpAffine(work, m, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE) for m in transforms]
    return _Cut(scale, blobs, pairs, transforms, windows, patterned, work, skip, offset)


def index_windows(image: np.ndarray) -> list[np.ndarray]:
    """Every window the table view would read first in a photo: each pair of ink blobs
    placed as an index is, cut out upright (a photo out of focus is then read again
    sharpened: ``_sharpened``)."""
    cut = _cut(image)
    return [] if cut is None else cut.windows


def _proposals(image: np.ndarray, letters: str | None, reader: CornerReader,
               known: Sequence[np.ndarray], enlarge: bool = True, stretch: float = 1.0
               ) -> list[_Proposal]:
    """Every pair of ink blobs placed as an index is, cut out upright and read, from the
    photo sharpened if it is out of focus (``_sharpened``) and that costs no sure read;
    those the net names a card on. Where the cards lie in a part of a large photo, that
    part is searched again as a photo of its own (``_where_the_cards_lie``), and read so
    when that names more cards surely there. ``stretch`` is as for ``_cut``."""
    cut = _cut(image, known, enlarge, stretch=stretch)
    proposals = _read_cut(cut, letters, reader)
    part = None if cut is None else _where_the_cards_lie(cut, proposals, image.shape, reader)
    if part is None:
        return proposals
    closer = _read_cut(_cut(image, known, enlarge, part, stretch=stretch), letters, reader)
    x, y, w, h = part
    inside, outside = [], []
    for p in proposals:
        rank_x, rank_y = p.hit.rank_centre()
        (inside if x <= rank_x < x + w and y <= rank_y < y + h else outside).append(p)
    if _surely_named(closer, reader) > _surely_named(inside, reader):
        return closer + outside
    return proposals


def _surely_named(proposals: list[_Proposal], reader: CornerReader) -> int:
    """How many proposals name a card at the score for a corner read alone."""
    return sum(p.hit.score >= reader.calibration.corner for p in proposals)


def _where_the_cards_lie(cut: _Cut, proposals: list[_Proposal], shape: tuple[int, ...],
                         reader: CornerReader) -> tuple[int, int, int, int] | None:
    """The part (x, y, width, height) of a photo larger than ``WORK_SIDE`` where the cards
    lie, if ``CLOSER`` times smaller across than the photo; else None. The cards lie
    round the ``proposals``' corners named surely, if ``CLOSER_CARDS`` are; else round
    every pair of blobs the photo's ``cut`` placed as an index is. The part reaches
    ``CLOSER_MARGIN`` of their extent beyond them."""
    h, w = shape[:2]
    if max(h, w) <= WORK_SIDE:
        return None
    sure = [p.hit.corner for p in proposals if p.hit.score >= reader.calibration.corner]
    if len(sure) >= CLOSER_CARDS:
        points = np.concatenate(sure)
    else:
        points = cut.blobs.centroids[np.array(cut.pairs).ravel()] / cut.scale + cut.offset
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    reach = CLOSER_MARGIN * max(x1 - x0, y1 - y0)
    x0, y0 = max(0, int(x0 - reach)), max(0, int(y0 - reach))
    x1, y1 = min(w, int(np.ceil(x1 + reach))), min(h, int(np.ceil(y1 + reach)))
    if max(x1 - x0, y1 - y0) * CLOSER > max(h, w):
        return None
    return x0, y0, x1 - x0, y1 - y0


def _read_cut(cut: _Cut | None, letters: str | None, reader: CornerReader
              ) -> list[_Proposal]:
    """``_proposals`` in one cut of the photo."""
    if cut is None:
        return []
    named = corner_names(*reader.probabilities(cut.windows), letters)
    sharpened = _sharpened(cut, named)
    if sharpened is not None:
        named_sharpened = corner_names(*reader.probabilities(sharpened.windows), letters)
        # Sharpening must not cost sure reads: a 224 px crop, soft only by its enlargement
        # to be searched, named its king surely as it was and not at all sharpened.
        if _sure(named_sharpened, reader) >= _sure(named, reader):
            cut, named = sharpened, named_sharpened
    windows = cut.windows
    read_alone = _read_again_alone(windows, named, letters, reader)
    w, h = WINDOW
    box = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    out = []
    looked_at = second_look_from(reader)
    motif = _motifs(windows, named, looked_at)
    centroids, freed, shaded = cut.blobs.centroids, cut.blobs.freed, cut.blobs.shaded
    for i, ((a, b), m, window, (card, score), is_motif) in enumerate(zip(
            cut.pairs, cut.transforms, windows, named, motif, strict=True)):
        if card is None or ((shaded[a] or shaded[b]) and score < SHADED_CORNER) or (
                score >= looked_at and (
                is_motif or in_a_barcode(window, RANK_AT) or a_line_at_the_rank(window))):
            continue
        inverse = cv2.invertAffineTransform(m)
        corner = (box @ inverse[:, :2].T + inverse[:, 2]) / cut.scale + cut.offset
        down = (centroids[b] - centroids[a]) / cut.scale
        out.append(_Proposal(IndexHit(card, score, corner.astype(np.float32),
                                      down / max(float(np.linalg.norm(down)), 1e-9)), window,
                             bool(freed[a] or freed[b]), bool(cut.patterned[a]),
                             i in read_alone))
    return out


def _sure(named: list[tuple[Card | None, float]], reader: CornerReader) -> int:
    """How many windows name a card at the score for a corner read alone."""
    return sum(card is not None and score >= reader.calibration.corner for card, score in named)


def _motifs(windows: list[np.ndarray], named: list[tuple[Card | None, float]],
            looked_at: float) -> np.ndarray:
    """Per window, whether it is cut from a card back's motif or from print (``motifs``); asked
    only of those named a card surely enough to be looked at again, the rest name none."""
    asked = [i for i, (card, score) in enumerate(named) if card is not None and score >= looked_at]
    out = np.zeros(len(windows), bool)
    if asked:
        out[asked] = default_motif_reader().motifs([windows[i] for i in asked])
    return out


# A window whose index is cleared of what lies beyond it keeps this much paper, in
# window pixels, right of the index's own ink.
CLEAR_MARGIN = 3
# Ink beside the rank's right side, within this share of the rank's height and level with
# it, is the rank's own (the 0 of a 10), not a neighbour's.
OWN_GAP = 0.25


def _read_again_alone(windows: list[np.ndarray], named: list[tuple[Card | None, float]],
                      letters: str | None, reader: CornerReader) -> set[int]:
    """Read again, with the index alone in it (``index_alone``), each window the net named
    a card on short of the corner score; where that read names the same rank in another
    suit, it and its window replace the first (in place). Those it replaced whose read
    alone is short of the corner score too, but earns a second look, are returned: their
    second look is held to the strictest bar (``second_look_threshold``).

    In a tight fan the next card's index lies just right of this one's, and the net
    sometimes takes its suit: a 7 of clubs beside a 2 of hearts reads as the 7 of hearts
    at 0.91, and alone as the 7 of clubs at 0.998. Only the suit may change, and must:
    painting over what lies around a glyph also takes away what told the net it was no
    index. A pip of a dummy's column, cut to a triangle by the card over it, read as the
    ace of spades at 0.75 and alone at 0.997; where cards lie edge to edge, an upside-down
    2 over another card's rank, read alone, passed for a 2 of hearts.

    A read alone short of the corner score goes on to a second look, as a first read
    would, but held to the strictest second-look bar whatever it scored, for the bars
    were calibrated on windows as found, not read alone: a 7 of clubs between a 2 of
    diamonds and a 2 of hearts, read as the 7 of hearts at 0.42, was read alone as the
    7 of clubs at 0.95, and its second look at 0.997. On 20 draws of the calibration
    windows cut as found (``train_corners.found_calibration_draws``), no read alone so
    taken that named a wrong card reached that bar (27 of 82 named one; the worst 0.89)."""
    threshold = reader.calibration.corner
    cleared = {i: alone for i, (card, score) in enumerate(named)
               if card is not None and score < threshold
               and (alone := index_alone(windows[i])) is not None}
    if not cleared:
        return set()
    again = corner_names(*reader.probabilities(list(cleared.values())), letters)
    # Without the strictest bar calibrated, a read alone must clear the corner score.
    floor = threshold if reader.calibration.corner_second_low is None else SECOND_LOOK_LOW_FROM
    doubtful = set()
    for (i, alone), (card, score) in zip(cleared.items(), again, strict=True):
        first = named[i][0]
        if card is None or card.rank != first.rank or card.suit == first.suit or score < floor:
            continue
        if score < threshold:
            doubtful.add(i)
        windows[i], named[i] = alone, (card, score)
    return doubtful


def _window_ink(window: np.ndarray) -> np.ndarray:
    """Which pixels of a corner window are ink (255): a drop below its paper's level."""
    amount = ink(window)
    pixels = amount.size
    # The paper's level is where the palest tenth of the window begins, as the net takes it.
    paper = float(np.partition(amount.reshape(-1), pixels // 10)[pixels // 10])
    return cv2.compare(amount.astype(np.float32) - paper, INK_DROP * (255.0 - paper),
                       cv2.CMP_GE)


# A rank glyph that is a stroke (the 1 of a 10) stands upright in its window. A stroke at
# the rank's place lying more than this many degrees from upright is a line: a card's edge
# or a frame through where the rank should be, and the pair is no index.
UPRIGHT_DEGREES = 30.0


def a_line_at_the_rank(window: np.ndarray) -> bool:
    """Whether the ink at the rank's place in a corner window is a line lying across it."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(_window_ink(window),
                                                                connectivity=8)
    at = _glyph_at(stats[1:count], RANK_AT)
    if at is None:
        return False
    long_for_width, axis = (measure[at + 1] for measure in _long_for_width(labels, count))
    upright = abs(float(axis[1]))  # the long axis's share along the window's height
    return long_for_width >= STROKE and upright < float(np.cos(np.radians(UPRIGHT_DEGREES)))


def index_alone(window: np.ndarray) -> np.ndarray | None:
    """The corner window with everything right of its index's own ink painted over in
    its paper's colour; None when nothing lies there, or no glyph lies where the rank and
    the suit should (``RANK_AT``, ``SUIT_AT``)."""
    pixels = window.shape[0] * window.shape[1]
    inked = _window_ink(window)
    count, _, stats, _ = cv2.connectedComponentsWithStats(inked, connectivity=8)
    stats = stats[1:count]
    glyphs = [_glyph_at(stats, at) for at in (RANK_AT, SUIT_AT)]
    if None in glyphs:
        return None
    rank = stats[glyphs[0]]
    rank_right, rank_bottom = rank[0] + rank[2], rank[1] + rank[3]
    x, y, w, h = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    level = np.minimum(y + h, rank_bottom) - np.maximum(y, rank[1])
    own = ((level >= 0.5 * np.minimum(h, rank[3])) & (x - rank_right <= OWN_GAP * rank[3])
           & (x + w > rank_right))
    right = int(max((x + w)[glyphs].max(), (x + w)[own].max(initial=0)))
    cut = right + CLEAR_MARGIN
    if cut >= WINDOW[0] or not inked[:, cut:].any():
        return None
    out = window.copy()
    out[:, cut:] = np.partition(window.reshape(-1, 3), pixels * 9 // 10, axis=0)[pixels * 9 // 10]
    return out


def _glyph_at(stats: np.ndarray, at: tuple[float, float]) -> int | None:
    """The smallest blob whose box holds the point ``at``: the glyph there, not a line
    drawn round it."""
    x, y = at
    holds = np.flatnonzero((stats[:, 0] <= x) & (x < stats[:, 0] + stats[:, 2])
                           & (stats[:, 1] <= y) & (y < stats[:, 1] + stats[:, 3]))
    if not len(holds):
        return None
    return int(holds[np.argmin(stats[holds, 4])])


def _each_card_once(hits: list[IndexHit], copies: int) -> list[IndexHit]:
    """The surest hit of each card, and of each further copy the deck may hold; and on any
    one rank glyph, only the surest card."""
    kept: list[IndexHit] = []
    for hit in sorted(hits, key=lambda x: -x.score):
        same = [k for k in kept if k.card == hit.card]
        if len(same) >= copies or any(k.same_index_or_card(hit) for k in same):
            continue
        if any(hit.on_one_rank(k) for k in kept):
            continue
        kept.append(hit)
    return kept


def _read_both_ways_up(hits: list[IndexHit]) -> list[bool]:
    """Which hits lie on a rank glyph that another hit reads the other way up as another
    card.

    An index's rank is paired with its own suit below it, and with any pip above it: the
    pip of the card lying above, in a bridge dummy's column. Turned half round, a 9 is a 6
    in many typefaces, and a pip under it a suit: the 9 of hearts read as the 6 of hearts
    at 1.0, surer than its own index read. Which way is up is not known then, so neither
    card is named."""
    return [any(a.card != b.card and float(a.down @ b.down) < -0.5 and a.on_one_rank(b)
                for b in hits) for a in hits]
