"""Train the shipped corner reader (``corner_net.onnx``) on real deck designs, real
photographs and rendered cards, and calibrate when to trust it.

    python -m scanner.vision.training.train_corners --dataset DIR --svg DIR [--out FILE]
    python -m scanner.vision.training.train_corners --dataset DIR --svg DIR \
        --recipe second-opinion
    python -m scanner.vision.training.train_corners --dataset DIR --svg DIR \
        --add-second-opinion scanner/vision/corner_net_second.onnx

The first builds the shipped net; the second its second opinion, a net trained apart on
windows drawn another way (``RECIPES``); the third names the second opinion in the shipped
net's calibration and calibrates its second look at a corner on both nets' reads together.

``--dataset`` is the CC0 cards image dataset (its ``train`` split only is read: one image
in eight is kept for calibration, ``real_cards.is_calibration``); ``--svg`` the folder of
rasterised Debian SVG decks (``svg_decks``; made there first when empty), of which
``real_cards.UNSEEN_SVG_DECKS`` are never read. Without them the net learns from the
renderer alone, which reads no real deck: the reader shipped is always built with both.

Needs the ``train`` extra (torch, onnx); the reader itself runs the exported file through
``cv2.dnn``. Faces are drawn from random deck designs assembled from the tuning styles'
fonts, pip shapes, borders and sizes, with stroke width, index size and place, and ink
colours varied (inks within the families real decks use: black or green clubs, red, orange
or blue diamonds), in every letter set the reader knows, both glyphs for ten; plus
jokers, backs, erased indices and foreign letters, which read as no index. Each face is
seen as the read station sees a card (about 300–450 px tall) and as the table view sees
one (110–210 px tall, any rotation, rectified up to the canonical size), under the camera
perturbations, with the outline found a few pixels off; some samples come through the
real read-station path. The held-out styles (and ``nordic``) are never drawn.

Calibration uses its own seeds: the temperature that best fits the calibration corners,
then the card-level thresholds, with a margin, under which no calibration card is read
wrong and no joker, back or foreign letter read as a card, except where the middle of the
card, which the reader weighs every read short of certain against, would veto it.
Deterministic; a few minutes on two CPU cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

from ...cards import ALL_CARDS, Card, Rank, Suit
from ...output_file import written_atomically
from ..corner_net import (
    NET_INPUT,
    NET_PATH,
    NONE,
    RANK_LABELS,
    SECOND_LOOK_SHIFTS,
    SUIT_LABELS,
    WINDOW,
    CornerReader,
    corner_windows,
    net_input,
    second_look_windows,
    split_probabilities,
    with_second_opinion,
)
from ..index import CANONICAL_SIZE, canonical
from ..indices import (
    RANK_AT,
    SECOND_LOOK_FROM,
    SECOND_LOOK_LOW_FROM,
    corner_looks,
    corner_names,
    second_look_names,
)
from ..middle import Middle, look_at_middle
from ..reading import (
    MIDDLE_ALWAYS,
    CardScores,
    Together,
    agreement,
    checks_middle,
    corner_beliefs,
    decide,
    score_corners,
    second_look,
    together,
)
from ..station import rectify, station_card
from ..synthetic import render
from ..synthetic.perturb import IMAGE_PERTURBATIONS, apply_image_perturbations, perturb_wear
from .real_cards import (
    UNSEEN_SVG_DECKS,
    RealImage,
    corner_labels,
    dataset_images,
    is_calibration,
    svg_images,
    views,
)
from .svg_decks import rasterise_all
from .train_glyphs import build as build_glyph_model

TRAIN_SEED = 61_000
CALIBRATION_SEED = 83_000  # never drawn for training; the bench draws from 900 000 up
LETTER_SETS = ("english", "french", "german", "dutch")
# Letters of no known set (E is a Danish ace): no index. None that a blur turns into a
# known glyph (N, M or W into H, O into Q or D, S into 5).
FOREIGN_TEXT = ("E", "X", "*", "F", "Y", "Kn")
SAFETY = 0.5  # in log-odds: how far above the worst wrong calibration score a threshold sits
BGR = tuple[int, int, int]


class _ForeignStyle(render.DeckStyle):
    """A deck design whose index shows a letter that is no rank of any known set."""

    def glyph(self, rank: object) -> str:
        return self.name


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def _ink(rng: np.random.Generator, family: str) -> BGR:
    if family == "black":
        v = rng.uniform(10, 60)
        return tuple(int(np.clip(v + rng.uniform(-8, 8), 0, 255)) for _ in range(3))
    if family == "red":
        return int(rng.uniform(20, 80)), int(rng.uniform(10, 60)), int(rng.uniform(150, 235))
    if family == "warm":  # red through orange
        return int(rng.uniform(10, 60)), int(rng.uniform(20, 150)), int(rng.uniform(180, 245))
    if family == "blue":
        return int(rng.uniform(140, 215)), int(rng.uniform(50, 120)), int(rng.uniform(10, 50))
    return int(rng.uniform(10, 70)), int(rng.uniform(100, 165)), int(rng.uniform(10, 60))


def _palette(rng: np.random.Generator) -> dict[Suit, BGR]:
    if rng.random() < 0.6:
        black, red = _ink(rng, "black"), _ink(rng, "red")
        return {Suit.S: black, Suit.C: black, Suit.H: red, Suit.D: red}
    return {Suit.S: _ink(rng, "black"), Suit.H: _ink(rng, "red"),
            Suit.D: _ink(rng, "warm" if rng.random() < 0.5 else "blue"),
            Suit.C: _ink(rng, "green")}


def _glyph_sources() -> dict[str, list[tuple[Rank, str, str]]]:
    """For each rank glyph label, the (rank, letter set, ten glyph) that print it."""
    base = render.STYLES[render.TUNING_STYLES[0]]
    out: dict[str, list[tuple[Rank, str, str]]] = {}
    for letters in LETTER_SETS:
        for ten in ("10", "T"):
            st = dataclasses.replace(base, letters=letters, ten=ten)
            for rank in Rank:
                out.setdefault(f"r:{st.glyph(rank)}", []).append((rank, letters, ten))
    return out


GLYPH_SOURCES = _glyph_sources()


def _card_and_design(rng: np.random.Generator, styles: tuple[str, ...]
                     ) -> tuple[Card, render.DeckStyle]:
    """A card and a design to print it in, every rank glyph equally often."""
    label = RANK_LABELS[int(rng.integers(len(RANK_LABELS) - 1))]
    sources = GLYPH_SOURCES[label]
    rank, letters, ten = sources[int(rng.integers(len(sources)))]
    suit = tuple(Suit)[int(rng.integers(4))]
    return Card(rank, suit), dataclasses.replace(_design(rng, styles), letters=letters, ten=ten)


def _design(rng: np.random.Generator, styles: tuple[str, ...]) -> render.DeckStyle:
    """A deck design made of the given styles' parts, with its sizes and inks varied."""
    pick = [render.STYLES[s] for s in styles]

    def one(attr: str) -> object:
        return getattr(pick[int(rng.integers(len(pick)))], attr)

    return dataclasses.replace(
        pick[int(rng.integers(len(pick)))], name="train",
        letters=LETTER_SETS[int(rng.integers(len(LETTER_SETS)))],
        ten=("10", "T")[int(rng.integers(2))], font=one("font"),
        stroke_mm=_u(rng, 0.45, 1.15), index_height_mm=_u(rng, 5.2, 7.0),
        index_left_mm=_u(rng, 2.3, 3.7), index_top_mm=_u(rng, 2.7, 3.9),
        pip_shape=one("pip_shape"), colours=_palette(rng),
        paper=tuple(int(rng.uniform(222, 255)) for _ in range(3)), size=one("size"),
        border=one("border"), court_colour=tuple(int(rng.uniform(30, 220)) for _ in range(3)))


