"""What a reader says about one card: ``none``, a back (``down``), or a face; and reading a
rectified card image into that answer.

Abstain rather than guess: a face is named only when a corner index reads clearly, and the
other corner, where readable, agrees. Anything else is ``Reading("up", None, c)``: the deal
stops and a person looks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ..cards import Card, Suit
from .backside import back_confidence
from .glyphs import GlyphMatch, GlyphModel, default_model
from .index import canonical, read_corners, suits_ruled_out
from .pips import centre_pips
from .profile import DeckProfile

Face = Literal["up", "down", "none"]
THRESHOLD = 0.5  # a reading's confidence at or above this names a card


@dataclass(frozen=True)
class Reading:
    """One look at the read station or at one card: ``card`` is None unless surely known."""

    face: Face
    card: Card | None
    confidence: float

    def to_dict(self) -> dict[str, object]:
        return {"face": self.face, "card": str(self.card) if self.card else None,
                "confidence": round(self.confidence, 4)}


def _agreed(matches: list[GlyphMatch]) -> GlyphMatch | None:
    """One meaning from several looks: those that name something must all agree."""
    named = [m for m in matches if m.meaning is not None]
    if not named or len({m.meaning for m in named}) > 1:
        return None
    doubt = float(np.prod([1.0 - m.confidence for m in named]))
    best = max(named, key=lambda m: m.confidence)
    return GlyphMatch(best.meaning, best.similarity, best.margin, 1.0 - doubt)


def _pip_matches(card: np.ndarray, model: GlyphModel, excluded: frozenset[Suit]
                 ) -> list[GlyphMatch]:
    """A pip whose way up is unknown counts in the orientation that matches best."""
    pips = centre_pips(card)
    if not pips:
        return []
    sims = model.label_similarities(np.array([f for p in pips for f in p.features]))
    matches, row = [], 0
    for pip in pips:
        looks = [model.decide(sims[row + k], "pip", None, excluded)
                 for k in range(len(pip.features))]
        matches.append(max(looks, key=lambda m: m.similarity))
        row += len(pip.features)
    return matches


def _read_face(card: np.ndarray, model: GlyphModel, letters: str | None
               ) -> tuple[Card | None, float]:
    corners = [c for c in read_corners(card)
               if c.clean and c.rank is not None and c.suit is not None]
    if not corners:
        return None, 0.0
    sims = model.label_similarities(np.array([f for c in corners for f in (c.rank, c.suit)]))
    ranks = [model.decide(sims[2 * i], "rank", letters) for i in range(len(corners))]
    suits = [model.decide(sims[2 * i + 1], "suit", letters, suits_ruled_out(c.suit_ink))
             for i, c in enumerate(corners)]
    rank = _agreed(ranks)
    suit = None
    if rank is not None:
        # The large pips in the middle settle a doubtful index pip and check a confident
        # one; they never overrule it: a disagreement means nobody knows.
        suits += _pip_matches(card, model, suits_ruled_out(corners[0].suit_ink))
        suit = _agreed(suits)
    if rank is None or suit is None:
        if any(m.meaning is not None for m in ranks + suits):
            return None, 0.25
        return None, max(m.confidence for m in ranks + suits)
    return Card(rank.meaning, suit.meaning), min(rank.confidence, suit.confidence)


def read_card_image(card_img: np.ndarray, profile: DeckProfile | None = None,
                    letters: str | None = None) -> Reading:
    """Read a rectified card, upright or upside down, at any size with a card's aspect.

    ``profile`` is a learnt deck profile; without one the shipped model reads the English,
    French, German and Dutch letter sets. ``letters`` names the deck's letter set where a
    letter is ambiguous (``V`` is a French jack but a Dutch queen); unset, such a letter
    abstains.
    """
    card = canonical(card_img)
    back = back_confidence(card)
    if back >= THRESHOLD:
        return Reading("down", None, back)
    model = profile.model if profile is not None else default_model()
    card_read, confidence = _read_face(card, model, letters)
    if card_read is None or confidence < THRESHOLD:
        return Reading("up", None, min(confidence, THRESHOLD - 1e-3))
    return Reading("up", card_read, confidence)


def read_card_images(card_imgs: Sequence[np.ndarray], profile: DeckProfile | None = None,
                     letters: str | None = None) -> list[Reading]:
    """Read several rectified cards (a table view's worth) in one call; as ``read_card_image``
    for each, so a reader that batches its work can do it once for all of them."""
    return [read_card_image(img, profile, letters) for img in card_imgs]
