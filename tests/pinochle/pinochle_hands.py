"""Build pinochle hands and dealt hands as events: helpers for the pinochle tests."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from scanner.cards import PINOCHLE_48, Card, Seat, Suit, parse_card
from scanner.events import CardDelivered, Event, HandStarted
from scanner.pinochle.meld import evaluate
from scanner.pinochle.options import DEFAULT_OPTIONS, TableOptions

# The reference's worked example.
WORKED_EXAMPLE = "JD QD KD AD TD JD QS QS KS AS TS JS"


def cards(text: str) -> list[Card]:
    return [parse_card(token) for token in text.split()]


def melds(text: str, trump: str, options: TableOptions = DEFAULT_OPTIONS) -> list[tuple[str, int]]:
    """(name, points) of each meld in the hand, in the evaluator's order."""
    meld = evaluate(cards(text), Suit(trump), options)
    return [(item.name, item.points) for item in meld.items]


def total(text: str, trump: str, options: TableOptions = DEFAULT_OPTIONS) -> int:
    return evaluate(cards(text), Suit(trump), options).total


def shuffled_hands(seed: int) -> dict[Seat, list[Card]]:
    deck = PINOCHLE_48.cards()
    random.Random(seed).shuffle(deck)
    return {seat: deck[i * 12:(i + 1) * 12] for i, seat in enumerate(Seat)}


def deal_events(hands: Mapping[Seat, Sequence[Card]], dealer: Seat,
                packet: int = 3) -> list[Event]:
    """HandStarted, then every card in packets clockwise from the dealer's left."""
    events: list[Event] = [HandStarted("pinochle", dealer, packet)]
    order = dealer.left.clockwise_from()
    for start in range(0, 12, packet):
        for seat in order:
            events += [CardDelivered(card, seat) for card in hands[seat][start:start + packet]]
    return events
