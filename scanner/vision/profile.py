"""Deck profiles: the index glyphs of one deck design, learnt from one pass of a sorted deck.

Like the learn mode of commercial dealing machines, ``learn`` watches one deck go past the
read station in a stated order (``learn_order``) and keeps each card's rank and suit glyphs
from both corners, labelled with what they must mean. Before it keeps them it checks that
the deck really came in that order: every card's rank glyph must look most like the same
rank learnt from the other suits. A profile is a small ``.npz`` file; any reader given it
reads that design, whatever its letters or font.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..cards import Card, DeckSpec, Rank
from .glyphs import GlyphModel, MatchThresholds, agreed, default_model
from .index import FEATURE_SIZE, canonical, read_corners, suits_ruled_out
from .pips import centre_pips, pip_matches

PROFILE_FORMAT = 1
LEARN_BLUR = (1.2, 2.0)  # Gaussian sigmas, in canonical pixels, of the extra looks per card
# A profile holds a few templates per glyph, not thousands: it must match more closely.
PROFILE_MIN_SIMILARITY = 0.92
LEARNT_PREFIXES = ("rank:", "suit:")  # the shipped junk templates are added at load time
COURTS = (Rank.K, Rank.Q, Rank.J)  # their picture holds letters and art besides the pip


class ProfileError(ValueError):
    """A profile that cannot be learnt or used; the message names the file or the card."""


@dataclass(frozen=True)
class DeckProfile:
    """A learnt deck design: its glyph templates, ready to read with."""

    deck: str
    model: GlyphModel

    def read(self, card: np.ndarray, letters: str | None) -> tuple[Card | None, float]:
        """The card on a canonical card image by this deck's glyphs, with a confidence;
        None when the corners do not read clearly and agree."""
        return _read_face(card, self.model, letters)

    def save(self, path: Path) -> None:
        labels = self.model.template_labels()
        learnt = [i for i, label in enumerate(labels) if label.startswith(LEARNT_PREFIXES)]
        with Path(path).open("wb") as fh:
            np.savez_compressed(
                fh, format=np.array(PROFILE_FORMAT), deck=np.array(self.deck),
                features=self.model.features[learnt].astype(np.float16),
                labels=np.array([labels[i] for i in learnt]))


def learn_order(deck: DeckSpec) -> list[Card]:
    """The order ``learn`` expects: suits ♠ ♥ ♦ ♣, within a suit A K Q J 10 9 … 2 (bridge) or
    A A 10 10 K K Q Q J J 9 9 (pinochle: both copies of a card one after the other)."""
    return deck.cards()


def _profile_model(features: np.ndarray, labels: list[str]) -> GlyphModel:
    """Learnt templates plus the shipped junk templates, trusted like the shipped model."""
    base = default_model()
    junk = [i for i, label in enumerate(base.template_labels()) if label == "x:junk"]
    thresholds = {kind: MatchThresholds(max(t.min_similarity, PROFILE_MIN_SIMILARITY), t.min_margin)
                  for kind, t in base.thresholds.items()}
    return GlyphModel.from_arrays(np.vstack([features, base.features[junk]]),
                                  labels + ["x:junk"] * len(junk), thresholds)


def load_profile(path: str | Path) -> DeckProfile:
    """Read a profile file; ProfileError names the file and the problem."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            version = int(data["format"])
            deck = str(data["deck"])
            features = data["features"].astype(np.float32)
            labels = [str(x) for x in data["labels"]]
    except FileNotFoundError:
        raise ProfileError(f"profile {path}: no such file") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise ProfileError(f"profile {path}: not a tablescan deck profile ({exc})") from None
    if version != PROFILE_FORMAT:
        raise ProfileError(f"profile {path}: format {version}, this reader knows "
                           f"{PROFILE_FORMAT}")
    if features.ndim != 2 or features.shape[1] != FEATURE_SIZE or len(labels) != len(features):
        raise ProfileError(f"profile {path}: templates have shape {features.shape} for "
                           f"{len(labels)} labels; expected (n, {FEATURE_SIZE})")
    bad = sorted({lb for lb in labels if not lb.startswith(LEARNT_PREFIXES)})
    if bad:
        raise ProfileError(f"profile {path}: unknown template labels {bad}")
    return DeckProfile(deck, _profile_model(features, labels))


