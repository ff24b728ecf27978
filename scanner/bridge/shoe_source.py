"""Verification from the shoe (Law 6F): each board's hands read back through the shoe and camera.

For each board, hand by hand, the operator puts the hand from one pocket of the board into the
hopper; the shoe feeds it card by card, the camera reads each card and the card goes back into
the same pocket, so the board is whole again afterwards. The hand ends when the hopper is
empty, so an irregular board (14–12, a card missing, a card twice) is read as it is: observed
hands are evidence, compared with the record by ``scanner.bridge.verify``. A card the camera
cannot read stops the reading with a prompt: the hand is never completed by a guess.

Every read and every return to a pocket is logged before the shoe moves on, under keys of this
reading run, and each board's result is logged with its evidence for the live page.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..cards import SEATS, Card, Seat
from ..events import BoardResult, BoardStarted, CardDelivered, CardRead, MachineFault
from ..history import DealHistory
from ..log import EventLog
from ..shoe.dealing import READ_SOURCE, READING_STOPS
from ..shoe.driver import HostState, Shoe
from ..shoe.errors import HopperEmpty, ShoeFault
from ..shoe.protocol import Flag
from ..shoe.virtual_camera import StationCamera
from . import repeats
from .board import Board
from .predeal import CAMERA_ERRORS, RULE_COPIES, STOPPED, flag_text
from .verify import MATCH, RULINGS, BoardComparison, verify_set, withheld

KEY_PREFIX = "readback:"


class ReadbackStopped(Exception):
    """The reading stopped at a card; ``prompt`` says which and what to do."""

    def __init__(self, board: int, seat: Seat, reason: str, prompt: str) -> None:
        super().__init__(prompt)
        self.board = board
        self.seat = seat
        self.reason = reason
        self.prompt = prompt


LoadHand = Callable[[int, Seat], None]


@dataclass
class ShoeReadback:
    """Observed hands read through the shoe: an ``ObservedSource`` for ``verify_set``.

    ``load_hand(board, seat)`` returns once that hand is in the hopper (a person pressing
    Enter, a hook). Boards are read with ``read_board``; ``observed`` answers from what was
    read, so asking again never reads again.
    """

    shoe: Shoe
    camera: StationCamera
    log: EventLog
    load_hand: LoadHand
    run: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    boards: dict[int, Board] = field(default_factory=dict)

    def observed(self, number: int) -> Board | None:
        return self.boards.get(number)

    def read_board(self, wanted: Board, position: int = 1, total: int = 1) -> Board:
        """Read all four hands of ``wanted``'s board; the record only gives the number,
        dealer and vulnerability, never a card."""
        number = wanted.number
        self.shoe.on_event = lambda event, key: self._machine_event(number, event, key)
        self.log.append(BoardStarted(number, "verify", 1, position, total),
                        key=f"{self.key(number)}:started")
        hands = []
        for seat in SEATS:
            self.load_hand(number, seat)
            hands.append(tuple(self._read_hand(number, seat)))
        board = Board(number, wanted.dealer, wanted.vulnerability,
                      (hands[0], hands[1], hands[2], hands[3]))
        self.boards[number] = board
        return board

    def key(self, number: int, *parts: object) -> str:
        """The log key of one step of this reading run."""
        return ":".join([f"{KEY_PREFIX}{self.run}:{number}", *map(str, parts)])

    def _machine_event(self, number: int, event: MachineFault, key: str) -> None:
        # The driver hands each machine event over before it goes on: log it first, once.
        full_key = self.key(number, "machine", key)
        if self.log.seq_of(full_key) is None:
            self.log.append(event, key=full_key)

    def _read_hand(self, number: int, seat: Seat) -> list[Card]:
        self.shoe.clear_counts()
        cards: list[Card] = []
        while self._next_card(number, seat, len(cards)):
            try:
                reading = self.camera.look()
            except CAMERA_ERRORS as exc:
                raise ReadbackStopped(number, seat, "camera", f"board {number}, hand {seat}, "
                                      f"card {len(cards) + 1}: the camera failed ({exc}): "
                                      "check it, then read this board again") from None
            card = reading.card if reading.face == "up" else None
            self.log.append(CardRead(card, reading.face, float(reading.confidence), READ_SOURCE),
                            key=self.key(number, seat, len(cards), "read"))
            if card is None:
                seen = "unreadable" if reading.face == "up" else reading.face
                reason, remedy = READING_STOPS[seen]
                raise ReadbackStopped(number, seat, reason,
                                      f"board {number}, hand {seat}, card {len(cards) + 1}: "
                                      f"{remedy}; then read this board again")
            self._route(number, seat, len(cards))
            self.log.append(CardDelivered(card, seat),
                            key=self.key(number, seat, len(cards), "back"))
            cards.append(card)
        return cards

    def _next_card(self, number: int, seat: Seat, done: int) -> bool:
        """Bring the next card to the read station; False once the hopper is empty."""
        self.shoe.refresh()
        if self.shoe.state is HostState.AT_STATION:
            return True
        if Flag.HOPPER_EMPTY in self.shoe.machine.flags:
            return False
        try:
            self.shoe.feed()
        except HopperEmpty:
            return False
        except ShoeFault as fault:
            raise ReadbackStopped(number, seat, fault.kind, f"board {number}, hand {seat}, "
                                  f"card {done + 1}: {fault.message}") from None
        return True

    def _route(self, number: int, seat: Seat, done: int) -> None:
        try:
            self.shoe.route(seat)
        except ShoeFault as fault:
            raise ReadbackStopped(number, seat, fault.kind, f"board {number}, hand {seat}, "
                                  f"card {done + 1}: {fault.message}") from None


def result_event(result: BoardComparison, history: str = "") -> BoardResult:
    """The logged form of a board's verification: status, laws, evidence and remedy."""
    return BoardResult(result.board, result.status, "verify", 1, ", ".join(result.laws()),
                       "\n".join(d["text"] for d in result.differences),
                       RULINGS[result.status][1], history)


def verify_through_shoe(readback: ShoeReadback, record_set: Sequence[Board],
                        numbers: Iterable[int],
                        session: str | None = None, withhold_cards: bool = False,
                        ) -> list[tuple[BoardComparison, dict | None]]:
    """Read boards ``numbers`` back through the shoe and verify each against the record.

    Each board's result is logged as it is known. With ``session``, each board is checked
    against the deal history (Law 6D2) and every matching board is recorded as verified.
    ``withhold_cards`` (a Sealed set) names seats and counts but no card, in the log too.
    Raises ReadbackStopped at a card that cannot be read, after logging the stop; the boards
    before it keep their results.
    """
    by_number = {board.number: board for board in record_set}
    wanted = list(numbers)
    history = DealHistory(readback.log) if session else None
    out = []
    for position, number in enumerate(wanted, start=1):
        try:
            readback.read_board(by_number[number], position, len(wanted))
        except ReadbackStopped as stop:
            readback.log.append(BoardResult(number, STOPPED, "verify", 1, RULE_COPIES,
                                            stop.prompt), key=f"{readback.key(number)}:stopped")
            raise
        result = verify_set(record_set, readback, [number])[0]
        if withhold_cards:
            result = withheld(result)
        flag = repeats.repeat_flag(history, by_number[number], session) if history and session \
            else None
        if history and session and result.status == MATCH:
            repeats.record(history, by_number[number], session, "verified")
        readback.log.append(result_event(result, flag_text(flag)),
                            key=f"{readback.key(number)}:result")
        out.append((result, flag))
    return out
