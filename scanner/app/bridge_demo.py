"""The demo behind `tablescan serve --demo --game bridge`: a small set pre-dealt and verified.

A set of wholly random boards is drawn from the OS CSPRNG (Law 6E4). Each board is
pre-dealt through the simulated shoe: a deck shuffled by the OS's secure RNG goes into the
hopper, the virtual camera reads every card at the read station and the real dealing loop
puts it in the pocket the set says. Then every board is read back hand by hand through the
shoe and verified against the set (Law 6F); the players of one board put a card back in the
wrong pocket, so the page shows a 14–12 and its remedy (the card withheld: spectators
must not learn the hands). The deals are recorded in the deal
history (Law 6D2) and the set's hands are audited. All of it is written to the log the page
follows, so what the page shows is what the log acknowledged.
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass
from pathlib import Path

from ..bridge.dealset import generate
from ..bridge.predeal import DEALT, Predeal, Step
from ..bridge.set_audit import audit_event
from ..bridge.shoe_source import ShoeReadback, verify_through_shoe
from ..cards import BRIDGE_52, SEATS, Seat
from ..live import LiveTable
from ..log import EventLog
from ..shoe.dealing import deck_check_for
from ..shoe.driver import Shoe
from ..shoe.simulator import Simulator
from ..shoe.virtual_camera import RESEATS, VirtualCamera
from .rig import RigDemo, SimulatedRig


@dataclass(frozen=True)
class BridgeDemoPace:
    """How fast the demo moves (tests set it near zero)."""

    card_motion_s: float = 0.03
    pause_s: float = 2.0
    boards: int = 4
    # The board whose players put a card back in the wrong pocket (0: none).
    misplaced_board: int = 2


class _Stopped(Exception):
    """The server is shutting down: the demo ends between two hands."""


class _SimulatedOperator:
    """The operator's hands at a simulated shoe: shuffled decks in, hands back in."""

    def __init__(self, sim: Simulator, folder: Path) -> None:
        self.sim = sim
        self.folder = folder
        self._rng = secrets.SystemRandom()
        self._loads = 0

    def _load(self, cards: list[str]) -> None:
        self._loads += 1
        path = self.folder / f"load-{self._loads}.txt"
        path.write_text("".join(f"{card}\n" for card in cards), encoding="utf-8")
        reply = self.sim.control(f"deck {path}")
        if not reply.startswith("ok"):
            raise RuntimeError(f"the simulated shoe refused the deck: {reply}")

    def load_deck(self, step: Step) -> None:
        deck = [str(card) for card in BRIDGE_52.cards()]
        self._rng.shuffle(deck)
        self._load(deck)

    def resumed(self, step: Step, at_card: int) -> None:
        pass

    def progress(self, step: Step, cards_done: int) -> None:
        pass

    def load_hand(self, cards: list[str]) -> None:
        self._load(cards)


class BridgeDemo(RigDemo):
    """Pre-deals and verifies one small set on a live table, in a thread."""

    thread_name = "tablescan-bridge-demo"

    def __init__(self, table: LiveTable, db: Path, pace: BridgeDemoPace = BridgeDemoPace()
                 ) -> None:
        super().__init__(table, db, pace.card_motion_s)
        self.pace = pace

    def play(self, rig: SimulatedRig) -> None:
        self._demo(rig.sim, rig.shoe, rig.camera, rig.log, rig.workdir)

    def _demo(self, sim: Simulator, shoe: Shoe, camera: VirtualCamera, log: EventLog,
              tmp: Path) -> None:
        boards = generate(range(1, self.pace.boards + 1))
        operator = _SimulatedOperator(sim, tmp)
        predeal = Predeal(shoe, camera, log, operator, lambda: deck_check_for(BRIDGE_52),
                          boards, copies=1, blind=True)
        outcomes = predeal.run(lambda outcome: None)
        for _ in range(RESEATS):
            last = outcomes[-1].deal if outcomes else None
            if last is None or last.status == "complete" or last.reason != "unreadable":
                break
            # The loop stopped rather than guess; the demo's operator re-seats the card and
            # the same copy resumes at it, as at a real shoe. Both show in the log.
            camera.reseat()
            outcomes = predeal.run(lambda outcome: None)
        dealt = [outcome for outcome in outcomes if outcome.status == DEALT]
        if len(dealt) != len(boards) or self._stop.wait(self.pace.pause_s):
            return
        log.append(audit_event(boards))
        in_board = self._boards_as_returned(sim, len(boards))

        def load_hand(number: int, seat: Seat) -> None:
            if self._stop.is_set():
                raise _Stopped
            operator.load_hand(in_board[number][seat])

        readback = ShoeReadback(shoe, camera, log, load_hand)
        with contextlib.suppress(_Stopped):
            verify_through_shoe(readback, boards, [b.number for b in boards], log.session,
                                withhold_cards=True)

    def _boards_as_returned(self, sim: Simulator, count: int) -> dict[int, dict[Seat, list[str]]]:
        """What lies in each board after play: the pockets as dealt (13 cards per pocket
        per board, in dealing order), with one card put back in the wrong pocket."""
        reply = sim.control("pockets")
        if not reply.startswith("ok"):
            raise RuntimeError(f"the simulated shoe did not list its pockets: {reply}")
        pockets = {}
        for item in reply.removeprefix("ok").split():
            name, _, cards = item.partition(":")
            pockets[Seat(name)] = [c for c in cards.split(",") if c]
        in_board = {number: {seat: pockets[seat][13 * (number - 1):13 * number]
                             for seat in SEATS} for number in range(1, count + 1)}
        wrong = self.pace.misplaced_board
        if wrong in in_board:
            in_board[wrong][Seat.E].append(in_board[wrong][Seat.N].pop())
        return in_board
