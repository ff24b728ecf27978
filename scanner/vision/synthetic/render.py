"""A renderer of playing cards as a camera sees them, for tests, benchmarks and the demo.

Everything is drawn from a seed, so a failing case can be drawn again exactly. Deck
styles differ the way real decks do: index font and letter set, the glyph for ten, pip
shapes, ink colours (including four-colour decks), card size and border. Two styles are
held out of every tuning step and used only for evaluation; one more (``nordic``) uses a
letter set and a script font that the default reader does not know, so only a learnt
deck profile reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import cv2
import numpy as np

from ...cards import Card, Rank, Suit
from .perturb import (
    ALL_PERTURBATIONS,
    apply_image_perturbations,
    perturb_defocus,
    perturb_glare,
    perturb_jpeg,
    perturb_lighting,
    perturb_motion,
    perturb_noise,
    perturb_wear,
)

PX_PER_MM = 6.0
BGR = tuple[int, int, int]


@dataclass(frozen=True)
class CardSize:
    width_mm: float
    height_mm: float
    corner_radius_mm: float = 3.2


BRIDGE_SIZE = CardSize(57.0, 89.0)
POKER_SIZE = CardSize(63.0, 89.0)

# Corner letters per country (reference: card-recognition.md). Digits are the same everywhere.
LETTER_SETS: Mapping[str, Mapping[Rank, str]] = MappingProxyType({
    "english": {Rank.A: "A", Rank.K: "K", Rank.Q: "Q", Rank.J: "J"},
    "french": {Rank.A: "A", Rank.K: "R", Rank.Q: "D", Rank.J: "V"},
    "german": {Rank.A: "A", Rank.K: "K", Rank.Q: "D", Rank.J: "B"},
    "dutch": {Rank.A: "A", Rank.K: "H", Rank.Q: "V", Rank.J: "B"},
    "danish": {Rank.A: "E", Rank.K: "K", Rank.Q: "D", Rank.J: "B"},
    "swedish": {Rank.A: "E", Rank.K: "K", Rank.Q: "D", Rank.J: "Kn"},
})

RED_BLACK: Mapping[Suit, BGR] = MappingProxyType({
    Suit.S: (25, 20, 20), Suit.H: (40, 30, 200), Suit.D: (40, 30, 200), Suit.C: (25, 20, 20),
})
FOUR_COLOUR: Mapping[Suit, BGR] = MappingProxyType({
    Suit.S: (25, 20, 20), Suit.H: (40, 30, 200), Suit.D: (190, 90, 20), Suit.C: (40, 140, 30),
})
FOUR_COLOUR_ORANGE: Mapping[Suit, BGR] = MappingProxyType({
    Suit.S: (30, 25, 25), Suit.H: (45, 35, 190), Suit.D: (20, 120, 235), Suit.C: (50, 130, 20),
})


@dataclass(frozen=True)
class DeckStyle:
    """How one deck design looks. Lengths are in millimetres on the physical card."""

    name: str
    letters: str
    ten: str
    font: int
    stroke_mm: float
    index_height_mm: float
    index_left_mm: float
    index_top_mm: float
    pip_shape: str
    colours: Mapping[Suit, BGR]
    paper: BGR
    size: CardSize
    border: str
    evaluation_only: bool = False
    court_colour: BGR = (60, 150, 200)

    def glyph(self, rank: Rank) -> str:
        if rank is Rank.T:
            return self.ten
        return LETTER_SETS[self.letters].get(rank, rank.value)


_STYLE_LIST = (
    DeckStyle("standard", "english", "10", cv2.FONT_HERSHEY_SIMPLEX, 0.75, 6.0, 2.6, 3.0,
              "classic", RED_BLACK, (246, 248, 250), BRIDGE_SIZE, "none"),
    DeckStyle("casino", "english", "10", cv2.FONT_HERSHEY_TRIPLEX, 0.65, 6.5, 2.8, 3.2,
              "classic", RED_BLACK, (235, 244, 248), POKER_SIZE, "line"),
    DeckStyle("paris", "french", "10", cv2.FONT_HERSHEY_COMPLEX_SMALL, 0.7, 5.6, 3.4, 3.5,
              "angular", RED_BLACK, (250, 250, 250), BRIDGE_SIZE, "double"),
    DeckStyle("berlin", "german", "10", cv2.FONT_HERSHEY_PLAIN, 1.0, 6.2, 2.8, 3.0,
              "classic", FOUR_COLOUR, (240, 246, 246), POKER_SIZE, "none"),
    DeckStyle("amsterdam", "dutch", "T", cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC, 0.85, 5.8,
              2.9, 3.0, "slim", RED_BLACK, (244, 250, 252), BRIDGE_SIZE, "line",
              court_colour=(120, 80, 160)),
    # Held out: never used to build or tune the reader, only to evaluate it.
    DeckStyle("club", "english", "10", cv2.FONT_HERSHEY_DUPLEX, 0.7, 6.0, 3.0, 3.0,
              "slim", FOUR_COLOUR_ORANGE, (248, 248, 244), BRIDGE_SIZE, "line",
              evaluation_only=True, court_colour=(150, 110, 40)),
    DeckStyle("riviera", "french", "10", cv2.FONT_HERSHEY_COMPLEX, 0.6, 6.4, 3.4, 3.6,
              "angular", RED_BLACK, (232, 240, 246), POKER_SIZE, "double",
              evaluation_only=True, court_colour=(70, 160, 90)),
    # A letter set (E for the ace) and a script font the default reader has never seen:
    # the case that `tablescan learn` exists for.
    DeckStyle("nordic", "danish", "10", cv2.FONT_HERSHEY_SCRIPT_COMPLEX, 0.6, 6.4, 3.0, 3.0,
              "classic", RED_BLACK, (238, 246, 250), BRIDGE_SIZE, "line",
              evaluation_only=True, court_colour=(150, 60, 60)),
)
STYLES: Mapping[str, DeckStyle] = MappingProxyType({s.name: s for s in _STYLE_LIST})
TUNING_STYLES: tuple[str, ...] = tuple(s.name for s in _STYLE_LIST if not s.evaluation_only)
HELDOUT_STYLES: tuple[str, ...] = ("club", "riviera")
PROFILE_ONLY_STYLES: tuple[str, ...] = ("nordic",)


@dataclass(frozen=True)
class CardBack:
    """A face-down design: a repeating motif, as real backs are, inside an optional margin."""

    name: str
    motif: str
    ink: BGR
    ground: BGR
    period_mm: float
    margin_mm: float = 4.0
    extra: Mapping[str, float] = field(default_factory=dict)


_BACK_LIST = (
    CardBack("lattice-red", "lattice", (40, 40, 170), (235, 240, 245), 4.0),
    CardBack("lattice-blue", "lattice", (150, 70, 30), (240, 240, 240), 3.2),
    CardBack("dots-green", "dots", (60, 120, 30), (220, 235, 225), 3.5),
    CardBack("checker-navy", "checker", (90, 40, 20), (200, 190, 180), 3.0, margin_mm=0.0),
    CardBack("rings-maroon", "rings", (40, 30, 120), (225, 230, 240), 5.0),
    CardBack("diamonds-blue", "diamonds", (170, 90, 40), (245, 240, 235), 4.5),
)
BACKS: Mapping[str, CardBack] = MappingProxyType({b.name: b for b in _BACK_LIST})

# Pip positions (x, y) for the number cards, in the unit square of the pip field.
PIP_LAYOUTS: Mapping[Rank, tuple[tuple[float, float], ...]] = MappingProxyType({
    Rank.R2: ((0.5, 0.0), (0.5, 1.0)),
    Rank.R3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    Rank.R4: ((0, 0), (1, 0), (0, 1), (1, 1)),
    Rank.R5: ((0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)),
    Rank.R6: ((0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    Rank.R7: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    Rank.R8: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)),
    Rank.R9: ((0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3),
              (0, 1), (1, 1)),
    Rank.T: ((0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3),
             (0.5, 5 / 6), (0, 1), (1, 1)),
})
COURT_RANKS = (Rank.K, Rank.Q, Rank.J)

# Pip outlines in a unit box, as polygons and circles (cx, cy, r); y grows downwards.
_Shape = tuple[tuple[tuple[tuple[float, float], ...], ...], tuple[tuple[float, float, float], ...]]


def _flip(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
    return tuple((x, 1.0 - y) for x, y in points)


_STEM = ((0.5, 0.55), (0.32, 1.0), (0.68, 1.0))
PIP_SHAPES: Mapping[str, Mapping[Suit, _Shape]] = MappingProxyType({
    "classic": {
        Suit.H: ((((0.04, 0.38), (0.96, 0.38), (0.5, 0.98)),),
                 ((0.28, 0.3, 0.25), (0.72, 0.3, 0.25))),
        Suit.D: ((((0.5, 0.0), (0.88, 0.5), (0.5, 1.0), (0.12, 0.5)),), ()),
        Suit.S: ((((0.04, 0.5), (0.96, 0.5), (0.5, 0.0)), _STEM),
                 ((0.28, 0.58, 0.23), (0.72, 0.58, 0.23))),
        Suit.C: ((_STEM,), ((0.5, 0.21, 0.21), (0.22, 0.58, 0.21), (0.78, 0.58, 0.21),
                             (0.5, 0.52, 0.09))),
    },
    "angular": {
        Suit.H: ((((0.5, 1.0), (0.0, 0.42), (0.0, 0.2), (0.22, 0.04), (0.5, 0.25), (0.78, 0.04),
                   (1.0, 0.2), (1.0, 0.42)),), ()),
        Suit.D: ((((0.5, 0.0), (0.95, 0.5), (0.5, 1.0), (0.05, 0.5)),), ()),
        Suit.S: ((_flip(((0.5, 1.0), (0.0, 0.42), (0.0, 0.2), (0.22, 0.04), (0.5, 0.25),
                         (0.78, 0.04), (1.0, 0.2), (1.0, 0.42))), _STEM), ()),
        Suit.C: ((_STEM, ((0.5, 0.0), (0.72, 0.22), (0.5, 0.44), (0.28, 0.22)),
                  ((0.22, 0.32), (0.44, 0.55), (0.22, 0.78), (0.0, 0.55)),
                  ((0.78, 0.32), (1.0, 0.55), (0.78, 0.78), (0.56, 0.55))), ()),
    },
    "slim": {
        Suit.H: ((((0.1, 0.36), (0.9, 0.36), (0.5, 1.0)),), ((0.31, 0.3, 0.21), (0.69, 0.3, 0.21))),
        Suit.D: ((((0.5, 0.0), (0.8, 0.5), (0.5, 1.0), (0.2, 0.5)),), ()),
        Suit.S: ((((0.1, 0.55), (0.9, 0.55), (0.5, 0.0)), ((0.5, 0.6), (0.38, 1.0), (0.62, 1.0))),
                 ((0.31, 0.62, 0.2), (0.69, 0.62, 0.2))),
        Suit.C: ((((0.5, 0.6), (0.38, 1.0), (0.62, 1.0)),),
                 ((0.5, 0.22, 0.2), (0.29, 0.55, 0.2), (0.71, 0.55, 0.2), (0.5, 0.5, 0.1))),
    },
})

_SUPERSAMPLE = 4


def _shape_mask(shape: _Shape, width: int, height: int) -> np.ndarray:
    """Antialiased 0..1 mask of a pip shape filling a width × height box."""
    ss = _SUPERSAMPLE
    big = np.zeros((height * ss, width * ss), np.uint8)
    sx, sy = width * ss - 1, height * ss - 1
    polygons, circles = shape
    for poly in polygons:
        pts = np.array([[x * sx, y * sy] for x, y in poly], np.int32)
        cv2.fillPoly(big, [pts], 255)
    for cx, cy, r in circles:
        cv2.circle(big, (round(cx * sx), round(cy * sy)), round(r * min(sx, sy)), 255, -1)
    return cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def _paint(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour: BGR) -> None:
    """Blend ``colour`` into ``img`` through ``mask`` placed with its top-left at (x, y)."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, img.shape[1]), min(y + h, img.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    m = mask[y0 - y:y1 - y, x0 - x:x1 - x, None]
    region = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (region * (1 - m) + np.array(colour, np.float32) * m).astype(np.uint8)