@dataclasses.dataclass(frozen=True)
class Face:
    """A flat card to be seen, with what each of its two corner windows must read, and
    the card a reader may name (None: a joker, a back, a foreign letter)."""

    image: np.ndarray
    style: render.DeckStyle
    labels: tuple[tuple[str, str], tuple[str, str]]
    card: Card | None


def _face_labels(st: render.DeckStyle, card: Card) -> tuple[str, str]:
    return f"r:{st.glyph(card.rank)}", card.suit.value


def _faces(rng: np.random.Generator, styles: tuple[str, ...]) -> Iterator[Face]:
    """An endless, seeded stream of faces: mostly cards, some jokers, backs, erased or
    foreign indices."""
    blank = (NONE, NONE)
    while True:
        card, st = _card_and_design(rng, styles)
        seed = int(rng.integers(1 << 30))
        kind = rng.random()
        if kind < 0.03:
            yield Face(render.render_face(None, st, seed=seed), st, (blank, blank), None)
        elif kind < 0.06:
            back = list(render.BACKS)[int(rng.integers(len(render.BACKS)))]
            yield Face(render.render_back(back, st, seed=seed), st, (blank, blank), None)
        elif kind < 0.10:
            text = FOREIGN_TEXT[int(rng.integers(len(FOREIGN_TEXT)))]
            foreign = _ForeignStyle(**{f.name: getattr(st, f.name)
                                       for f in dataclasses.fields(st)} | {"name": text})
            labels = (NONE, card.suit.value)
            yield Face(render.render_face(card, foreign, seed=seed), st, (labels, labels), None)
        elif kind < 0.14:
            img = render.render_face(card, st, seed=seed)
            erased = int(rng.integers(2))
            x0, y0, x1, y1 = render.index_boxes(st)[erased]
            img[y0:y1, x0:x1] = st.paper if rng.random() < 0.7 else (255, 255, 255)
            labels = [_face_labels(st, card)] * 2
            labels[erased] = blank
            yield Face(img, st, (labels[0], labels[1]), card)
        else:
            label = _face_labels(st, card)
            yield Face(render.render_face(card, st, seed=seed), st, (label, label), card)


