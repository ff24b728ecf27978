"""Which tests run on which evidence, and the audit that runs them.

Order-based tests need the dealing order read card by card; they are by far the stronger
evidence. Hand-only tests look at a set of boards' shapes, two-sided, because a poor shuffle
can make hands too wild (neat riffles of a new pack) or too flat (tricks gathered, then
barely shuffled). Which tests apply is decided by the table below, from the deck and the
prior order, never by the result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import BRIDGE_52, PINOCHLE_48, Card, DeckSpec, Suit
from . import statistics as stat
from .distribution import Distribution
from .hand_nulls import (
    hand_freakness,
    has_big_fit,
    session_big_fit_null,
    session_freakness_null,
)
from .order_nulls import (
    Component,
    folded_rising_sequences_null,
    neighbour_count_null,
    suit_folded_rising_sequences_null,
)
from .report import DEFAULT_FALSE_ALARM_RATE, AuditReport, AuditVerdict, TestResult, bonferroni


@dataclass(frozen=True)
class Prior:
    """What the deck looked like before the shuffle.

    ``new-pack``: a new pack, suits in an unknown order, each suit running A..K or K..A.
    ``stated``: a known order (``cards``), e.g. the previous hand's cards as gathered.
    ``none``: unknown; only the reference-free tests run.
    """

    kind: str
    cards: tuple[Card, ...] = ()
    source: str = ""


NEW_PACK = Prior("new-pack", source="new pack, suit order and direction unknown")
NO_PRIOR = Prior("none", source="no prior order")


@dataclass(frozen=True)
class DealtOrder:
    """One deal's cards in the order they left the deck, and where it came from."""

    cards: tuple[Card, ...]
    deck: DeckSpec
    scope: dict[str, Any]


# What a test measures on one order: its statistic, the exact null, and details to show.
Measured = tuple[int, Distribution, dict[str, Any]]


@dataclass(frozen=True)
class OrderTest:
    """One order-based test: when it applies, how it measures, which tail alarms, how its
    null was obtained, and its weight in sharing out the false-alarm rate."""

    name: str
    applies: Callable[[DeckSpec, Prior], bool]
    measure: Callable[[Sequence[Card], DeckSpec, Prior], Measured]
    tail: str
    null: str
    weight: float = 1.0


# The test that is most powerful against riffles gets twice the share of the false-alarm rate.
STRONGEST = 2.0


def _distinct(deck: DeckSpec) -> bool:
    return all(n == 1 for _, n in deck.counts)


def _suit_sizes(deck: DeckSpec) -> dict[Suit, int]:
    sizes = dict.fromkeys(Suit, 0)
    for card, n in deck.counts:
        sizes[card.suit] += n
    return sizes


def _rising_sequences(order: Sequence[Card], deck: DeckSpec, prior: Prior) -> Measured:
    r = stat.rising_sequences(order, prior.cards)
    n = len(order)
    direction = "as stated" if r <= (n + 1) / 2 else "reversed"
    return (stat.folded(r, n + 1), folded_rising_sequences_null(n),
            {"rising_sequences": r, "prior_direction": direction, "prior": prior.source})


def _new_pack(order: Sequence[Card], deck: DeckSpec, prior: Prior) -> Measured:
    t, per_suit = stat.new_pack_statistic(order)
    return t, suit_folded_rising_sequences_null(4, 13), {"rising_sequences_by_suit": per_suit}


def _successor_pairs(order: Sequence[Card], deck: DeckSpec, prior: Prior) -> Measured:
    count = stat.neighbour_count(order, stat.successor_in(prior.cards))
    null = neighbour_count_null(len(order), (Component("path", len(order), directed=True),))
    return count, null, {"prior": prior.source}


def _same_suit_adjacent_rank(order: Sequence[Card], deck: DeckSpec, prior: Prior) -> Measured:
    graph = tuple(Component("path", 13) for _ in Suit)
    return (stat.neighbour_count(order, stat.same_suit_adjacent_rank),
            neighbour_count_null(deck.size, graph), {})


def _same_suit(order: Sequence[Card], deck: DeckSpec, prior: Prior) -> Measured:
    graph = tuple(Component("clique", n) for n in _suit_sizes(deck).values())
    return stat.neighbour_count(order, stat.same_suit), neighbour_count_null(deck.size, graph), {}


def _identical(order: Sequence[Card], deck: DeckSpec, prior: Prior) -> Measured:
    graph = tuple(Component("clique", n) for _, n in deck.counts if n > 1)
    return stat.neighbour_count(order, stat.identical), neighbour_count_null(deck.size, graph), {}


ORDER_TESTS: tuple[OrderTest, ...] = (
    OrderTest("rising-sequences",
              lambda deck, prior: prior.kind == "stated" and _distinct(deck),
              _rising_sequences, "lower",
              "exact: Eulerian numbers, folded as min(R, n+1-R)", STRONGEST),
    OrderTest("new-pack-suit-rising-sequences",
              lambda deck, prior: prior.kind == "new-pack" and deck == BRIDGE_52,
              _new_pack, "lower",
              "exact: sum over 4 suits of folded Eulerian(13)", STRONGEST),
    OrderTest("successor-pairs",
              lambda deck, prior: prior.kind == "stated" and _distinct(deck),
              _successor_pairs, "two-sided",
              "exact: inclusion-exclusion over runs of the prior order"),
    OrderTest("same-suit-adjacent-rank-neighbours",
              lambda deck, prior: deck == BRIDGE_52,
              _same_suit_adjacent_rank, "two-sided",
              "exact: inclusion-exclusion over runs of each suit's rank path"),
    OrderTest("same-suit-neighbours",
              lambda deck, prior: True,
              _same_suit, "two-sided",
              "exact: inclusion-exclusion over linear forests of each suit"),
    OrderTest("identical-card-neighbours",
              lambda deck, prior: not _distinct(deck),
              _identical, "two-sided",
              "exact: inclusion-exclusion over pairs of identical copies"),
)


