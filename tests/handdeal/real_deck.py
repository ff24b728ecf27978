"""Real deck art on a table camera's frames: Debian's anglo SVG deck (drawn after a real
pattern), rasterised at test time, laid on a table texture at 1920×1080, the frame of a
1080p webcam about 70 cm above the cloth.

It is real card art, not a photograph: the CC0 photographs of the real-cards issue may not
be committed or read here, so the real design stands in for them, as in
tests/vision/test_real_designs.py. ``gnome-cards-data`` and ``librsvg2-bin`` are
installed by ``.ci/run``.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.cards import Seat
from scanner.handdeal.zones import SeatZones, zones_from_corners
from scanner.vision.synthetic import render
from scanner.vision.training.real_cards import table_surface
from scanner.vision.training.svg_decks import card_ids

DECK = Path("/usr/share/aisleriot/cards/anglo.svgz")
NEEDS_DECK = pytest.mark.skipif(
    shutil.which("rsvg-convert") is None or not DECK.exists(),
    reason="needs Debian's librsvg2-bin and gnome-cards-data (.ci/run installs them)")
FRAME = (1920, 1080)
CARD_HEIGHT = 180  # pixels: a card on the cloth, seen from 70 cm by a 1080p webcam
NOISE = 3  # grey levels of sensor noise, new in every frame


def table_zones() -> SeatZones:
    """Zones marked from the table's corners at the frame's corners."""
    w, h = FRAME
    return zones_from_corners(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32), FRAME)


class RealDeck:
    """Cards of the anglo deck, rasterised once (BGRA, cut to the card)."""

    def __init__(self, folder: Path) -> None:
        self.svg = folder / "anglo.svg"
        self.svg.write_bytes(gzip.decompress(DECK.read_bytes()))
        self.ids = card_ids(self.svg.read_text())
        self._cards: dict[str, np.ndarray] = {}

    def card(self, name: str) -> np.ndarray:
        if name not in self._cards:
            png = subprocess.run(["rsvg-convert", "-i", self.ids[f"{name}.png"], "-z", "1.3",
                                  str(self.svg)], capture_output=True, check=True).stdout
            image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
            ys, xs = np.nonzero(image[..., 3] > 8)
            self._cards[name] = image[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        return self._cards[name]

    def lay(self, photo: np.ndarray, name: str, at: tuple[float, float],
            degrees: float = 0.0) -> np.ndarray:
        """The card face up on ``photo``, its top-left corner at ``at`` before turning it
        ``degrees`` about its centre."""
        bgra = self.card(name)
        h, w = bgra.shape[:2]
        scale = CARD_HEIGHT / h
        half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64) * scale / 2
        a = np.deg2rad(degrees)
        turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        quad = half @ turn.T + np.array(at) + (w * scale / 2, h * scale / 2)
        alpha = bgra[..., 3:4].astype(np.float32) / 255
        flat = (bgra[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
        return render.place_card(photo, flat, bgra[..., 3], quad.astype(np.float32))

    def row(self, photo: np.ndarray, names: list[str], at: tuple[float, float],
            step: float = 0.32) -> np.ndarray:
        """Meld laid in a row, each card over the last, ``step`` of a card's width apart:
        only the index corners of all but the last show."""
        width = CARD_HEIGHT * self.card(names[0]).shape[1] / self.card(names[0]).shape[0]
        for i, name in enumerate(names):
            photo = self.lay(photo, name, (at[0] + i * step * width, at[1]))
        return photo


def empty_table(seed: int) -> np.ndarray:
    w, h = FRAME
    return table_surface(np.random.default_rng(seed), h, w)


def filmed(pictures: list[tuple[np.ndarray, int]], seed: int) -> list[np.ndarray]:
    """Each picture held for its count of frames, with fresh sensor noise in each."""
    rng = np.random.default_rng(seed)
    frames = []
    for picture, count in pictures:
        for _ in range(count):
            noise = rng.integers(-NOISE, NOISE + 1, picture.shape, dtype=np.int16)
            frames.append(np.clip(picture.astype(np.int16) + noise, 0, 255).astype(np.uint8))
    return frames


# Where the zones marked from the table's corners leave room for a row of meld, and for a card
# dealt to a side seat.
MELD_AT = {Seat.S: (700.0, 880.0), Seat.N: (700.0, 20.0)}
SIDE_AT = {Seat.W: (60.0, 450.0), Seat.E: (1740.0, 450.0)}
