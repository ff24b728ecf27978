"""What a reader says about one card: ``none``, a back (``down``), or a face; and reading
rectified card images into that answer.

Abstain rather than guess: the corner net (``corner_net``) reads both corner indices; a
face is named only when both corners lean to the same card and together clear a calibrated
score, or when one corner names it with a stricter score and the other names nothing
surely (glare or wear on one index). A read short of certain, or an abstention, is
weighed against the middle of the card (``middle``): its pips may veto a suit or settle a
doubt the blurred indices left. In a table photo every spade and club is weighed so too,
since blur can make both of a club's indices a sure spade (``MIDDLE_ALWAYS``). A card
still abstained on gets a second look, its corner windows cut at a grid of small shifts
(``second_look``). Anything else is ``Reading("up", None, c)``: the deal stops and a person
looks. A learnt deck profile reads with its own glyphs instead (``profile.DeckProfile.read``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Literal, TypeVar

import numpy as np

from ..cards import Card, Rank, Suit
from .backside import back_confidence
from .corner_net import (
    NONE,
    RANK_LABELS,
    SECOND_LOOK_SHIFTS,
    SUIT_LABELS,
    CornerReader,
    Thresholds,
    corner_windows,
    default_reader,
    second_look_windows,
)
from .glyphs import meanings
from .index import canonical
from .middle import Middle, look_at_middles
from .profile import DeckProfile

Face = Literal["up", "down", "none"]
THRESHOLD = 0.5  # a reading's confidence at or above this names a card
_SUITS = tuple(Suit(s) for s in SUIT_LABELS if s != NONE)
_RANKS = tuple(Rank)


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
def _rank_matrix(letters: str | None) -> np.ndarray:
    """A label × rank matrix summing the probability of every glyph label that means each
    rank (of ``_RANKS``) in this letter set."""
    labels_meaning = meanings(RANK_LABELS, letters)
    matrix = np.zeros((len(RANK_LABELS), len(_RANKS)), np.float32)
    for i, meaning in enumerate(labels_meaning):
        if isinstance(meaning, Rank):
            matrix[i, _RANKS.index(meaning)] = 1.0
    return matrix


def corner_beliefs(rank_probs: np.ndarray, suit_probs: np.ndarray, letters: str | None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Per corner (rows), the probability of each of ``_RANKS`` in this letter set and of
    each suit."""
    return rank_probs @ _rank_matrix(letters), suit_probs[:, :len(_SUITS)]


def score_corners(ranks: np.ndarray, suits: np.ndarray) -> list[CardScores]:
    """Per corner (rows of ``corner_beliefs``), the card it names and its score."""
    out = []
    for r_row, s_row in zip(ranks, suits, strict=True):
        r, s = int(np.argmax(r_row)), int(np.argmax(s_row))
        out.append(CardScores(Card(_RANKS[r], _SUITS[s]), float(r_row[r] * s_row[s])))
    return out


Named = TypeVar("Named")


def _alone(a: Named | None, a_score: float, b: Named | None, b_score: float,
           single: float, other: float) -> tuple[Named | None, float]:
    """What one corner names surely while the other is unsure of anything; else None.
    The confidence is the surer corner's score."""
    (sure, sure_score), (_, unsure_score) = sorted(
        ((a, a_score), (b, b_score)), key=lambda named: named[1], reverse=True)
    if sure_score >= single and unsure_score <= other:
        return sure, sure_score
    return None, sure_score


def _agreement(a: Named | None, a_score: float, b: Named | None, b_score: float,
               agree: float, single: float, other: float) -> tuple[Named | None, float]:
    """What both corners name with the surer at ``agree``, or what one names alone; else
    None. The confidence is the surer corner's score."""
    if a == b and max(a_score, b_score) >= agree:
        return a, max(a_score, b_score)
    return _alone(a, a_score, b, b_score, single, other)


# Each corner's belief, at least, in the card their beliefs together favour, for them to
# be taken together: below it a corner hardly leans to the card, and a joker's or a foreign
# letter's two corners both leaning nowhere would multiply into a sure-looking card.
LEAN = 0.4


