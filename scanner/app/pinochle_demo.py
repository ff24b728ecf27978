"""The demo table behind `tablescan serve --demo`: the whole pipeline, with scripted players.

Each hand is shuffled with the OS's secure RNG and loaded into the simulated shoe. The shoe
feeds every card to its read station, where the virtual camera renders it as a frame and the
vision reader reads it; the dealing loop routes it to the seat the pinochle deal order says
and logs it. The page follows the log, so what it shows is what the log acknowledged. Scripted
players then bid, the declarer names the trump that melds best, the hand is played out by a
simple trick-taking strategy, and the counters are entered like an operator would. Now and
then a card is reported exposed mid-deal, and the table sees the redeal ruling and the
same dealer deal again.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from pathlib import Path

from ..cards import PINOCHLE_48, Card, Seat
from ..events import HandStarted
from ..live import LiveTable, TableBusy
from ..log import EventLog
from ..pinochle.live_game import DEMO_MODES, REDEAL_STATUSES, PinochleGame, hand_verdict
from ..shoe.deal_plan import LiveDeal
from ..shoe.dealing import DealOutcome, ShoeDeal, deal_deck
from ..shoe.driver import Shoe
from ..shoe.simulator import Simulator
from ..shoe.virtual_camera import RESEATS, VirtualCamera
from ..vision.deckcheck import DeckCheck
from .players import next_call, played_out, trump_choice
from .rig import RigDemo, SimulatedRig


@dataclass(frozen=True)
class DemoPace:
    """How fast the demo moves, so a person can follow it (tests set everything near zero)."""

    card_motion_s: float = 0.04
    call_s: float = 0.8
    pause_s: float = 3.0
    expose_every: int = 4


WAITING_FOR_A_DEAL = ("scored", "thrown-in", "redeal")


class PinochleDemo(RigDemo):
    """Deals pinochle hands through the simulated shoe onto a live table until stopped.

    ``mode="auto"``: scripted players bid, declare, play and score, and every
    ``expose_every``-th hand a card is reported exposed mid-deal. ``mode="deal"``: the shoe
    deals each hand and the operator plays it from the page.
    """

    def __init__(self, table: LiveTable, game: PinochleGame, db: Path, mode: str = "auto",
                 pace: DemoPace = DemoPace()) -> None:
        if mode not in DEMO_MODES:
            raise ValueError(f"demo mode must be one of {DEMO_MODES}, not {mode!r}")
        super().__init__(table, db, pace.card_motion_s)
        self.game = game
        self.mode = mode
        self.pace = pace
        self._rng = secrets.SystemRandom()
        self._deals = 0

    def play(self, rig: SimulatedRig) -> None:
        while not self._stop.is_set():
            self._step(rig.sim, rig.shoe, rig.camera, rig.log, rig.workdir)

    def _wait(self, seconds: float) -> bool:
        return not self._stop.wait(seconds)

    def _step(self, sim: Simulator, shoe: Shoe, camera: VirtualCamera, log: EventLog,
              tmp: Path) -> None:
        hand = self.table.state.hand
        if hand is None or hand.phase in WAITING_FOR_A_DEAL:
            if hand is not None and not self._wait(self.pace.pause_s):
                return
            self._deal(sim, shoe, camera, log, tmp)
        elif hand.phase == "deal" and not hand.cards and not hand.unread:
            # The operator announced the hand ("next hand"): the shoe deals into it.
            self._deal(sim, shoe, camera, log, tmp, announced=_last_hand_start(log))
        elif self.mode == "auto":
            self._play_scripted()
        else:
            self._wait(0.05)

    def _play_scripted(self) -> None:
        verdict = hand_verdict(self.table.state)
        if verdict and verdict["status"] in REDEAL_STATUSES:
            if self._wait(self.pace.pause_s):
                self.table.act("redeal", {})
            return
        self._auction()
        self._declare_and_play()

    def _deal(self, sim: Simulator, shoe: Shoe, camera: VirtualCamera, log: EventLog,
              tmp: Path, announced: int | None = None) -> None:
        """Deal a hand through the shoe: a new one, or (``announced``: the sequence number of
        its hand-started event) the one the operator has already announced."""
        state = self.table.state
        if announced is not None and state.hand is not None:
            dealer = state.hand.dealer
        else:
            dealer = state.next_dealer or self.game.first_dealer
        self._deals += 1
        deck = PINOCHLE_48.cards()
        self._rng.shuffle(deck)
        deck_file = tmp / f"deal-{self._deals}.txt"
        deck_file.write_text("".join(f"{card}\n" for card in deck))
        sim.control(f"deck {deck_file}")
        shoe.clear_counts()
        exposer = None
        if self.mode == "auto" and self.pace.expose_every and \
                self._deals % self.pace.expose_every == 0:
            exposer = threading.Thread(target=self._expose_midway, args=(deck[0], dealer),
                                       name="tablescan-demo-exposure", daemon=True)
            exposer.start()
        hand = HandStarted("pinochle", dealer, self.game.packet, self.table.session)
        plan = LiveDeal.for_game("pinochle", dealer, self.game.packet)

        def deal(resume: bool) -> DealOutcome:
            if announced is None:
                return deal_deck(shoe, camera, plan, log, hand=hand, resume=resume,
                                 deck_check_factory=lambda: DeckCheck(PINOCHLE_48))
            into = ShoeDeal(shoe, camera, plan, log, lambda: DeckCheck(PINOCHLE_48), hand)
            into.resume_from(announced)
            return into.run()

        result = deal(resume=False)
        for _ in range(RESEATS):
            if result.status == "complete" or result.reason != "unreadable":
                break
            # The loop stopped rather than guess; the demo's operator re-seats the card and
            # the same deal resumes at it, as at a real shoe. Both show in the log.
            camera.reseat()
            result = deal(resume=True)
        if exposer is not None:
            exposer.join()
        if result.status != "complete":
            raise RuntimeError(f"the demo deal stopped: {result.reason}: {result.prompt}")
        self.table.wait_for_change(self.table.snapshot()[0], timeout=0.5)

    def _expose_midway(self, card: Card, dealer: Seat) -> None:
        """A player flashes a card once half the deck is out, and the operator reports it."""
        half = PINOCHLE_48.size // 2
        version = -1
        while not self._stop.is_set():
            version = self.table.wait_for_change(version, timeout=0.5)
            hand = self.table.state.hand
            if hand is None or hand.dealer != dealer or hand.phase not in ("deal", "redeal"):
                continue
            if sum(len(cards) for cards in hand.cards.values()) >= half:
                try:
                    self.table.act("expose", {"card": str(card), "seat": dealer.left.value})
                except TableBusy:
                    continue  # cards were still landing: the operator reports it again
                return

    def _auction(self) -> None:
        while self._wait(self.pace.call_s):
            hand = self.table.state.hand
            if hand is None or hand.phase not in ("deal", "auction"):
                return
            self.table.act(*next_call(self.table.state))

    def _declare_and_play(self) -> None:
        hand = self.table.state.hand
        if hand is None or hand.declarer is None or hand.phase != "trump":
            return
        self.table.act(*trump_choice(self.table.state))
        if not self._wait(self.pace.pause_s):
            return
        counters, _ = played_out(self.table.state)
        self.table.act(*counters)


def _last_hand_start(log: EventLog) -> int:
    """The sequence number of this sitting's latest hand-started event."""
    row = log.connection.execute(
        "SELECT MAX(seq) FROM events WHERE type = ? AND session = ?",
        (HandStarted.type, log.session)).fetchone()
    return int(row[0])
