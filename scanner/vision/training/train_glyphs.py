"""Build the shipped glyph model from rendered cards of the tuning styles only.

    python -m scanner.vision.training.train_glyphs [--out PATH] [--check]

Every template comes through the same path a real frame takes (station frame → locate →
rectify → corner index → glyph crop), under mild camera perturbations, from the tuning
styles drawn with each of the English, French, German and Dutch letter sets and both ten
glyphs. Junk templates (joker letters, back motifs, stray letters) teach the model what is
no index. The two trust thresholds are then calibrated on a fresh, harsher set of tuning
frames so that no glyph there is accepted wrongly. Held-out styles are never touched.
Deterministic; about a minute on one CPU core.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from ...cards import ALL_CARDS, Card, Rank, Suit
from ..glyphs import DEFAULT_MODEL_PATH, THRESHOLD_KINDS, GlyphModel, MatchThresholds, meanings
from ..index import CANONICAL_SIZE, canonical, glyph_feature, read_corners, suits_ruled_out
from ..pips import Pip, centre_pips
from ..station import station_card
from ..synthetic import render
from ..synthetic.perturb import perturb_defocus, perturb_motion

TRAIN_SEED = 31_000
CALIBRATION_SEED = 52_000
LETTER_SETS = ("english", "french", "german", "dutch")
LETTER_RANKS = (Rank.A, Rank.K, Rank.Q, Rank.J, Rank.T)
JUNK_TEXT = ("E", "N", "X", "*", "Z")  # no O or S: too close to Q and 5
TRAIN_STRENGTH = 0.6
NEAR_DUPLICATE = 0.975
TABLE_HEIGHT = (150, 230)  # px: a card in a phone photo of the table
SAFETY = 1.3  # calibrated margin threshold = worst wrong margin seen × SAFETY


@dataclasses.dataclass(frozen=True)
class Sample:
    style: render.DeckStyle
    card: Card | None
    back: str | None
    seed: int
    levels: dict[str, float]


def training_samples(styles: tuple[str, ...], seed: int, strength: float) -> Iterator[Sample]:
    rng = np.random.default_rng(seed)
    for name in styles:
        base = render.STYLES[name]
        for _rep in range(2):
            for card in ALL_CARDS:
                yield Sample(base, card, None, int(rng.integers(1 << 30)),
                             render.random_levels(rng, strength))
        for letters in LETTER_SETS:
            for ten in ("10", "T"):
                variant = dataclasses.replace(base, letters=letters, ten=ten)
                for card in ALL_CARDS:
                    if card.rank in LETTER_RANKS:
                        yield Sample(variant, card, None, int(rng.integers(1 << 30)),
                                     render.random_levels(rng, strength))
        yield Sample(base, None, None, int(rng.integers(1 << 30)), {})
        for back in render.BACKS:
            yield Sample(base, None, back, int(rng.integers(1 << 30)),
                         render.random_levels(rng, strength))


def station_frame(sample: Sample, upside_down: bool | None = False) -> np.ndarray:
    return render.render_station_frame(sample.card, sample.style, seed=sample.seed,
                                       back=sample.back, perturb=sample.levels,
                                       upside_down=upside_down)


COURT_PIP_AT = (0.5, 0.533)  # where render puts the pip in a court card's picture
COURT_LETTERS_AT = (0.295, 0.705)  # and the rows of its big letters
NEAR = 0.05  # a shape this close (in card widths/heights) is the one drawn there


def labelled_pips(card: np.ndarray, truth: Card, style: render.DeckStyle
                  ) -> Iterator[tuple[Pip, str]]:
    """Middle pips of a rendered card. A court card's picture holds one pip; the other
    shapes there are its big rank letters, which are rank glyphs, not junk."""
    pips = centre_pips(card)
    if truth.rank in render.COURT_RANKS:
        for shape in pips:
            x, y = shape.centre
            if np.hypot(x - COURT_PIP_AT[0], y - COURT_PIP_AT[1]) < NEAR:
                yield shape, f"p:{truth.suit.value}"
            elif any(abs(y - at) < NEAR for at in COURT_LETTERS_AT):
                yield shape, f"r:{style.glyph(truth.rank)}"
        return
    for pip in pips:
        yield pip, f"p:{truth.suit.value}"


def table_look(sample: Sample, rng: np.random.Generator) -> np.ndarray:
    """The card as the table view gets it: 150–230 px tall in a photo, shaken or out of
    focus, rectified up to the canonical size. Its pips are blurred far past the read
    station's, and the middle must still know their suit."""
    face = render.render_face(sample.card, sample.style, seed=sample.seed)
    height = rng.uniform(*TABLE_HEIGHT)
    width = round(face.shape[1] * height / face.shape[0])
    small = cv2.resize(face, (width, round(height)), interpolation=cv2.INTER_AREA)
    blur = perturb_motion if rng.random() < 0.5 else perturb_defocus
    return cv2.resize(blur(small, rng, rng.uniform(0.4, 1.0)), CANONICAL_SIZE,
                      interpolation=cv2.INTER_LINEAR)


def _labelled_glyphs(sample: Sample) -> Iterator[tuple[np.ndarray, str]]:
    card = station_card(station_frame(sample))
    if card is None:
        return
    for corner in read_corners(card):
        if sample.back is not None:
            for feature in (corner.rank, corner.suit):
                if feature is not None:
                    yield feature, "x:junk"
        elif sample.card is None:
            if corner.suit is not None:  # the O under a joker's J
                yield corner.suit, "x:junk"
        elif corner.clean and corner.rank is not None and corner.suit is not None:
            yield corner.rank, f"r:{sample.style.glyph(sample.card.rank)}"
            yield corner.suit, f"s:{sample.card.suit.value}"
    if sample.card is not None and sample.back is None:
        look = table_look(sample, np.random.default_rng(sample.seed))
        for cut in (canonical(card), look):
            for pip, label in labelled_pips(cut, sample.card, sample.style):
                yield pip.features[0], label


