"""The shipped corner reader: a small convolutional net that reads a corner index whole.

A canonical card (``index.CANONICAL_SIZE``) carries its index at the top left and, turned
half a turn, at the bottom right. Each corner window is cut out, shrunk to the net's input
and white-balanced against its own paper; the net names the rank glyph it sees (a letter
such as ``V`` or a number; or none) and the suit (or none) in one forward pass through
``cv2.dnn``, for as many windows as are given. What a letter means depends on the deck's
letter set, which the caller applies (``glyphs.LETTER_SET_MEANINGS``).

The net and its calibrated thresholds are built by
``python -m scanner.vision.training.train_corners``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from ..cards import Rank, Suit
from .glyphs import GlyphModel

NET_PATH = Path(__file__).with_name("corner_net.onnx")

# Width, height in canonical pixels: the index and a little around it. Printed decks carry
# a rank and suit reaching down to 30% of the card's height (a standard poker index), so
# the window reaches 31%.
WINDOW = (72, 112)
NET_INPUT = (36, 56)  # width, height the window is shrunk to
NONE = "none"  # no rank glyph / no suit: a blank corner, a joker, a back, foreign ink
# Glyph labels ("r:V" is a French jack or a Dutch queen) as ``glyphs`` names them.
RANK_LABELS: tuple[str, ...] = (
    "r:A", "r:K", "r:Q", "r:J", "r:R", "r:D", "r:V", "r:B", "r:H", "r:10", "r:T",
    *(f"r:{r.value}" for r in Rank if r.value.isdigit()), NONE)
SUIT_LABELS: tuple[str, ...] = (*(s.value for s in Suit), NONE)


def corner_windows(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The top-left window and the bottom-right one turned upright, of a canonical card."""
    w, h = WINDOW
    # cv2.flip rather than a reversed view: net_input stacks the windows, and copying a
    # reversed view costs several times a flip.
    return card[:h, :w], cv2.flip(card[-h:, -w:], -1)


# Where a second look cuts the corner windows, in canonical pixels (x, y) inwards from the
# card's corners: a 3×3 grid about 1% of the card apart, as far as an outline found under
# motion blur is typically off.
SECOND_LOOK_SHIFTS: tuple[tuple[int, int], ...] = tuple(
    (dx, dy) for dy in (-3, 0, 3) for dx in (-3, 0, 3))


def shifted_corner_windows(card: np.ndarray, shift: tuple[int, int]
                           ) -> tuple[np.ndarray, np.ndarray]:
    """``corner_windows`` cut ``shift`` pixels further into the card (negative: beyond its
    edge, where the edge pixels are repeated); both corners alike, as an outline off by a
    little in scale would place them."""
    pad = max(abs(shift[0]), abs(shift[1]))
    return _cut(cv2.copyMakeBorder(card, pad, pad, pad, pad, cv2.BORDER_REPLICATE), pad,
                shift)


