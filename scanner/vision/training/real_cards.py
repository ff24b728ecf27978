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
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from ...cards import Card, Rank, Suit, parse_card
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


def dataset_images(root: Path, split: str) -> list[RealImage]:
    """The CC0 dataset's images of one split, sorted by path."""
    folder = root / split
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: no such split of the cards image dataset")
    return [RealImage(path, dataset_class(path.parent.name), False, "cc0")
            for path in sorted(folder.glob("*/*.jpg"))]


# Decks whose index letters are not English (K Q J): French R D V, German K D B.
SVG_LETTERS = {
    "gm-paris": "french", "gnome-paris": "french", "gnome-bellot": "french",
    "gnome-ancient_french": "french", "gnome-guyenne-classic": "french",
    "xskat-french": "french", "xskat-german": "german", "gnome-berlin": "german",
    "gnome-rheinland": "german", "gnome-lattmann": "german",
}


def svg_images(folder: Path, decks: tuple[str, ...] | None = None) -> list[RealImage]:
    """Rasterised SVG deck cards (``svg_decks``), backs and jokers, of ``decks`` (None: all)."""
    out = []
    for deck_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        if decks is not None and deck_dir.name not in decks:
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


def table_surface(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table to lay a card on: wood grain, felt, cork, woven cloth or paper, in a colour
    of its kind, under a light that falls off across it."""
    kind = rng.integers(5)
    base = {0: (40, 80, 140), 1: (40, 110, 30), 2: (80, 130, 170), 3: (120, 90, 60),
            4: (215, 220, 225)}[int(kind)]
    colour = np.clip(np.array(base, np.float32) + rng.uniform(-35, 35, 3), 0, 255)
    if kind == 0:  # wood: long stretched streaks
        streaks = cv2.resize(rng.normal(0, 1, (h // 6 + 2, 4)), (w, h))
        noise = streaks * 22 + cv2.resize(rng.normal(0, 1, (h // 2 + 2, w // 24 + 2)), (w, h)) * 8
    elif kind == 3:  # cloth: a fine weave
        yy, xx = np.mgrid[:h, :w]
        period = _u(rng, 3, 8)
        noise = 10 * np.sin(xx / period) * np.sin(yy / period) + rng.normal(0, 5, (h, w))
    else:  # felt, cork, paper: mottled
        noise = cv2.resize(rng.normal(0, 1, (h // 8 + 2, w // 8 + 2)), (w, h)) * 14 + \
            rng.normal(0, 6 if kind == 2 else 3, (h, w))
    if kind == 0 and rng.random() < 0.5:
        noise = noise.T[:h, :w] if h == w else cv2.resize(noise.T, (w, h))
    img = colour[None, None, :] + noise[..., None]
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    cx, cy = _u(rng, 0, w), _u(rng, 0, h)
    fall = 1 - _u(rng, 0, 0.45) * np.hypot(xx - cx, yy - cy) / max(h, w)
    return np.clip(img * fall[..., None], 0, 255).astype(np.uint8)


def as_photographed(img: np.ndarray, alpha: np.ndarray, rng: np.random.Generator,
                    height: tuple[float, float] = (110, 420)) -> np.ndarray:
    """The canonical card the table view makes of this card lying on a table in a photo:
    any rotation, a little perspective, the photo's light and blur, the outline found a
    few pixels off, flattened upright."""
    h, w = img.shape[:2]
    scale = _u(rng, *height) / h
    angle = np.deg2rad(_u(rng, -180, 180))
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64) * scale / 2
    half *= 1 + 0.08 * rng.uniform(-1, 1, (4, 1))
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = half @ rot.T
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
