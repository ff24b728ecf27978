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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import cv2
import numpy as np

from ..cards import Card, DeckSpec, Rank, Suit
from .glyphs import GlyphModel, MatchThresholds, agreed, default_model
from .index import FEATURE_SIZE, INKS, SUIT_INKS, canonical, read_corners, suits_ruled_out
from .pips import centre_pips, pip_matches

PROFILE_FORMAT = 2  # 2 keeps each suit's inks; a format 1 file is read with the usual ones
LEARN_BLUR = (1.2, 2.0)  # Gaussian sigmas, in canonical pixels, of the extra looks per card
# A profile holds a few templates per glyph, not thousands: it must match more closely.
PROFILE_MIN_SIMILARITY = 0.92
LEARNT_PREFIXES = ("rank:", "suit:")  # the shipped junk templates are added at load time
COURTS = (Rank.K, Rank.Q, Rank.J)  # their picture holds letters and art besides the pip
# The share of a sorted pass whose cards may show no clean index (an ace of spades drawn as
# a picture round its letter, a king whose K touches his robe): their rank and suit are
# learnt from the deck's other cards. More means focus or light is off.
MAX_UNCUT_SHARE = 0.25


class ProfileError(ValueError):
    """A profile that cannot be learnt or used; the message names the file or the card."""


@dataclass(frozen=True)
class DeckProfile:
    """A learnt deck design: its glyph templates, ready to read with."""

    deck: str
    model: GlyphModel
    # The inks each suit's index may be printed in: the usual families and those this deck
    # showed (a four-colour deck's blue spades).
    inks: Mapping[Suit, frozenset[str]] = field(
        default_factory=lambda: MappingProxyType(SUIT_INKS))
    # Cards of the pass whose index could not be cut out or was cut badly: their rank and
    # suit were learnt from the deck's other cards. Told to the user; not kept in the file.
    uncut: tuple[Card, ...] = ()

    def read(self, card: np.ndarray, letters: str | None) -> tuple[Card | None, float]:
        """The card on a canonical card image by this deck's glyphs, with a confidence;
        None when the corners do not read clearly and agree."""
        return _read_face(card, self.model, letters, self.inks)

    def save(self, path: Path) -> None:
        labels = self.model.template_labels()
        learnt = [i for i, label in enumerate(labels) if label.startswith(LEARNT_PREFIXES)]
        with Path(path).open("wb") as fh:
            np.savez_compressed(
                fh, format=np.array(PROFILE_FORMAT), deck=np.array(self.deck),
                features=self.model.features[learnt].astype(np.float16),
                labels=np.array([labels[i] for i in learnt]),
                inks=np.array(sorted(f"{suit.value}:{ink}" for suit, kinds in self.inks.items()
                                     for ink in kinds)))


def _with_inks(seen: Iterable[tuple[Suit, str]]) -> Mapping[Suit, frozenset[str]]:
    """The usual inks of each suit, and those ``seen`` printed for it."""
    inks = {suit: set(kinds) for suit, kinds in SUIT_INKS.items()}
    for suit, ink in seen:
        inks[suit].add(ink)
    return MappingProxyType({suit: frozenset(kinds) for suit, kinds in inks.items()})


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
            inks = [str(x).split(":") for x in data["inks"]] if version >= 2 else []
    except FileNotFoundError:
        raise ProfileError(f"profile {path}: no such file") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise ProfileError(f"profile {path}: not a tablescan deck profile ({exc})") from None
    if not 1 <= version <= PROFILE_FORMAT:
        raise ProfileError(f"profile {path}: format {version}, this reader knows 1 to "
                           f"{PROFILE_FORMAT}")
    bad_inks = sorted(":".join(pair) for pair in inks
                      if len(pair) != 2 or pair[0] not in {s.value for s in Suit}
                      or pair[1] not in INKS)
    if bad_inks:
        raise ProfileError(f"profile {path}: inks {bad_inks} are not SUIT:INK pairs of "
                           f"{', '.join(INKS)}")
    if features.ndim != 2 or features.shape[1] != FEATURE_SIZE or len(labels) != len(features):
        raise ProfileError(f"profile {path}: templates have shape {features.shape} for "
                           f"{len(labels)} labels; expected (n, {FEATURE_SIZE})")
    bad = sorted({lb for lb in labels if not lb.startswith(LEARNT_PREFIXES)})
    if bad:
        raise ProfileError(f"profile {path}: unknown template labels {bad}")
    return DeckProfile(deck, _profile_model(features, labels),
                       _with_inks((Suit(suit), ink) for suit, ink in inks))