@dataclass(frozen=True)
class Together:
    """Two corners' beliefs taken together: the card their product favours, how sure they
    are of it together (the product normalised over the cards), the lesser of the two
    corners' own beliefs in it, and the lesser of their leads of it over no card at all
    (a corner's belief in the card less its belief that it shows no card of this deck: a
    joker, a blank, a letter of another set)."""

    card: Card
    score: float
    lean: float
    lead: float


def together(ranks: np.ndarray, suits: np.ndarray) -> Together:
    """Two corners (rows of ``corner_beliefs``) taken together.

    Two blurred indices that each give a card 0.7 are far surer of it together than
    either alone, because their doubts fall on different cards; and a corner torn between
    a spade and a club is settled by the other corner sure of the club.
    """
    cards = ranks[:, :, None] * suits[:, None, :]
    product = cards[0] * cards[1]
    rank, suit = np.unravel_index(int(product.argmax()), product.shape)
    nothing = 1.0 - cards.sum(axis=(1, 2))
    return Together(Card(_RANKS[rank], _SUITS[suit]),
                    float(product[rank, suit] / max(float(product.sum()), 1e-30)),
                    float(cards[:, rank, suit].min()),
                    float((cards[:, rank, suit] - nothing).min()))


def agreement(a: CardScores, b: CardScores, joint: Together) -> tuple[Card | None, float]:
    """The card two corners support together and how surely: the card their beliefs
    together favour, when each leans to it, and to it more than to no card at all; else the
    card both name, at the surer corner's own score; else none.

    The score of the card taken together is normalised over the cards alone, so two
    corners each a little more sure that they show no card (a foreign letter, each read
    48% as a ten and 52% as nothing) would be sure of the ten together.
    """
    if joint.lean >= LEAN and joint.lead > 0:
        return joint.card, joint.score
    if a.card == b.card:
        return a.card, max(a.score, b.score)
    return None, 0.0


def decide(a: CardScores, b: CardScores, joint: Together, agree: float, single: float,
           other: float) -> tuple[Card | None, float]:
    """The card the corners support together (``agreement``), if that clears ``agree``;
    or the card one corner names surely while the other is unsure of anything; else
    None."""
    card, score = agreement(a, b, joint)
    if card is not None and score >= agree:
        return card, score
    return _alone(a.card, a.score, b.card, b.score, single, other)


# A read with either corner below this score has the middle checked; it is rarely needed
# (most corners score nearly 1), so the look at the middle costs little on average.
CHECK_BELOW = 0.98
# Suits whose every read has the middle checked, by view. A spade's index and a club's
# differ by a pixel or two, and the table view's motion blur can turn a club into a spade
# in both corners at once, each sure (a 7C read as 7S at 1.0 while its middle shows seven
# clubs). The read station's calibration frames show no such read, and its 5 ms budget
# has no room for the middle on every other card.
MIDDLE_ALWAYS: Mapping[str, frozenset[Suit]] = MappingProxyType({
    "station": frozenset(), "card": frozenset({Suit.S, Suit.C})})


def checks_middle(a: CardScores, b: CardScores, named: Card | None,
                  always: frozenset[Suit] = frozenset()) -> bool:
    """Whether a read is weighed against the middle: an abstention, a read short of both
    corners sure, or a card of a suit in ``always``. Two corners each a little unsure can
    be sure together of a wrong card when the same blur or fading misleads both; the
    middle is a witness apart."""
    return named is None or min(a.score, b.score) < CHECK_BELOW or named.suit in always


_SUIT_PLAUSIBLE = 0.2  # the corners' mean belief in a suit the middle settles
# How sure a corner must be of a number card for its middle's pips to settle it: a worn
# 8 read as a 5 at 0.54, over a middle that counted five of its eight pips, was named so.
MIDDLE_SETTLES = 0.9
# As sure when both corners name the card: a second index named alike is a witness a
# single corner lacks.
BOTH_SETTLE = THRESHOLD


def _settled(sure: CardScores, other: CardScores, middle: Middle, t: Thresholds) -> bool:
    """Whether a middle that shows exactly ``sure``'s card settles it: both corners name
    it, or ``sure`` names it surely while the other is unsure of anything or names a card
    the middle rules out."""
    if other.card == sure.card:
        return sure.score >= BOTH_SETTLE
    return sure.score >= MIDDLE_SETTLES and (other.score <= t.other
                                             or middle.rules_out(other.card))


