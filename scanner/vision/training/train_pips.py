"""Build the pip net: it names the suit of a large pip in a card's middle, or no pip.

    python -m scanner.vision.training.train_pips --dataset DIR --svg DIR [--calibrate-only]

What it learns from:

- the renderer's tuning styles, at the read station and as the table view sees a card (the
  glyph templates' own samples, ``train_glyphs.training_samples``): a number card's pips
  and a court card's one pip are its suit; a court card's big letters are no pip;
- real designs: the CC0 dataset's train pictures (bar the calibration eighth) and the SVG
  decks (bar the unseen ones), each cut as ``real_cards.views`` cuts it. A number card's
  middle shapes are its suit's pips only when there are exactly as many as its rank
  shows, and an ace's only when it holds one; other cuts teach nothing, since the
  dataset names a card, not what each shape is.

Backs and jokers are left out: a lattice back's motif is a field of diamonds, which the back
check judges, never the middle, and a joker's picture may hold any sign.

The threshold is set on the calibration eighth of the dataset, the SVG decks cut with
other seeds and harsher rendered frames: half way from the surest wrong suit any
calibration pip was given to certainty, so that none of them is named wrongly. Needs torch
(the ``train`` extra); about a quarter of an hour on 2 cores.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from ...cards import ALL_CARDS, Card
from ..index import canonical
from ..middle import PIPS_OF_RANK
from ..pip_net import (
    NO_PIP,
    OUTPUTS,
    PIP_NET_PATH,
    PIP_SIDE,
    PIP_SUITS,
    TURNED,
    PipReader,
    pip_input,
)
from ..pips import centre_pips
from ..station import station_card
from ..synthetic import render
from ..thresholded_net import write_threshold
from .real_cards import RealImage, views
from .train_corners import RealData, conv_blocks, export, fit, thresholded_net_arguments
from .train_glyphs import Sample, labelled_pips, station_frame, table_look, training_samples

TRAIN_SEED = 47_000
CALIBRATION_SEED = 48_000
CALIBRATION_FRAMES = 2400  # rendered frames of the tuning styles, at full strength
VIEWS = {"cc0": 3}  # cuts of each real picture per pass; a deck card is one of 54
DECK_VIEWS = 10
RENDERED_PASSES = 2  # the glyph templates' samples, drawn again with other seeds

# A pip's looks (0..255 ink: upright, or both ways up when its place does not tell) and
# its class.
Labelled = tuple[tuple[np.ndarray, ...], int]


def _class(label: str) -> int:
    """A glyph label's class: ``p:S`` is the spade's, a court card's letter is no pip."""
    if label.startswith("p:"):
        return [s.value for s in PIP_SUITS].index(label[2:])
    return NO_PIP


def rendered_pips(sample: Sample, rng: np.random.Generator, upright: bool
                  ) -> Iterator[Labelled]:
    """The labelled pips of one rendered sample, at the station and on a table; the card
    ``upright``, or either way up."""
    if sample.card is None:
        return  # a back's motif is read by the back check, never by the middle
    card = station_card(station_frame(sample, upside_down=False if upright else None))
    if card is None:
        return
    for cut in (canonical(card), table_look(sample, rng)):
        labelled = [(pip.looks, _class(label))
                    for pip, label in labelled_pips(cut, sample.card, sample.style)]
        pips = [p for p in labelled if p[1] != NO_PIP]
        # A club whose lobes part under the light is three diamonds and a stem, each
        # labelled a club: a number card is learnt from only when it shows its count of
        # shapes, and a court card's pip only when it is one shape.
        if sample.card.rank in PIPS_OF_RANK:
            if not _consistent(sample.card, len(pips)):
                continue
        elif len(pips) != 1:
            labelled = [p for p in labelled if p[1] == NO_PIP]
        yield from labelled


