"""Printed text lying on a table: score sheets, travellers, bidding slips, a page of a book.

A bridge table has paper on it beside the cards, and printed text is full of glyphs placed
as an index's are: a letter beside the next, or over one in the line below, passes for a
rank over its suit, and the corner net named such pairs as cards at up to 0.999. The bench
reads these photos (``vision_real.py --printed``): any card named is print read as an
index.

Each sheet is drawn as SVG text in a typeface of a real family (DejaVu, Liberation and the
URW clones of Times, Helvetica, Century Schoolbook, Bookman and Avant Garde, from Debian's
``fonts-dejavu-core``, ``fonts-liberation2`` and ``fonts-urw-base35``) and rasterised by
``rsvg-convert``, which the SVG decks need too (``svg_decks``).
"""

from __future__ import annotations

import shutil
import subprocess
from xml.sax.saxutils import escape

import cv2
import numpy as np

from ..synthetic import render
from ..synthetic.perturb import IMAGE_PERTURBATIONS, apply_image_perturbations
from .real_cards import table_photo
from .svg_decks import install_debian_packages

DEBIAN_PACKAGES = ("librsvg2-bin", "fonts-dejavu-core", "fonts-liberation2",
                   "fonts-urw-base35")
FAMILIES = ("DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono", "Liberation Sans",
            "Liberation Serif", "Liberation Mono", "Nimbus Sans", "Nimbus Sans Narrow",
            "Nimbus Roman", "Nimbus Mono PS", "C059", "P052", "URW Bookman", "URW Gothic")
SUITS = "♠♥♦♣"
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
WORDS = ("Board", "Dealer", "North", "South", "East", "West", "Vul", "None", "All",
         "N/S", "E/W", "Pairs", "Contract", "By", "Lead", "Tricks", "Score", "Total",
         "Result", "Pass", "Double", "Table", "Round", "Section", "Matchpoints", "Names",
         "Smith", "Jones", "Brown", "Taylor", "Club", "Teams", "Opening", "Made", "Down")
INKS = ((20, 20, 20), (60, 60, 60), (150, 40, 20), (30, 30, 170))  # BGR: black, grey, blue, red
PAPERS = ((245, 245, 245), (225, 240, 250), (250, 240, 225), (200, 245, 250))


def _word(rng: np.random.Generator) -> str:
    """A word of the sheet's kind, or of any letters."""
    if rng.random() < 0.6:
        return str(rng.choice(WORDS))
    letters = "abcdefghijklmnopqrstuvwxyz"
    word = "".join(rng.choice(list(letters), int(rng.integers(2, 10))))
    return word.capitalize() if rng.random() < 0.3 else word


def _call(rng: np.random.Generator) -> str:
    return f"{rng.integers(1, 8)}{rng.choice([*SUITS, 'NT'])}"


def _line(rng: np.random.Generator) -> str:
    """A line of a score sheet, a traveller, a hand record or a page of text."""
    kind = int(rng.integers(5))
    if kind == 0:  # a traveller's row: board, pairs, contract, by, result, score
        return (f"{rng.integers(1, 33)}  {rng.integers(1, 15)}  {rng.integers(1, 15)}  "
                f"{_call(rng)}{rng.choice(['', 'X'])}  {rng.choice(list('NESW'))}  "
                f"{rng.choice(['=', '+1', '-1', '-2'])}  {rng.integers(1, 20) * 10}")
    if kind == 1:  # a hand record: each suit's cards
        return "  ".join(f"{suit} " + " ".join(rng.choice(RANKS, int(rng.integers(1, 6)),
                                                             replace=False))
                         for suit in rng.choice(list(SUITS), 2, replace=False))
    if kind == 2:  # an auction
        return "  ".join(_call(rng) if rng.random() < 0.6 else "Pass"
                         for _ in range(int(rng.integers(3, 7))))
    if kind == 3:  # numbers
        return "  ".join(str(rng.integers(-100, 1000)) for _ in range(int(rng.integers(3, 8))))
    return " ".join(_word(rng) for _ in range(int(rng.integers(2, 8))))


def _svg_sheet(rng: np.random.Generator) -> str:
    """A sheet of printed lines as SVG: one typeface, size, ink and paper."""
    width, height = int(rng.integers(500, 1100)), int(rng.integers(400, 1000))
    family = str(rng.choice(FAMILIES))
    size = float(rng.uniform(14, 44))
    weight = "bold" if rng.random() < 0.3 else "normal"
    style = "italic" if rng.random() < 0.1 else "normal"
    b, g, r = PAPERS[int(rng.integers(len(PAPERS)))]
    rows = [f'<rect width="{width}" height="{height}" fill="rgb({r},{g},{b})"/>']
    y = size * rng.uniform(1.0, 2.0)
    while y < height - size * 0.3:
        b, g, r = INKS[int(rng.integers(len(INKS)))] if rng.random() < 0.3 else INKS[0]
        rows.append(f'<text x="{size * rng.uniform(0.3, 3):.1f}" y="{y:.1f}" '
                    f'font-family="{family}" font-size="{size:.1f}" font-weight="{weight}" '
                    f'font-style="{style}" fill="rgb({r},{g},{b})">{escape(_line(rng))}</text>')
        y += size * rng.uniform(1.15, 2.0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
            + "".join(rows) + "</svg>")


def check_tools() -> None:
    """Install rsvg-convert and the typefaces, when missing."""
    install_debian_packages(DEBIAN_PACKAGES, lambda: shutil.which("rsvg-convert") is not None
                            and _have_fonts())


def _have_fonts() -> bool:
    done = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True,
                          check=False)
    return all(family in done.stdout for family in ("DejaVu Sans", "Liberation Sans",
                                                    "Nimbus Roman"))


def sheet(rng: np.random.Generator) -> np.ndarray:
    """A printed sheet (BGR), rasterised."""
    done = subprocess.run(["rsvg-convert"], input=_svg_sheet(rng).encode(),
                          capture_output=True, check=True)
    img = cv2.imdecode(np.frombuffer(done.stdout, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise RuntimeError("rsvg-convert gave no picture for a printed sheet")
    return img


def text_on_a_table(rng: np.random.Generator) -> np.ndarray:
    """A photo of a printed sheet lying on a table (``paper_on_a_table``)."""
    return paper_on_a_table(table_photo(rng), sheet(rng), rng)


def paper_on_a_table(table: np.ndarray, paper: np.ndarray, rng: np.random.Generator
                     ) -> np.ndarray:
    """A photo of ``paper`` (a rendered sheet, or a real receipt's scan) lying on ``table``,
    turned any way and from about half the photo's height to larger than it, under the
    light, blur and noise a photo has."""
    h, w = table.shape[:2]
    ph, pw = paper.shape[:2]
    scale = rng.uniform(0.5, 1.6) * h / ph
    half = np.array([[-pw, -ph], [pw, -ph], [pw, ph], [-pw, ph]], np.float64) * scale / 2
    # Its middle in the middle of the photo: most of the sheet in sight.
    quad = (render.turned(half, rng.uniform(-np.pi, np.pi))
            + rng.uniform((0.25 * w, 0.25 * h), (0.75 * w, 0.75 * h)))
    alpha = np.full((ph, pw), 255, np.uint8)
    frame = render.place_card(table, paper, alpha, quad.astype(np.float32))
    levels = {n: lv for n, lv in render.random_levels(rng).items() if n in IMAGE_PERTURBATIONS}
    return apply_image_perturbations(frame, rng, levels)
