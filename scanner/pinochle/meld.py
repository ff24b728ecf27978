"""Meld: what one player's twelve cards score once trump is named.

A hand is held as counts per card: 24 distinct pinochle cards, 0..2 copies each, so a
meld is small integer arithmetic over that vector (the table has to keep up with a
scorekeeper tapping through hands; see bench/pinochle_meld.py).

The card-sharing rule is the common one of four-handed partnership pinochle: melds fall
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
_SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_INDEX = {suit: i for i, suit in enumerate(_SUITS)}
_SUIT_BASES = tuple(i * 6 for i in range(len(_SUITS)))

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
        return _meld_text(self.kind, self.suit, self.level, self.extra)[0]

    @property
    def cards(self) -> tuple[Card, ...]:
        return _meld_cards(self.kind, self.suit, self.level, self.extra)

    def to_dict(self) -> dict[str, Any]:
        name, cards = _meld_text(self.kind, self.suit, self.level, self.extra)
        return {"name": name, "points": self.points, "cards": list(cards)}


@cache
def _meld_text(kind: str, suit: Suit | None, level: int,
               extra: Rank | None) -> tuple[str, tuple[str, ...]]:
    """A meld's display name and its cards as text (there are only a few hundred of them)."""
    name = _NAMES[kind][level - 1].format(
        suit=_SUIT_SINGULAR[suit] if suit else "",
        extra={Rank.K: "king", Rank.Q: "queen"}.get(extra, ""))
    return name, tuple(str(c) for c in _meld_cards(kind, suit, level, extra))


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
    """Meld for a hand given as 24 counts (see ``hand_counts``).

    Written as plain indexing over the vector: this runs for every player on every trump
    the page or the demo considers (bench/pinochle_meld.py).
    """
    scale = options.meld_scale.values
    optional = options.optional_melds
    items: list[MeldItem] = []
    t = _SUIT_INDEX[trump]

    # Class A: in trump, the run takes one K and one Q; the rest pair into royal marriages.
    base = t * 6
    runs = min(counts[base], counts[base + 1], counts[base + 2], counts[base + 3],
               counts[base + 4])
    marriages = [min(counts[s + _K], counts[s + _Q]) for s in _SUIT_BASES]
    marriages[t] -= runs

    # Class B: an around needs one copy of its rank in every suit.
    arounds = [min(counts[r], counts[r + 6], counts[r + 12], counts[r + 18])
               for _, r in AROUNDS]

    if optional:
        runs = _optional_class_a(counts, trump, runs, marriages, arounds, optional, items,
                                 scale)
    if runs:
        items.append(MeldItem("run", trump, runs, scale["run"][runs - 1]))
    for s, level in enumerate(marriages):
        if level:
            kind = "royal-marriage" if s == t else "marriage"
            items.append(MeldItem(kind, _SUITS[s], level, scale[kind][level - 1]))
    dix = counts[base + _9]
    if dix:
        items.append(MeldItem("dix", trump, dix, scale["dix"][dix - 1]))
    for (kind, _), level in zip(AROUNDS, arounds, strict=True):
        if level:
            items.append(MeldItem(kind, None, level, scale[kind][level - 1]))

    # Class C: Q♠ J♦, its own class, so it shares cards with marriages and arounds freely.
    pinochles = min(counts[_QS], counts[_JD])
    # Grand pinochle (K♠ Q♠ J♦) improves a single pinochle; a double pinochle stays 30.
    if pinochles == 1 and "grand-pinochle" in optional and counts[_KS]:
        items.append(MeldItem("grand-pinochle", None, 1, scale["grand-pinochle"][0]))
    elif pinochles:
        items.append(MeldItem("pinochle", None, pinochles, scale["pinochle"][pinochles - 1]))
    return Meld(trump, tuple(items))


def _optional_class_a(counts: Counts, trump: Suit, runs: int, marriages: list[int],
                      arounds: list[int], optional: frozenset[str], items: list[MeldItem],
                      scale: Mapping[str, tuple[int, int]]) -> int:
    """Roundhouse and run-with-extra-royal: they absorb melds, so return the runs left."""
    t = _SUIT_INDEX[trump]
    kings, queens = arounds[1], arounds[2]
    # Single kings and queens around already put a K and a Q in every suit.
    if "roundhouse" in optional and runs < 2 and kings == queens == 1:
        # A marriage in every suit is both arounds of K and Q and one marriage per suit;
        # with a run, the run stands in for the trump marriage.
        kind = "roundhouse-with-run" if runs else "roundhouse"
        items.append(MeldItem(kind, trump if runs else None, 1, scale[kind][0]))
        arounds[1] = arounds[2] = 0
        for s in range(4):
            if not (s == t and runs):
                marriages[s] -= 1
        return 0
    if runs == 1 and "run-with-extra-royal" in optional and marriages[t] == 0:
        base = t * 6
        extra = next((RANKS[r] for r in (_K, _Q) if counts[base + r] == 2), None)
        if extra is not None:
            items.append(MeldItem("run-with-extra-royal", trump, 1,
                                  scale["run-with-extra-royal"][0], extra))
            return 0
    return runs


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