def _consistent(card: Card, shapes: int) -> bool:
    """Whether a real card's middle holds exactly its own pips: a number card's count, or
    an ace's one pip."""
    return card.rank in PIPS_OF_RANK and shapes == PIPS_OF_RANK[card.rank]


def real_pips(image: RealImage, rng: np.random.Generator, count: int) -> Iterator[Labelled]:
    """The labelled pips of ``count`` cuts of one real picture."""
    # A joker's picture may hold anything, suit signs too; a back's motif (a lattice's
    # diamonds are a diamond's pips) is the back check's to judge, not the middle's.
    if image.card is None:
        return
    for cut in views(image, rng, count):
        pips = centre_pips(cut)
        if _consistent(image.card, len(pips)):
            suit = PIP_SUITS.index(image.card.suit)
            yield from ((pip.looks, suit) for pip in pips)


# What the workers cut pips from, set before they fork: a rendered style holds mapping
# proxies, which do not pickle.
_WORK: dict[str, list] = {"samples": [], "images": [], "upright": [True]}


def _rendered_job(job: tuple[int, int, int]) -> list[Labelled]:
    start, stop, seed = job
    rng = np.random.default_rng(seed)
    return [p for sample in _WORK["samples"][start:stop]
            for p in rendered_pips(sample, rng, _WORK["upright"][0])]


def _real_job(job: tuple[int, int, int]) -> list[Labelled]:
    start, stop, seed = job
    rng = np.random.default_rng(seed)
    return [p for image in _WORK["images"][start:stop]
            for p in real_pips(image, rng, VIEWS.get(image.design, DECK_VIEWS))]


def _calibration_samples(count: int) -> Iterator[Sample]:
    """Fresh tuning-style frames at full strength: harsher than the training's."""
    rng = np.random.default_rng(CALIBRATION_SEED)
    styles = render.TUNING_STYLES
    for i in range(count):
        card = ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]
        yield Sample(render.STYLES[styles[i % len(styles)]], card, None,
                     int(rng.integers(1 << 30)), render.random_levels(rng, 1.0))


def gather(samples: list[Sample], images: list[RealImage], seed: int, workers: int,
           upright: bool) -> tuple[list[Labelled], list[Labelled]]:
    """Every labelled pip of the rendered samples (cards ``upright``, or either way up)
    and of the real pictures (either way up, as the table view leaves them)."""
    chunk = 100
    _WORK.update(samples=samples, images=images, upright=[upright])
    jobs_r = [(i, i + chunk, seed + k) for k, i in enumerate(range(0, len(samples), chunk))]
    jobs_i = [(i, i + chunk, seed + 10_000 + k)
              for k, i in enumerate(range(0, len(images), chunk))]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        rendered, real = pool.map(_rendered_job, jobs_r), pool.map(_real_job, jobs_i)
    return [p for part in rendered for p in part], [p for part in real for p in part]


def _turned(klass: int) -> int:
    """The class of a pip of ``klass`` turned upside down."""
    if klass < len(PIP_SUITS) and PIP_SUITS[klass] in TURNED:
        return len(PIP_SUITS) + TURNED.index(PIP_SUITS[klass])
    return klass  # a diamond, or no pip, is the same either way up


def learning_set(rendered: list[Labelled], real: list[Labelled]) -> tuple[np.ndarray, np.ndarray]:
    """Net inputs and classes of the pips whose way up is known, each also turned: every
    rendered one (drawn upright) and the real ones away from the middle row (a real cut may
    be upside down, and a pip on the middle row then is too)."""
    pips = rendered + [p for p in real if len(p[0]) == 1]
    looks = [looks[0] for looks, _ in pips]
    classes = [c for _, c in pips]
    return (pip_input(looks + [cv2.flip(look, -1) for look in looks]),
            np.array(classes + [_turned(c) for c in classes], np.int64))


