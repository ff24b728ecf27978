"""Scripted bidders for the simulated table: each bids up to a simple estimate, then passes.

The estimate is the hand's best meld (over the four trumps it could name), the counters it
holds (a rough stand-in for the tricks it will take), and an allowance for the partner's
meld. It is a plausible table, not a strong one: the point is to drive the real auction rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cards import Card, Seat
from .auction import Auction
from .meld import best_trump
from .options import DEFAULT_OPTIONS, TableOptions

PARTNER_ALLOWANCE = 10


def estimate(hand: Sequence[Card], options: TableOptions = DEFAULT_OPTIONS) -> int:
    """What this hand, with an average partner, expects to make (in the table's units)."""
    counters = sum(options.counters.per_rank.get(card.rank, 0) for card in hand)
    allowance = PARTNER_ALLOWANCE * options.meld_scale.single("dix")
    return best_trump(hand, options).total + counters + allowance


def scripted_call(auction: Auction, hands: Mapping[Seat, Sequence[Card]],
                  options: TableOptions = DEFAULT_OPTIONS) -> int | None:
    """The call of the player whose turn it is: the cheapest bid within its estimate, or pass."""
    seat = auction.next_seat
    if seat is None:
        raise ValueError("the auction is over: nobody is to call")
    high = auction.high
    if high is not None and high.seat == seat.partner:
        return None  # never bid against the partner
    cheapest = auction.minimum if high is None else (high.amount or 0) + 1
    return cheapest if cheapest <= estimate(hands[seat], options) else None
