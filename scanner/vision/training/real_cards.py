"""Real card images to learn from, and the ways the reader will meet them.

Two sources, both public and both kept outside the repository (``docs/vision-model.md``
says where they come from and under which licence):

- the CC0 "cards image dataset" (``DATASET/{train,valid,test}/<rank> of <suit>/*.jpg``,
  224×224 pictures each filled by one card of one of many real designs, and jokers);
- the SVG decks Debian ships, rasterised by ``svg_decks`` (``DIR/DECK/CARD.png``).

Each image is turned into what the reader gets from it: a tight crop as ``read-card`` gets
it (``as_tight_crop``), or a card lying on a table in a photo, found a few pixels off and
flattened (``as_photographed``).
"""

from __future__ import annotations

import dataclasses
import zlib
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from ...cards import Card, Rank, Suit, parse_card
from ..corner_net import NONE
from ..index import CANONICAL_SIZE
from ..quads import flatten
from ..synthetic import render
from ..synthetic.perturb import IMAGE_PERTURBATIONS, apply_image_perturbations

_RANK_NAMES = {"ace": Rank.A, "king": Rank.K, "queen": Rank.Q, "jack": Rank.J, "ten": Rank.T,
               "nine": Rank.R9, "eight": Rank.R8, "seven": Rank.R7, "six": Rank.R6,
               "five": Rank.R5, "four": Rank.R4, "three": Rank.R3, "two": Rank.R2}
_SUIT_NAMES = {"spades": Suit.S, "hearts": Suit.H, "diamonds": Suit.D, "clubs": Suit.C}


@dataclasses.dataclass(frozen=True)
class RealImage:
    """One real card image: what it shows (None: a joker or a back, which name no card),
    whether it is a back, its design (deck or dataset) and its index letters."""

    path: Path
    card: Card | None
    back: bool
    design: str
    letters: str = "english"


def dataset_class(folder_name: str) -> Card | None:
    """``"queen of hearts"`` → QH; ``"joker"`` → None. Anything else is refused."""
    if folder_name == "joker":
        return None
    rank, _, suit = folder_name.partition(" of ")
    if rank not in _RANK_NAMES or suit not in _SUIT_NAMES:
        raise ValueError(f"not a card class: {folder_name!r}")
    return Card(_RANK_NAMES[rank], _SUIT_NAMES[suit])


# Dataset pictures whose folder names another card than they show, found by looking at
# every calibration picture read wrongly at a near-certain score: left out of training and
# calibration alike.
MISLABELLED = frozenset({
    "train/ace of hearts/051.jpg",  # an ace of spades
    "train/three of diamonds/016.jpg",  # a three of hearts
    "train/king of diamonds/017.jpg",  # a king of hearts
})


def dataset_images(root: Path, split: str) -> list[RealImage]:
    """The CC0 dataset's images of one split, sorted by path, bar the mislabelled."""
    folder = root / split
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: no such split of the cards image dataset")
    return [RealImage(path, dataset_class(path.parent.name), False, "cc0")
            for path in sorted(folder.glob("*/*.jpg"))
            if str(path.relative_to(root)) not in MISLABELLED]


# Decks whose index letters are not English (K Q J): French R D V, German K D B (looked
# at card by card).
SVG_LETTERS = {
    "gnome-ancient_french": "french", "xskat-french": "french",
    "gnome-atlasnye_skat": "german", "gnome-berlin": "german", "gnome-lattmann": "german",
    "gnome-rheinland": "german",
}
# Decks no reader of this kind can learn from, and why.
EXCLUDED_SVG_DECKS = {
    "oxygen": "indices at the top right and bottom left only",
    "oxygen-air": "indices at the top right and bottom left only",
    "oxygen-white": "indices at the top right and bottom left only",
    "xskat-german": "German suits (acorns, leaves, bells), not French ones",
    "gnome-guyenne-classic": "no rank in the index, only a suit pip",
    "gnome-orell": "no rank in the court cards' index",
    "gnome-swiss-xvii": "Swiss suits and no letters",
    "gnome-tarocco": "Italian court letters (F for the jack), in no letter set read here",
    "gnome-slavic_costumes": "Cyrillic court letters",
    "gnome-Атласные": "Cyrillic court letters",
}