def _net(nn: object) -> object:
    return nn.Sequential(*conv_blocks(nn, (16, 32, 48), channels=1), nn.Flatten(),
                         nn.Linear(48 * (PIP_SIDE // 8) ** 2, 64), nn.ReLU(), nn.Dropout(0.2),
                         nn.Linear(64, OUTPUTS))


def train(x: np.ndarray, y: np.ndarray, epochs: int, out: Path) -> None:
    """Fit the net, each class weighted by its share, and export it to ONNX at ``out``."""
    import torch
    from torch import nn

    counts = np.bincount(y, minlength=OUTPUTS).astype(np.float32)
    weight = counts.sum() / (OUTPUTS * np.maximum(counts, 1))
    loss_fn = nn.CrossEntropyLoss(weight=torch.from_numpy(weight))

    def batch_loss(logits: object, labels: object) -> tuple[object, object]:
        return loss_fn(logits, labels), (logits.argmax(1) == labels).sum()

    model = _net(nn)
    fit(model, x, (y,), epochs, batch_loss, TRAIN_SEED)
    export(model, out, "pips", (1, PIP_SIDE, PIP_SIDE))


def pip_threshold(probs: np.ndarray, truth: np.ndarray) -> float:
    """Half way from the surest wrong suit given to any pip (``probs``: N × 5, per suit and
    anything else; ``truth``: its suit's place, or 4 for no pip) to certainty, and over
    even odds."""
    suits = probs[:, :len(PIP_SUITS)].copy()
    pips = np.flatnonzero(truth < len(PIP_SUITS))
    suits[pips, truth[pips]] = 0.0
    worst = float(suits.max()) if len(suits) else 0.0
    return min(max(worst + 0.5 * (1.0 - worst), 0.5 + 1e-6), 1.0 - 1e-6)


def calibrate(path: Path, real: RealData, workers: int) -> float:
    """The threshold from the calibration pips, each read as the table reads it
    (``PipReader.suit_probabilities``)."""
    rendered, real_cuts = gather(list(_calibration_samples(CALIBRATION_FRAMES)),
                                 real.images(calibration=True), CALIBRATION_SEED, workers,
                                 upright=False)
    pips = rendered + real_cuts
    truth = np.array([min(c, len(PIP_SUITS)) for _, c in pips], np.int64)
    probs = PipReader(path).suit_probabilities([looks for looks, _ in pips])
    threshold = pip_threshold(probs, truth)
    is_pip = truth < len(PIP_SUITS)
    named = probs[:, :len(PIP_SUITS)].max(axis=1) >= threshold
    print(f"pip threshold {threshold:.6f}: {int((named & is_pip).sum())} of "
          f"{int(is_pip.sum())} calibration pips named (all rightly); "
          f"{int((named & ~is_pip).sum())} of {int((~is_pip).sum())} court letters named a "
          "suit", file=sys.stderr)
    return threshold


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    thresholded_net_arguments(parser, PIP_NET_PATH)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.epochs < 1 or args.workers < 1:
        parser.error("--epochs and --workers must be at least 1")
    for flag, folder in (("--dataset", args.dataset / "train"), ("--svg", args.svg)):
        if not folder.is_dir():
            parser.error(f"{flag}: {folder} is no folder")
    real = RealData(args.dataset, args.svg)
    if not args.calibrate_only:
        samples = [s for k in range(RENDERED_PASSES)
                   for s in training_samples(render.TUNING_STYLES, TRAIN_SEED + k, 0.6)]
        x, y = learning_set(*gather(samples, real.images(calibration=False), TRAIN_SEED,
                                    args.workers, upright=True))
        counts = np.bincount(y, minlength=OUTPUTS)
        names = [*(s.value for s in PIP_SUITS), *(f"{s.value} turned" for s in TURNED), "no pip"]
        print("pips to learn from: " + ", ".join(
            f"{name} {n}" for name, n in zip(names, counts.tolist(), strict=True)),
              file=sys.stderr)
        train(x, y, args.epochs, args.out)
    write_threshold(args.out, calibrate(args.out, real, args.workers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
