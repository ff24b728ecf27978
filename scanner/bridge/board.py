"""A duplicate board: its number, dealer, vulnerability and the four hands in its pockets.

Dealer and vulnerability follow from the board number by the standard tables below
(Laws of Duplicate Bridge 2017, Law 2). A file may say otherwise for a board; the
readers keep what the file says and the writers of formats that cannot say it fall
back on the table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from enum import Enum

from ..cards import ALL_CARDS, SEATS, Card, Seat

HAND_SIZE = 13


class Vulnerability(Enum):
    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    def __str__(self) -> str:
        return self.value


# Dealer by (board − 1) mod 4; vulnerability by board mod 16 (index 0 is board 16).
DEALER_CYCLE: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)
_V = Vulnerability
VULNERABILITY_CYCLE: tuple[Vulnerability, ...] = (
    _V.EW, _V.NONE, _V.NS, _V.EW, _V.ALL, _V.NS, _V.EW, _V.ALL,
    _V.NONE, _V.EW, _V.ALL, _V.NONE, _V.NS, _V.ALL, _V.NONE, _V.NS,
)


def dealer_for(number: int) -> Seat:
    """The dealer of board ``number`` (board 1 is dealt by North)."""
    return DEALER_CYCLE[(number - 1) % 4]


def vulnerability_for(number: int) -> Vulnerability:
    """The vulnerability of board ``number``; the cycle repeats every 16 boards."""
    return VULNERABILITY_CYCLE[number % 16]


Hand = tuple[Card, ...]


@dataclass(frozen=True)
class SourceTag:
    """A PBN tag as the file wrote it, with its section lines. The PBN writer puts every
    tag back in its order, rewriting only Board, Dealer, Vulnerable and Deal from the board."""

    name: str
    value: str
    section: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    """One board. ``hands`` are N, E, S, W; a hand is ``None`` when the source says
    it is unknown (PBN ``-``). Hands keep their cards as read: an observed board may be
    irregular (14–12, a card twice), a record board never is (see ``deal_problems``)."""

    number: int
    dealer: Seat
    vulnerability: Vulnerability
    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None]
    tags: tuple[SourceTag, ...] = field(default=(), compare=False)
    # Which event, section or round the board belongs to, where a file holds several that
    # reuse board numbers ('' when it says nothing): boards are told apart by it and number.
    group: str = field(default="", compare=False)
    # The tags of every later game in the file that repeats this deal under this number (a
    # results file lists a board once per table): one board, each table's result kept.
    played: tuple[tuple[SourceTag, ...], ...] = field(default=(), compare=False)

    @classmethod
    def standard(cls, number: int, hands: tuple[Hand | None, ...]) -> Board:
        """A board whose dealer and vulnerability follow from its number."""
        return cls(number, dealer_for(number), vulnerability_for(number), _four(hands))

    def hand(self, seat: Seat) -> Hand | None:
        return self.hands[seat.index]

    def same_deal(self, other: Board) -> bool:
        """Same number, dealer, vulnerability and cards in each seat, in whatever order the
        cards were written."""
        return ((self.number, self.dealer, self.vulnerability)
                == (other.number, other.dealer, other.vulnerability)
                and all(_sorted_indexes(a) == _sorted_indexes(b)
                        for a, b in zip(self.hands, other.hands, strict=True)))

    def renumbered(self, number: int) -> Board:
        """The same deal as board ``number``, with that number's dealer and vulnerability."""
        return replace(self, number=number, dealer=dealer_for(number),
                       vulnerability=vulnerability_for(number))

    def complete_hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        """The four hands, with a single unknown hand filled by the cards nobody else holds.

        That fill is no guess: with three regular hands known the fourth is determined.
        Raises DealError when it is not determined or the deal is not regular.
        """
        problems = deal_problems(self.hands)
        if problems:
            raise DealError(f"board {self.number}: " + "; ".join(problems))
        hands = list(self.hands)
        if None in hands:
            held = set(ALL_CARDS[i] for hand in hands if hand is not None
                       for i in hand_indexes(hand))
            hands[hands.index(None)] = tuple(c for c in ALL_CARDS if c not in held)
        return _four(tuple(tuple(sorted(h, key=card_index)) for h in hands))  # type: ignore[arg-type]

    def owners(self) -> tuple[Seat, ...]:
        """The seat holding each card, in card-index order (♠A…♣2): the DLM/DUP view."""
        owner: list[Seat | None] = [None] * len(ALL_CARDS)
        for seat, hand in zip(SEATS, self.complete_hands(), strict=True):
            for index in hand_indexes(hand):
                owner[index] = seat
        return tuple(owner)  # type: ignore[arg-type]


