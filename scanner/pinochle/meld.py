"""Meld: what one player's twelve cards score once trump is named.

A hand is held as counts per card: 24 distinct pinochle cards, 0..2 copies each, so a
meld is small integer arithmetic over that vector (the table has to keep up with a
scorekeeper tapping through hands; see bench/pinochle_meld.py).

The card-sharing rule is the common one (``shared/reference/pinochle.md``): melds fall
into three classes, A (run, marriages, dix), B (the arounds) and C (pinochle), and a
card may serve in one meld of each class. Inside class A a run uses one trump K and one
trump Q, so only a spare trump K+Q pair scores a royal marriage beside it. Both copies
of every card of a meld make its double, which replaces the single value.
Partners' cards never combine: a team's meld is the sum of its players' melds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

from ..cards import PINOCHLE_48, SUIT_NAMES, Card, CardError, Rank, Seat, Suit, parse_card
from .options import DEFAULT_OPTIONS, TableOptions

# Pinochle rank order, which is also the order of a run: A 10 K Q J 9.
RANKS: tuple[Rank, ...] = (Rank.A, Rank.T, Rank.K, Rank.Q, Rank.J, Rank.R9)
_A, _T, _K, _Q, _J, _9 = range(6)
RUN_RANKS = (_A, _T, _K, _Q, _J)
AROUNDS = (("aces-around", _A), ("kings-around", _K), ("queens-around", _Q),
           ("jacks-around", _J))
CARD_SLOTS = 24
_SLOT = {Card(rank, suit): suit.index * 6 + r for suit in Suit for r, rank in enumerate(RANKS)}
_QS = _SLOT[Card(Rank.Q, Suit.S)]
_KS = _SLOT[Card(Rank.K, Suit.S)]
_JD = _SLOT[Card(Rank.J, Suit.D)]
_MAX_COPIES = max(n for _, n in PINOCHLE_48.counts)

SIDES: dict[str, tuple[Seat, Seat]] = {"NS": (Seat.N, Seat.S), "EW": (Seat.E, Seat.W)}

# Display names: (one copy, both copies). "{suit}" is the suit's name, singular.
_NAMES: dict[str, tuple[str, str]] = {
    "run": ("run", "double run"),
    "royal-marriage": ("royal marriage", "two royal marriages"),
    "marriage": ("{suit} marriage", "two {suit} marriages"),
    "dix": ("dix", "two dix"),
    "pinochle": ("pinochle", "double pinochle"),
    "aces-around": ("aces around", "double aces around"),
    "kings-around": ("kings around", "double kings around"),
    "queens-around": ("queens around", "double queens around"),
    "jacks-around": ("jacks around", "double jacks around"),
    "roundhouse": ("roundhouse", "roundhouse"),
    "roundhouse-with-run": ("roundhouse with run", "roundhouse with run"),
    "run-with-extra-royal": ("run with extra {extra}", "run with extra {extra}"),
    "grand-pinochle": ("grand pinochle", "grand pinochle"),
}
_SUIT_SINGULAR = {suit: name.rstrip("s") for suit, name in SUIT_NAMES.items()}


class MeldError(ValueError):
    """Cards that are not a pinochle hand; the message names the card."""


Counts = Sequence[int]


def hand_counts(cards: Iterable[Card]) -> tuple[int, ...]:
    """Count a hand into the 24-slot vector; refuse foreign cards and a third copy."""
    counts = [0] * CARD_SLOTS
    for card in cards:
        slot = _SLOT.get(card)
        if slot is None:
            raise MeldError(f"{card} is not a pinochle card (the deck is A 10 K Q J 9)")
        counts[slot] += 1
        if counts[slot] > _MAX_COPIES:
            raise MeldError(f"{card} appears more than {_MAX_COPIES} times")
    return tuple(counts)


def parse_pinochle_hand(tokens: Iterable[str]) -> list[Card]:
    """Parse card tokens, naming the position of a bad one (``card 3 'XS': …``)."""
    cards = []
    for position, token in enumerate(tokens, start=1):
        try:
            cards.append(parse_card(token))
            hand_counts(cards)
        except (CardError, MeldError) as exc:
            raise MeldError(f"card {position} ({token!r}): {exc}") from None
    return cards


@cache
def _meld_cards(kind: str, suit: Suit | None, level: int, extra: Rank | None) -> tuple[Card, ...]:
    def of(suit_: Suit, ranks: Iterable[int]) -> list[Card]:
        return [Card(RANKS[r], suit_) for r in ranks]

    if kind == "run" or kind == "run-with-extra-royal":
        cards = of(suit, RUN_RANKS) + ([Card(extra, suit)] if extra else [])
    elif kind in ("royal-marriage", "marriage"):
        cards = of(suit, (_K, _Q))
    elif kind == "dix":
        cards = of(suit, (_9,))
    elif kind == "pinochle":
        cards = [Card(Rank.Q, Suit.S), Card(Rank.J, Suit.D)]
    elif kind == "grand-pinochle":
        cards = [Card(Rank.K, Suit.S), Card(Rank.Q, Suit.S), Card(Rank.J, Suit.D)]
    elif kind == "roundhouse":
        cards = [c for s in Suit for c in of(s, (_K, _Q))]
    elif kind == "roundhouse-with-run":
        cards = of(suit, RUN_RANKS) + [c for s in Suit if s != suit for c in of(s, (_K, _Q))]
    else:
        rank = dict(AROUNDS)[kind]
        cards = [Card(RANKS[rank], s) for s in Suit]
    return tuple(card for card in cards for _ in range(level))


class MeldItem(NamedTuple):
    """One scoring combination: its kind, the suit it is in (if any), single or double."""

    kind: str
    suit: Suit | None
    level: int
    points: int
    extra: Rank | None = None

    @property
    def name(self) -> str:
        template = _NAMES[self.kind][self.level - 1]
        return template.format(
            suit=_SUIT_SINGULAR[self.suit] if self.suit else "",
            extra={Rank.K: "king", Rank.Q: "queen"}.get(self.extra, ""))

    @property
    def cards(self) -> tuple[Card, ...]:
        return _meld_cards(self.kind, self.suit, self.level, self.extra)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "points": self.points, "cards": [str(c) for c in self.cards]}


class Meld(NamedTuple):
    """One player's meld for one trump suit."""

    trump: Suit
    items: tuple[MeldItem, ...]

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def to_dict(self) -> dict[str, Any]:
        return {"trump": self.trump.value, "total": self.total,
                "melds": [item.to_dict() for item in self.items]}