def weigh_the_middle(middle: Middle, named: Card | None, confidence: float,
                     a: CardScores, b: CardScores, ranks: np.ndarray, suits: np.ndarray,
                     t: Thresholds) -> tuple[Card | None, float]:
    """The corners' answer (``named``, None for an abstention) weighed against the middle.

    A named card the middle forbids (``Middle.vetoes``) is not named. An abstention is
    settled when a corner names a number card and the middle shows exactly its pips in its
    suit, while the other corner names it too (``_settled``), is unsure of anything, or
    names a card the middle rules out (an 8 whose other index blurred into a jack, with
    eight pips in the middle); or when the corners agree surely on the rank (``ranks``, rows
    per corner), the middle fits that rank, and the suit it shows for that rank (the lone
    pip of an ace or a court card counts) is one a corner holds likeliest (``suits``):
    corners split between a jack of spades and one of clubs are settled by the jack's pip.
    """
    if named is not None:
        if middle.vetoes(named):
            return None, min(confidence, THRESHOLD - 1e-3)
        return named, confidence
    if middle.suit is None and middle.lone_suit is None:
        return None, confidence
    for sure, other in sorted(((a, b), (b, a)), key=lambda pair: pair[0].score, reverse=True):
        if middle.shows(sure.card) and _settled(sure, other, middle, t):
            return sure.card, sure.score
    best = ranks.argmax(axis=1)
    rank, rank_score = _agreement(int(best[0]), float(ranks[0, best[0]]),
                                  int(best[1]), float(ranks[1, best[1]]),
                                  t.agree, t.single, t.other)
    if rank is None or not middle.fits(_RANKS[rank]):
        return None, confidence
    seen = middle.suit_for(_RANKS[rank])
    if seen is None:
        return None, confidence
    suit = _SUITS.index(seen)
    if suits[:, suit].mean() < _SUIT_PLAUSIBLE or suit not in suits.argmax(axis=1):
        return None, confidence
    return Card(_RANKS[rank], seen), rank_score


def _corners_say(ranks: np.ndarray, suits: np.ndarray, t: Thresholds
                 ) -> tuple[CardScores, CardScores, Card | None, float]:
    """Each corner's own read and the card the two support (None: abstain), with its
    confidence, for one card (``ranks``, ``suits``: its two corners' beliefs)."""
    a, b = score_corners(ranks, suits)
    named, confidence = decide(a, b, together(ranks, suits), t.agree, t.single, t.other)
    return a, b, named, confidence


def second_look(ranks: np.ndarray, suits: np.ndarray) -> tuple[Card | None, float]:
    """The card an abstained card's corners support together on a second look, and how
    surely (``agreement``): ``ranks``, ``suits`` are look × corner × belief, for the corner
    windows cut at every ``SECOND_LOOK_SHIFTS``. Each corner's beliefs are averaged over
    the looks, so a window the outline placed a little off weighs no more than its
    neighbours."""
    mean_ranks, mean_suits = ranks.mean(axis=0), suits.mean(axis=0)
    a, b = score_corners(mean_ranks, mean_suits)
    return agreement(a, b, together(mean_ranks, mean_suits))


