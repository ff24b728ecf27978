"""Tell a card back's motif from an index, in a corner window the table view cut out.

Where card backs lie close to the camera, the diamonds of a lattice back are as big as an
index's glyphs, and two of them, one over the other, pass for a rank over its suit: a
photo of a poker table cut to a third of its size had its red lattice backs named as
hearts and diamonds at up to 0.998. The corner net reads indices; it never learnt what a
back's motif looks like from a glyph's distance. Printed text beside a deal (a score
sheet, a hand record, a receipt) is the same trouble: a letter over the one in the next
line, or a line of print seen on its side, is two glyphs one over the other, and real
receipts had digits and letters named as clubs. A second, small net does only that: it
says how likely a window is cut from a back's repeating motif or from print rather than
from an index, and a window it is sure of (``MotifReader.threshold``) names no card.

The net and its threshold are built by ``python -m scanner.vision.training.train_motifs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from .corner_net import net_input
from .thresholded_net import ThresholdedNet

MOTIF_PATH = Path(__file__).with_name("motif_net.onnx")
BATCH = 1024  # windows the net reads at once


class MotifReader(ThresholdedNet):
    """A trained motif net (``.onnx``) and its threshold (in the ``.json`` beside it): the
    probability of a motif at which a window names no card."""

    def __init__(self, path: Path = MOTIF_PATH) -> None:
        super().__init__(path, "train_motifs")

    def probabilities(self, windows: Sequence[np.ndarray]) -> np.ndarray:
        """Per corner window, how likely it is cut from a back's motif, not an index."""
        if not windows:
            return np.empty(0, np.float32)
        parts = []
        for start in range(0, len(windows), BATCH):
            self.net.setInput(net_input(windows[start:start + BATCH]))
            logits = np.array(self.net.forward(), np.float32).reshape(-1, 2)
            z = np.exp(logits - logits.max(axis=1, keepdims=True))
            parts.append(z[:, 1] / z.sum(axis=1))
        return np.concatenate(parts)

    def motifs(self, windows: Sequence[np.ndarray]) -> np.ndarray:
        """Per corner window, whether it is surely cut from a back's motif."""
        return self.probabilities(windows) >= self.threshold


@cache
def default_motif_reader() -> MotifReader:
    """The shipped motif net, loaded once."""
    return MotifReader()