def order_tests(deal: DealtOrder, prior: Prior) -> list[TestResult]:
    """Every order-based test that applies to this deck and prior, not yet levelled."""
    results = []
    for test in ORDER_TESTS:
        if not test.applies(deal.deck, prior):
            continue
        statistic, null, detail = test.measure(deal.cards, deal.deck, prior)
        results.append(TestResult(test.name, statistic, test.tail, null, test.null,
                                  scope=deal.scope, detail=detail, weight=test.weight))
    return results


def hand_tests(boards: Sequence[Sequence[Sequence[Card]]], numbers: Sequence[int | str],
               hide_hands: bool = False) -> list[TestResult]:
    """The two-sided session tests on a set of bridge deals (hands in N E S W order).

    ``hide_hands`` (a Sealed set) leaves out the per-board figures, which would tell an
    operator who must not see the hands something about their shapes.
    """
    scope = {"boards": len(boards)}
    tables = [stat.shape(hands) for hands in boards]
    freakness = [sum(hand_freakness(lengths) for lengths in table) for table in tables]
    fits = [str(n) for n, table in zip(numbers, tables, strict=True) if has_big_fit(table)]
    per_board = dict(zip(map(str, numbers), freakness, strict=True))
    return [
        TestResult("session-freakness", sum(freakness), "two-sided",
                   session_freakness_null(len(boards)),
                   "exact: suit-length tables by multinomials, convolved over boards",
                   scope=scope, detail={} if hide_hands else {"per_board": per_board}),
        TestResult("session-big-fits", len(fits), "two-sided",
                   session_big_fit_null(len(boards)),
                   "exact: binomial, per-deal chance of a 10+ fit from suit-length tables",
                   scope=scope, detail={} if hide_hands else {"boards_with_10_card_fit": fits}),
    ]


# Rule, and what to do, when an audit alarms: data, by deck and kind of evidence.
VERDICTS: dict[tuple[str, str], tuple[str, str]] = {
    (BRIDGE_52.name, "order"): (
        "Law 6D2 (no result may stand if dealt without shuffle from a sorted deck); Law 6A",
        "call the director: the deal was not randomized from its prior condition, so no "
        "result may stand (Law 6D2); shuffle the pack thoroughly before any new deal (Law 6A)"),
    (BRIDGE_52.name, "hands"): (
        "Law 6A (each pack thoroughly shuffled); Law 6E (pre-dealing)",
        "call the director: withdraw the set and deal it again from thoroughly shuffled "
        "packs or by a wholly random computer deal (Law 6E4); boards already played in "
        "a session stand or not at the director's ruling (Law 6D2)"),
    (PINOCHLE_48.name, "order"): (
        "Setup & Deal: Shuffle and cut (the dealer shuffles the complete deck)",
        "gather the cards; the dealer shuffles the complete deck thoroughly and deals again"),
}


def _verdict(deck: DeckSpec, kind: str, results: Sequence[TestResult]) -> AuditVerdict | None:
    alarms = [r for r in results if r.alarm]
    if not alarms:
        return None
    rule, remedy = VERDICTS[(deck.name, kind)]
    evidence = "; ".join(
        f"{r.name}{_where(r)} = {r.statistic} (p = {r.p_value:.3g} <= level {r.level:.3g})"
        for r in alarms)
    return AuditVerdict(rule, evidence, remedy)


def _where(result: TestResult) -> str:
    if "deal" in result.scope:
        return f" [deal {result.scope['deal']}]"
    return ""


def audit_orders(deals: Sequence[DealtOrder], prior: Prior = NEW_PACK,
                 rate: float = DEFAULT_FALSE_ALARM_RATE,
                 notes: Sequence[str] = ()) -> AuditReport:
    """Audit one or more dealing orders; the rate is split over every test on every deal.

    The nulls assume only a uniformly random deck, never the prior, so the rate holds
    whatever prior is stated; a wrong prior only costs power.
    """
    decks = {deal.deck for deal in deals}
    if len(decks) != 1:
        raise ValueError(f"audit one deck at a time, not {len(decks)}")
    deck = decks.pop()
    results: list[TestResult] = []
    for deal in deals:
        results.extend(order_tests(deal, prior))
    levelled = bonferroni(results, rate)
    notes = list(notes)
    if prior.kind == "stated" and not _distinct(deck):
        notes.append(f"the prior order is not used for the {deck.name} deck: identical copies "
                     "make rising sequences and successor pairs ambiguous")
    return AuditReport(rate, levelled, _verdict(deck, "order", levelled), tuple(notes))


def audit_boards(boards: Sequence[Sequence[Sequence[Card]]], numbers: Sequence[int | str],
                 rate: float = DEFAULT_FALSE_ALARM_RATE, hide_hands: bool = False) -> AuditReport:
    """Audit a set of bridge deals from their hands alone (hands in N E S W order)."""
    if not boards:
        raise ValueError("no boards to audit")
    levelled = bonferroni(hand_tests(boards, numbers, hide_hands), rate)
    notes = ("hand-only tests are weak: a new pack given 3 riffles already looks random by "
             "shape; audit the dealing order when it was read",)
    return AuditReport(rate, levelled, _verdict(BRIDGE_52, "hands", levelled), notes)
