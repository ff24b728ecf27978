"""Deck-level consistency: the reads of one deck must form exactly that deck.

The shoe's dealing loop calls ``DeckCheck.add`` with every reading. A card already read as
often as the deck holds it is a ``duplicate-read``: it is not counted, and the loop must
read that card again (or stop and ask) rather than guess. A card the deck does not hold
(a deuce in a pinochle deck) is ``foreign``. The read that completes the deck says so.
"""

from __future__ import annotations

from collections import Counter
from enum import Enum

from ..cards import Card, DeckSpec
from .reading import Reading


class DeckStatus(Enum):
    OK = "ok"
    DUPLICATE = "duplicate-read"
    FOREIGN = "foreign"
    DECK_COMPLETE = "deck-complete"
    UNREAD = "unread"  # the reading named no card: read it again, nothing was counted


class DeckCheck:
    """Counts the cards read from one deck; one instance per deck pass."""

    def __init__(self, deck: DeckSpec) -> None:
        self.deck = deck
        self._expected = deck.multiset
        self._seen: Counter[Card] = Counter()

    def add(self, reading: Reading | Card) -> DeckStatus:
        """Count one read card, unless it cannot belong to what is left of the deck."""
        card = reading if isinstance(reading, Card) else reading.card
        if card is None:
            return DeckStatus.UNREAD
        if card not in self._expected:
            return DeckStatus.FOREIGN
        if self._seen[card] >= self._expected[card]:
            return DeckStatus.DUPLICATE
        self._seen[card] += 1
        return DeckStatus.DECK_COMPLETE if self.complete else DeckStatus.OK

    @property
    def count(self) -> int:
        return sum(self._seen.values())

    @property
    def complete(self) -> bool:
        return self._seen == self._expected

    def missing(self) -> list[Card]:
        """Cards not yet read, in deck order (a pinochle card twice if both copies are out)."""
        left = self._expected - self._seen
        return [card for card, _ in self.deck.counts for _ in range(left[card])]
