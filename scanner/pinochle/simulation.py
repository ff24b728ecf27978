"""A simulated pinochle table: the real tracker, auction, meld and score, with scripted players.

The deck is shuffled with the operating system's secure RNG; the cards are dealt in packets
of three through the deal tracker, every event logged through a ``TableSession``; scripted
players bid and name trump; the hand is played out trick by trick under the rules of play to
give the counters. Only the players are simulated: every ruling comes from the real parts.

Each step is reported to a ``Reporter`` so the command can print it and the tests can check it.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..cards import PINOCHLE_48, Card, Seat
from ..events import (
    Bid,
    CardDelivered,
    CountersTaken,
    HandStarted,
    Marker,
    Pass,
    Redeal,
    TrumpNamed,
)
from ..tracker import DealTracker
from ..verdicts import OK, Verdict
from .auction import Auction
from .bidders import scripted_call
from .meld import best_trump
from .play import Trick, play_hand
from .scoring import SIDES
from .session import TableSession
from .table import HandState, TableState

PACKET = 3


class Reporter(Protocol):
    def hand_started(self, state: TableState, deal: int) -> None: ...

    def ruling(self, verdict: Verdict, hands: dict[Seat, list[Card]]) -> None: ...

    def auction_over(self, hand: HandState) -> None: ...

    def meld_shown(self, hand: HandState) -> None: ...

    def played(self, hand: HandState, tricks: Sequence[Trick]) -> None: ...

    def scored(self, state: TableState) -> None: ...


@dataclass
class DemoTable:
    """Runs simulated hands on a logged table."""

    session: TableSession
    reporter: Reporter
    rng: random.Random = field(default_factory=secrets.SystemRandom)

    def play(self, hands: int, expose_first_deal: bool = False) -> TableState:
        for number in range(hands):
            self.play_hand(expose_at=self._exposure_point() if expose_first_deal and number == 0
                           else None)
        return self.session.state

    def play_hand(self, expose_at: int | None = None) -> None:
        """One hand from the shuffle to the score; a deal the tracker rejects is redealt."""
        state = self.session.state
        dealer = state.next_dealer or self.rng.choice(list(Seat))
        started = HandStarted("pinochle", dealer, PACKET, self.session.log.session)
        self.session.command(started)
        while True:
            self.reporter.hand_started(self.session.state, self.session.state.hand.deal)
            verdict, dealt = self.deal(started, expose_at)
            self.reporter.ruling(verdict, dealt)
            if verdict.status == OK:
                break
            # The ruling's remedy: gather the cards and redeal with the same dealer.
            self.session.command(Redeal(f"{verdict.rule}: {verdict.reason}", same_dealer=True))
            self.session.command(started)
            expose_at = None
        self.bid(dealt)
        self.name_trump(dealt)
        self.play_out(dealt)

    def deal(self, started: HandStarted, expose_at: int | None,
             ) -> tuple[Verdict, dict[Seat, list[Card]]]:
        """Shuffle and deal through the tracker, stopping at the first fault it rules on."""
        deck = PINOCHLE_48.cards()
        self.rng.shuffle(deck)
        tracker = DealTracker.for_hand(started)
        hands: dict[Seat, list[Card]] = {seat: [] for seat in Seat}
        order = started.dealer.left.clockwise_from()
        for index, card in enumerate(deck):
            seat = order[(index // PACKET) % len(order)]
            event = CardDelivered(card, seat, exposed=index == expose_at)
            self.session.observe(event)
            tracker.feed(event)
            hands[seat].append(card)
            if tracker.verdict().status != OK:
                return tracker.verdict(), hands
        return tracker.finish().verdict, hands

    def bid(self, hands: dict[Seat, list[Card]]) -> None:
        options = self.session.options
        while True:
            hand = self.session.state.hand
            # Before the first call the table has no auction yet: ask an empty one whose turn.
            auction = hand.auction or Auction(hand.dealer, minimum=options.minimum_bid,
                                              stick=options.stick_the_dealer)
            if auction.finished:
                break
            seat = auction.next_seat
            amount = scripted_call(auction, hands, options)
            self.session.command(Pass(seat) if amount is None else Bid(seat, amount))
        self.session.observe(Marker("bidding-ended"))
        self.reporter.auction_over(self.session.state.hand)

    def name_trump(self, hands: dict[Seat, list[Card]]) -> None:
        declarer = self.session.state.hand.declarer
        trump = best_trump(hands[declarer], self.session.options).trump
        self.session.command(TrumpNamed(declarer, trump))
        self.reporter.meld_shown(self.session.state.hand)

    def play_out(self, hands: dict[Seat, list[Card]]) -> None:
        hand = self.session.state.hand
        taken, tricks = play_hand(hands, hand.trump, hand.dealer.left,
                                  self.session.options.counters)
        self.reporter.played(hand, tricks)
        for side in SIDES:
            self.session.command(CountersTaken(side, taken[side].points, taken[side].tricks))
        self.reporter.scored(self.session.state)

    def _exposure_point(self) -> int:
        """Somewhere in the middle of the deal, where a card slips face up."""
        return self.rng.randrange(PACKET * 4, PINOCHLE_48.size - PACKET * 4)
