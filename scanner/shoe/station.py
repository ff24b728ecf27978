"""One card through the shoe's read station: feed, look, log the read, choose the pocket, route,
log the delivery; or stop with a prompt for a person.

Every way the shoe handles cards passes them through here one at a time: a pinochle or bridge
deal and a pre-dealt board (``scanner.shoe.dealing``), and a board read back to verify it
(``scanner.bridge.shoe_source``). The read is logged before the card moves and the delivery
right after, under one key scheme, so a run resumed with the same key base never logs a step
twice and starts again at the exact card:

    {base}:{position}:read:{attempt}     each look at the card in position ``position`` (0 up)
    {base}:{position}:delivered          the card routed to its pocket
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card, Seat
from ..events import CardDelivered, CardRead
from ..log import EventLog
from ..vision.reading import Reading
from .driver import HostState, Shoe
from .errors import HopperEmpty
from .protocol import Flag
from .virtual_camera import StationCamera

READ_SOURCE = "shoe-station"

# Why a reading stops the card, and what the operator is asked to do. Keyed by what was seen.
READING_STOPS: dict[str, tuple[str, str]] = {
    "none": ("no-card", "the shoe reports a card at the read station but the camera sees none: "
             "check the camera and the station window, then resume"),
    "down": ("face-down", "the card is face down: take it from the read station, turn it face up, "
             "put it back, then resume"),
    "unreadable": ("unreadable", "the camera cannot read it: check it by eye, clean the window or "
                   "the card, put it back, then resume"),
}


class StationStop(Exception):
    """A card cannot go on without a person. ``reason`` is a short tag, ``prompt`` says which
    card, what was seen and what to do, ``resumable`` whether the same run carries on at this
    card once that is done. ``board`` and ``seat`` say which board's hand was being read back,
    when it was one."""

    def __init__(self, reason: str, prompt: str, resumable: bool, *,
                 board: int | None = None, seat: Seat | None = None) -> None:
        super().__init__(prompt)
        self.reason = reason
        self.prompt = prompt
        self.resumable = resumable
        self.board = board
        self.seat = seat


@dataclass
class Station:
    """The shoe, its station camera and the log, with the key base of one run of cards."""

    shoe: Shoe
    camera: StationCamera
    log: EventLog
    base: str

    def key(self, *parts: object) -> str:
        return ":".join([self.base, *map(str, parts)])

    def bring_card(self, *, until_hopper_empty: bool = False) -> bool:
        """Have a card rest at the read station: the one already there, or the next fed.

        Dealing a deck feeds whenever the shoe is idle (a missing card is the deck check's to
        find). Reading a hand back runs ``until_hopper_empty``: False once nothing is left.
        """
        if not until_hopper_empty:
            if self.shoe.state is HostState.IDLE:
                self.shoe.feed()
            return True
        self.shoe.refresh()
        if self.shoe.state is HostState.AT_STATION:
            return True
        if Flag.HOPPER_EMPTY in self.shoe.machine.flags:
            return False
        try:
            self.shoe.feed()
        except HopperEmpty:
            return False
        return True

    def pass_card(self, position: int, where: str, pocket_for: Callable[[Card], Seat],
                  check: Callable[[Reading], None] | None = None) -> tuple[Card, Seat]:
        """Read the card at the station, log the read, route it to ``pocket_for(card)``, log
        the delivery. ``where`` names the card in a prompt ("card 3 of 52"); ``check`` (given the
        reading of a card read face up) and ``pocket_for`` raise StationStop for a card that
        must not go on."""
        reading = self.camera.look()
        card = reading.card if reading.face == "up" else None
        self.log.append(CardRead(card, reading.face, float(reading.confidence), READ_SOURCE),
                        key=self.key(position, "read", self.reads_logged(position)))
        if card is None:
            seen = "unreadable" if reading.face == "up" else reading.face
            reason, remedy = READING_STOPS[seen]
            read = (f"the camera saw {'a back' if seen == 'down' else seen} "
                    f"(confidence {reading.confidence:.2f}), no card was guessed")
            raise StationStop(reason, f"{where}: {read}: {remedy}", True)
        if check is not None:
            check(reading)
        pocket = pocket_for(card)
        self.shoe.route(pocket)
        self.log_delivery(position, card, pocket)
        return card, pocket

    def log_delivery(self, position: int, card: Card, pocket: Seat) -> None:
        self.log.append(CardDelivered(card, pocket), key=self.key(position, "delivered"))

    def reads_logged(self, position: int) -> int:
        n = 0
        while self.log.seq_of(self.key(position, "read", n)) is not None:
            n += 1
        return n

    def last_read(self, position: int) -> CardRead | None:
        n = self.reads_logged(position)
        if n == 0:
            return None
        seq = self.log.seq_of(self.key(position, "read", n - 1))
        event = self.log.event_at(seq) if seq is not None else None
        return event if isinstance(event, CardRead) else None

    def delivered_from_log(self) -> list[tuple[Card, Seat]]:
        """The cards this run delivered, in order, as its log says."""
        delivered: list[tuple[Card, Seat]] = []
        while True:
            seq = self.log.seq_of(self.key(len(delivered), "delivered"))
            if seq is None:
                return delivered
            event = self.log.event_at(seq)
            if not isinstance(event, CardDelivered) or event.card is None:
                raise ValueError(f"log entry {seq} under {self.base} is not a delivery")
            delivered.append((event.card, event.to))
