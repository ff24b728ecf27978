"""Verification from the shoe (Law 6F): each board's hands read back through the shoe and camera.

For each board, hand by hand, the operator puts the hand from one pocket of the board into the
hopper; the shoe feeds it card by card, the camera reads each card and the card goes back into
the same pocket, so the board is whole again afterwards. The hand ends when the hopper is
empty, so an irregular board (14–12, a card missing, a card twice) is read as it is: observed
hands are evidence, compared with the record by ``scanner.bridge.verify``. A card the camera
cannot read stops the reading with a prompt: the hand is never completed by a guess.

Each card goes through the read station (``scanner.shoe.station``), which logs its read before
the shoe moves it and its return to the pocket after, under keys of this reading run and hand;
each board's result is logged with its evidence for the live page.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..cards import SEATS, Card, Seat
from ..events import BoardResult, BoardStarted, MachineFault
from ..history import DealHistory
from ..log import EventLog
from ..shoe.driver import Shoe
from ..shoe.errors import ShoeFault
from ..shoe.station import Station, StationStop
from ..shoe.virtual_camera import StationCamera
from . import repeats
from .board import Board
from .predeal import CAMERA_ERRORS, RULE_COPIES, STOPPED, flag_text
from .verify import RULINGS, BoardComparison, verify_set, withheld

KEY_PREFIX = "readback:"


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
        """Every card of one hand through the station and back into the same pocket."""
        self.shoe.clear_counts()
        station = Station(self.shoe, self.camera, self.log, self.key(number, seat))
        cards: list[Card] = []
        while True:
            where = f"board {number}, hand {seat}, card {len(cards) + 1}"
            try:
                if not station.bring_card(until_hopper_empty=True):
                    return cards
                card, _ = station.pass_card(len(cards), where, lambda card: seat)
            except StationStop as stop:
                raise StationStop(stop.reason, f"{stop.prompt}; then read this board again",
                                  stop.resumable, board=number, seat=seat) from None
            except CAMERA_ERRORS as exc:
                raise StationStop("camera", f"{where}: the camera failed ({exc}): check it, "
                                  "then read this board again", True, board=number,
                                  seat=seat) from None
            except ShoeFault as fault:
                raise StationStop(fault.kind, f"{where}: {fault.message}", fault.resumable,
                                  board=number, seat=seat) from None
            cards.append(card)


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
    against the deal history (Law 6D2) and recorded in it: a matching board as verified, any
other copy as found (fouled).
    ``withhold_cards`` (a Sealed set) names seats and counts but no card, in the log too.
    Raises StationStop at a card that cannot be read, after logging the stop; the boards
    before it keep their results.
    """
    by_number = {board.number: board for board in record_set}
    wanted = list(numbers)
    history = DealHistory(readback.log) if session else None
    out = []
    for position, number in enumerate(wanted, start=1):
        try:
            readback.read_board(by_number[number], position, len(wanted))
        except StationStop as stop:
            readback.log.append(BoardResult(number, STOPPED, "verify", 1, RULE_COPIES,
                                            stop.prompt), key=f"{readback.key(number)}:stopped")
            raise
        result = verify_set(record_set, readback, [number])[0]
        if withhold_cards:
            result = withheld(result)
        flag = repeats.repeat_flag(history, by_number[number], session) if history and session \
            else None
        if history and session:
            repeats.record_verification(history, by_number[number], readback.observed(number),
                                        session, result.status)
        readback.log.append(result_event(result, flag_text(flag)),
                            key=f"{readback.key(number)}:result")
        out.append((result, flag))
    return out
