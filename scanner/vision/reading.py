"""What a reader says about one card: ``none``, a back (``down``), or a face; and reading
rectified card images into that answer.

Abstain rather than guess: the corner net (``corner_net``) reads both corner indices; a
face is named only when both corners name the same card and the surer one clears a
calibrated score, or when one corner names it with a stricter score and the other names
nothing surely (glare or wear on one index). Anything else is ``Reading("up", None, c)``:
the deal stops and a person looks. A learnt deck profile reads with its own glyphs
instead (``profile.DeckProfile.read``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np

from ..cards import Card, Rank, Suit
from .backside import back_confidence
from .corner_net import NONE, RANK_LABELS, SUIT_LABELS, CornerReader, corner_windows, default_reader
from .glyphs import meanings
from .index import canonical
from .profile import DeckProfile

Face = Literal["up", "down", "none"]
THRESHOLD = 0.5  # a reading's confidence at or above this names a card
_SUITS = tuple(Suit(s) for s in SUIT_LABELS if s != NONE)


@dataclass(frozen=True)
class Reading:
    """One look at the read station or at one card: ``card`` is None unless surely known."""

    face: Face
    card: Card | None
    confidence: float

    def to_dict(self) -> dict[str, object]:
        return {"face": self.face, "card": str(self.card) if self.card else None,
                "confidence": round(self.confidence, 4)}


@dataclass(frozen=True)
class CardScores:
    """What one corner names (None: nothing, or a letter this deck's set lacks) and how
    sure: the probability of its rank times that of its suit."""

    card: Card | None
    score: float


@cache
def _rank_matrix(letters: str | None) -> tuple[tuple[Rank, ...], np.ndarray]:
    """The ranks the net's glyph labels can mean in this letter set, and a label × rank
    matrix summing the probability of every label that means each rank."""
    labels_meaning = meanings(RANK_LABELS, letters)
    ranks = tuple(r for r in Rank)
    matrix = np.zeros((len(RANK_LABELS), len(ranks)), np.float32)
    for i, meaning in enumerate(labels_meaning):
        if isinstance(meaning, Rank):
            matrix[i, ranks.index(meaning)] = 1.0
    return ranks, matrix


def score_corners(rank_probs: np.ndarray, suit_probs: np.ndarray, letters: str | None
                  ) -> list[CardScores]:
    """Per corner (rows of the probabilities), the card it names and its score."""
    ranks, matrix = _rank_matrix(letters)
    rank_mass = rank_probs @ matrix
    out = []
    for r_row, s_row in zip(rank_mass, suit_probs[:, :len(_SUITS)], strict=True):
        r, s = int(np.argmax(r_row)), int(np.argmax(s_row))
        out.append(CardScores(Card(ranks[r], _SUITS[s]), float(r_row[r] * s_row[s])))
    return out


def decide(a: CardScores, b: CardScores, agree: float, single: float, other: float
           ) -> tuple[Card | None, float]:
    """The card both corners name, or one names surely while the other is unsure; else
    None. The confidence is the surer corner's score."""
    sure, unsure = (a, b) if a.score >= b.score else (b, a)
    if sure.card == unsure.card and sure.score >= agree:
        return sure.card, sure.score
    if sure.score >= single and unsure.score <= other:
        return sure.card, sure.score
    return None, sure.score


def _faces(cards: list[np.ndarray], reader: CornerReader, letters: str | None, view: str
           ) -> list[tuple[Card | None, float]]:
    if not cards:
        return []
    rank_probs, suit_probs = reader.probabilities(
        [w for card in cards for w in corner_windows(card)])
    scores = score_corners(rank_probs, suit_probs, letters)
    t = reader.calibration.thresholds[view]
    return [decide(scores[2 * i], scores[2 * i + 1], t.agree, t.single, t.other)
            for i in range(len(cards))]


def read_card_images(card_imgs: Sequence[np.ndarray], profile: DeckProfile | None = None,
                     letters: str | None = None, *, reader: CornerReader | None = None
                     ) -> list[Reading]:
    """Read rectified cards, each upright or upside down, at any size with a card's aspect;
    all the faces' corners go through the net in one pass.

    ``profile`` is a learnt deck profile; without one the shipped corner net reads the
    English, French, German and Dutch letter sets. ``letters`` names the deck's letter
    set where a letter is ambiguous (``V`` is a French jack but a Dutch queen); unset, such
    a letter abstains. ``reader`` replaces the shipped net (for benchmarks).
    """
    return _read(card_imgs, profile, letters, reader, "card")


def read_station_card(card_img: np.ndarray, profile: DeckProfile | None = None,
                      letters: str | None = None, *, reader: CornerReader | None = None
                      ) -> Reading:
    """Read a card the read station found and rectified, trusting the net as calibrated
    on the station's own frames."""
    return _read([card_img], profile, letters, reader, "station")[0]


def _read(card_imgs: Sequence[np.ndarray], profile: DeckProfile | None, letters: str | None,
          reader: CornerReader | None, view: str) -> list[Reading]:
    cards = [canonical(img) for img in card_imgs]
    backs = [back_confidence(card) for card in cards]
    faces = [card for card, back in zip(cards, backs, strict=True) if back < THRESHOLD]
    if profile is not None:
        named = [profile.read(card, letters) for card in faces]
    else:
        meanings(RANK_LABELS, letters)  # an unknown letter set is refused even with no face
        named = _faces(faces, reader or default_reader(), letters, view)
    out, k = [], 0
    for back in backs:
        if back >= THRESHOLD:
            out.append(Reading("down", None, back))
            continue
        card, confidence = named[k]
        k += 1
        if card is None or confidence < THRESHOLD:
            out.append(Reading("up", None, min(confidence, THRESHOLD - 1e-3)))
        else:
            out.append(Reading("up", card, confidence))
    return out


def read_card_image(card_img: np.ndarray, profile: DeckProfile | None = None,
                    letters: str | None = None, *, reader: CornerReader | None = None
                    ) -> Reading:
    """Read one rectified card; as ``read_card_images``."""
    return read_card_images([card_img], profile, letters, reader=reader)[0]