def _junk_letters(styles: tuple[str, ...]) -> Iterator[tuple[np.ndarray, str]]:
    for name in styles:
        st = render.STYLES[name]
        for text in JUNK_TEXT:
            mask = render.text_mask(text, st.font, 40, st.stroke_mm * 6)
            yield glyph_feature((mask > 0.5).astype(np.uint8) * 255), "x:junk"


def _prune(features: np.ndarray, labels: list[str]) -> tuple[np.ndarray, list[str]]:
    """Drop templates nearly identical to one already kept with the same label."""
    keep: list[int] = []
    by_label: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        kept = by_label.setdefault(label, [])
        if kept and float(np.max(features[kept] @ features[i])) >= NEAR_DUPLICATE:
            continue
        kept.append(i)
        keep.append(i)
    return features[keep], [labels[i] for i in keep]


def collect_templates(styles: tuple[str, ...]) -> tuple[np.ndarray, list[str]]:
    features: list[np.ndarray] = []
    labels: list[str] = []
    for sample in training_samples(styles, TRAIN_SEED, TRAIN_STRENGTH):
        for feature, label in _labelled_glyphs(sample):
            features.append(feature)
            labels.append(label)
    for feature, label in _junk_letters(styles):
        features.append(feature)
        labels.append(label)
    return _prune(np.array(features, np.float32), labels)


Look = tuple[str, tuple[np.ndarray, ...], Rank | Suit, str, frozenset]


def _calibration_looks(styles: tuple[str, ...], count: int) -> Iterator[Look]:
    """(threshold kind, feature(s), truth, letters, ruled-out suits) from fresh, harsher
    frames, cards both ways up."""
    rng = np.random.default_rng(CALIBRATION_SEED)
    for i in range(count):
        style = render.STYLES[styles[i % len(styles)]]
        letters = LETTER_SETS[int(rng.integers(len(LETTER_SETS)))]
        style = dataclasses.replace(style, letters=letters)
        card = ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]
        sample = Sample(style, card, None, int(rng.integers(1 << 30)),
                        render.random_levels(rng, 1.0))
        rectified = station_card(station_frame(sample, upside_down=None))
        if rectified is None:
            continue
        ruled_out = frozenset()
        for corner in read_corners(rectified):
            if corner.clean and corner.rank is not None and corner.suit is not None:
                ruled_out = suits_ruled_out(corner.suit_ink)
                yield "rank", (corner.rank,), card.rank, letters, frozenset()
                yield "suit", (corner.suit,), card.suit, letters, ruled_out
        for pip in centre_pips(canonical(rectified)):
            yield "pip", pip.features, card.suit, letters, ruled_out
        for pip in centre_pips(table_look(sample, rng)):
            yield "pip", pip.features, card.suit, letters, frozenset()


def _thresholds(right_sims: list[float], wrong: list[tuple[float, float]], kind: str
                ) -> MatchThresholds:
    min_sim = float(np.percentile(right_sims, 0.5)) if right_sims else 0.9
    worst = max((m for s, m in wrong if s >= min_sim), default=0.02)
    print(f"calibration {kind}: {len(right_sims)} right, {len(wrong)} wrong at the top; "
          f"min similarity {min_sim:.3f}, min margin {worst * SAFETY:.3f}", file=sys.stderr)
    return MatchThresholds(min_sim, max(worst * SAFETY, 0.02))


def calibrate(features: np.ndarray, labels: list[str], looks: list[Look]) -> GlyphModel:
    """Choose each kind's similarity and margin thresholds so that no calibration glyph is
    misread. A pip seen both ways up counts in its better-matching orientation."""
    model = GlyphModel.from_arrays(features, labels,
                                   {k: MatchThresholds(0.0, 0.0) for k in THRESHOLD_KINDS})
    right: dict[str, list[float]] = {k: [] for k in THRESHOLD_KINDS}
    wrong: dict[str, list[tuple[float, float]]] = {k: [] for k in THRESHOLD_KINDS}
    for kind, candidates, truth, letters, excluded in looks:
        ranked = max((model.best_by_meaning(f, letters, excluded) for f in candidates),
                     key=lambda r: r[0][1])
        (meaning, sim), runner_up = ranked[0], ranked[1][1]
        if meaning == truth:
            right[kind].append(sim)
        elif isinstance(meaning, type(truth)):  # a suit read as a rank is no answer at all
            wrong[kind].append((sim, sim - runner_up))
    return GlyphModel.from_arrays(features, labels, {
        kind: _thresholds(right[kind], wrong[kind], kind) for kind in THRESHOLD_KINDS})


def build(styles: tuple[str, ...] = render.TUNING_STYLES, calibration_frames: int = 1200
          ) -> GlyphModel:
    features, labels = collect_templates(styles)
    meanings(tuple(sorted(set(labels))), None)  # every label must have a known meaning
    print(f"{len(labels)} templates from styles {', '.join(styles)}", file=sys.stderr)
    return calibrate(features, labels, list(_calibration_looks(styles, calibration_frames)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL_PATH)
    args = parser.parse_args(argv)
    model = build()
    model.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
