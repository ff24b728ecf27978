"""Cards, seats and decks: the notation every other part of tablescan speaks.

Canonical text is rank + suit (``AS``, ``TH``, ``9D``). Input is forgiving
(``10h``, ``T♥``, ``as``); output is always canonical.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import NamedTuple


class CardError(ValueError):
    """A token that is not a card, a hand that is not a hand, or a seat that is not a seat."""


class Suit(Enum):
    """Suits in bridge order (S H D C), which is also PBN's order inside a hand."""

    S = "S"
    H = "H"
    D = "D"
    C = "C"

    # Members are singletons compared by identity, so identity hashing is exact, and C-level:
    # Enum's own __hash__ runs Python code on every dict lookup of a card or seat.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        return _SUIT_ORDER[self]

    def __str__(self) -> str:
        return self.value


_SUIT_SYMBOLS = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
_SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}
SUIT_NAMES = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}


class Rank(Enum):
    """Ranks from high to low in bridge order. Pinochle's play order (A 10 K Q J 9) is game data."""

    A = "A"
    K = "K"
    Q = "Q"
    J = "J"
    T = "T"
    R9 = "9"
    R8 = "8"
    R7 = "7"
    R6 = "6"
    R5 = "5"
    R4 = "4"
    R3 = "3"
    R2 = "2"

    __hash__ = object.__hash__  # see Suit

    @property
    def index(self) -> int:
        """0 for the ace, 12 for the deuce: position in a PBN suit string."""
        return _RANK_ORDER[self]

    def __str__(self) -> str:
        return self.value


_RANK_ORDER = {rank: i for i, rank in enumerate(Rank)}


class Card(NamedTuple):
    """One card. Two physical copies of a pinochle card are the same ``Card`` value."""

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return self.rank.value + self.suit.value

    def __repr__(self) -> str:
        return f"Card({self})"

    @property
    def index(self) -> int:
        """0..51 in the order ♠A…♠2, ♥A…♥2, ♦A…♦2, ♣A…♣2 (the DLM/DUP order)."""
        return self.suit.index * 13 + self.rank.index


_RANK_ALIASES = {"10": Rank.T, "1": Rank.A}
_SUIT_ALIASES = {"♠": Suit.S, "♥": Suit.H, "♦": Suit.D, "♣": Suit.C,
                 "♤": Suit.S, "♡": Suit.H, "♢": Suit.D, "♧": Suit.C}


def _rank_from_text(text: str) -> Rank | None:
    if text in _RANK_ALIASES:
        return _RANK_ALIASES[text]
    try:
        return Rank(text)
    except ValueError:
        return None


def _suit_from_text(text: str) -> Suit | None:
    if text in _SUIT_ALIASES:
        return _SUIT_ALIASES[text]
    try:
        return Suit(text)
    except ValueError:
        return None


def parse_card(token: str) -> Card:
    """Parse ``AS``, ``10h``, ``T♥`` or ``as``; raise CardError naming the token otherwise."""
    if not isinstance(token, str):
        # Checked before the cache, which cannot even look up a list or an object.
        raise CardError(f"card token {token!r} is not text")
    return _parse_card_text(token)


@cache
def _parse_card_text(token: str) -> Card:
    text = token.strip().upper()
    if len(text) < 2:
        raise CardError(f"bad card token {token!r}: expected rank then suit, e.g. 'AS' or '10H'")
    rank = _rank_from_text(text[:-1])
    suit = _suit_from_text(text[-1])
    if rank is None:
        raise CardError(f"bad card token {token!r}: unknown rank {text[:-1]!r}")
    if suit is None:
        raise CardError(f"bad card token {token!r}: unknown suit {text[-1]!r}")
    return Card(rank, suit)


ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in Rank)


