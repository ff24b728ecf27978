"""Bridge's rules of the deal (Laws 6–7), as data for the deal tracker.

Source: Laws of Duplicate Bridge 2017, Laws 6–8. Law 6B: one card at a time, four hands of thirteen;
clockwise rotation is only recommended, so any other order that never gives a hand two cards
in a row earns a note, not a fault. Law 6D1: a wrong deal or a card that could have been seen,
found before the auction begins, means a new shuffle and a redeal; found after, the director
rules. Law 6D2: no result stands for a deal from a sorted, unshuffled deck, or a deal already
played in another session. Law 7B1: each hand holds exactly thirteen.
"""

from __future__ import annotations

from ..cards import BRIDGE_52, Card, Rank, Suit
from ..events import Bid, Pass, TrumpNamed
from ..rules import (
    NEXT_EITHER_WAY,
    SAME,
    DealRules,
    Fault,
    SortedPattern,
    place_in,
    rank_of,
    suit_of,
)
from ..verdicts import DIRECTOR, NEEDS_REREAD, NEW_SHUFFLE_REDEAL, NO_RESULT, OK

_ACE_LOW = (Rank.A, Rank.R2, Rank.R3, Rank.R4, Rank.R5, Rank.R6, Rank.R7, Rank.R8, Rank.R9,
            Rank.T, Rank.J, Rank.Q, Rank.K)

# Two common new-pack orders. Either may come out of the box face up or face down, so the
# tracker counts neighbours in both directions.
# ♠A→♠2, ♥A→♥2, ♦A→♦2, ♣A→♣2: the order bridge software (DLM, DUP) numbers the cards in.
BRIDGE_ORDER: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in Rank)
# The American new-deck order: ♠A→♠K, ♦A→♦K, ♣K→♣A, ♥K→♥A.
NEW_DECK_ORDER: tuple[Card, ...] = (
    tuple(Card(r, Suit.S) for r in _ACE_LOW) + tuple(Card(r, Suit.D) for r in _ACE_LOW)
    + tuple(Card(r, Suit.C) for r in reversed(_ACE_LOW))
    + tuple(Card(r, Suit.H) for r in reversed(_ACE_LOW))
)

_WRONG_DEAL = Fault("Law 6D1", NEW_SHUFFLE_REDEAL, DIRECTOR)

FAULTS = {
    "packet-size": Fault("Law 6B", NEW_SHUFFLE_REDEAL, DIRECTOR),
    "first-packet-seat": Fault("Law 6B", OK, OK),
    "rotation": Fault("Law 6B", OK, OK),
    "exposed": _WRONG_DEAL,
    "count": Fault("Law 7B1", NEW_SHUFFLE_REDEAL, DIRECTOR),
    "missing": _WRONG_DEAL,
    "extra-copy": _WRONG_DEAL,
    "foreign": _WRONG_DEAL,
    "unread": Fault("Law 6B", NEEDS_REREAD, NEEDS_REREAD),
    "late-card": Fault("Law 6D1", DIRECTOR, DIRECTOR),
    "unshuffled": Fault("Law 6D2", NO_RESULT, NO_RESULT),
    "repeat": Fault("Law 6D2", NO_RESULT, NO_RESULT),
}

# A shuffled pack shows about 12 same-suit, 3 same-rank and 2 new-pack neighbours in 51
# consecutive pairs; a sorted pack dealt without a shuffle shows 36 to 51 (a cut costs one).
SORTED_PATTERNS = (
    SortedPattern("in new-pack order (♠A→♠2 ♥ ♦ ♣, or reversed)", place_in(BRIDGE_ORDER),
                  NEXT_EITHER_WAY, min_pairs=20, shuffled_mean=2.0),
    SortedPattern("in new-pack order (♠A→♠K ♦A→♦K ♣K→♣A ♥K→♥A, or reversed)",
                  place_in(NEW_DECK_ORDER), NEXT_EITHER_WAY, min_pairs=20, shuffled_mean=2.0),
    SortedPattern("sorted by suit", suit_of(BRIDGE_52), SAME, min_pairs=30, shuffled_mean=12.0),
    SortedPattern("sorted by rank", rank_of(BRIDGE_52), SAME, min_pairs=20, shuffled_mean=3.0),
)

BRIDGE_DEAL_RULES = DealRules(
    game="bridge",
    deck=BRIDGE_52,
    deal_rule="Law 6B",
    marker="auction-started",
    after_markers=frozenset({"auction-started", "bidding-ended"}),
    after_event_types=(Bid, Pass, TrumpNamed),
    packet_sizes=(1,),
    default_packet=1,
    faults=FAULTS,
    sorted_patterns=SORTED_PATTERNS,
    checks_repeats=True,
)
