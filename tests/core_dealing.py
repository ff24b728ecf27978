"""Deal a deck by the rules into events, and break a deal in one named way: test helpers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from scanner.cards import BRIDGE_52, PINOCHLE_48, Card, DeckSpec, Seat, parse_card
from scanner.events import CardDelivered, Event, HandStarted, Marker

DECKS = {"pinochle": PINOCHLE_48, "bridge": BRIDGE_52}
MARKER = {"pinochle": "bidding-ended", "bridge": "auction-started"}


def deck(game: str) -> list[Card]:
    return DECKS[game].cards()


def seat_order(dealer: Seat, packet: int, n_cards: int) -> list[Seat]:
    """Where each card goes when dealt by the rule: packets clockwise from the dealer's left."""
    seats = dealer.left.clockwise_from()
    return [seats[(i // packet) % 4] for i in range(n_cards)]


def deal(game: str, cards: Sequence[Card], dealer: Seat = Seat.N, packet: int | None = None,
         ) -> tuple[HandStarted, list[Event]]:
    """The header and card events of ``cards`` dealt correctly, without a marker."""
    packet = packet or (3 if game == "pinochle" else 1)
    header = HandStarted(game=game, dealer=dealer, packet=packet)
    seats = seat_order(dealer, packet, len(cards))
    return header, [CardDelivered(card, seat) for card, seat in zip(cards, seats, strict=True)]


def with_marker(game: str, events: list[Event], at: int | None = None) -> list[Event]:
    """Insert the game's marker at position ``at`` (default: after the last event)."""
    at = len(events) if at is None else at
    return [*events[:at], Marker(MARKER[game]), *events[at:]]


def shuffled(game: str, seed: int) -> list[Card]:
    import random

    cards = deck(game)
    random.Random(seed).shuffle(cards)
    return cards


def cards_of(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def write_deal_log(path: Path, header: HandStarted, events: Sequence[Event]) -> Path:
    lines = [json.dumps({"game": header.game, "dealer": header.dealer.value,
                         "packet": header.packet})]
    for event in events:
        if isinstance(event, Marker):
            lines.append(json.dumps({"event": event.name}))
        elif isinstance(event, CardDelivered) and not event.foreign:
            lines.append(json.dumps({"card": None if event.card is None else str(event.card),
                                     "to": event.to.value, "exposed": event.exposed}))
        else:
            lines.append(json.dumps(event.to_dict()))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def deck_spec(game: str) -> DeckSpec:
    return DECKS[game]