class DealError(ValueError):
    """A deal that is not four hands of 13 from one 52-card pack; the message says why."""


def _four(hands: tuple[Hand | None, ...]) -> tuple[Hand | None, Hand | None, Hand | None,
                                                   Hand | None]:
    if len(hands) != 4:
        raise DealError(f"a deal has four hands, not {len(hands)}")
    return (hands[0], hands[1], hands[2], hands[3])


def deal_problems(hands: tuple[Hand | None, ...]) -> list[str]:
    """Every way these hands fail to be one regular deal (Law 6B, Law 7B1), in words.

    One unknown hand (``None``) is no problem: the other three determine it. Two or more
    are, since the deal is then not known.
    """
    problems: list[str] = []
    unknown = [str(seat) for seat, hand in zip(SEATS, hands, strict=True) if hand is None]
    if len(unknown) > 1:
        problems.append(f"hands {', '.join(unknown)} are unknown")
    known = [(seat, hand_indexes(hand)) for seat, hand in zip(SEATS, hands, strict=True)
             if hand is not None]
    count = [0] * len(ALL_CARDS)
    for seat, indexes in known:
        if len(indexes) != HAND_SIZE:
            problems.append(f"hand {seat} holds {len(indexes)} cards, not {HAND_SIZE}")
        for index in indexes:
            count[index] += 1
    if max(count) > 1:
        holders: dict[int, list[Seat]] = {}
        for seat, indexes in known:
            for index in indexes:
                holders.setdefault(index, []).append(seat)
        problems.extend(f"card {ALL_CARDS[index]} is in {_seat_list(holders[index])}"
                        for index in sorted(holders) if count[index] > 1)
    if len(known) == 4 and 0 in count:
        missing = [str(ALL_CARDS[i]) for i, n in enumerate(count) if n == 0]
        problems.append(f"{_count(len(missing), 'card')} in no hand: {' '.join(missing)}")
    return problems


# A Card hashes through two Python-level Enum.__hash__ calls, which dominated reading large
# files. The readers hand out the canonical objects of ALL_CARDS, so their identity gives the
# index at once; any other, equal Card falls back on Card.index.
_INDEX_BY_ID = {id(card): i for i, card in enumerate(ALL_CARDS)}


def card_index(card: Card) -> int:
    """``card.index`` (0 = ♠A … 51 = ♣2), fast for the canonical cards."""
    index = _INDEX_BY_ID.get(id(card))
    return card.index if index is None else index


def _sorted_indexes(hand: Hand | None) -> list[int] | None:
    return None if hand is None else sorted(hand_indexes(hand))


def hand_indexes(hand: Hand) -> list[int]:
    found = _INDEX_BY_ID.get
    indexes = [found(id(card)) for card in hand]
    if None in indexes:
        return [card.index if i is None else i for card, i in zip(hand, indexes, strict=True)]
    return indexes  # type: ignore[return-value]


def _seat_list(seats: list[Seat]) -> str:
    counts = Counter(seats)
    parts = [str(s) if n == 1 else f"{s} ({n} times)" for s, n in counts.items()]
    return " and ".join(parts)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