def svg_images(folder: Path, decks: tuple[str, ...] | None = None) -> list[RealImage]:
    """Rasterised SVG deck cards (``svg_decks``), backs and jokers, of ``decks`` (None: all)."""
    out = []
    for deck_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        if deck_dir.name in EXCLUDED_SVG_DECKS or (decks is not None
                                                   and deck_dir.name not in decks):
            continue
        letters = SVG_LETTERS.get(deck_dir.name, "english")
        for path in sorted(deck_dir.glob("*.png")):
            stem = path.stem
            if stem in ("back", "joker"):
                out.append(RealImage(path, None, stem == "back", deck_dir.name, letters))
            else:
                out.append(RealImage(path, parse_card(stem), False, deck_dir.name, letters))
    return out


@cache
def _load(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise ValueError(f"{path}: not an image")
    return img


def load(image: RealImage) -> tuple[np.ndarray, np.ndarray]:
    """BGR pixels and an alpha mask of where the card is (all of a dataset picture)."""
    img = _load(image.path)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.shape[2] == 4:
        alpha = img[..., 3]
        # Flattened onto white, as printed card stock: a transparent SVG area is paper.
        a = (alpha.astype(np.float32) / 255.0)[..., None]
        bgr = (img[..., :3].astype(np.float32) * a + 255.0 * (1 - a)).astype(np.uint8)
        return bgr, alpha
    return img, np.full(img.shape[:2], 255, np.uint8)


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def as_tight_crop(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The canonical card ``read-card`` makes of a picture the card fills: the picture
    itself, cut a little differently each time (a crop's margins vary), resized whole."""
    h, w = img.shape[:2]
    x0, x1 = _u(rng, -0.03, 0.05) * w, w - _u(rng, -0.03, 0.05) * w
    y0, y1 = _u(rng, -0.03, 0.05) * h, h - _u(rng, -0.03, 0.05) * h
    src = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    src += rng.uniform(-0.015, 0.015, (4, 2)).astype(np.float32) * (w, h)
    levels = {n: _u(rng, 0.1, 0.7) for n in IMAGE_PERTURBATIONS if rng.random() < 0.3}
    card = flatten(img, src, CANONICAL_SIZE, cv2.BORDER_REPLICATE)
    return apply_image_perturbations(card, rng, levels)


def table_photo(rng: np.random.Generator) -> np.ndarray:
    """A bare table as a photo frames it: 900 to 1,600 pixels wide, four to three."""
    w = int(rng.integers(900, 1601))
    return table_surface(rng, int(w * 0.75), w)


def table_surface(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table to lay a card on: wood grain, felt, cork, woven cloth or paper, in a colour
    of its kind, under a light that falls off across it."""
    kind = int(rng.integers(5))
    base = {0: (40, 80, 140), 1: (40, 110, 30), 2: (80, 130, 170), 3: (120, 90, 60),
            4: (215, 220, 225)}[kind]
    colour = np.clip(np.array(base, np.float32) + rng.uniform(-35, 35, 3), 0, 255)

    def smooth(rows: int, cols: int, amount: float) -> np.ndarray:
        grid = rng.standard_normal((rows, cols), dtype=np.float32) * amount
        return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)

    grain = rng.standard_normal((h, w), dtype=np.float32)
    if kind == 0:  # wood: long streaks across the table
        noise = smooth(h // 6 + 2, 4, 22) + smooth(h // 2 + 2, w // 24 + 2, 8) + grain * 3
        if rng.random() < 0.5:
            noise = cv2.resize(noise.T, (w, h))
    elif kind == 3:  # cloth: a fine weave
        period = _u(rng, 3, 8)
        wave_x = np.sin(np.arange(w, dtype=np.float32) / period)
        wave_y = np.sin(np.arange(h, dtype=np.float32) / period)
        noise = 10 * wave_y[:, None] * wave_x[None, :] + grain * 5
    else:  # felt, cork, paper: mottled
        noise = smooth(h // 8 + 2, w // 8 + 2, 14) + grain * (6 if kind == 2 else 3)
    light = smooth(3, 3, _u(rng, 0, 0.12)) + 1.0
    img = (colour[None, None, :] + noise[..., None]) * light[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def fanned_on_a_table(cards: list[tuple[np.ndarray, np.ndarray]], spread: float,
                      rng: np.random.Generator) -> np.ndarray:
    """Cards (BGR pixels and alpha) held fanned and laid on a table in a 1600×1200 photo,
    330 px tall, each turned a little more than the last about a point below the hand,
    ``spread`` degrees from first to last, so only their left strips and index corners
    show."""
    photo = table_surface(rng, 1200, 1600)
    pivot = np.array([800.0, 1000.0])
    for i, (img, alpha) in enumerate(cards):
        h, w = img.shape[:2]
        scale = 330 / h
        local = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) * scale
        local -= (w * scale / 2, h * scale + 120)
        a = np.deg2rad(spread * (i / max(len(cards) - 1, 1) - 0.5))
        quad = render.turned(local, a) + pivot
        photo = render.place_card(photo, img, alpha, quad.astype(np.float32))
    return photo


def laid_as_a_dummy(columns: list[list[tuple[np.ndarray, np.ndarray]]], step: float,
                    rng: np.random.Generator) -> np.ndarray:
    """Cards (BGR pixels and alpha) laid face up as a bridge dummy in a 1600×1200 photo,
    300 px tall: one column a suit, each card lying over the one before, ``step`` of a
    card's height lower, so that of all but the last only a strip with its index shows."""
    photo = table_surface(rng, 1200, 1600)
    height = 300
    for c, column in enumerate(columns):
        for k, (img, alpha) in enumerate(column):
            h, w = img.shape[:2]
            scale = height / h
            corner = (180 + c * (w * scale + 40) + rng.uniform(-5, 5),
                      60 + k * step * height + rng.uniform(-3, 3))
            quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) * scale + corner
            a = np.deg2rad(rng.uniform(-3, 3))
            middle = quad.mean(axis=0)
            quad = render.turned(quad - middle, a) + middle
            photo = render.place_card(photo, img, alpha, quad.astype(np.float32))
    return photo


def as_photographed(img: np.ndarray, alpha: np.ndarray, rng: np.random.Generator,
                    height: tuple[float, float] = (110, 320)) -> np.ndarray:
    """The canonical card the table view makes of this card lying on a table in a photo:
    any rotation, a little perspective, the photo's light and blur, the outline found a
    few pixels off, flattened upright."""
    h, w = img.shape[:2]
    scale = _u(rng, *height) / h
    angle = np.deg2rad(_u(rng, -180, 180))
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64) * scale / 2
    half *= 1 + 0.08 * rng.uniform(-1, 1, (4, 1))
    quad = render.turned(half, angle)
    margin = 16
    quad -= quad.min(axis=0) - margin
    pw, ph = (np.ceil(quad.max(axis=0)) + margin).astype(int)
    frame = render.place_card(table_surface(rng, ph, pw), img, alpha, quad.astype(np.float32))
    levels = {n: lv for n, lv in render.random_levels(rng).items() if n in IMAGE_PERTURBATIONS}
    frame = apply_image_perturbations(frame, rng, levels)
    found = quad + rng.uniform(-1, 1, (4, 2)) * 0.012 * scale * h
    card = flatten(frame, found.astype(np.float32), CANONICAL_SIZE, cv2.BORDER_REPLICATE)
    # The card is upright or upside down after flattening, as the locator leaves it.
    return card if rng.random() < 0.5 else np.ascontiguousarray(card[::-1, ::-1])


# ---------------------------------------------------------------- splits and labels

# SVG decks never trained, tuned or calibrated on: the unseen designs the model card
# reports. Chosen to span the kinds (an English pattern, a German-lettered one, cartoon and
# modern designs, a 4-colour deck), and with no sibling of the same artwork left in
# training.
UNSEEN_SVG_DECKS: tuple[str, ...] = (
    "gnome-bellot", "gnome-lattmann", "jolly-royal", "penguins", "ancient-egyptians",
    "gnome-neoclassical", "gnome-neoclassical_4_color",
)


def is_calibration(image: RealImage) -> bool:
    """One dataset image in eight, fixed by its path, is kept out of training to calibrate
    and tune on (all from the dataset's own train split)."""
    return zlib.crc32(str(image.path.relative_to(image.path.parents[2])).encode()) % 8 == 0


def corner_labels(image: RealImage) -> tuple[str, str]:
    """What each corner index of this image shows: a rank glyph label and a suit, or none."""
    if image.card is None:
        return NONE, NONE
    style = dataclasses.replace(render.STYLES[render.TUNING_STYLES[0]], letters=image.letters,
                                ten="10")
    return f"r:{style.glyph(image.card.rank)}", image.card.suit.value


def views(image: RealImage, rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """``count`` canonical cards made from one image: a dataset picture mostly as a tight
    crop, as it was taken; a rasterised deck card mostly as photographed on a table."""
    bgr, alpha = load(image)
    crop_share = 0.7 if image.design == "cc0" else 0.25
    return [as_tight_crop(bgr, rng) if rng.random() < crop_share
            else as_photographed(bgr, alpha, rng) for _ in range(count)]