def _faces(cards: list[np.ndarray], rank_probs: np.ndarray, suit_probs: np.ndarray,
           reader: CornerReader, letters: str | None, view: str
           ) -> list[tuple[Card | None, float]]:
    """What each face says, from its corners' probabilities (``corner_probabilities``)."""
    if not cards:
        return []
    ranks, suits = corner_beliefs(rank_probs.reshape(-1, rank_probs.shape[2]),
                                  suit_probs.reshape(-1, suit_probs.shape[2]), letters)
    # Per card, its two corners' beliefs (card × corner × belief).
    ranks, suits = ranks.reshape(len(cards), 2, -1), suits.reshape(len(cards), 2, -1)
    t = reader.calibration.thresholds[view]
    said = [_corners_say(ranks[i], suits[i], t) for i in range(len(cards))]
    # The middles asked for are looked at together: their pips go through the net at once.
    asked = [i for i, (a, b, named, _) in enumerate(said)
             if checks_middle(a, b, named, MIDDLE_ALWAYS[view])]
    middles = dict(zip(asked, look_at_middles([cards[i] for i in asked], reader.pips),
                       strict=True))
    out, unsure = [], []
    for i, (a, b, named, confidence) in enumerate(said):
        middle = middles.get(i)
        if middle is not None:
            named, confidence = weigh_the_middle(middle, named, confidence, a, b,
                                                 ranks[i], suits[i], t)
            if named is None and t.second < 1.0:
                unsure.append((i, middle))
        out.append((named, confidence))
    if unsure:
        again_ranks, again_suits = corner_beliefs(*reader.probabilities(
            [w for i, _ in unsure for w in second_look_windows(cards[i])]), letters)
        looks = (len(unsure), len(SECOND_LOOK_SHIFTS), 2)
        again_ranks = again_ranks.reshape(*looks, -1)
        again_suits = again_suits.reshape(*looks, -1)
        for k, (i, middle) in enumerate(unsure):
            card, score = second_look(again_ranks[k], again_suits[k])
            if card is not None and score >= t.second and not middle.vetoes(card):
                out[i] = (card, score)
    return out


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


# A corner shows an index when the net gives less than this to "no rank" and to "no suit".
INDEX_SEEN = 0.5


def corner_probabilities(cards: Sequence[np.ndarray], reader: CornerReader
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Per canonical card, both its corners' probabilities of each of ``RANK_LABELS`` and
    of ``SUIT_LABELS`` (card × corner × label), in one pass through the net."""
    rank_probs, suit_probs = reader.probabilities(
        [w for card in cards for w in corner_windows(card)])
    return (rank_probs.reshape(len(cards), 2, len(RANK_LABELS)),
            suit_probs.reshape(len(cards), 2, len(SUIT_LABELS)))


def index_shown(rank_probs: np.ndarray, suit_probs: np.ndarray) -> np.ndarray:
    """Per corner (``corner_probabilities``), whether it shows an index, rank and suit:
    evidence no back can show, however textured a court's picture is."""
    return ((rank_probs[..., RANK_LABELS.index(NONE)] < INDEX_SEEN)
            & (suit_probs[..., SUIT_LABELS.index(NONE)] < INDEX_SEEN))


def indices_seen(cards: Sequence[np.ndarray], reader: CornerReader, both: bool = True
                 ) -> list[bool]:
    """Per canonical card, whether both corners (``both``; else either) show an index."""
    seen = index_shown(*corner_probabilities(cards, reader))
    return [bool(v) for v in (seen.all(axis=1) if both else seen.any(axis=1))]


def _read(card_imgs: Sequence[np.ndarray], profile: DeckProfile | None, letters: str | None,
          reader: CornerReader | None, view: str) -> list[Reading]:
    """A card is a back only when its middle is textured all over, as a back's motif is,
    and its corners show no index; a court card's picture is textured too, but its
    corners carry its index."""
    reader = reader or default_reader()
    cards = [canonical(img) for img in card_imgs]
    textured = [back_confidence(card) for card in cards]
    # Each corner goes through the net once: a textured card's corners tell a back from a
    # court, and the same beliefs read the court. With a profile, only those are needed.
    looked = [i for i, back in enumerate(textured) if profile is None or back >= THRESHOLD]
    rank_probs, suit_probs = corner_probabilities([cards[i] for i in looked], reader)
    row = {i: k for k, i in enumerate(looked)}
    seen = index_shown(rank_probs, suit_probs).any(axis=1)
    backs = [back if back >= THRESHOLD and not seen[row[i]] else 0.0
             for i, back in enumerate(textured)]
    faces = [i for i, back in enumerate(backs) if back < THRESHOLD]
    if profile is not None:
        named = [profile.read(cards[i], letters) for i in faces]
    else:
        meanings(RANK_LABELS, letters)  # an unknown letter set is refused even with no face
        rows = [row[i] for i in faces]
        named = _faces([cards[i] for i in faces], rank_probs[rows], suit_probs[rows], reader,
                       letters, view)
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
