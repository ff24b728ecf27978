"""A simulated pinochle table: the real tracker, auction, meld and score, with scripted players.

The deck is shuffled with the operating system's secure RNG; the cards are dealt in packets
of three through the deal tracker, every event logged through the live table
(``scanner.live.LiveTable``, the host the web page uses too); the scripted players
(``scanner.app.players``) bid and name trump, and the hand is played out trick by trick
under the rules of play to give the counters. Only the players are simulated: every ruling
comes from the real parts. This is the demo without a shoe; ``pinochle_demo`` deals the same
players' hands through the simulated shoe.

Each step is reported to a ``Reporter`` so the command can print it and the tests can check it.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..cards import PINOCHLE_48, Card, Seat
from ..events import CardDelivered, HandStarted, Marker
from ..live import LiveTable
from ..pinochle.play import Trick
from ..pinochle.table import HandState, TableState
from ..tracker import DealTracker
from ..verdicts import OK, Verdict
from .players import auction_over, next_call, played_out, trump_choice

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
    """Runs simulated hands on a live table."""

    table: LiveTable
    reporter: Reporter
    rng: random.Random = field(default_factory=secrets.SystemRandom)

    @property
    def state(self) -> TableState:
        return self.table.state

    def play(self, hands: int, expose_first_deal: bool = False) -> TableState:
        for number in range(hands):
            self.play_hand(expose_at=self._exposure_point() if expose_first_deal and number == 0
                           else None)
        return self.state

    def play_hand(self, expose_at: int | None = None) -> None:
        """One hand from the shuffle to the score; a deal the tracker rejects is redealt."""
        dealer = self.state.next_dealer or self.rng.choice(list(Seat))
        started = HandStarted("pinochle", dealer, PACKET, self.table.session)
        self.table.record([started])
        while True:
            self.reporter.hand_started(self.state, self.state.hand.deal)
            verdict, dealt = self.deal(started, expose_at)
            self.reporter.ruling(verdict, dealt)
            if verdict.status == OK:
                break
            # The ruling's remedy: gather the cards and redeal with the same dealer.
            self.table.act("redeal", {})
            self.table.record([started])
            expose_at = None
        self.bid()
        self.name_trump()
        self.play_out()

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
            self.table.record([event])
            tracker.feed(event)
            hands[seat].append(card)
            if tracker.verdict().status != OK:
                return tracker.verdict(), hands
        return tracker.finish().verdict, hands

    def bid(self) -> None:
        while not auction_over(self.state):
            self.table.act(*next_call(self.state))
        self.table.record([Marker("bidding-ended")])
        self.reporter.auction_over(self.state.hand)

    def name_trump(self) -> None:
        self.table.act(*trump_choice(self.state))
        self.reporter.meld_shown(self.state.hand)

    def play_out(self) -> None:
        counters, tricks = played_out(self.state)
        self.reporter.played(self.state.hand, tricks)
        self.table.act(*counters)
        self.reporter.scored(self.state)

    def _exposure_point(self) -> int:
        """Somewhere in the middle of the deal, where a card slips face up."""
        return self.rng.randrange(PACKET * 4, PINOCHLE_48.size - PACKET * 4)