class Seat(Enum):
    """Compass seats, clockwise N → E → S → W."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    __hash__ = object.__hash__  # see Suit

    @property
    def left(self) -> Seat:
        """The next seat clockwise: the dealer's left receives the first card."""
        return _SEATS[(_SEATS.index(self) + 1) % 4]

    @property
    def right(self) -> Seat:
        return _SEATS[(_SEATS.index(self) + 3) % 4]

    @property
    def partner(self) -> Seat:
        return _SEATS[(_SEATS.index(self) + 2) % 4]

    @property
    def index(self) -> int:
        return _SEATS.index(self)

    def clockwise_from(self) -> tuple[Seat, ...]:
        """The four seats starting with this one, clockwise."""
        i = _SEATS.index(self)
        return _SEATS[i:] + _SEATS[:i]

    def __str__(self) -> str:
        return self.value


_SEATS: tuple[Seat, ...] = tuple(Seat)
SEATS = _SEATS


def parse_seat(token: str) -> Seat:
    """Parse a compass seat (``N``, ``e``…); raise CardError naming the token otherwise."""
    try:
        return Seat(str(token).strip().upper())
    except ValueError:
        raise CardError(f"unknown seat {token!r}: expected one of N, E, S, W") from None


@dataclass(frozen=True)
class DeckSpec:
    """A deck as a multiset of cards, and how many cards each of four hands gets."""

    name: str
    counts: tuple[tuple[Card, int], ...]
    hand_size: int

    @property
    def multiset(self) -> Counter[Card]:
        return Counter(dict(self.counts))

    @property
    def size(self) -> int:
        return sum(n for _, n in self.counts)

    @property
    def distinct(self) -> frozenset[Card]:
        return frozenset(card for card, _ in self.counts)

    def cards(self) -> list[Card]:
        """Every physical card, in the order a new pack would be sorted (suit, then rank)."""
        return [card for card, n in self.counts for _ in range(n)]


def _deck(name: str, ranks: Iterable[Rank], copies: int, hand_size: int) -> DeckSpec:
    ranks = tuple(ranks)
    return DeckSpec(name, tuple((Card(r, s), copies) for s in Suit for r in ranks), hand_size)


BRIDGE_52 = _deck("bridge-52", Rank, 1, 13)
PINOCHLE_48 = _deck("pinochle-48", (Rank.A, Rank.T, Rank.K, Rank.Q, Rank.J, Rank.R9), 2, 12)
DECKS: dict[str, DeckSpec] = {d.name: d for d in (BRIDGE_52, PINOCHLE_48)}
DECK_FOR_GAME: dict[str, DeckSpec] = {"bridge": BRIDGE_52, "pinochle": PINOCHLE_48}


def parse_cards(tokens: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in tokens]


def format_hand(cards: Iterable[Card], void: str = "-") -> str:
    """PBN-style suit strings, S.H.D.C, ranks high to low: ``AKT9.QJ.-.A98``.

    ``void`` is what an empty suit prints as: ``-`` for people, ``""`` inside a PBN deal.
    """
    by_suit: list[list[Card]] = [[] for _ in Suit]
    for card in cards:
        by_suit[card.suit.index].append(card)
    parts = []
    for suit_cards in by_suit:
        suit_cards.sort(key=lambda c: c.rank.index)
        parts.append("".join(c.rank.value for c in suit_cards) or void)
    return ".".join(parts)


def parse_hand(text: str) -> list[Card]:
    """Parse ``AKT9.QJ.-.A98`` (a void may be empty or ``-``; ``10`` is accepted for T)."""
    suits = text.strip().split(".")
    if len(suits) != 4:
        raise CardError(f"bad hand {text!r}: expected four suits separated by '.'")
    cards: list[Card] = []
    for suit, ranks in zip(Suit, suits, strict=True):
        ranks = ranks.strip().upper().replace("10", "T")
        if ranks in ("", "-"):
            continue
        for ch in ranks:
            rank = _rank_from_text(ch)
            if rank is None:
                raise CardError(f"bad hand {text!r}: unknown rank {ch!r} in {suit.symbol}")
            cards.append(Card(rank, suit))
    return cards