def _pips(card_img: np.ndarray) -> list[np.ndarray]:
    """The middle pips whose way up is certain (those away from the middle row)."""
    return [p.features[0] for look in _looks(card_img) for p in centre_pips(look)
            if len(p.looks) == 1]


def _looks(card_img: np.ndarray) -> list[np.ndarray]:
    """The learnt card as seen, and as a slightly defocused camera would see it: one sharp
    pass must also cover the blur of later deals."""
    card = canonical(card_img)
    return [card, *(cv2.GaussianBlur(card, (0, 0), sigma) for sigma in LEARN_BLUR)]


@dataclass(frozen=True)
class _Sample:
    """One corner's glyphs, cut from one look of the card at ``position`` in the pass."""

    position: int
    card: Card
    rank: np.ndarray
    suit: np.ndarray
    ink: str | None
    sharp: bool  # from the card as seen, not a blurred look


def _samples(rectified_cards: Iterable[np.ndarray], order: list[Card]) -> list[_Sample]:
    """The glyphs from every look of each card whose sharp look shows a clean index."""
    samples = []
    for position, (card_img, card) in enumerate(zip(rectified_cards, order, strict=False)):
        looks = [[_Sample(position, card, corner.rank, corner.suit, corner.suit_ink, n == 0)
                  for corner in read_corners(look)
                  if corner.clean and corner.rank is not None and corner.suit is not None]
                 for n, look in enumerate(_looks(card_img))]
        if looks[0]:
            samples += [sample for found in looks for sample in found]
    return samples


def _sorted_glyphs(positions: list[int], cards: list[Card], ranks: np.ndarray,
                   trust: MatchThresholds) -> list[int]:
    """The rank glyphs to learn from, by index; the deck must have come in order.

    Each glyph is held against the deck's other cards, rank by rank: the median of its
    best match with each card of that rank. A glyph like no rank at all, as far as
    ``trust`` goes, was cut badly and is dropped. Two ranks whose glyphs are as like each
    other as like their own (a 6 and a 9 in a thin, even serif) are refused: a profile
    would read them as a coin falls. A card out of place is far more like the cards of
    another rank than its own, and the deck is refused naming it; a glyph only a little
    more like another rank (within ``trust``'s margin) is dropped, as no sign of that."""
    sims = ranks @ ranks.T
    pos = np.array(positions)
    others = sorted(set(positions))
    rank_at = dict(zip(positions, (card.rank for card in cards), strict=True))
    # Per glyph and per other card: its best match among that card's glyphs.
    best = np.stack([sims[:, pos == p].max(axis=1) for p in others], axis=1)
    likeness: dict[int, dict[Rank, float]] = {}
    for i in range(len(cards)):
        by_rank: dict[Rank, list[float]] = {}
        for k, p in enumerate(others):
            if p != positions[i]:
                by_rank.setdefault(rank_at[p], []).append(float(best[i, k]))
        medians = {rank: float(np.median(values)) for rank, values in by_rank.items()}
        if max(medians.values()) >= trust.min_similarity:
            likeness[i] = medians
    _ranks_told_apart(cards, likeness, trust.min_margin)
    kept = []
    for i, medians in likeness.items():
        own = cards[i].rank
        likest = max(medians, key=medians.__getitem__)
        if likest is own or own not in medians:
            kept.append(i)
        elif medians[own] < medians[likest] - trust.min_margin:
            raise ProfileError(
                f"card {positions[i] + 1} of the deck (expected {cards[i]}) has an index that "
                f"looks more like the deck's {likest.value}s than its {own.value}s: is the "
                "deck sorted in the stated order, with no card missing or doubled?")
    return kept


def _ranks_told_apart(cards: list[Card], likeness: dict[int, dict[Rank, float]],
                      margin: float) -> None:
    """Refuse a design two of whose ranks' glyphs, taken together, are as like each other
    as like their own rank's (``likeness``: per glyph, its median match with each rank)."""
    by_rank: dict[Rank, list[int]] = {}
    for i in likeness:
        by_rank.setdefault(cards[i].rank, []).append(i)
    for rank, glyphs in by_rank.items():
        own = float(np.median([likeness[i].get(rank, -1.0) for i in glyphs]))
        for other in by_rank:
            if other is rank:
                continue
            cross = float(np.median([likeness[i].get(other, -1.0) for i in glyphs]))
            if cross >= own - margin:
                raise ProfileError(
                    f"this design's {rank.value}s and {other.value}s look alike to the learner, "
                    "which could not tell them apart; read the deck without a profile")


