"""Build the motif net (``motifs``): a back's motif or printed text, or an index, in a window.

What it learns from:

- **motifs**: every window the table view's index finder cuts (``indices.index_windows``)
  from photos of card backs lying on a table, close up and far, overlapping, turned,
  under the usual light, blur and noise. The backs are the rasterised SVG decks' own
  (bar the unseen decks', those kept to calibrate on, and the two that draw cards on the
  back, indices and all) and the renderer's lattices, dots, checks, rings and diamonds in
  any ink, at any period, either way round (a red field with a light lattice, as casino
  backs are, or red lines on white);
- **printed text**: the windows the finder cuts from photos of printed sheets lying on a
  table (``printed_text``: score sheets, travellers, hand records, any words) that the
  corner net names a card on, however unsurely: a letter beside the next, or over one in
  the line below, passes for a rank over its suit;
- **indices**: the corner windows of real faces (the CC0 dataset's training pictures bar
  the calibration ones, and the SVG decks bar the unseen), cut as a card read whole gives
  them and as the finder cuts them in a fan (``train_corners.as_found``), the next card
  over it a face or, a third of the time, a back, and half the time the card before it
  showing on the left.

The threshold is set on the calibration pictures' windows as found that the corner net
names rightly, so that at most ``TOLERATED_VETO`` of those true indices are called a
motif: a window called one names no card, so a threshold too low only abstains more. How
many of the calibration backs' windows, and of printed text's, it catches is reported.
Needs the ``train`` extra; the net runs through ``cv2.dnn``.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import sys
from pathlib import Path

import cv2
import numpy as np

from ..corner_net import NET_INPUT, corner_windows, default_reader, net_input
from ..indices import SECOND_LOOK_LOW_FROM, corner_names, index_windows
from ..motifs import MOTIF_PATH, MotifReader
from ..synthetic import render
from ..synthetic.perturb import IMAGE_PERTURBATIONS, apply_image_perturbations
from ..thresholded_net import write_threshold
from . import printed_text
from .real_cards import UNSEEN_SVG_DECKS, RealImage, load, table_photo, views
from .train_corners import (
    CALIBRATION_SEED,
    RealData,
    as_found,
    conv_blocks,
    export,
    fit,
    found_calibration_draws,
    thresholded_net_arguments,
)

TRAIN_SEED = 71_000
# Backs never learnt from: the unseen decks' (reported as unseen designs), these kept to
# calibrate on (a lattice, a check and a picture), and those that draw whole cards on the
# back, whose indices are true ones.
CALIBRATION_BACKS = ("gnome-atlasnye", "gnome-simplistic", "dondorf")
CARDS_ON_THE_BACK = ("nicu-ornamental", "nicu-white")
MOTIF, INDEX = 1, 0
SCENE_WINDOWS = 12  # windows kept from one photo of backs, drawn at random
NEIGHBOUR_BACK = 1 / 3  # share of index windows cut as found whose fan neighbour is a back
# Share of true indices, cut as found from the calibration pictures, the threshold may
# call a motif: each costs an abstention, never a wrong name. Half what it was before the
# net learnt printed text: a fan's index with a neighbour's beside it is as like print as
# an index gets, and the calibration windows are cut with no neighbour on the left.
TOLERATED_VETO = 0.0005


def back_images(svg: Path, calibration: bool) -> list[RealImage]:
    """The rasterised SVG decks' backs to learn from, or (``calibration``) to calibrate on."""
    out = []
    for path in sorted(svg.glob("*/back.png")):
        deck = path.parent.name
        if deck in UNSEEN_SVG_DECKS or deck in CARDS_ON_THE_BACK:
            continue
        if (deck in CALIBRATION_BACKS) == calibration:
            out.append(RealImage(path, None, True, deck))
    return out


# Ink colours of printed backs (BGR): reds from crimson to pink, blues, greens, black,
# purple, brown; and the light grounds they are printed on.
BACK_INKS = ((40, 40, 170), (80, 40, 220), (110, 60, 235), (150, 70, 30), (90, 40, 20),
             (60, 120, 30), (30, 30, 30), (120, 40, 100), (40, 70, 120))
