"""Decks and board sets for the audit's tests, all from fixed seeds."""

from __future__ import annotations

import random
from collections.abc import Sequence

from scanner.audit import DealtOrder
from scanner.audit.shuffles import deal_round_robin
from scanner.cards import BRIDGE_52, Card, DeckSpec, Suit


def dealt(cards: Sequence[Card], deck: DeckSpec = BRIDGE_52) -> DealtOrder:
    return DealtOrder(tuple(cards), deck, {"deal": 1})


def random_deck(rng: random.Random, deck: DeckSpec = BRIDGE_52) -> list[Card]:
    cards = deck.cards()
    rng.shuffle(cards)
    return cards


def random_deal(rng: random.Random) -> list[list[Card]]:
    """Four hands, N E S W, dealt one at a time from a uniformly shuffled pack."""
    return deal_round_robin(random_deck(rng))


def deal_with_diamond_fit(rng: random.Random, fit: int) -> list[list[Card]]:
    """A deal in which North-South hold exactly ``fit`` diamonds, the rest at random."""
    diamonds = [c for c in BRIDGE_52.cards() if c.suit is Suit.D]
    others = [c for c in BRIDGE_52.cards() if c.suit is not Suit.D]
    rng.shuffle(diamonds)
    rng.shuffle(others)
    north_south = diamonds[:fit] + others[:26 - fit]
    east_west = diamonds[fit:] + others[26 - fit:]
    rng.shuffle(north_south)
    rng.shuffle(east_west)
    return [north_south[:13], east_west[:13], north_south[13:], east_west[13:]]


def diamond_anecdote_set(rng: random.Random) -> list[list[list[Card]]]:
    """The director's 16 boards from new packs: 13 with a ten- or eleven-card diamond fit
    (a six or seven diamond contract), three ordinary deals."""
    boards = [deal_with_diamond_fit(rng, rng.choice((10, 11))) for _ in range(13)]
    boards += [random_deal(rng) for _ in range(3)]
    rng.shuffle(boards)
    return boards
