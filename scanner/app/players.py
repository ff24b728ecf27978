"""Scripted players for the demos: what the seat whose turn it is does now, as a table action.

Each function reads the table state and returns the action an operator would enter for the
players (``LiveTable.act(name, params)``), so the scripted hands go through the same checks
as a real table's. Only the players are simulated: the auction, meld and score are the rules'.
"""

from __future__ import annotations

from typing import Any

from ..pinochle.auction import Auction
from ..pinochle.bidders import scripted_call
from ..pinochle.meld import best_trump
from ..pinochle.play import Trick, play_hand
from ..pinochle.scoring import SIDES
from ..pinochle.table import HandState, TableState

Action = tuple[str, dict[str, Any]]


def _hand(state: TableState) -> HandState:
    if state.hand is None:
        raise ValueError("no hand has started")
    return state.hand


def auction_over(state: TableState) -> bool:
    auction = _hand(state).auction
    return auction is not None and auction.finished


def next_call(state: TableState) -> Action:
    """The call of the seat whose turn it is: a bid, or a pass."""
    hand = _hand(state)
    # Before the first call the table has no auction yet: ask an empty one whose turn.
    auction = hand.auction or Auction(hand.dealer, minimum=state.options.minimum_bid,
                                      stick=state.options.stick_the_dealer)
    call = scripted_call(auction, hand.cards, state.options)
    return ("pass", {}) if call is None else ("bid", {"amount": call})


def trump_choice(state: TableState) -> Action:
    """The declarer names the trump that melds best."""
    hand = _hand(state)
    if hand.declarer is None:
        raise ValueError("trump is named by the declarer, after the auction")
    return ("trump", {"suit": best_trump(hand.cards[hand.declarer], state.options).trump.value})


def played_out(state: TableState) -> tuple[Action, list[Trick]]:
    """Play the hand out trick by trick; the counters each side took, and the tricks."""
    hand = _hand(state)
    if hand.trump is None:
        raise ValueError("the hand is played once trump is named")
    taken, tricks = play_hand(hand.cards, hand.trump, hand.dealer.left, state.options.counters)
    params: dict[str, Any] = {side: taken[side].points for side in SIDES}
    params.update({f"tricks_{side}": taken[side].tricks for side in SIDES})
    return ("counters", params), list(tricks)