def _draw_pip(img: np.ndarray, style: DeckStyle, suit: Suit, cx: float, cy: float,
              height_px: float, upside_down: bool = False) -> None:
    h = max(round(height_px), 3)
    w = max(round(height_px * 0.86), 3)
    mask = _shape_mask(PIP_SHAPES[style.pip_shape][suit], w, h)
    if upside_down:
        mask = mask[::-1, ::-1]
    _paint(img, mask, round(cx - w / 2), round(cy - h / 2), style.colours[suit])


def text_mask(text: str, font: int, height_px: float, stroke_px: float) -> np.ndarray:
    """Antialiased 0..1 mask of ``text`` whose capital height is ``height_px``."""
    ss = _SUPERSAMPLE
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height_px * ss / max(th, 1)
    thickness = max(round(stroke_px * ss), 1)
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    pad = thickness + 2
    big = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(big, text, (pad, pad + th), font, scale, 255, thickness, cv2.LINE_AA)
    ys, xs = np.nonzero(big)
    big = big[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    out_w = max(round(big.shape[1] / ss), 1)
    out_h = max(round(big.shape[0] / ss), 1)
    return cv2.resize(big, (out_w, out_h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def card_pixels(style: DeckStyle | str) -> tuple[int, int]:
    """(width, height) in pixels of a card of this style as ``render_card`` draws it."""
    size = _style(style).size
    return round(size.width_mm * PX_PER_MM), round(size.height_mm * PX_PER_MM)


def card_alpha(style: DeckStyle | str) -> np.ndarray:
    """0..255 mask of the card's rounded outline, the same size as ``render_card``'s image."""
    st = _style(style)
    w, h = card_pixels(st)
    ss = _SUPERSAMPLE
    big = np.zeros((h * ss, w * ss), np.uint8)
    r = int(st.size.corner_radius_mm * PX_PER_MM * ss)
    cv2.rectangle(big, (r, 0), (w * ss - r, h * ss), 255, -1)
    cv2.rectangle(big, (0, r), (w * ss, h * ss - r), 255, -1)
    for cx, cy in ((r, r), (w * ss - r, r), (r, h * ss - r), (w * ss - r, h * ss - r)):
        cv2.circle(big, (cx, cy), r, 255, -1)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)


def index_boxes(style: DeckStyle | str) -> tuple[tuple[int, int, int, int], ...]:
    """Pixel boxes (x0, y0, x1, y1) around both corner indices, for wear and for tests."""
    st = _style(style)
    w, h = card_pixels(st)
    x0 = int((st.index_left_mm - 1.0) * PX_PER_MM)
    y0 = int((st.index_top_mm - 1.0) * PX_PER_MM)
    x1 = int((st.index_left_mm + st.index_height_mm * 1.6 + 1.0) * PX_PER_MM)
    y1 = int((st.index_top_mm + st.index_height_mm * 2.2 + 1.5) * PX_PER_MM)
    return (x0, y0, x1, y1), (w - x1, h - y1, w - x0, h - y0)


def _style(style: DeckStyle | str) -> DeckStyle:
    if isinstance(style, DeckStyle):
        return style
    try:
        return STYLES[style]
    except KeyError:
        raise ValueError(f"unknown deck style {style!r}; known: {', '.join(STYLES)}") from None


def _draw_border(img: np.ndarray, st: DeckStyle) -> None:
    h, w = img.shape[:2]
    inset = int(1.6 * PX_PER_MM)
    line = max(round(0.25 * PX_PER_MM), 1)
    colour = st.colours[Suit.S]
    if st.border in ("line", "double"):
        cv2.rectangle(img, (inset, inset), (w - inset, h - inset), colour, line, cv2.LINE_AA)
    if st.border == "double":
        inner = inset + int(0.8 * PX_PER_MM)
        cv2.rectangle(img, (inner, inner), (w - inner, h - inner), st.colours[Suit.H], line,
                      cv2.LINE_AA)


def _draw_index(img: np.ndarray, st: DeckStyle, card: Card | None) -> None:
    """Rank above suit at the top left; the caller rotates the card to draw the other corner."""
    height = st.index_height_mm * PX_PER_MM
    stroke = st.stroke_mm * PX_PER_MM
    x = round(st.index_left_mm * PX_PER_MM)
    y = round(st.index_top_mm * PX_PER_MM)
    if card is None:
        colour = st.colours[Suit.S]
        for letter in "JOKER":
            mask = text_mask(letter, st.font, height * 0.62, stroke * 0.8)
            _paint(img, mask, x, y, colour)
            y += mask.shape[0] + int(0.9 * PX_PER_MM)
        return
    colour = st.colours[card.suit]
    mask = text_mask(st.glyph(card.rank), st.font, height, stroke)
    _paint(img, mask, x, y, colour)
    pip_h = height * 0.78
    centre_x = x + max(mask.shape[1], pip_h * 0.86) / 2
    _draw_pip(img, st, card.suit, centre_x, y + mask.shape[0] + 0.2 * height + pip_h / 2, pip_h)


def _draw_centre(img: np.ndarray, st: DeckStyle, card: Card | None, rng: np.random.Generator
                 ) -> None:
    h, w = img.shape[:2]
    if card is None:
        _draw_court_frame(img, st, rng, st.colours[Suit.H])
        mask = text_mask("*", cv2.FONT_HERSHEY_SIMPLEX, w * 0.25, w * 0.03)
        _paint(img, mask, (w - mask.shape[1]) // 2, (h - mask.shape[0]) // 2, st.colours[Suit.S])
        return
    if card.rank is Rank.A:
        _draw_pip(img, st, card.suit, w / 2, h / 2, w * 0.36)
        return
    if card.rank in COURT_RANKS:
        _draw_court(img, st, card, rng)
        return
    pip_h = w * 0.15
    left, right = w * 0.33, w * 0.67
    top, bottom = h * 0.2, h * 0.8
    for px, py in PIP_LAYOUTS[card.rank]:
        cx = left + (right - left) * px
        cy = top + (bottom - top) * py
        _draw_pip(img, st, card.suit, cx, cy, pip_h, upside_down=py > 0.5)


def _draw_court_frame(img: np.ndarray, st: DeckStyle, rng: np.random.Generator, colour: BGR
                      ) -> tuple[int, int, int, int]:
    h, w = img.shape[:2]
    x0, y0, x1, y1 = int(w * 0.27), int(h * 0.17), int(w * 0.73), int(h * 0.83)
    line = max(int(0.3 * PX_PER_MM), 1)
    cv2.rectangle(img, (x0, y0), (x1, y1), colour, line, cv2.LINE_AA)
    # A few seeded robe stripes stand in for the court figure's artwork.
    tint = tuple(int(c) for c in (np.array(st.court_colour) * 0.5 + 127))
    for _ in range(int(rng.integers(3, 7))):
        yy = int(rng.integers(y0 + 8, y1 - 8))
        cv2.line(img, (x0 + line * 2, yy), (x1 - line * 2, yy + int(rng.integers(-15, 15))),
                 tint, max(line, 2), cv2.LINE_AA)
    return x0, y0, x1, y1


def _draw_court(img: np.ndarray, st: DeckStyle, card: Card, rng: np.random.Generator) -> None:
    _h, w = img.shape[:2]
    x0, y0, x1, y1 = _draw_court_frame(img, st, rng, st.court_colour)
    colour = st.colours[card.suit]
    big = text_mask(st.glyph(card.rank), st.font, (y1 - y0) * 0.2, st.stroke_mm * PX_PER_MM * 2)
    _paint(img, big, (w - big.shape[1]) // 2, int(y0 + (y1 - y0) * 0.12), colour)
    _draw_pip(img, st, card.suit, w / 2, y0 + (y1 - y0) * 0.55, (x1 - x0) * 0.3)
    flipped = big[::-1, ::-1]
    _paint(img, flipped, (w - big.shape[1]) // 2, int(y1 - (y1 - y0) * 0.12) - big.shape[0],
           colour)


def render_face(card: Card | None, style: DeckStyle | str, *, seed: int) -> np.ndarray:
    """The face of ``card`` (a joker when None), flat and upright, BGR at ``PX_PER_MM``."""
    st = _style(style)
    rng = np.random.default_rng(seed)
    w, h = card_pixels(st)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = st.paper
    _draw_border(img, st)
    _draw_centre(img, st, card, rng)
    _draw_index(img, st, card)
    img = np.ascontiguousarray(img[::-1, ::-1])
    _draw_index(img, st, card)
    return np.ascontiguousarray(img[::-1, ::-1])


def render_back(back: CardBack | str, style: DeckStyle | str, *, seed: int) -> np.ndarray:
    """A face-down card: the back's motif tiled over the card, phase set by the seed."""
    bk = back if isinstance(back, CardBack) else _back(back)
    st = _style(style)
    rng = np.random.default_rng(seed)
    w, h = card_pixels(st)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (250, 250, 250) if bk.margin_mm else bk.ground
    m = int(bk.margin_mm * PX_PER_MM)
    field_img = np.empty((h - 2 * m, w - 2 * m, 3), np.uint8)
    field_img[:] = bk.ground
    _MOTIFS[bk.motif](field_img, bk, bk.period_mm * PX_PER_MM, rng.uniform(0, 1, 2))
    img[m:h - m, m:w - m] = field_img
    return img


def _back(name: str) -> CardBack:
    try:
        return BACKS[name]
    except KeyError:
        raise ValueError(f"unknown card back {name!r}; known: {', '.join(BACKS)}") from None


def _motif_lattice(img: np.ndarray, bk: CardBack, period: float, phase: np.ndarray) -> None:
    h, w = img.shape[:2]
    line = max(int(period * 0.14), 1)
    off = phase[0] * period
    for k in range(-int((h + w) / period) - 2, int((h + w) / period) + 2):
        c = k * period + off
        cv2.line(img, (int(c), 0), (int(c + h), h), bk.ink, line, cv2.LINE_AA)
        cv2.line(img, (int(c), 0), (int(c - h), h), bk.ink, line, cv2.LINE_AA)


def _motif_dots(img: np.ndarray, bk: CardBack, period: float, phase: np.ndarray) -> None:
    h, w = img.shape[:2]
    r = max(int(period * 0.3), 1)
    for j, y in enumerate(np.arange(phase[1] * period - period, h + period, period * 0.87)):
        shift = period / 2 if j % 2 else 0.0
        for x in np.arange(phase[0] * period - period + shift, w + period, period):
            cv2.circle(img, (int(x), int(y)), r, bk.ink, -1, cv2.LINE_AA)


def _motif_checker(img: np.ndarray, bk: CardBack, period: float, phase: np.ndarray) -> None:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    cells = ((xx + phase[0] * period) // (period / 2) + (yy + phase[1] * period) // (period / 2))
    img[(cells.astype(int) % 2) == 1] = bk.ink


def _motif_rings(img: np.ndarray, bk: CardBack, period: float, phase: np.ndarray) -> None:
    h, w = img.shape[:2]
    r = max(int(period * 0.38), 2)
    line = max(int(period * 0.1), 1)
    for y in np.arange(phase[1] * period - period, h + period, period):
        for x in np.arange(phase[0] * period - period, w + period, period):
            cv2.circle(img, (int(x), int(y)), r, bk.ink, line, cv2.LINE_AA)


def _motif_diamonds(img: np.ndarray, bk: CardBack, period: float, phase: np.ndarray) -> None:
    h, w = img.shape[:2]
    half = period * 0.4
    for y in np.arange(phase[1] * period - period, h + period, period):
        for x in np.arange(phase[0] * period - period, w + period, period):
            pts = np.array([[x, y - half], [x + half * 0.7, y], [x, y + half],
                            [x - half * 0.7, y]], np.int32)
            cv2.fillPoly(img, [pts], bk.ink, cv2.LINE_AA)


_MOTIFS: Mapping[str, Callable[[np.ndarray, CardBack, float, np.ndarray], None]] = (
    MappingProxyType({"lattice": _motif_lattice, "dots": _motif_dots, "checker": _motif_checker,
                      "rings": _motif_rings, "diamonds": _motif_diamonds}))


def render_card(card: Card | None, style: DeckStyle | str, *, seed: int,
                back: str | None = None) -> np.ndarray:
    """A flat, upright card as BGR uint8 at ``PX_PER_MM``: its face, or its back when given.

    ``card=None`` without a back draws a joker. Use ``card_alpha`` for the rounded outline.
    """
    if back is not None:
        return render_back(back, style, seed=seed)
    return render_face(card, style, seed=seed)


__all__ = [
    "ALL_PERTURBATIONS", "BACKS", "HELDOUT_STYLES", "STYLES", "TUNING_STYLES", "card_alpha",
    "perturb_defocus", "perturb_glare", "perturb_jpeg", "perturb_lighting", "perturb_motion",
    "perturb_noise", "perturb_wear", "render_card", "render_station_frame",
]

STATION_FRAME = (640, 480)
_STATION_CARD_HEIGHT = 0.84  # of the frame height: where the shoe's window puts the card


def _station_background(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    level = rng.uniform(14, 34)
    grain = rng.standard_normal((h, w), dtype=np.float32) * np.float32(2.0) + np.float32(level)
    grey = np.clip(grain, 0, 255).astype(np.uint8)
    return cv2.merge([grey, grey, grey])


def _station_quad(rng: np.random.Generator, card_wh: tuple[int, int], size: tuple[int, int],
                  levels: Mapping[str, float]) -> np.ndarray:
    """Where the card's corners land in the frame: centred, jittered by the shoe's play."""
    fw, fh = size
    cw, ch = card_wh
    scale = _STATION_CARD_HEIGHT * fh / ch * (1 + 0.08 * levels.get("scale", 0.0)
                                              * rng.uniform(-1, 1))
    angle = np.deg2rad(rng.uniform(-1, 1) * (1.0 + 6.0 * levels.get("rotation", 0.0)))
    centre = np.array([fw / 2, fh / 2]) + rng.uniform(-1, 1, 2) * np.array([24.0, 10.0])
    half = np.array([[-cw, -ch], [cw, -ch], [cw, ch], [-cw, ch]], np.float64) * scale / 2
    tilt = levels.get("tilt", 0.0)
    half *= 1 + 0.06 * tilt * rng.uniform(-1, 1, (4, 1))
    return (turned(half, angle) + centre).astype(np.float32)


def turned(points: np.ndarray, radians: float) -> np.ndarray:
    """Points (N×2, x and y) turned about the origin by ``radians``: clockwise on screen,
    whose y runs down."""
    rot = np.array([[np.cos(radians), -np.sin(radians)], [np.sin(radians), np.cos(radians)]])
    return points @ rot.T


def place_card(frame: np.ndarray, card_img: np.ndarray, alpha: np.ndarray, quad: np.ndarray
               ) -> np.ndarray:
    """Warp a flat card (with its outline mask) onto ``frame`` so its corners land on ``quad``."""
    h, w = card_img.shape[:2]
    fh, fw = frame.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int).clip(0, (fw, fh))
    x1, y1 = np.ceil(quad.max(axis=0) + 1).astype(int).clip(0, (fw, fh))
    if x1 <= x0 or y1 <= y0:
        return frame.copy()
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    local = (quad - np.array([x0, y0])).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(src, local)
    size = (int(x1 - x0), int(y1 - y0))
    # Pre-shrink so warping samples an image near its output size (less aliasing).
    shrink = max(1.0, min(w / max(size[0], 1), h / max(size[1], 1)) / 1.5)
    if shrink > 1.0:
        card_img = cv2.resize(card_img, None, fx=1 / shrink, fy=1 / shrink,
                              interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, (card_img.shape[1], card_img.shape[0]),
                           interpolation=cv2.INTER_AREA)
        matrix = matrix @ np.diag([shrink, shrink, 1.0])
    warped = cv2.warpPerspective(card_img, matrix, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(alpha, matrix, size, flags=cv2.INTER_LINEAR)
    out = frame.copy()
    m = mask.astype(np.float32)[..., None] / 255
    region = out[y0:y1, x0:x1].astype(np.float32)
    out[y0:y1, x0:x1] = (region * (1 - m) + warped.astype(np.float32) * m).astype(np.uint8)
    return out


def render_station_frame(card: Card | None, style: DeckStyle | str, *, seed: int,
                         back: str | None = None, empty: bool = False,
                         perturb: Mapping[str, float] | None = None,
                         upside_down: bool | None = None,
                         size: tuple[int, int] = STATION_FRAME) -> np.ndarray:
    """What the shoe's fixed camera sees: the card (or its back, or nothing) in the window.

    ``perturb`` maps perturbation names (``ALL_PERTURBATIONS``) to levels 0..1. A deck holds
    cards both ways up: unless ``upside_down`` says, the seed decides.
    """
    levels = dict(perturb or {})
    unknown = set(levels) - set(ALL_PERTURBATIONS)
    if unknown:
        raise ValueError(f"unknown perturbation(s) {sorted(unknown)}; known: {ALL_PERTURBATIONS}")
    rng = np.random.default_rng(seed)
    turned = bool(rng.integers(2)) if upside_down is None else upside_down
    frame = _station_background(rng, size)
    if not empty:
        st = _style(style)
        flat = render_card(card, st, seed=seed, back=back)
        if turned:
            flat = np.ascontiguousarray(flat[::-1, ::-1])
        if levels.get("wear", 0.0) > 0 and back is None:
            flat = perturb_wear(flat, rng, levels["wear"], index_boxes(st))
        quad = _station_quad(rng, (flat.shape[1], flat.shape[0]), size, levels)
        frame = place_card(frame, flat, card_alpha(st), quad)
    return apply_image_perturbations(frame, rng, levels)


def random_levels(rng: np.random.Generator, strength: float = 1.0,
                  names: tuple[str, ...] = ALL_PERTURBATIONS) -> dict[str, float]:
    """Random levels for a mixed-condition sample: each perturbation on with probability 1/2."""
    return {n: float(rng.uniform(0.2, 1.0) * strength) for n in names if rng.random() < 0.5}