def second_look_windows(card: np.ndarray) -> list[np.ndarray]:
    """Both corner windows at every ``SECOND_LOOK_SHIFTS``, look by look, from one padding
    of the card."""
    pad = max(max(abs(dx), abs(dy)) for dx, dy in SECOND_LOOK_SHIFTS)
    padded = cv2.copyMakeBorder(card, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    return [w for shift in SECOND_LOOK_SHIFTS for w in _cut(padded, pad, shift)]


def _cut(padded: np.ndarray, pad: int, shift: tuple[int, int]
         ) -> tuple[np.ndarray, np.ndarray]:
    dx, dy = shift
    w, h = WINDOW
    ch, cw = padded.shape[0] - 2 * pad, padded.shape[1] - 2 * pad
    top, left = pad + dy, pad + dx
    bottom, right = pad + ch - dy, pad + cw - dx
    return (padded[top:top + h, left:left + w],
            cv2.flip(padded[bottom - h:bottom, right - w:right], -1))


def net_input(windows: Sequence[np.ndarray]) -> np.ndarray:
    """N×3×H×W float32: each window shrunk and turned into ink per channel, 0 on its paper
    and about 1 at its darkest, whatever the light's colour and strength."""
    w, h = NET_INPUT
    if not windows:
        return np.empty((0, 3, h, w), np.float32)
    if any(window.shape[:2] != WINDOW[::-1] for window in windows):
        raise ValueError(f"corner windows must be {WINDOW[0]}×{WINDOW[1]} pixels")
    # Stacked top to bottom, the windows shrink in one area resize, and each comes out as
    # its own resize would: the scale is 2 either way, so every window's rows start
    # afresh at a whole output row.
    tall = cv2.resize(np.concatenate(windows), (w, h * len(windows)),
                      interpolation=cv2.INTER_AREA)
    small = tall.reshape(len(windows), h, w, -1).astype(np.float32)
    pixels = small.reshape(len(windows), -1, 3)
    bright = int(0.9 * pixels.shape[1])
    paper = np.partition(pixels, bright, axis=1)[:, bright]
    ink = 1.0 - small / (paper[:, None, None, :] + 1.0)
    depth = ink.reshape(len(windows), -1).max(axis=1).astype(np.float64)
    ink *= (1.0 / np.maximum(depth, 0.25)).astype(np.float32)[:, None, None, None]
    return np.clip(ink, -0.5, 1.0).transpose(0, 3, 1, 2).copy()


BATCH = 1024  # windows the net reads at once
VIEWS = ("station", "card")  # the read station's frames; any rectified card (table, photo)


@dataclass(frozen=True)
class Thresholds:
    """The score a card must reach when the corners support it together (``agree``, on
    their beliefs taken together: ``reading.agreement``) or when only one names it
    (``single``), the other corner then being no surer than ``other`` of anything; and
    the score a second look at an abstained card must reach (``second``; 1.0: none)."""

    agree: float
    single: float
    other: float
    second: float = 1.0


@dataclass(frozen=True)
class Calibration:
    """How far to trust the net: a softmax temperature, and thresholds for each view. The
    read station sees every card alike (size, light, window), so its thresholds are
    calibrated on its own frames; any other card image gets the ``card`` thresholds,
    calibrated on cards of every size and condition; a corner found alone (a fanned hand)
    gets ``corner``, calibrated on windows cut as the index finder cuts them,
    ``corner_second`` for the average of a second look at one just short of it, and
    ``corner_second_low`` for one further short (``indices.SECOND_LOOK_LOW_FROM``)."""

    temperature: float
    thresholds: dict[str, Thresholds]
    corner: float  # the score one index corner, read alone where cards overlap, must reach
    corner_second: float  # what a second look at such a corner must reach
    # The file, beside the calibration, of the net a second look at a corner is also read
    # by (``CornerReader.corner_second_look_probabilities``); None: none.
    second_opinion: str | None = None
    # What a second look at a corner further short must reach; None: none is taken. A
    # calibration without it abstains more, never less, so it is not refused.
    corner_second_low: float | None = None


def _softmax(logits: np.ndarray, temperature: float) -> np.ndarray:
    z = logits / temperature
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


class CornerReader:
    """A trained corner net (``.onnx``) and its calibration (the ``.json`` beside it); and
    what the middle of a card it is unsure of is read with: glyph templates (a
    ``glyphs.GlyphModel``), or None for the shipped pip net."""

    def __init__(self, path: Path = NET_PATH, pips: GlyphModel | None = None) -> None:
        if not path.exists():
            raise FileNotFoundError(
                f"{path} is missing; build it with python -m scanner.vision.training.train_corners")
        self.pips = pips
        # OpenCV 5 runs ONNX on its new engine by default; on this small net the classic
        # engine gives the same logits (within 1e-4) in two thirds of the time.
        self.net = cv2.dnn.readNetFromONNX(str(path), engine=cv2.dnn.ENGINE_CLASSIC)
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        self.calibration_path = path.with_suffix(".json")
        self._calibration: Calibration | None = None
        self._second_opinion: CornerReader | None = None

    @property
    def calibration(self) -> Calibration:
        if self._calibration is None:
            data = json.loads(self.calibration_path.read_text())
            # A calibration from before a field was added (the corner alone, say) is refused
            # by name: guessing the missing threshold would be trusting the net blindly.
            missing = [k for k in ("rank_labels", "suit_labels", "temperature", *VIEWS,
                                   "corner", "corner_second") if k not in data]
            if missing:
                raise ValueError(f"{self.calibration_path}: no {', '.join(missing)}; calibrate "
                                 "the net again (train_corners --calibrate-only)")
            if (tuple(data["rank_labels"]) != RANK_LABELS
                    or tuple(data["suit_labels"]) != SUIT_LABELS):
                raise ValueError(f"{self.calibration_path}: labels do not match this reader's")
            self._calibration = Calibration(float(data["temperature"]), {
                view: Thresholds(**{k: float(v) for k, v in data[view].items()})
                for view in VIEWS}, float(data["corner"]), float(data["corner_second"]),
                self._second_opinion_name(data.get("second_opinion")),
                self._threshold_or_none(data.get("corner_second_low"), "corner_second_low"))
        return self._calibration

    def _second_opinion_name(self, name: object) -> str | None:
        """The calibration's ``second_opinion``: None, or the name of another .onnx file
        beside it; anything else (a path reaching elsewhere, the net itself) is refused."""
        if name is None:
            return None
        if (not isinstance(name, str) or Path(name).name != name or not name.endswith(".onnx")
                or name == self.calibration_path.with_suffix(".onnx").name):
            raise ValueError(f"{self.calibration_path}: second_opinion {name!r} is not the "
                             "name of another .onnx file beside it")
        return name

    def _threshold_or_none(self, value: object, key: str) -> float | None:
        """An optional threshold: None, or a score between 0.5 and 1; anything else (a string,
        a score that would name whatever the net says) is refused."""
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0.5 <= value <= 1:
            raise ValueError(f"{self.calibration_path}: {key} {value!r} is not a score "
                             "between 0.5 and 1")
        return float(value)

    @property
    def second_opinion(self) -> CornerReader | None:
        """The net a second look at a corner is also read by, as the calibration names it
        (its ``corner_second`` was calibrated on the two together); None: none named."""
        name = self.calibration.second_opinion
        if name is None:
            return None
        if self._second_opinion is None:
            path = self.calibration_path.with_name(name)
            if not path.exists():
                raise FileNotFoundError(
                    f"{self.calibration_path}: its second opinion {path} is missing; build it "
                    "with python -m scanner.vision.training.train_corners --recipe "
                    "second-opinion, or calibrate the net again")
            self._second_opinion = CornerReader(path)
        return self._second_opinion

    def logits(self, windows: Sequence[np.ndarray]) -> np.ndarray:
        """N×(ranks + suits) raw outputs of the net for these corner windows."""
        outputs = len(RANK_LABELS) + len(SUIT_LABELS)
        if not windows:
            return np.empty((0, outputs), np.float32)
        # In batches: OpenCV's engine cannot hand back a very large batch's output whole.
        parts = []
        for start in range(0, len(windows), BATCH):
            self.net.setInput(net_input(windows[start:start + BATCH]))
            parts.append(np.array(self.net.forward(), np.float32).reshape(-1, outputs))
        return np.concatenate(parts)

    def probabilities(self, windows: Sequence[np.ndarray], temperature: float | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Per window, the probability of each of ``RANK_LABELS`` and of ``SUIT_LABELS``."""
        return split_probabilities(self.logits(windows), self.calibration.temperature
                                   if temperature is None else temperature)

    def corner_second_look_probabilities(self, windows: Sequence[np.ndarray]
                                         ) -> tuple[np.ndarray, np.ndarray]:
        """``probabilities`` for a second look at a corner found alone (``indices``) that
        this net was unsure of: taken together with its second opinion's, each at its own
        temperature, when one is named (``product_of_experts``). Two nets trained apart
        seldom err alike on the same window, so together they tell a true index from a near
        miss better than more looks through one net do."""
        return with_second_opinion(self.probabilities(windows), windows, self.second_opinion)


def with_second_opinion(beliefs: tuple[np.ndarray, np.ndarray], windows: Sequence[np.ndarray],
                        other: CornerReader | None) -> tuple[np.ndarray, np.ndarray]:
    """``beliefs`` (the rank and the suit probabilities of ``windows``) taken together with
    ``other``'s reads of the same windows (``product_of_experts``); as they are when there
    is no other."""
    if other is None:
        return beliefs
    other_ranks, other_suits = other.probabilities(windows)
    return (product_of_experts(beliefs[0], other_ranks),
            product_of_experts(beliefs[1], other_suits))


def product_of_experts(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Two nets' beliefs over the same labels (rows: windows) taken together: their
    geometric mean, made to sum to one (a product of experts). A label one net all but
    rules out stays low however sure the other is, and doubts the two spread over
    different labels fall away. On the calibration windows of a second look this tells
    right names from wrong ones better than the plain average: 327 of 440 right against
    317, with the same share of wrong ones let through. Beliefs with nothing in common
    come out all 0: no name."""
    both = np.sqrt(p * q)
    return both / np.maximum(both.sum(axis=1, keepdims=True), np.finfo(np.float32).tiny)


def split_probabilities(logits: np.ndarray, temperature: float
                        ) -> tuple[np.ndarray, np.ndarray]:
    k = len(RANK_LABELS)
    return _softmax(logits[:, :k], temperature), _softmax(logits[:, k:], temperature)


@cache
def default_reader() -> CornerReader:
    """The shipped net, loaded once."""
    return CornerReader()