def learn(rectified_cards: Iterable[np.ndarray], deck: DeckSpec) -> DeckProfile:
    """A profile from one sorted deck's rectified cards, given in ``learn_order``."""
    cards_in = list(rectified_cards)
    order = learn_order(deck)
    if len(cards_in) != len(order):
        raise ProfileError(f"saw {len(cards_in)} cards, but a sorted {deck.name} deck has "
                           f"{len(order)}; show every card once, in the stated order")
    samples = _samples(cards_in, order)
    # The order is checked on the sharp looks: blurred, a thin J can pass for an 8.
    sharp = [s for s in samples if s.sharp]
    kept = _sorted_glyphs([s.position for s in sharp], [s.card for s in sharp],
                          np.array([s.rank for s in sharp]), default_model().thresholds["rank"])
    chosen = [sharp[i] for i in kept]
    positions = {s.position for s in chosen}
    # A card's blurred looks are learnt along with the sharp glyphs kept of it.
    samples = chosen + [s for s in samples if not s.sharp and s.position in positions]
    uncut = sorted(set(range(len(order))) - positions)
    if len(uncut) > MAX_UNCUT_SHARE * len(order):
        raise ProfileError(f"{len(uncut)} cards of the deck show no corner index that could be "
                           f"cut out ({_named(uncut, order)}); check focus and light, and "
                           "learn again")
    cards = [s.card for s in samples]
    missing = _ranks_and_suits(order) - _ranks_and_suits(cards)
    if missing:
        raise ProfileError(f"no index with {' or '.join(sorted(missing))} could be cut out "
                           f"({_named(uncut, order)}); check focus and light, and learn again")
    ranks = [s.rank for s in samples]
    suits = [s.suit for s in samples]
    pips = [(pip, card) for card_img, card in zip(cards_in, order, strict=True)
            if card.rank not in COURTS for pip in _pips(card_img)]
    labels = ([f"rank:{c.rank.value}" for c in cards] + [f"suit:{c.suit.value}" for c in cards]
              + [f"suit:{c.suit.value}" for _, c in pips])
    features = np.vstack([np.array(ranks), np.array(suits)]
                         + [np.array([p for p, _ in pips])] * bool(pips)).astype(np.float32)
    inks = _with_inks((s.card.suit, s.ink) for s in samples if s.ink is not None)
    return DeckProfile(deck.name, _profile_model(features, labels), inks,
                       tuple(order[p] for p in uncut))


def _named(positions: list[int], order: list[Card], most: int = 6) -> str:
    """Cards of the pass by place and name, as a person sorting the deck counts them."""
    named = ", ".join(f"card {p + 1} ({order[p]})" for p in positions[:most])
    return named + (", …" if len(positions) > most else "")


def _ranks_and_suits(cards: Iterable[Card]) -> set[str]:
    """Each rank and suit among ``cards``, as an error names them ("rank Q", "suit S")."""
    return {f"rank {c.rank.value}" for c in cards} | {f"suit {c.suit.value}" for c in cards}


def _read_face(card: np.ndarray, model: GlyphModel, letters: str | None,
               inks: Mapping[Suit, frozenset[str]]
               ) -> tuple[Card | None, float]:
    corners = [c for c in read_corners(card)
               if c.clean and c.rank is not None and c.suit is not None]
    if not corners:
        return None, 0.0
    sims = model.label_similarities(np.array([f for c in corners for f in (c.rank, c.suit)]))
    ranks = [model.decide(sims[2 * i], "rank", letters) for i in range(len(corners))]
    suits = [model.decide(sims[2 * i + 1], "suit", letters, suits_ruled_out(c.suit_ink, inks))
             for i, c in enumerate(corners)]
    rank = agreed(ranks)
    suit = None
    if rank is not None:
        # The large pips in the middle settle a doubtful index pip and check a confident
        # one; they never overrule it: a disagreement means nobody knows.
        suits += pip_matches(card, model, suits_ruled_out(corners[0].suit_ink, inks))
        suit = agreed(suits)
    if rank is None or suit is None:
        if any(m.meaning is not None for m in ranks + suits):
            return None, 0.25
        return None, max(m.confidence for m in ranks + suits)
    return Card(rank.meaning, suit.meaning), min(rank.confidence, suit.confidence)