def _background(rng: np.random.Generator, h: int, w: int, station: bool) -> np.ndarray:
    if station:
        level = rng.uniform(14, 34)
        grey = np.clip(rng.standard_normal((h, w)) * 2.0 + level, 0, 255).astype(np.uint8)
        return cv2.merge([grey, grey, grey])
    colour = rng.uniform(20, 230, 3)
    cells = cv2.resize(rng.uniform(-40, 40, (max(h // 16, 2), max(w // 16, 2), 3)), (w, h))
    return np.clip(colour + cells, 0, 255).astype(np.uint8)


@cache
def _alpha(size: render.CardSize) -> np.ndarray:
    return render.card_alpha(dataclasses.replace(render.STYLES[render.TUNING_STYLES[0]],
                                                 size=size))


def seen(face: Face, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """The canonical card the reader would get for this face, as the station (or the table
    view) would see, find and rectify it."""
    img, st = face.image, face.style
    station = rng.random() < 0.6
    if rng.random() < 0.5:
        img = perturb_wear(img, rng, _u(rng, 0.2, 1.0) * strength, render.index_boxes(st))
    if rng.random() < 0.05:
        return canonical(img)
    h, w = img.shape[:2]
    height = _u(rng, 300, 450) if station else _u(rng, 105, 215)
    scale = height / h
    angle = np.deg2rad(_u(rng, -8, 8) if station else _u(rng, -180, 180))
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64) * scale / 2
    half *= 1 + (0.06 if station else 0.1) * rng.uniform(-1, 1, (4, 1))
    quad = render.turned(half, angle)
    margin = 14
    quad -= quad.min(axis=0) - margin
    pw, ph = (np.ceil(quad.max(axis=0)) + margin).astype(int)
    patch = render.place_card(_background(rng, ph, pw, station), img, _alpha(st.size),
                              quad.astype(np.float32))
    levels = {n: lv for n, lv in render.random_levels(rng, strength).items()
              if n in IMAGE_PERTURBATIONS}
    patch = apply_image_perturbations(patch, rng, levels)
    found = quad + rng.uniform(-1, 1, (4, 2)) * (4.0 if station else 2.5)
    return rectify(patch, found.astype(np.float32), CANONICAL_SIZE)


Look = tuple[np.ndarray, tuple[tuple[str, str], ...], Card, str]


def _station_looks(rng: np.random.Generator, styles: tuple[str, ...]) -> Iterator[Look]:
    """Cards through the real read-station path: frame, locate, rectify."""
    while True:
        base = render.STYLES[styles[int(rng.integers(len(styles)))]]
        st = dataclasses.replace(base, letters=LETTER_SETS[int(rng.integers(4))])
        card = ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]
        frame = render.render_station_frame(card, st, seed=int(rng.integers(1 << 30)),
                                            perturb=render.random_levels(rng))
        rectified = station_card(frame)
        if rectified is not None:
            label = _face_labels(st, card)
            yield rectified, (label, label), card, st.letters


def _windows_and_labels(looks: list[tuple[np.ndarray, tuple[tuple[str, str], ...]]]
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    blobs, ranks, suits = [], [], []
    for card_img, labels in looks:
        blobs.append(net_input(corner_windows(card_img)))
        for rank, suit in labels:
            ranks.append(RANK_LABELS.index(rank))
            suits.append(SUIT_LABELS.index(suit))
    return (np.concatenate(blobs).astype(np.float16), np.array(ranks, np.int64),
            np.array(suits, np.int64))


CHUNK = 500  # cards drawn from one seed; chunks go to two worker processes
# One draw in this many is a card through the real read-station path (one look); the
# others are a face seen three ways (three looks), so a tenth of the looks are the
# station's. Counted by draws, not looks: the count of looks grows by three and skips
# most remainders.
STATION_EVERY = 4


def _training_chunk(job: tuple[tuple[str, ...], int, int, int]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    styles, cards, seed, index = job
    cv2.setNumThreads(1)
    rng = np.random.default_rng([seed, index])
    faces = _faces(rng, styles)
    station = _station_looks(rng, styles)
    looks: list[tuple[np.ndarray, tuple[tuple[str, str], ...]]] = []
    draws = 0
    while len(looks) < cards:
        draws += 1
        if draws % STATION_EVERY == 0:
            card_img, labels, _, _ = next(station)
            looks.append((card_img, labels))
            continue
        face = next(faces)
        for _ in range(3):
            looks.append((seen(face, rng, _u(rng, 0.6, 1.15)), face.labels))
    return _windows_and_labels(looks[:cards])


def training_set(styles: tuple[str, ...], cards: int, seed: int = TRAIN_SEED,
                 workers: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corner windows (as the net's input) with their rank and suit label indices: each
    face seen three ways, and one look in ten a card through the real station path
    (``STATION_EVERY``). The same for any number of workers: each chunk of cards has its
    own seed.

    ``workers=1`` draws in this process: forking one that already runs threads (a test
    runner's servers, OpenCV's pool) can deadlock the children.
    """
    jobs = [(styles, min(CHUNK, cards - start), seed, start // CHUNK)
            for start in range(0, cards, CHUNK)]
    if workers == 1:
        parts = [_training_chunk(job) for job in jobs]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_training_chunk, jobs)
    return tuple(np.concatenate(arrays) for arrays in zip(*parts, strict=True))


@dataclasses.dataclass(frozen=True)
class RealData:
    """Real card images to learn from: the CC0 dataset's root and the rasterised SVG
    decks' folder (either may be None)."""

    dataset: Path | None
    svg: Path | None

    def images(self, calibration: bool) -> list[RealImage]:
        """The images to train on (``calibration`` False) or to calibrate on: dataset
        pictures split by ``is_calibration``; SVG decks, bar the unseen ones, both times
        (each time drawn with other seeds)."""
        out: list[RealImage] = []
        if self.dataset is not None:
            out += [i for i in dataset_images(self.dataset, "train")
                    if is_calibration(i) == calibration]
        if self.svg is not None:
            out += [i for i in svg_images(self.svg) if i.design not in UNSEEN_SVG_DECKS]
        return out


# Views drawn of each real image per pass: a dataset picture is one of thousands, a deck
# card one of about 54 per design, so each deck card is seen more ways.
VIEWS = {"cc0": 3}
DECK_VIEWS = 8
REAL_CHUNK = 200


def _views_of(image: RealImage) -> int:
    return VIEWS.get(image.design, DECK_VIEWS)


# Share of real views that also give a window with no index to read: a patch of the card's
# middle (pips, a court's picture) or an index turned upside down. The table view's index
# finder proposes such windows, and they must read as no card.
NO_INDEX_SHARE = 0.35


def _no_index_window(card: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    w, h = WINDOW
    if rng.random() < 0.4:
        return cv2.rotate(corner_windows(card)[int(rng.integers(2))], cv2.ROTATE_180)
    ch, cw = card.shape[:2]
    x = int(rng.integers(w // 2, cw - w - w // 4))
    y = int(rng.integers(h // 2, ch - h - h // 2))
    return card[y:y + h, x:x + w]


@dataclasses.dataclass(frozen=True)
class Recipe:
    """How a net's real training windows are drawn: the share of real views whose corner
    windows are also cut as the table view's index finder cuts them (``indices``: scaled,
    turned and placed by a rank and a suit pip found in the photo, a little off, and in a
    fan with the next card lying over the window's right side), and the share of those
    with the edge of a cast shadow across them."""

    found_share: float
    shadow_share: float


# The shipped net's recipe, and its second opinion's: every view also cut as found, a
# quarter of those in a shadow's edge, so that the two nets, trained apart on different
# windows, seldom err alike (``CornerReader.corner_second_look_probabilities``).
RECIPES = {"main": Recipe(found_share=0.5, shadow_share=0.0),
           "second-opinion": Recipe(found_share=1.0, shadow_share=0.25)}
SECOND_OPINION_PATH = NET_PATH.with_name("corner_net_second.onnx")
# Where the next card's edge crosses the window, in canonical pixels from its left: in a
# tight fan the neighbour's own index shows just right of the one being read.
NEIGHBOUR_EDGE = (32.0, 62.0)


def as_found(card: np.ndarray, neighbour: np.ndarray, rng: np.random.Generator,
              shadow_share: float = 0.0, under_share: float = 0.0) -> np.ndarray:
    """A corner window of a canonical card cut a little off scale, turn and place, and
    half the time with ``neighbour`` lying over its right side, clear of the index, as the
    next card of a fan lies: a little turned, a little higher or lower, its own index
    showing; ``under_share`` of the time with ``neighbour`` also showing left of this
    card's edge, as the card before it in a fan does, its index beside this one; and
    ``shadow_share`` of the time with a shadow's edge across it."""
    w, h = WINDOW
    scale, turn = _u(rng, 0.85, 1.18), np.deg2rad(_u(rng, -8, 8))
    a, b = scale * np.cos(turn), scale * np.sin(turn)
    centre = np.array(RANK_AT) + rng.uniform(-4, 4, 2)
    m = np.array([[a, -b, 0.0], [b, a, 0.0]])
    m[:, 2] = np.array(RANK_AT) - m[:, :2] @ centre
    window = cv2.warpAffine(card, m, (w, h), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.5:
        edge, slant = _u(rng, *NEIGHBOUR_EDGE), _u(rng, -0.3, 0.3)
        # The neighbour's left edge lies along x = edge + slant * (y - h/2): its right
        # axis is square to that line, its top a little above or below this card's.
        norm = float(np.hypot(1.0, slant))
        right, down = np.array([1.0, -slant]) / norm, np.array([slant, 1.0]) / norm
        k = scale * _u(rng, 0.92, 1.08)
        top = _u(rng, -0.3, 0.3) * h
        n = np.column_stack([k * right, k * down,
                             np.array([edge, h / 2]) + (top - h / 2) * down])
        other = cv2.warpAffine(neighbour, n, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
        ys, xs = np.mgrid[:h, :w]
        across = xs - edge - slant * (ys - h / 2)
        shade = np.clip(255 - 80 * np.exp(-np.abs(across) / 1.5), 0, 255)[..., None] / 255
        window = np.where((across > 0)[..., None], other, (window * shade).astype(np.uint8))
    # Each drawn only when wanted, so the calibration windows stay as they were.
    if under_share and rng.random() < under_share:
        window = _card_underneath(window, neighbour, m, rng)
    if shadow_share and rng.random() < shadow_share:
        window = _cast_shadow(window, rng)
    return window


# Where this card's left edge may lie in the window and how far it may slant, clear of
# its own index (whose glyphs reach about 10 px left of ``RANK_AT``), and how far left of
# this index the card underneath has its own: a fan's spacing, so that its index stands
# at the window's edge, whole or cut by this card.
UNDER_EDGE = (0.0, 9.0)
UNDER_SLANT = 0.1
UNDER_GAP = (14.0, 32.0)


def _card_underneath(window: np.ndarray, under: np.ndarray, m: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
    """The window with ``under`` showing left of this card's edge: the card before it in a
    fan, cut as this one is but its index a fan's spacing to the left and a little higher
    or lower, darkened along the edge by this card's shadow. Two glyphs side by side, as
    printed text has them, are also what a fan shows."""
    h, w = window.shape[:2]
    n = m.copy()
    n[0, 2] -= _u(rng, *UNDER_GAP)
    n[1, 2] += _u(rng, -0.15, 0.15) * h
    other = cv2.warpAffine(under, n, (w, h), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    edge, slant = _u(rng, *UNDER_EDGE), _u(rng, -UNDER_SLANT, UNDER_SLANT)
    ys, xs = np.mgrid[:h, :w]
    across = xs - edge - slant * (ys - h / 2)
    shade = np.clip(255 - 80 * np.exp(-np.abs(across) / 2.0), 0, 255)[..., None] / 255
    return np.where((across < 0)[..., None], (other * shade).astype(np.uint8), window)


# The light left inside a cast shadow: a hand or a phone held between the lamp and a deal
# darkens part of an index, which no even dimming of the window (the net's input takes
# that out) is like.
SHADOW_LIGHT = (0.35, 0.8)


def _cast_shadow(window: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The window with a shadow over one side of a straight edge through it, the edge
    softened over a few pixels as a shadow's penumbra is."""
    h, w = window.shape[:2]
    angle = _u(rng, 0.0, np.pi)
    x, y = _u(rng, 0.0, w), _u(rng, 0.0, h)
    ys, xs = np.mgrid[:h, :w].astype(np.float32)
    beyond = (xs - x) * np.float32(np.cos(angle)) + (ys - y) * np.float32(np.sin(angle))
    light = _u(rng, *SHADOW_LIGHT)
    # Past a few penumbrae the edge is fully lit or fully dark: clipped, the exponential
    # neither overflows nor changes.
    softness = np.float32(_u(rng, 0.5, 4.0))
    lit = 1.0 / (1.0 + np.exp(np.clip(-beyond / softness, -60.0, 60.0)))
    gain = light + (1.0 - light) * lit
    return np.clip(window * gain[..., None], 0, 255).astype(np.uint8)


def _real_chunk(job: tuple[list[RealImage], int, int, Recipe]
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    images, seed, index, recipe = job
    cv2.setNumThreads(1)
    rng = np.random.default_rng([seed, index, 1])
    windows: list[np.ndarray] = []
    labels: list[tuple[str, str]] = []
    neighbour: np.ndarray | None = None
    for image in images:
        label = corner_labels(image)
        for card in views(image, rng, _views_of(image)):
            windows += corner_windows(card)
            labels += [label, label]
            if rng.random() < recipe.found_share:
                upright = card if rng.random() < 0.5 else cv2.rotate(card, cv2.ROTATE_180)
                windows.append(as_found(upright, card if neighbour is None else neighbour,
                                         rng, recipe.shadow_share))
                labels.append(label)
            if image.card is not None and rng.random() < NO_INDEX_SHARE:
                windows.append(_no_index_window(card, rng))
                labels.append((NONE, NONE))
        neighbour = card  # the next image's fan neighbour: another card
    return (net_input(windows).astype(np.float16),
            np.array([RANK_LABELS.index(r) for r, _ in labels], np.int64),
            np.array([SUIT_LABELS.index(s) for _, s in labels], np.int64))


def real_training_set(images: list[RealImage], seed: int = TRAIN_SEED, workers: int = 2,
                      recipe: Recipe = RECIPES["main"]
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corner windows and labels from real images, each seen ``_views_of`` ways."""
    jobs = [(images[i:i + REAL_CHUNK], seed, i // REAL_CHUNK, recipe)
            for i in range(0, len(images), REAL_CHUNK)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        parts = pool.map(_real_chunk, jobs)
    return tuple(np.concatenate(arrays) for arrays in zip(*parts, strict=True))


def real_calibration_cards(images: list[RealImage], seed: int = CALIBRATION_SEED
                           ) -> list[CalibrationCard]:
    """One fresh view of each calibration image."""
    rng = np.random.default_rng([seed, 1])
    out = []
    for image in images:
        label = corner_labels(image)
        [card] = views(image, rng, 1)
        out.append(CalibrationCard(card, image.card, image.letters, (label, label), False))
    return out


def conv_blocks(nn: ModuleType, widths: tuple[int, ...], channels: int = 3) -> list:
    """From the ink ``channels`` (3: one a colour), per width a 3×3 convolution, batch
    norm, ReLU and a halving max-pool (``torch.nn``, imported by the caller: torch is a
    training extra)."""
    out: list = []
    for cin, cout in zip((channels, *widths), widths, strict=False):
        out += [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU(), nn.MaxPool2d(2)]
    return out


def _net(nn: ModuleType) -> object:
    """The net, built from ``torch.nn`` (imported by the caller: torch is a training extra)."""
    w, h = NET_INPUT
    # Wider than a rendered deck alone needs: real indices come in many typefaces.
    return nn.Sequential(*conv_blocks(nn, (24, 48, 96)), nn.Flatten(),
                         nn.Linear(96 * (h // 8) * (w // 8), 160), nn.ReLU(), nn.Dropout(0.2),
                         nn.Linear(160, len(RANK_LABELS) + len(SUIT_LABELS)))


def fit(model: object, x: np.ndarray, targets: tuple[np.ndarray, ...], epochs: int,
        batch_loss: Callable[..., tuple[object, object]], seed: int) -> None:
    """Fit ``model`` to windows ``x`` (net inputs) and their ``targets`` with AdamW and a
    one-cycle schedule, 128 at a time in a seeded order; ``batch_loss(logits, *targets)``
    gives a batch's loss and how many it got right. Needs torch (the ``train`` extra)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    xs, ys = torch.from_numpy(x), [torch.from_numpy(t) for t in targets]
    batch = 128
    steps = epochs * (len(xs) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(xs), generator=gen)
        total, right = 0.0, 0
        for i in range(len(xs) // batch):
            idx = order[i * batch:(i + 1) * batch]
            loss, got = batch_loss(model(xs[idx].float()), *(y[idx] for y in ys))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int(got)
        n = (len(xs) // batch) * batch
        print(f"epoch {epoch + 1}/{epochs}: loss {total / n:.4f}, right {right / n:.4f}",
              file=sys.stderr)
    model.eval()


def export(model: object, out: Path, input_name: str,
           shape: tuple[int, int, int] = (3, NET_INPUT[1], NET_INPUT[0])) -> None:
    """The fitted net as ONNX at ``out``, for any number of inputs of ``shape`` (channels,
    height, width: a corner window's unless given); written whole or not at all, for the
    shipped net is the default ``--out``."""
    import torch

    with written_atomically(out, overwrite=True) as temp:
        torch.onnx.export(model, torch.zeros(1, *shape), str(temp), input_names=[input_name],
                          output_names=["logits"], dynamic_axes={input_name: {0: "n"}},
                          dynamo=False)


def thresholded_net_arguments(parser: argparse.ArgumentParser, out: Path) -> None:
    """The arguments the training of each small net with a threshold beside it takes
    (``thresholded_net``): what it learns from, where it goes (``out`` unless given), how
    many passes, and whether only its threshold is set again."""
    parser.add_argument("--dataset", type=Path, metavar="DIR", required=True,
                        help="the CC0 cards image dataset (folder holding train/)")
    parser.add_argument("--svg", type=Path, metavar="DIR", required=True,
                        help="rasterised SVG decks (svg_decks makes them)")
    parser.add_argument("--out", type=Path, default=out,
                        help="the .onnx to write; its threshold goes beside it as .json")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--calibrate-only", action="store_true",
                        help="keep the trained --out net, only set its threshold again")


def train(data: tuple[np.ndarray, np.ndarray, np.ndarray], epochs: int, out: Path,
          seed: int = TRAIN_SEED) -> None:
    """Fit the net and export it to ONNX at ``out``."""
    from torch import nn

    loss_fn = nn.CrossEntropyLoss()
    k = len(RANK_LABELS)

    def batch_loss(logits: object, ranks: object, suits: object) -> tuple[object, object]:
        loss = loss_fn(logits[:, :k], ranks) + loss_fn(logits[:, k:], suits)
        return loss, ((logits[:, :k].argmax(1) == ranks) & (logits[:, k:].argmax(1) == suits)).sum()

    model = _net(nn)
    fit(model, data[0], data[1:], epochs, batch_loss, seed)
    export(model, out, "corners")


@dataclasses.dataclass(frozen=True)
class CalibrationCard:
    image: np.ndarray
    card: Card | None  # None: no card may be named (a joker, a back, a foreign letter)
    letters: str
    labels: tuple[tuple[str, str], tuple[str, str]]  # what each corner shows
    station: bool  # through the real read-station path


def calibration_cards(styles: tuple[str, ...], count: int, seed: int = CALIBRATION_SEED
                      ) -> list[CalibrationCard]:
    """Fresh cards under full-strength perturbations: half through the real station path,
    half seen as the station or the table view would see them, among them the jokers,
    backs and foreign letters that must never be named."""
    rng = np.random.default_rng(seed)
    station = _station_looks(rng, styles)
    faces = _faces(rng, styles)
    out: list[CalibrationCard] = []
    while len(out) < count:
        through_station = len(out) % 2 == 0
        if through_station:
            image, labels, card, letters = next(station)
        else:
            face = next(faces)
            image, labels, card, letters = (seen(face, rng), face.labels, face.card,
                                            face.style.letters)
        out.append(CalibrationCard(image, card, letters, labels, through_station))
    return out


def _temperature(logits: np.ndarray, cards: list[CalibrationCard]) -> float:
    """The softmax temperature under which the calibration corners' labels are likeliest."""
    corners = [label for c in cards for label in c.labels]
    rank_truth = np.array([RANK_LABELS.index(rank) for rank, _ in corners])
    suit_truth = np.array([SUIT_LABELS.index(suit) for _, suit in corners])
    rows = np.arange(len(rank_truth))
    best, best_nll = 1.0, np.inf
    for t in np.linspace(0.5, 3.0, 26):
        rp, sp = split_probabilities(logits, float(t))
        nll = -np.log(rp[rows, rank_truth] + 1e-12).sum() - np.log(
            sp[rows, suit_truth] + 1e-12).sum()
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def _above(score: float) -> float:
    """A threshold SAFETY log-odds above ``score``, and at least 0.5."""
    p = min(max(score, 1e-9), 1 - 1e-9)
    return max(0.5, float(1 / (1 + np.exp(-(np.log(p / (1 - p)) + SAFETY)))))


OTHER = 0.3  # one corner may name a card alone only while the other is this unsure
STATION_AGREE_FLOOR = 0.99


@dataclasses.dataclass(frozen=True)
class Scored:
    """A calibration card as the reader sees it: its corners' scores, the two taken
    together, what its middle shows, and the truth."""

    a: CardScores
    b: CardScores
    joint: Together
    middle: Middle
    truth: Card | None

    def wrong(self, named: Card | None, view: str) -> bool:
        """Whether naming ``named`` would stand as a wrong answer in ``view``: the middle,
        which that view's reader weighs the read against (``checks_middle``), does not
        veto it."""
        if named is None or named == self.truth:
            return False
        return not (self.middle.vetoes(named)
                    and checks_middle(self.a, self.b, named, MIDDLE_ALWAYS[view]))


# Wrong reads tolerated among the calibration cards, as a share of them, for the general
# view alone. The real pictures include designs no index reader can read surely (a
# Cyrillic queen, a stylised 9) whose wrong reads at near-certain scores would push the
# threshold to 1.0 and abstain on most real cards; these few are let through, so on
# calibration at most this share is named wrong. The read station tolerates none; nor does
# a second look at a corner far short of sure (``corner_second_low``): most windows scoring
# that low show no index, and the corners' share is spent by the first look and the second
# look just short of sure.
TOLERATED_WRONG = {"card": 0.0005, "station": 0.0, "corner": 0.0005, "corner_second": 0.0005,
                   "corner_second_low": 0.0}


def _worst_tolerated(wrong_scores: list[float], share: float, count: int) -> float:
    """The highest wrong score once the ``share`` × ``count`` highest are let through."""
    ordered = sorted(wrong_scores, reverse=True)[int(share * count):]
    return ordered[0] if ordered else 0.5


def _thresholds(scores: list[Scored], view: str) -> dict[str, float]:
    """Thresholds under which no calibration card is named wrongly in ``view`` (bar the
    ``TOLERATED_WRONG`` share), nor any joker, back or foreign letter named at all,
    SAFETY log-odds clear of the worst wrong score."""
    share, count = TOLERATED_WRONG[view], len(scores)
    supported = [(s, *agreement(s.a, s.b, s.joint)) for s in scores]
    agree_wrong = [score for s, card, score in supported if s.wrong(card, view)]
    agree = _above(_worst_tolerated(agree_wrong, share, count))
    alone = [(s, max((s.a, s.b), key=lambda c: c.score)) for s in scores
             if min(s.a.score, s.b.score) <= OTHER]
    single_wrong = [named.score for s, named in alone if s.wrong(named.card, view)]
    single = max(agree, _above(_worst_tolerated(single_wrong, share, count)))
    return {"agree": agree, "single": single, "other": OTHER}


def _report(view: str, scores: list[Scored], thresholds: dict[str, float]) -> None:
    right = wrong = 0
    for s in scores:
        named, _ = decide(s.a, s.b, s.joint, **thresholds)
        right += named == s.truth
        wrong += s.wrong(named, view)
    n = len(scores)
    print(f"calibration {view}: " + ", ".join(f"{k} {v:.4f}" for k, v in thresholds.items())
          + f"; {n} cards: right {100 * right / n:.2f}%, wrong {wrong}, "
          f"abstain or vetoed {100 * (n - right - wrong) / n:.2f}%", file=sys.stderr)


def _second_looks(reader: CornerReader, temperature: float, cards: list[CalibrationCard]
                  ) -> list[tuple[Card | None, float]]:
    """What a second look (``reading.second_look``) supports on each card, and how surely."""
    looks = len(SECOND_LOOK_SHIFTS)
    logits = reader.logits([w for c in cards for w in second_look_windows(c.image)])
    rank_probs, suit_probs = split_probabilities(logits, temperature)
    out = []
    for i, c in enumerate(cards):
        rows = slice(2 * looks * i, 2 * looks * (i + 1))
        ranks, suits = corner_beliefs(rank_probs[rows], suit_probs[rows], c.letters)
        out.append(second_look(ranks.reshape(looks, 2, -1), suits.reshape(looks, 2, -1)))
    return out


def _second_threshold(reader: CornerReader, temperature: float, cards: list[CalibrationCard],
                      scores: list[Scored]) -> float:
    """The score under which a second look names no abstained calibration card wrongly
    (past its middle's veto), SAFETY log-odds clear of the worst."""
    looks = _second_looks(reader, temperature, cards)
    wrong = [score for s, (card, score) in zip(scores, looks, strict=True)
             if card is not None and card != s.truth and not s.middle.vetoes(card)]
    second = _above(max(wrong, default=0.5))
    right = sum(card == s.truth and score >= second and card is not None
                for s, (card, score) in zip(scores, looks, strict=True))
    print(f"calibration second look: {second:.4f}; of {len(cards)} abstained, "
          f"{right} named right, 0 wrong", file=sys.stderr)
    return second


@dataclasses.dataclass(frozen=True)
class FoundWindow:
    """A window cut as the table view's index finder cuts one, and the card it shows
    (None: no index, so no card may be named)."""

    window: np.ndarray
    card: Card | None


def found_calibration_windows(images: list[RealImage], seed: int = CALIBRATION_SEED
                              ) -> list[FoundWindow]:
    """From each real calibration image, one corner cut as found (in a fan half the time,
    the previous image's card lying over it) and, for a card, one window of its middle
    or of an index upside down."""
    rng = np.random.default_rng([seed, 2])
    out: list[FoundWindow] = []
    neighbour: np.ndarray | None = None
    for image in images:
        [card] = views(image, rng, 1)
        upright = card if rng.random() < 0.5 else cv2.rotate(card, cv2.ROTATE_180)
        out.append(FoundWindow(as_found(upright, card if neighbour is None else neighbour,
                                         rng), image.card))
        if image.card is not None:
            out.append(FoundWindow(_no_index_window(card, rng), None))
        neighbour = card
    return out


# How many times the calibration images are cut as found to calibrate a second look far
# short of sure. Few windows fall in that band (under 500 a draw) and it may name none
# wrongly, so its threshold rests on its worst wrong name alone, which one draw bounds
# poorly: over 20 draws of the shipped net's windows, each draw's worst ranged from 0.85
# to 0.97.
LOW_BAND_DRAWS = 20


def found_calibration_draws(images: list[RealImage], draws: int = LOW_BAND_DRAWS
                            ) -> list[list[FoundWindow]]:
    """``found_calibration_windows`` cut ``draws`` times, each with its own seed; the first
    is the one every other corner threshold is calibrated on."""
    return [found_calibration_windows(images, CALIBRATION_SEED + k) for k in range(draws)]


def _corner_second_thresholds(reader: CornerReader, temperature: float,
                              draws: list[list[FoundWindow]],
                              firsts: list[list[tuple[Card | None, float]]], threshold: float,
                              second_opinion: CornerReader | None = None) -> dict[str, float]:
    """The scores a second look at a corner short of ``threshold`` at its first look
    (``firsts``: each draw's first-look names) must reach, its looks read by this net and by
    its ``second_opinion`` if any, set as the first look's threshold is: ``corner_second``
    for a first look from ``SECOND_LOOK_FROM``, on the first draw of found windows;
    ``corner_second_low`` for one from ``SECOND_LOOK_LOW_FROM`` up to that, on every draw."""
    bands = {"corner_second": (SECOND_LOOK_FROM, threshold, 1),
             "corner_second_low": (SECOND_LOOK_LOW_FROM, SECOND_LOOK_FROM, len(draws))}
    out = {}
    for key, (low, high, chosen) in bands.items():
        found = [f for draw in draws[:chosen] for f in draw]
        first = [named for draw in firsts[:chosen] for named in draw]
        doubtful = [f for f, (_, score) in zip(found, first, strict=True) if low <= score < high]
        looks = [w for f in doubtful for w in corner_looks(f.window)]
        again = second_look_names(*with_second_opinion(
            split_probabilities(reader.logits(looks), temperature), looks, second_opinion), None)
        out[key] = _tolerated_threshold(doubtful, again, key.replace("_", " "),
                                        count=len(found), share=TOLERATED_WRONG[key])
    return out


def add_second_opinion(net: Path, second_opinion: Path, real: RealData) -> None:
    """Name the net at ``second_opinion`` (calibrated, and lying beside ``net``) in the
    calibration of ``net``, whose second look at a corner it then reads too
    (``CornerReader.corner_second_look_probabilities``), and calibrate that second look on
    the two nets' reads together. The net's temperature and every other threshold stay:
    only its second looks at corners read anything new."""
    if second_opinion.resolve().parent != net.resolve().parent:
        raise ValueError(f"{second_opinion}: a second opinion must lie beside {net}")
    if second_opinion.resolve() == net.resolve():
        raise ValueError(f"{net}: a net cannot be its own second opinion")
    reader, other = CornerReader(net), CornerReader(second_opinion)
    calibration = reader.calibration
    draws = found_calibration_draws(real.images(calibration=True))
    firsts = [_found_names(reader, calibration.temperature, [f.window for f in draw])
              for draw in draws]
    data = json.loads(reader.calibration_path.read_text())
    data.update(_corner_second_thresholds(reader, calibration.temperature, draws, firsts,
                                          calibration.corner, other))
    data["second_opinion"] = second_opinion.name
    with written_atomically(reader.calibration_path, overwrite=True) as temp:
        temp.write_text(json.dumps(data, indent=1) + "\n")


def _found_names(reader: CornerReader, temperature: float, windows: list[np.ndarray]
                 ) -> list[tuple[Card | None, float]]:
    return corner_names(*split_probabilities(reader.logits(windows), temperature), None)


def _tolerated_threshold(found: list[FoundWindow], named: list[tuple[Card | None, float]],
                         what: str, count: int | None = None,
                         share: float = TOLERATED_WRONG["corner"]) -> float:
    """SAFETY log-odds above the worst wrong name, bar the tolerated ``share`` of ``count``
    windows (all of ``found`` unless given); reported with what it lets through."""
    wrong = [score for f, (card, score) in zip(found, named, strict=True)
             if card is not None and card != f.card]
    count = len(found) if count is None else count
    threshold = _above(_worst_tolerated(wrong, share, count))
    right = sum(card == f.card and score >= threshold
                for f, (card, score) in zip(found, named, strict=True) if f.card is not None)
    cards = sum(f.card is not None for f in found)
    print(f"calibration {what}: {threshold:.4f}; of {cards} corners with an index, right "
          f"{right}; {len(found) - cards} with none; wrong "
          f"{sum(score >= threshold for score in wrong)}", file=sys.stderr)
    return threshold


def calibrate(path: Path, cards: list[CalibrationCard],
              draws: list[list[FoundWindow]]) -> dict[str, object]:
    """The temperature and each view's thresholds for the net at ``path``: the station's
    from the cards that came through the real station path, the general ones from all;
    one threshold for a second look, from every card its own view abstained on; and the
    corner thresholds from ``draws`` of windows cut as found (``found_calibration_draws``)."""
    reader = CornerReader(path)
    logits = reader.logits([w for c in cards for w in corner_windows(c.image)])
    temperature = _temperature(logits, cards)
    print(f"calibration: temperature {temperature:.2f}", file=sys.stderr)
    rank_probs, suit_probs = split_probabilities(logits, temperature)
    scores: list[Scored] = []
    for i, c in enumerate(cards):
        corners = slice(2 * i, 2 * i + 2)
        ranks, suits = corner_beliefs(rank_probs[corners], suit_probs[corners], c.letters)
        a, b = score_corners(ranks, suits)
        middle = look_at_middle(canonical(c.image), reader.pips)
        scores.append(Scored(a, b, together(ranks, suits), middle, c.card))
    station = [s for s, c in zip(scores, cards, strict=True) if c.station]
    general = _thresholds(scores, "card")
    # One corner read alone is rare at the station, too rare for its own calibration to
    # bound: the threshold for it is at least the one calibrated on all cards.
    own = _thresholds(station, "station")
    # The station's own calibration sees the renderer's tuning styles only, which it reads
    # surely; a design it never saw (a script font) is read wrong at scores far below any
    # tuning card's wrong reads, so its agreement threshold has a floor.
    own["agree"] = max(own["agree"], STATION_AGREE_FLOOR)
    own["single"] = max(own["single"], general["single"])
    abstained = [i for i, (s, c) in enumerate(zip(scores, cards, strict=True))
                 if decide(s.a, s.b, s.joint, **(own if c.station else general))[0] is None]
    second = _second_threshold(reader, temperature, [cards[i] for i in abstained],
                               [scores[i] for i in abstained])
    out: dict[str, object] = {"temperature": temperature}
    for view, chosen, values in (("station", station, own), ("card", scores, general)):
        _report(view, chosen, values)
        out[view] = {**values, "second": second}
    # One corner read alone must reach SAFETY log-odds above the worst wrong name among
    # the found windows, bar the tolerated share; a second look at one short of it, the same.
    firsts = [_found_names(reader, temperature, [f.window for f in draw]) for draw in draws]
    out["corner"] = _tolerated_threshold(draws[0], firsts[0], "corner alone")
    out.update(_corner_second_thresholds(reader, temperature, draws, firsts, out["corner"]))
    return out


def reader_without(style: str, model: Path | None = None) -> CornerReader:
    """A reader that never saw ``style``: the net at ``model`` (trained without it before)
    or one trained now from the other tuning styles (minutes), with pip templates built
    without it too. What a design nobody trained on meets, for the benchmarks."""
    others = tuple(s for s in render.TUNING_STYLES if s != style)
    if model is None:
        model = Path(tempfile.mkdtemp()) / f"without-{style}.onnx"
        build(others, model)
    return CornerReader(model, pips=build_glyph_model(others))


def build(styles: tuple[str, ...], out: Path, cards: int = 20_000, epochs: int = 12,
          calibration: int = 8000, real: RealData | None = None,
          recipe: Recipe = RECIPES["main"]) -> None:
    """Train, export and calibrate a corner net from ``styles`` and ``real`` images, the
    real windows drawn by ``recipe``; writes ``out`` and the calibration beside it."""
    start = time.perf_counter()
    data = training_set(styles, cards)
    print(f"{len(data[0])} corner windows from {', '.join(styles)} in "
          f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    if real is not None:
        real_data = real_training_set(real.images(calibration=False), recipe=recipe)
        data = tuple(np.concatenate(pair) for pair in zip(data, real_data, strict=True))
        print(f"{len(real_data[0])} corner windows from real images at "
              f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    train(data, epochs, out)
    print(f"trained at {time.perf_counter() - start:.0f} s", file=sys.stderr)
    write_calibration(out, styles, calibration, real)
    print(f"wrote {out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)


def write_calibration(net: Path, styles: tuple[str, ...], count: int = 8000,
                      real: RealData | None = None) -> None:
    """Calibrate the net at ``net`` on ``count`` fresh rendered cards and the real
    calibration images; the .json goes beside it."""
    cards = calibration_cards(styles, count)
    draws: list[list[FoundWindow]] = [[]]
    if real is not None:
        cards += real_calibration_cards(real.images(calibration=True))
        draws = found_calibration_draws(real.images(calibration=True))
    values = calibrate(net, cards, draws)
    with written_atomically(net.with_suffix(".json"), overwrite=True) as temp:
        temp.write_text(json.dumps(
            {"styles": list(styles), "real": real is not None,
             "rank_labels": list(RANK_LABELS), "suit_labels": list(SUIT_LABELS), **values},
            indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exclude", action="append", default=[], metavar="STYLE",
                        help="tuning style to leave out (for a leave-one-style-out figure)")
    parser.add_argument("--recipe", choices=sorted(RECIPES), default="main",
                        help="how the real training windows are drawn: the shipped net's, "
                        "or its second opinion's (written to corner_net_second.onnx unless "
                        "--out is given)")
    parser.add_argument("--out", type=Path,
                        help="the .onnx to write; its calibration goes beside it as .json")
    parser.add_argument("--add-second-opinion", type=Path, metavar="NET",
                        help="only name NET (trained with --recipe second-opinion, beside "
                        "--out) in --out's calibration and calibrate its second look at a "
                        "corner on both nets; needs --dataset or --svg")
    parser.add_argument("--cards", type=int, default=20_000, help="training cards (2 corners)")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--calibration", type=int, default=8000, help="calibration cards")
    parser.add_argument("--calibrate-only", action="store_true",
                        help="keep the trained --out net, only calibrate it again")
    parser.add_argument("--dataset", type=Path, metavar="DIR",
                        help="the CC0 cards image dataset (folder holding train/)")
    parser.add_argument("--svg", type=Path, metavar="DIR",
                        help="rasterised SVG decks (made there first when empty)")
    args = parser.parse_args(argv)
    unknown = set(args.exclude) - set(render.TUNING_STYLES)
    if unknown:
        parser.error(f"not tuning styles: {sorted(unknown)}")
    if args.add_second_opinion is not None:
        if args.dataset is None and args.svg is None:
            parser.error("--add-second-opinion calibrates on the real images: give --dataset "
                         "or --svg")
        if not args.add_second_opinion.exists():
            parser.error(f"--add-second-opinion {args.add_second_opinion}: no such file")
    cv2.setNumThreads(2)
    styles = tuple(s for s in render.TUNING_STYLES if s not in args.exclude)
    if args.svg is not None and not any(args.svg.glob("*/*.png")):
        for name, written in rasterise_all(args.svg):
            print(f"{name}: {written} images", file=sys.stderr)
    real = (RealData(args.dataset, args.svg)
            if args.dataset is not None or args.svg is not None else None)
    out = args.out or (SECOND_OPINION_PATH if args.recipe == "second-opinion" else NET_PATH)
    if args.add_second_opinion is not None:
        try:
            add_second_opinion(out, args.add_second_opinion, real)
        except ValueError as err:
            parser.error(str(err))
    elif args.calibrate_only:
        write_calibration(out, styles, args.calibration, real)
    else:
        build(styles, out, args.cards, args.epochs, args.calibration, real,
              RECIPES[args.recipe])
    return 0


if __name__ == "__main__":
    sys.exit(main())
