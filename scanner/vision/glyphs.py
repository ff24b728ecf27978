"""Nearest-neighbour glyph classifier over normalised index crops.

Templates are glyph feature vectors (see ``index.glyph_feature``) with a label such as
``r:K`` (a king's letter), ``r:V`` (French jack or Dutch queen), ``s:H`` (a heart pip) or
``x:junk`` (ink that is no index: joker letters, back patterns). A label's *meaning* is a
rank, a suit or nothing, and depends on the deck's letter set only for letters that two
countries use differently. A match is trusted only when it is both close to its nearest
template and clearly closer than to any template of a different meaning; the two
thresholds are calibrated by ``train_glyphs`` on tuning styles only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType

import numpy as np

from ..cards import Rank, Suit
from .index import FEATURE_SIZE

DEFAULT_MODEL_PATH = Path(__file__).with_name("glyph_model.npz")

Meaning = Rank | Suit | None

# What each glyph label means whatever the letter set (None: not part of any index).
_BASE_MEANINGS: dict[str, Meaning] = {
    "r:A": Rank.A, "r:K": Rank.K, "r:Q": Rank.Q, "r:J": Rank.J, "r:10": Rank.T, "r:T": Rank.T,
    "r:R": Rank.K, "r:D": Rank.Q, "r:B": Rank.J, "r:H": Rank.K, "r:V": None,
    **{f"r:{r.value}": r for r in Rank if r.value.isdigit()},
    **{f"s:{s.value}": s for s in Suit},
    **{f"p:{s.value}": s for s in Suit},
    "x:junk": None,
}
_LETTER_LABELS = ("r:A", "r:K", "r:Q", "r:J", "r:R", "r:D", "r:V", "r:B", "r:H")
# The court and ace letters of each letter set (reference: card-recognition.md). Given a
# deck's set, the other sets' letters are not candidates at all: an 8 is then never a
# German B, and V is a French jack or a Dutch queen, never both. Unset, every letter is a
# candidate and V, meaning two ranks, abstains.
LETTER_SET_MEANINGS: Mapping[str | None, Mapping[str, Meaning]] = MappingProxyType({
    None: {label: _BASE_MEANINGS[label] for label in _LETTER_LABELS},
    "english": {"r:A": Rank.A, "r:K": Rank.K, "r:Q": Rank.Q, "r:J": Rank.J},
    "french": {"r:A": Rank.A, "r:R": Rank.K, "r:D": Rank.Q, "r:V": Rank.J},
    "german": {"r:A": Rank.A, "r:K": Rank.K, "r:D": Rank.Q, "r:B": Rank.J},
    "dutch": {"r:A": Rank.A, "r:H": Rank.K, "r:V": Rank.Q, "r:B": Rank.J},
})
NOT_IN_SET = "not-in-letter-set"


@cache
def meanings(labels: tuple[str, ...], letters: str | None) -> tuple[Meaning | str, ...]:
    if letters not in LETTER_SET_MEANINGS:
        known = ", ".join(k for k in LETTER_SET_MEANINGS if k)
        raise ValueError(f"unknown index letter set {letters!r}; known: {known}")
    letter_meanings = LETTER_SET_MEANINGS[letters]
    out: list[Meaning | str] = []
    for label in labels:
        if label in _LETTER_LABELS:
            out.append(letter_meanings.get(label, NOT_IN_SET))
        elif label in _BASE_MEANINGS:
            out.append(_BASE_MEANINGS[label])
        else:
            out.append(_meaning_of_learnt(label))
    return tuple(out)


def _meaning_of_learnt(label: str) -> Meaning:
    """Profiles label templates by what they mean (``rank:K``, ``suit:H``)."""
    kind, _, value = label.partition(":")
    if kind == "rank":
        return Rank(value)
    if kind == "suit":
        return Suit(value)
    return None


@dataclass(frozen=True)
class GlyphMatch:
    meaning: Meaning
    similarity: float
    margin: float
    confidence: float


def agreed(matches: list[GlyphMatch]) -> GlyphMatch | None:
    """One meaning from several looks: those that name something must all agree."""
    named = [m for m in matches if m.meaning is not None]
    if not named or len({m.meaning for m in named}) > 1:
        return None
    doubt = float(np.prod([1.0 - m.confidence for m in named]))
    best = max(named, key=lambda m: m.confidence)
    return GlyphMatch(best.meaning, best.similarity, best.margin, 1.0 - doubt)


@dataclass(frozen=True)
class MatchThresholds:
    """A match is trusted from ``min_similarity`` and ``min_margin`` up."""

    min_similarity: float
    min_margin: float


THRESHOLD_KINDS = ("rank", "suit", "pip")  # index rank, index suit, large middle pip


@dataclass(frozen=True)
class GlyphModel:
    """Templates (unit feature vectors) grouped by label, and calibrated trust thresholds per
    kind of glyph (rank, suit)."""

    features: np.ndarray
    labels: tuple[str, ...]
    starts: np.ndarray
    thresholds: Mapping[str, MatchThresholds]
    # The templates as contiguous columns: the product with them runs twice as fast as
    # with the transposed view of ``features``.
    columns: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "columns", np.ascontiguousarray(self.features.T))

    @classmethod
    def from_arrays(cls, features: np.ndarray, labels: list[str],
                    thresholds: Mapping[str, MatchThresholds]) -> GlyphModel:
        order = sorted(range(len(labels)), key=lambda i: labels[i])
        sorted_labels = [labels[i] for i in order]
        names = tuple(sorted(set(labels)))
        starts = np.array([sorted_labels.index(n) for n in names], np.int64)
        feats = np.ascontiguousarray(np.asarray(features, np.float32)[order])
        return cls(feats, names, starts, MappingProxyType(dict(thresholds)))

    def template_labels(self) -> list[str]:
        ends = [*self.starts[1:], len(self.features)]
        return [n for n, a, b in zip(self.labels, self.starts, ends, strict=True)
                for _ in range(b - a)]

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path, features=self.features.astype(np.float16),
            labels=np.array(self.template_labels()),
            thresholds=np.array([[self.thresholds[k].min_similarity, self.thresholds[k].min_margin]
                                 for k in THRESHOLD_KINDS]))

    @classmethod
    def load(cls, path: Path) -> GlyphModel:
        with np.load(path, allow_pickle=False) as data:
            features = data["features"].astype(np.float32)
            if features.ndim != 2 or features.shape[1] != FEATURE_SIZE:
                raise ValueError(f"{path}: glyph templates have shape {features.shape}, "
                                 f"expected (n, {FEATURE_SIZE})")
            labels = [str(x) for x in data["labels"]]
            rows = data["thresholds"].astype(float).tolist()
        if len(labels) != len(features) or len(rows) != len(THRESHOLD_KINDS):
            raise ValueError(f"{path}: {len(labels)} labels for {len(features)} templates, "
                             f"{len(rows)} threshold rows for {len(THRESHOLD_KINDS)}")
        return cls.from_arrays(features, labels, {
            kind: MatchThresholds(*row) for kind, row in zip(THRESHOLD_KINDS, rows, strict=True)})

    def label_similarities(self, features: np.ndarray) -> np.ndarray:
        """For each feature row, the similarity of the closest template of every label."""
        sims = np.atleast_2d(features) @ self.columns
        return np.maximum.reduceat(sims, self.starts, axis=1)

    def rank_meanings(self, label_sims: np.ndarray, letters: str | None,
                      excluded: frozenset[Meaning] = frozenset()
                      ) -> list[tuple[Meaning, float]]:
        """Every meaning but the excluded ones, with its best similarity, best first."""
        names, best, ranked = self._ranked(label_sims, letters, excluded)
        return [(names[j], float(best[0, j])) for j in ranked[0]]

    def best_by_meaning(self, feature: np.ndarray, letters: str | None,
                        excluded: frozenset[Meaning] = frozenset()
                        ) -> list[tuple[Meaning, float]]:
        return self.rank_meanings(self.label_similarities(feature)[0], letters, excluded)

    def decide(self, label_sims: np.ndarray, threshold_kind: str, letters: str | None = None,
               excluded: frozenset[Meaning] = frozenset()) -> GlyphMatch:
        """The meaning of one glyph, with a confidence; ``meaning`` is None when abstaining.

        ``threshold_kind`` is one of ``THRESHOLD_KINDS``; ``excluded`` meanings are ruled
        out by other evidence (a red pip is no spade).
        """
        return self.decide_each(label_sims, threshold_kind, letters, excluded)[0]

    def decide_each(self, label_sims: np.ndarray, threshold_kind: str, letters: str | None = None,
                    excluded: frozenset[Meaning] = frozenset()) -> list[GlyphMatch]:
        """``decide`` for each row of ``label_sims``."""
        kind = Rank if threshold_kind == "rank" else Suit
        names, best, ranked = self._ranked(label_sims, letters, excluded)
        matches = []
        for sims, order in zip(best.tolist(), ranked.tolist(), strict=True):
            meaning, sim = names[order[0]], sims[order[0]]
            margin = sim - (sims[order[1]] if len(order) > 1 else -1.0)
            confidence = self.confidence(threshold_kind, sim, margin)
            if not isinstance(meaning, kind) or confidence < 0.5:
                matches.append(GlyphMatch(None, sim, margin, min(confidence, 0.49)))
            else:
                matches.append(GlyphMatch(meaning, sim, margin, confidence))
        return matches

    def _ranked(self, label_sims: np.ndarray, letters: str | None,
                excluded: frozenset[Meaning]) -> tuple[tuple[Meaning, ...], np.ndarray, np.ndarray]:
        """The meanings in play (``_carriers``); per row of ``label_sims``, each meaning's
        best similarity; and the meanings' order by it, best first, ties in the meanings'
        own order."""
        names, carriers = _carriers(self.labels, letters, excluded)
        best = np.where(carriers, np.atleast_2d(label_sims)[:, None, :], -np.inf).max(axis=2)
        return names, best, np.argsort(-best, axis=1, kind="stable")

    def confidence(self, threshold_kind: str, similarity: float, margin: float) -> float:
        """0.5 exactly at the calibrated thresholds, towards 1 as both are cleared."""
        t = self.thresholds[threshold_kind]
        slack = min((similarity - t.min_similarity) / max(1 - t.min_similarity, 1e-3),
                    (margin - t.min_margin) / max(t.min_margin, 1e-3))
        return float(0.5 + 0.5 * np.tanh(2.0 * slack))


@cache
def _carriers(labels: tuple[str, ...], letters: str | None, excluded: frozenset[Meaning]
              ) -> tuple[tuple[Meaning, ...], np.ndarray]:
    """The meanings the labels carry in this letter set, but the excluded ones, in the
    order the labels first carry them; and for each of them which labels carry it."""
    carried = meanings(labels, letters)
    names = tuple(dict.fromkeys(m for m in carried if m != NOT_IN_SET and m not in excluded))
    return names, np.array([[c == name for c in carried] for name in names], bool).reshape(
        len(names), len(labels))


@cache
def default_model() -> GlyphModel:
    """The shipped model, built by ``python -m scanner.vision.training.train_glyphs``."""
    if not DEFAULT_MODEL_PATH.exists():
        raise FileNotFoundError(
            f"{DEFAULT_MODEL_PATH} is missing; "
            "build it with python -m scanner.vision.training.train_glyphs")
    return GlyphModel.load(DEFAULT_MODEL_PATH)