def _pips(card_img: np.ndarray) -> list[np.ndarray]:
    """The middle pips whose way up is certain (those away from the middle row)."""
    return [p.features[0] for look in _looks(card_img) for p in centre_pips(look)
            if len(p.features) == 1]


def _looks(card_img: np.ndarray) -> list[np.ndarray]:
    """The learnt card as seen, and as a slightly defocused camera would see it: one sharp
    pass must also cover the blur of later deals."""
    card = canonical(card_img)
    return [card, *(cv2.GaussianBlur(card, (0, 0), sigma) for sigma in LEARN_BLUR)]


def _samples(rectified_cards: Iterable[np.ndarray], order: list[Card]
             ) -> Iterator[tuple[int, Card, np.ndarray, np.ndarray, bool]]:
    """(position, card, rank glyph, suit glyph, whether from the sharp look)."""
    for position, (card_img, card) in enumerate(zip(rectified_cards, order, strict=False)):
        found = False
        for n, look in enumerate(_looks(card_img)):
            for corner in read_corners(look):
                if corner.clean and corner.rank is not None and corner.suit is not None:
                    found = found or n == 0
                    yield position, card, corner.rank, corner.suit, n == 0
        if not found:
            raise ProfileError(f"card {position + 1} of the deck (expected {card}): no corner "
                               "index could be cut out; check focus and light, and learn again")


def _check_order(positions: list[int], cards: list[Card], ranks: np.ndarray) -> None:
    """Each rank glyph must look most like the same rank from another card of the deck."""
    sims = ranks @ ranks.T
    pos = np.array(positions)
    sims[pos[:, None] == pos[None, :]] = -2.0  # not against itself or its other corner
    for i in range(len(cards)):
        j = int(np.argmax(sims[i]))
        if cards[j].rank is not cards[i].rank:
            raise ProfileError(
                f"card {positions[i] + 1} of the deck (expected {cards[i]}) has an index that "
                f"looks like the {cards[j].rank.value} of card {positions[j] + 1}: is the deck "
                "sorted in the stated order, with no card missing or doubled?")


def learn(rectified_cards: Iterable[np.ndarray], deck: DeckSpec) -> DeckProfile:
    """A profile from one sorted deck's rectified cards, given in ``learn_order``."""
    cards_in = list(rectified_cards)
    order = learn_order(deck)
    if len(cards_in) != len(order):
        raise ProfileError(f"saw {len(cards_in)} cards, but a sorted {deck.name} deck has "
                           f"{len(order)}; show every card once, in the stated order")
    positions, cards, ranks, suits, sharp = [], [], [], [], []
    for position, card, rank, suit, is_sharp in _samples(cards_in, order):
        positions.append(position)
        cards.append(card)
        ranks.append(rank)
        suits.append(suit)
        sharp.append(is_sharp)
    keep = [i for i, is_sharp in enumerate(sharp) if is_sharp]
    _check_order([positions[i] for i in keep], [cards[i] for i in keep],
                 np.array([ranks[i] for i in keep]))
    pips = [(pip, card) for card_img, card in zip(cards_in, order, strict=True)
            if card.rank not in COURTS for pip in _pips(card_img)]
    labels = ([f"rank:{c.rank.value}" for c in cards] + [f"suit:{c.suit.value}" for c in cards]
              + [f"suit:{c.suit.value}" for _, c in pips])
    features = np.vstack([np.array(ranks), np.array(suits)]
                         + [np.array([p for p, _ in pips])] * bool(pips)).astype(np.float32)
    return DeckProfile(deck.name, _profile_model(features, labels))



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
    rank = agreed(ranks)
    suit = None
    if rank is not None:
        # The large pips in the middle settle a doubtful index pip and check a confident
        # one; they never overrule it: a disagreement means nobody knows.
        suits += pip_matches(card, model, suits_ruled_out(corners[0].suit_ink))
        suit = agreed(suits)
    if rank is None or suit is None:
        if any(m.meaning is not None for m in ranks + suits):
            return None, 0.25
        return None, max(m.confidence for m in ranks + suits)
    return Card(rank.meaning, suit.meaning), min(rank.confidence, suit.confidence)
