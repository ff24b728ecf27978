"""The audit statistics themselves: whole numbers computed from a dealing order or from hands.

A dealing order is the list of cards in the order they left the deck (packets do not matter:
the deck order is the same whatever the packet size). A prior order is the order the deck was
in before the shuffle: a new pack, or the previous hand's cards as they were gathered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import pairwise

from ..cards import Card, Rank, Suit
from .hand_nulls import hand_freakness, has_big_fit

# New packs run ace-low inside a suit (A 2 3 … K, or K … A): a suit's "factory" rank order.
ACE_LOW_RANKS: tuple[Rank, ...] = (Rank.A, *reversed(tuple(Rank)[1:]))

Relation = Callable[[Card, Card], bool]


def rising_sequences(order: Sequence[Card], prior: Sequence[Card]) -> int:
    """R = 1 + #{i : prior[i+1] was dealt before prior[i]} (Bayer & Diaconis)."""
    position = {card: i for i, card in enumerate(order)}
    return 1 + sum(position[b] < position[a] for a, b in pairwise(prior))


def folded(value: int, mirror: int) -> int:
    """min(value, mirror - value): the same evidence whichever way the prior was run."""
    return min(value, mirror - value)


def suit_rising_sequences(order: Sequence[Card]) -> dict[Suit, int]:
    """R within each suit against the ace-low rank order, for a new pack of unknown order."""
    out = {}
    for suit in Suit:
        prior = [Card(rank, suit) for rank in ACE_LOW_RANKS]
        dealt = [card for card in order if card.suit is suit]
        out[suit] = rising_sequences(dealt, prior)
    return out


def new_pack_statistic(order: Sequence[Card]) -> tuple[int, dict[str, int]]:
    """T = sum over suits of min(R_s, 14 - R_s), and the R_s it was made of."""
    per_suit = suit_rising_sequences(order)
    total = sum(folded(r, len(ACE_LOW_RANKS) + 1) for r in per_suit.values())
    return total, {str(suit): r for suit, r in per_suit.items()}


def neighbour_count(order: Sequence[Card], related: Relation) -> int:
    """How many neighbouring pairs of the dealing order are related."""
    return sum(related(a, b) for a, b in pairwise(order))


def same_suit(a: Card, b: Card) -> bool:
    return a.suit is b.suit


_ACE_LOW_PLACE = {rank: i for i, rank in enumerate(ACE_LOW_RANKS)}


def same_suit_adjacent_rank(a: Card, b: Card) -> bool:
    """Same suit and neighbouring ranks in a new pack's order (A-2 … Q-K), either way round."""
    return a.suit is b.suit and abs(_ACE_LOW_PLACE[a.rank] - _ACE_LOW_PLACE[b.rank]) == 1


def identical(a: Card, b: Card) -> bool:
    """The two copies of one pinochle card."""
    return a == b


def successor_in(prior: Sequence[Card]) -> Relation:
    """b is the card that followed a in the prior order."""
    following = dict(pairwise(prior))
    return lambda a, b: following.get(a) == b


_SUIT_LETTERS = tuple(suit.value for suit in Suit)


def suit_lengths(hand: Sequence[Card]) -> tuple[int, ...]:
    """Lengths in S H D C order."""
    # Counting by the suit's letter: hashing a str is far cheaper than hashing an Enum,
    # and a session audit counts tens of thousands of hands in the false-alarm tests.
    counts = Counter(card.suit.value for card in hand)
    return tuple(counts[letter] for letter in _SUIT_LETTERS)


def shape(hands: Sequence[Sequence[Card]]) -> list[tuple[int, ...]]:
    """The deal's suit-length table, hands (N E S W) by suits (S H D C)."""
    return [suit_lengths(hand) for hand in hands]


def deal_freakness(hands: Sequence[Sequence[Card]]) -> int:
    return sum(hand_freakness(lengths) for lengths in shape(hands))


def deal_has_big_fit(hands: Sequence[Sequence[Card]]) -> bool:
    """``hands`` in N E S W order."""
    return has_big_fit(shape(hands))
