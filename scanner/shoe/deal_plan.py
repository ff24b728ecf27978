"""Which pocket each card goes to: a live deal's order, or a target deal's hands.

A plan is a pure function of (position in the deck, card read), so the decision the loop made for
a logged read can always be worked out again when a deal resumes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from ..cards import DECK_FOR_GAME, Card, DeckSpec, Seat

# The packet each game deals in when nothing else is agreed (pinochle seed: packets of 3;
# bridge Law 6C: one card at a time).
DEFAULT_PACKET: dict[str, int] = {"bridge": 1, "pinochle": 3}


class PlanRefusal(ValueError):
    """The card read has no place in the plan (it is not in the target deal)."""


class DealPlan(Protocol):
    deck: DeckSpec

    def pocket_for(self, position: int, card: Card, delivered: list[Card]) -> Seat:
        """The pocket for the card at ``position`` (0 = first card), given those already dealt."""
        ...


@dataclass(frozen=True)
class LiveDeal:
    """Deal in the game's order: from the dealer's left, clockwise, ``packet`` cards at a time."""

    game: str
    dealer: Seat
    packet: int

    @classmethod
    def for_game(cls, game: str, dealer: Seat, packet: int | None = None) -> LiveDeal:
        if game not in DECK_FOR_GAME:
            raise ValueError(f"unknown game {game!r}: expected one of {sorted(DECK_FOR_GAME)}")
        size = DEFAULT_PACKET[game] if packet is None else packet
        deck = DECK_FOR_GAME[game]
        if size < 1 or deck.hand_size % size:
            raise ValueError(f"packet of {size} does not divide a {game} hand of "
                             f"{deck.hand_size} cards")
        return cls(game, dealer, size)

    @property
    def deck(self) -> DeckSpec:
        return DECK_FOR_GAME[self.game]

    def pocket_for(self, position: int, card: Card, delivered: list[Card]) -> Seat:
        return self.dealer.left.clockwise_from()[(position // self.packet) % 4]


@dataclass(frozen=True)
class TargetDeal:
    """Put each card into the hand that holds it in a given deal, cards fed in any order."""

    hands: Mapping[Seat, tuple[Card, ...]]
    deck: DeckSpec
    _owner: dict[Card, list[Seat]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        owner: dict[Card, list[Seat]] = {}
        for seat in Seat:
            for card in self.hands.get(seat, ()):
                owner.setdefault(card, []).append(seat)
        object.__setattr__(self, "_owner", owner)

    def pocket_for(self, position: int, card: Card, delivered: list[Card]) -> Seat:
        seats = self._owner.get(card)
        if not seats:
            raise PlanRefusal(f"{card} is not in the target deal")
        # Two copies of a pinochle card may belong to two hands: fill them in seat order.
        already = Counter(delivered)[card]
        if already >= len(seats):
            raise PlanRefusal(f"{card} was already dealt {already} time(s); the target deal "
                              f"holds {len(seats)}")
        return seats[already]
