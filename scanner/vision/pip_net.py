"""Name the suit of a large pip in a card's middle: a small net that learnt real designs.

The middle's pips are the corners' second witness (``middle``). Matched against glyph
templates drawn from the renderer's tuning styles, a pip of any other design was often
named nothing, or the wrong suit: an angular diamond came closer to a blurred club template
than to any diamond. This net learnt the pips of real decks (the SVG decks' and the CC0
dataset's number cards) and of the renderer's tuning styles, and what is no pip (a court
card's big letters). It names a suit only from its calibrated score
(``PipReader.threshold``), at which no calibration pip was named wrongly.

The net and its threshold are built by ``python -m scanner.vision.training.train_pips``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from ..cards import Suit
from .glyphs import GlyphMatch
from .index import in_a_square
from .thresholded_net import ThresholdedNet

PIP_NET_PATH = Path(__file__).with_name("pip_net.onnx")
PIP_SIDE = 24  # the net reads a pip centred in a square this many pixels a side
# The net's outputs, in order: a suit's pip upright, a pip upside down (a diamond looks
# the same either way up), or no pip at all. A pip on the card's middle row may stand
# either way, and a heart upside down is a spade's outline less its stem: the net tells
# the two ways apart rather than guess which way a pip stands.
PIP_SUITS: tuple[Suit, ...] = (Suit.S, Suit.H, Suit.D, Suit.C)
TURNED: tuple[Suit, ...] = (Suit.S, Suit.H, Suit.C)
NO_PIP = len(PIP_SUITS) + len(TURNED)
OUTPUTS = NO_PIP + 1


def pip_input(looks: Sequence[np.ndarray]) -> np.ndarray:
    """N×1×S×S float32: each pip's ink (0..255 coverage) centred in a square, keeping its
    proportions, and shrunk to the net's side, 0 to 1."""
    out = np.zeros((len(looks), 1, PIP_SIDE, PIP_SIDE), np.float32)
    for i, look in enumerate(looks):
        out[i, 0] = in_a_square(look, PIP_SIDE).astype(np.float32) / 255.0
    return out


class PipReader(ThresholdedNet):
    """A trained pip net (``.onnx``) and its threshold (in the ``.json`` beside it): the
    probability of a suit from which a pip is named that suit."""

    def __init__(self, path: Path = PIP_NET_PATH) -> None:
        super().__init__(path, "train_pips")

    def probabilities(self, looks: Sequence[np.ndarray]) -> np.ndarray:
        """Per look at a pip, how likely each of the net's outputs is (N × ``OUTPUTS``)."""
        if not looks:
            return np.empty((0, OUTPUTS), np.float32)
        self.net.setInput(pip_input(looks))
        logits = np.array(self.net.forward(), np.float32).reshape(len(looks), OUTPUTS)
        z = np.exp(logits - logits.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def suit_probabilities(self, pips: Sequence[Sequence[np.ndarray]],
                           excluded: frozenset[Suit] = frozenset()) -> np.ndarray:
        """Per pip, how likely each of ``PIP_SUITS`` is, and anything else (N × 5). A pip
        is given as its looks: one, upright; or two (upright and turned) when its place on
        the card does not tell which way it stands, and then the first is read either way
        up. Suits in ``excluded`` (ruled out by other evidence) are at 0."""
        probs = self.probabilities([pip[0] for pip in pips])
        out = np.zeros((len(pips), len(PIP_SUITS) + 1), np.float32)
        out[:, :len(PIP_SUITS)] = probs[:, :len(PIP_SUITS)]
        either_way = np.array([len(pip) > 1 for pip in pips], bool)
        for k, suit in enumerate(TURNED):
            out[either_way, PIP_SUITS.index(suit)] += probs[either_way, len(PIP_SUITS) + k]
        for suit in excluded:
            out[:, PIP_SUITS.index(suit)] = 0.0
        out[:, -1] = np.clip(1.0 - out[:, :-1].sum(axis=1), 0.0, 1.0)
        return out

    def matches(self, pips: Sequence[Sequence[np.ndarray]],
                excluded: frozenset[Suit] = frozenset()) -> list[GlyphMatch]:
        """What each pip is (``suit_probabilities``), as a glyph match: a suit named from
        the threshold up, at the net's probability, for at the threshold no calibration
        pip was named wrongly; a suit in ``excluded`` is never named."""
        t = self.threshold
        out = []
        for best in self.suit_probabilities(pips, excluded):
            order = np.argsort(-best)
            top, second = float(best[order[0]]), float(best[order[1]])
            if order[0] == len(PIP_SUITS) or top < t:
                out.append(GlyphMatch(None, top, top - second, min(0.49, 0.49 * top / t)))
            else:
                out.append(GlyphMatch(PIP_SUITS[order[0]], top, top - second, top))
        return out


@cache
def default_pip_reader() -> PipReader:
    """The shipped pip net, loaded once."""
    return PipReader()