def evaluate_counts(counts: Counts, trump: Suit,
                    options: TableOptions = DEFAULT_OPTIONS) -> Meld:
    """Meld for a hand given as 24 counts (see ``hand_counts``)."""
    scale = options.meld_scale.values
    optional = options.optional_melds
    items: list[MeldItem] = []

    def add(kind: str, suit: Suit | None, level: int, extra: Rank | None = None) -> None:
        if level > 0:
            items.append(MeldItem(kind, suit, level, scale[kind][level - 1], extra))

    # Class A: in trump, the run takes one K and one Q; the rest pair into royal marriages.
    base = trump.index * 6
    trump_counts = counts[base:base + 6]
    runs = min(trump_counts[r] for r in RUN_RANKS)
    marriages = {suit: min(counts[suit.index * 6 + _K], counts[suit.index * 6 + _Q])
                 for suit in Suit}
    marriages[trump] -= runs

    # Class B: an around needs one copy of its rank in every suit.
    arounds = {kind: min(counts[s * 6 + rank] for s in range(4)) for kind, rank in AROUNDS}

    # Single kings and queens around already put a K and a Q in every suit.
    roundhouse = ("roundhouse" in optional and runs < 2
                  and arounds["kings-around"] == arounds["queens-around"] == 1)
    if roundhouse:
        # A marriage in every suit is both arounds of K and Q and one marriage per suit.
        add("roundhouse-with-run" if runs else "roundhouse", trump if runs else None, 1)
        arounds["kings-around"] = arounds["queens-around"] = 0
        for suit in Suit:
            if not (suit == trump and runs):
                marriages[suit] -= 1
        runs = 0
    elif runs == 1 and "run-with-extra-royal" in optional and marriages[trump] == 0:
        extra = next((RANKS[r] for r in (_K, _Q) if trump_counts[r] == 2), None)
        if extra is not None:
            add("run-with-extra-royal", trump, 1, extra)
            runs = 0
    add("run", trump, runs)
    add("royal-marriage", trump, marriages[trump])
    for suit in Suit:
        if suit != trump:
            add("marriage", suit, marriages[suit])
    add("dix", trump, trump_counts[_9])

    for kind, _rank in AROUNDS:
        add(kind, None, arounds[kind])

    # Class C: Q♠ J♦, its own class, so it shares cards with marriages and arounds freely.
    pinochles = min(counts[_QS], counts[_JD])
    if pinochles == 1 and "grand-pinochle" in optional and counts[_KS]:
        add("grand-pinochle", None, 1)
    else:
        add("pinochle", None, pinochles)
    return Meld(trump, tuple(items))


def evaluate(cards: Iterable[Card], trump: Suit, options: TableOptions = DEFAULT_OPTIONS) -> Meld:
    """Meld for a hand of cards; raise MeldError for a card that is not in the deck."""
    return evaluate_counts(hand_counts(cards), trump, options)


def best_trump(cards: Iterable[Card], options: TableOptions = DEFAULT_OPTIONS) -> Meld:
    """The trump suit that scores the most meld for this hand (ties go to S H D C order)."""
    counts = hand_counts(cards)
    return max((evaluate_counts(counts, suit, options) for suit in Suit), key=lambda m: m.total)


def team_totals(meld_by_seat: Mapping[Seat, Meld]) -> dict[str, int]:
    """Each side's meld: the sum of its two players' own melds."""
    return {side: sum(meld_by_seat[seat].total for seat in seats if seat in meld_by_seat)
            for side, seats in SIDES.items()}


def side_of(seat: Seat) -> str:
    return "NS" if seat in SIDES["NS"] else "EW"