BACK_GROUNDS = ((235, 240, 245), (250, 250, 250), (215, 235, 245), (240, 240, 230))


def _rendered_back(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One of the renderer's backs in any ink, any period, and half the time the other
    way round: a coloured field with its motif in light lines, as a casino's diamond
    lattice is."""
    back = list(render.BACKS.values())[int(rng.integers(len(render.BACKS)))]
    ink = BACK_INKS[int(rng.integers(len(BACK_INKS)))]
    ground = BACK_GROUNDS[int(rng.integers(len(BACK_GROUNDS)))]
    if rng.random() < 0.5:
        ink, ground = ground, ink
    back = dataclasses.replace(back, ink=ink, ground=ground,
                               period_mm=float(rng.uniform(2.0, 6.0)))
    style = render.TUNING_STYLES[int(rng.integers(len(render.TUNING_STYLES)))]
    return render.render_back(back, style, seed=int(rng.integers(1 << 30))), \
        render.card_alpha(style)


def backs_on_a_table(backs: list[tuple[np.ndarray, np.ndarray]], rng: np.random.Generator
                     ) -> np.ndarray:
    """A photo of ``backs`` lying on a table, overlapping, each turned any way and from
    about a third of the photo's height to larger than it (a hand held close), under the
    light, blur and noise a photo has."""
    frame = table_photo(rng)
    h, w = frame.shape[:2]
    for img, alpha in backs:
        bh, bw = img.shape[:2]
        scale = rng.uniform(0.3, 1.6) * h / bh
        half = np.array([[-bw, -bh], [bw, -bh], [bw, bh], [-bw, bh]], np.float64) * scale / 2
        quad = render.turned(half, rng.uniform(-np.pi, np.pi)) + rng.uniform((0, 0), (w, h))
        frame = render.place_card(frame, img, alpha, quad.astype(np.float32))
    levels = {n: lv for n, lv in render.random_levels(rng).items() if n in IMAGE_PERTURBATIONS}
    return apply_image_perturbations(frame, rng, levels)


def motif_windows(backs: list[RealImage], scenes: int, seed: int, index: int
                  ) -> list[np.ndarray]:
    """Windows the finder cuts from ``scenes`` photos of backs: of ``backs`` (two of one
    design, as a hand's) or, one time in two, the renderer's."""
    rng = np.random.default_rng([seed, index, 2])
    out: list[np.ndarray] = []
    for _ in range(scenes):
        if not backs or rng.random() < 1 / 2:
            chosen = [_rendered_back(rng)] * 2
        else:
            chosen = [load(backs[int(rng.integers(len(backs)))])] * 2
        chosen += [_rendered_back(rng)] * int(rng.integers(2))
        out += _a_photos_worth(index_windows(backs_on_a_table(chosen, rng)), rng)
    return out


def text_windows(scenes: int, seed: int, index: int) -> list[np.ndarray]:
    """Windows the finder cuts from ``scenes`` photos of printed text that the corner net
    names a card on at ``SECOND_LOOK_LOW_FROM`` or more: the only ones the motif net is
    asked about (``indices._motifs``), at most ``SCENE_WINDOWS`` a photo."""
    rng = np.random.default_rng([seed, index, 3])
    reader = default_reader()
    out: list[np.ndarray] = []
    for _ in range(scenes):
        found = index_windows(printed_text.text_on_a_table(rng))
        named = corner_names(*reader.probabilities(found), None) if found else []
        read = [w for w, (card, score) in zip(found, named, strict=True)
                if card is not None and score >= SECOND_LOOK_LOW_FROM]
        out += _a_photos_worth(read, rng)
    return out


def _a_photos_worth(windows: list[np.ndarray], rng: np.random.Generator
                    ) -> list[np.ndarray]:
    """At most ``SCENE_WINDOWS`` of one photo's windows, drawn at random: a busy photo
    does not outweigh the others."""
    return [windows[int(k)] for k in rng.permutation(len(windows))[:SCENE_WINDOWS]]


# Windows cut as found in a fan, per face, and the share of them with the card before it
# showing on the left: a fan's index with a neighbour's beside it is two glyphs side by
# side, as printed text is. Learnt with the next card on the right only, the net called
# the deep-shadow deal's 7C print, the previous card's red 2 at its window's left edge.
FAN_CUTS = 2
UNDER_SHARE = 0.5


def face_windows(faces: list[RealImage], backs: list[RealImage], seed: int, index: int
                     ) -> list[np.ndarray]:
    """Corner windows of real faces: both corners of a view as read whole, and
    ``FAN_CUTS`` cut as found in a fan, the next card a face or a back, and the card
    before it, a face, often showing on the left."""
    rng = np.random.default_rng([seed, index, 1])
    out: list[np.ndarray] = []
    previous: np.ndarray | None = None
    for image in faces:
        [card] = views(image, rng, 1)
        out += corner_windows(card)
        neighbour = card if previous is None else previous
        under = UNDER_SHARE
        if backs and rng.random() < NEIGHBOUR_BACK:
            [neighbour] = views(backs[int(rng.integers(len(backs)))], rng, 1)
            under = 0.0  # a fan's cards lie face up: no back shows beside an index
        for _ in range(FAN_CUTS):
            upright = card if rng.random() < 0.5 else cv2.rotate(card, cv2.ROTATE_180)
            out.append(as_found(upright, neighbour, rng, under_share=under))
        previous = card
    return out


CHUNK = 200  # faces, or scenes, per job


def _job(job: tuple[str, list[RealImage], list[RealImage], int, int, int]
         ) -> tuple[np.ndarray, np.ndarray]:
    kind, faces, backs, scenes, seed, index = job
    cv2.setNumThreads(1)
    if kind == "motif":
        windows, label = motif_windows(backs, scenes, seed, index), MOTIF
    elif kind == "text":
        windows, label = text_windows(scenes, seed, index), MOTIF
    else:
        windows, label = face_windows(faces, backs, seed, index), INDEX
    return net_input(windows).astype(np.float16), np.full(len(windows), label, np.int64)


def windows_and_labels(faces: list[RealImage], backs: list[RealImage], scenes: int,
                       text_scenes: int, seed: int, workers: int = 2
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Net inputs and labels: every face's index windows, ``scenes`` photos' motifs and
    ``text_scenes`` photos' printed text."""
    jobs = [("index", faces[i:i + CHUNK], backs, 0, seed, k)
            for k, i in enumerate(range(0, len(faces), CHUNK))]
    jobs += [("motif", [], backs, min(CHUNK, scenes - i), seed, k)
             for k, i in enumerate(range(0, scenes, CHUNK))]
    jobs += [("text", [], [], min(CHUNK, text_scenes - i), seed, k)
             for k, i in enumerate(range(0, text_scenes, CHUNK))]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        parts = pool.map(_job, jobs)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _net(nn: object) -> object:
    """A net far smaller than the corner net's: it tells two kinds of picture apart."""
    w, h = NET_INPUT
    return nn.Sequential(*conv_blocks(nn, (16, 32, 48)), nn.Flatten(),
                         nn.Linear(48 * (h // 8) * (w // 8), 64), nn.ReLU(), nn.Dropout(0.2),
                         nn.Linear(64, 2))


def train(x: np.ndarray, y: np.ndarray, epochs: int, out: Path, seed: int = TRAIN_SEED
          ) -> None:
    """Fit the net, each kind weighted by its share, and export it to ONNX at ``out``."""
    import torch
    from torch import nn

    counts = np.bincount(y, minlength=2).astype(np.float32)
    loss_fn = nn.CrossEntropyLoss(weight=torch.from_numpy(counts.sum() / (2 * counts)))

    def batch_loss(logits: object, labels: object) -> tuple[object, object]:
        return loss_fn(logits, labels), (logits.argmax(1) == labels).sum()

    model = _net(nn)
    fit(model, x, (y,), epochs, batch_loss, seed)
    export(model, out, "windows")


CALIBRATION_DRAWS = 3  # cuts of the calibration pictures as found
CALIBRATION_SCENES = 600  # photos of the calibration backs, and of printed text


def veto_threshold(p_index: np.ndarray) -> float:
    """The motif probability a window must reach to be called a motif, given how likely
    the net finds each of a set of true indices to be one: half way from the worst index
    not tolerated (``TOLERATED_VETO`` of them may be called one) to certainty, and over
    even odds."""
    ranked = np.sort(np.asarray(p_index, np.float64))
    worst = float(ranked[len(ranked) - 1 - int(TOLERATED_VETO * len(ranked))])
    return min(max(worst + 0.5 * (1 - worst), 0.5 + 1e-6), 1 - 1e-6)


def calibrate(path: Path, real: RealData) -> float:
    """The motif probability over which no more than ``TOLERATED_VETO`` of the
    calibration pictures' true indices, cut as found, fall; reported with the share of
    the calibration backs' windows it catches."""
    reader = MotifReader(path)
    draws = found_calibration_draws(real.images(calibration=True), CALIBRATION_DRAWS)
    found = [f for draw in draws for f in draw if f.card is not None]
    # Only an index the corner net would name, rightly, can be lost to the motif net: a
    # picture cut where its index is not (the dataset's crops of odd designs) cannot.
    named = corner_names(*default_reader().probabilities([f.window for f in found]), None)
    indices = [f.window for f, (card, score) in zip(found, named, strict=True)
               if card == f.card and score >= SECOND_LOOK_LOW_FROM]
    p_index = reader.probabilities(indices)
    threshold = veto_threshold(p_index)
    backs = back_images(real.svg, calibration=True) if real.svg is not None else []
    motifs = motif_windows(backs, CALIBRATION_SCENES, CALIBRATION_SEED, 0)
    caught = float((reader.probabilities(motifs) >= threshold).mean()) if motifs else 0.0
    text = text_windows(CALIBRATION_SCENES, CALIBRATION_SEED, 0)
    read = float((reader.probabilities(text) >= threshold).mean()) if text else 0.0
    print(f"motif threshold {threshold:.6f}: {int((p_index >= threshold).sum())} of "
          f"{len(indices)} true indices called a motif; {100 * caught:.1f}% of "
          f"{len(motifs)} windows of the calibration backs caught, {100 * read:.1f}% of "
          f"{len(text)} windows of printed text the corner net names", file=sys.stderr)
    return threshold


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    thresholded_net_arguments(parser, MOTIF_PATH)
    parser.add_argument("--scenes", type=int, default=4000, help="photos of backs")
    parser.add_argument("--text-scenes", type=int, default=2000,
                        help="photos of printed text")
    args = parser.parse_args(argv)
    if args.scenes < 1 or args.epochs < 1 or args.text_scenes < 0:
        parser.error("--scenes and --epochs must be at least 1, and --text-scenes not below "
                     "0: the net learns motifs from photos of backs, over whole passes")
    if not any(args.svg.glob("*/back.png")):
        parser.error(f"--svg {args.svg}: no rasterised backs (*/back.png) there")
    printed_text.check_tools()
    real = RealData(args.dataset, args.svg)
    if not args.calibrate_only:
        faces = [i for i in real.images(calibration=False) if i.card is not None]
        x, y = windows_and_labels(faces, back_images(args.svg, calibration=False),
                                  args.scenes, args.text_scenes, TRAIN_SEED)
        print(f"{int((y == INDEX).sum())} index windows, {int((y == MOTIF).sum())} motif "
              "and printed text windows", file=sys.stderr)
        train(x, y, args.epochs, args.out)
    write_threshold(args.out, calibrate(args.out, real))
    return 0


if __name__ == "__main__":
    sys.exit(main())
