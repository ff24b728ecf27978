"""What a game's rules of the deal say, as data: the kinds of finding, how each is ruled, and
the regularities of a sorted deck.

A game's rules module (``scanner.pinochle.deal_rules``, ``scanner.bridge.deal_rules``) fills a
``DealRules`` from these; the deal tracker (``scanner.tracker``) reads it and knows no game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import sub

from .cards import Card, DeckSpec
from .events import Event

# The kinds of finding a game's rules must rule on, and what each means.
FAULT_KINDS: dict[str, str] = {
    "packet-size": "a packet of another size than the agreed one (one card: two in a row)",
    "first-packet-seat": "the first packet went to a seat other than the dealer's left",
    "rotation": "a packet went to a seat other than the next one clockwise",
    "exposed": "a card was seen face up during the deal",
    "count": "a hand holds the wrong number of cards",
    "missing": "a card of the deck was never dealt",
    "extra-copy": "more copies of a card than the deck holds",
    "foreign": "a card that is not part of this deck",
    "unread": "a card was dealt but could not be read",
    "late-card": "a card was dealt after the marker",
    "unshuffled": "the dealing order follows a sorted deck",
    "repeat": "the same deal was seen in an earlier session",
}


@dataclass(frozen=True)
class Fault:
    """How a game rules one kind of finding: the rule cited and the status before/after."""

    rule: str
    before: str
    after: str


@dataclass(frozen=True)
class SortedPattern:
    """A regularity of a sorted deck, seen in consecutive cards of the dealing order.

    Each card has a ``key`` (its suit, its rank, its place in a new pack); a consecutive pair
    shows the pattern when the second key minus the first is one of ``steps``. ``min_pairs``
    such pairs mark the deal as unshuffled; it sits far in the tail of what shuffled decks
    produce (bench/core_tracker.py counts false alarms on shuffled decks).
    """

    name: str
    key: Mapping[Card, int]
    steps: frozenset[int]
    min_pairs: int
    shuffled_mean: float

    def pairs_in(self, cards: Sequence[Card | None]) -> int:
        """How many consecutive pairs of ``cards`` show the pattern; unread cards break pairs."""
        keys = list(map(self.key.get, cards))
        if None in keys:
            # A key no real card has, different at every position: it pairs with nothing.
            keys = [_NO_KEY * (i + 1) if k is None else k for i, k in enumerate(keys)]
        differences = list(map(sub, keys[1:], keys[:-1]))
        return sum(differences.count(step) for step in self.steps)


_NO_KEY = 1 << 20


@dataclass(frozen=True)
class DealRules:
    """Everything the tracker needs to rule a game's deal, as data."""

    game: str
    deck: DeckSpec
    deal_rule: str
    marker: str
    after_markers: frozenset[str]
    after_event_types: tuple[type[Event], ...]
    packet_sizes: tuple[int, ...]
    default_packet: int
    faults: Mapping[str, Fault]
    sorted_patterns: tuple[SortedPattern, ...] = ()
    checks_repeats: bool = False

    def __post_init__(self) -> None:
        missing = set(FAULT_KINDS) - set(self.faults)
        if missing:
            raise ValueError(f"{self.game} deal rules do not rule on {sorted(missing)}")

    @cached_property
    def slots(self) -> dict[Card, int]:
        """Each distinct card of the deck to its place in ``deck.counts``."""
        return {card: i for i, (card, _) in enumerate(self.deck.counts)}


# Steps between the keys of consecutive cards.
SAME = frozenset({0})
NEXT_EITHER_WAY = frozenset({1, -1})


def suit_of(deck: DeckSpec) -> dict[Card, int]:
    return {card: card.suit.index for card in deck.distinct}


def rank_of(deck: DeckSpec) -> dict[Card, int]:
    return {card: card.rank.index for card in deck.distinct}


def place_in(order: Sequence[Card]) -> dict[Card, int]:
    """Each card's place in a reference order of the deck, such as a new pack's."""
    return {card: i for i, card in enumerate(order)}
