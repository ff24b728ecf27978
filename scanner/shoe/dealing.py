"""One deck dealt through the shoe: start or resume, every card through the station, check the end.

Each card goes through ``scanner.shoe.station`` (feed, look, log the read, the plan's pocket,
route, log the delivery); here the deck check stops a duplicate or a foreign card, and the deal
stops rather than guess. Every machine event reaches the log before the loop acts on it (the
driver hands each one over first).

Every logged step has an idempotency key under the deal's own key, so a resumed deal never logs a
step twice and starts again at the exact card: the delivered cards come back from the log, the
shoe's status says whether a card is waiting at the station, and a card that was routed just
before the host stopped is recognised from the pocket counts.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..cards import Card, DeckSpec, Seat
from ..events import Event, HandStarted, MachineFault
from ..log import EventLog
from ..vision.deckcheck import DeckCheck, DeckStatus
from ..vision.reading import Reading
from .deal_plan import DealPlan, PlanRefusal
from .driver import HostState, Shoe
from .errors import ShoeFault
from .protocol import POCKET_NAMES
from .station import Station, StationStop
from .virtual_camera import StationCamera

DEAL_KEY_PREFIX = "shoe-deal:"


class DeckCheckLike(Protocol):
    """What the loop needs of ``scanner.vision.deckcheck.DeckCheck``."""

    def add(self, reading: Reading) -> DeckStatus: ...

    @property
    def complete(self) -> bool: ...

    def missing(self) -> list[Card]: ...


@dataclass
class DealOutcome:
    """What ``deal-deck`` prints: the deal's status, the pockets as logged, and why it stopped."""

    status: str
    pockets: dict[str, list[str]]
    reason: str = ""
    prompt: str = ""
    position: int = 0
    retransmits: int = 0
    resumable: bool = False
    machine: str = ""
    deal: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "pockets": self.pockets, "reason": self.reason,
                "prompt": self.prompt, "position": self.position,
                "retransmits": self.retransmits, "resumable": self.resumable,
                "machine": self.machine, "deal": self.deal}


DECK_CHECK_STOPS: dict[DeckStatus, tuple[str, str]] = {
    DeckStatus.DUPLICATE: ("duplicate", "this card was already dealt from this deck"),
    DeckStatus.FOREIGN: ("foreign", "this card does not belong to this deck"),
}
# A wrong deck found while dealing: the rule it breaks and its remedy, by deck.
WRONG_DECK_RULE: dict[str, str] = {
    "bridge-52": "Law 6D1 (cards incorrectly dealt): find the right card, then a new shuffle "
                 "and a redeal",
    "pinochle-48": "pinochle Setup & Deal: The deal (deck incomplete before bidding ends): "
                   "gather the cards and redeal with the same dealer",
}


@dataclass
class ShoeDeal:
    """One deck dealt by one shoe into its four pockets, logged under one HandStarted."""

    shoe: Shoe
    camera: StationCamera
    plan: DealPlan
    log: EventLog
    deck_check_factory: Callable[[], DeckCheckLike]
    hand: HandStarted
    deal_key: str = ""
    delivered: list[tuple[Card, Seat]] = field(default_factory=list)
    # Cards the operator put into a pocket after an uncertain delivery: no beam counted them.
    placed_by_hand: Counter[str] = field(default_factory=Counter)
    # False when a shoe reset was logged by an earlier run of this deal: the pocket counts
    # this driver reads then no longer cover the whole deal.
    counts_cover_deal: bool = True

    # -- log keys ------------------------------------------------------------------------------

    @property
    def station(self) -> Station:
        """The read station, keyed under this deal."""
        return Station(self.shoe, self.camera, self.log, self.deal_key)

    def _key(self, *parts: object) -> str:
        return self.station.key(*parts)

    def _append_once(self, event: Event, key: str) -> None:
        # A machine event seen twice (a duplicated frame) may differ in the host state it
        # carries; the first record stands.
        if self.log.seq_of(key) is None:
            self.log.append(event, key=key)

    def machine_event(self, event: MachineFault, key: str) -> None:
        """The driver's sink: each machine event is logged before the driver goes on."""
        self._append_once(event, self._key("machine", key))

    # -- start or resume ------------------------------------------------------------------------

    def start(self, token: str | None = None) -> None:
        """Log the HandStarted under a fresh key and zero the pocket counts."""
        # The shoe is made ready first, so a deal that cannot start leaves no HandStarted;
        # what the shoe reports meanwhile is logged under the start's own key.
        token = token or uuid.uuid4().hex
        self.deal_key = f"shoe-start:{token}"
        self.shoe.on_event = self.machine_event
        self.shoe.refresh()
        if self.shoe.state is HostState.FAULT:
            self.shoe.resume()
        self.shoe.clear_counts()
        hand_seq = self.log.append(self.hand, key=DEAL_KEY_PREFIX + token)
        self.deal_key = f"shoe:{hand_seq}"

    def resume_from(self, hand_seq: int) -> None:
        self.deal_key = f"shoe:{hand_seq}"
        self.shoe.on_event = self.machine_event
        self.delivered = self.station.delivered_from_log()
        self.counts_cover_deal = not self._logged_keys("machine:reset:%")
        for key in self._logged_keys("%:placed-by-hand"):
            position = int(key.split(":")[2])
            self.placed_by_hand[self.delivered[position][1].value] += 1

    def _logged_keys(self, pattern: str) -> list[str]:
        rows = self.log.connection.execute(
            "SELECT key FROM events WHERE key LIKE ?", (f"{self.deal_key}:{pattern}",))
        return [row[0] for row in rows]

    # -- the loop -----------------------------------------------------------------------------

    def run(self) -> DealOutcome:
        try:
            self._recover()
            deck_check = self.deck_check_factory()
            for card, _ in self.delivered:
                deck_check.add(Reading("up", card, 1.0))
            size = self.plan.deck.size
            while len(self.delivered) < size:
                self._deal_one(deck_check)
            self._check_end(deck_check)
        except StationStop as stop:
            return self._result("stopped", stop.reason, stop.prompt, stop.resumable)
        except ShoeFault as fault:
            return self.stopped_by(fault)
        return self._result("complete", "", "", False)

    def stopped_by(self, fault: ShoeFault) -> DealOutcome:
        """A machine fault as the deal's stop; logged here unless the driver already did."""
        position = len(self.delivered) + 1
        if fault.kind == "uncertain-delivery":
            self._append_once(MachineFault(fault.kind, fault.message, fault.machine.state),
                              self._key(len(self.delivered), "uncertain"))
        elif not fault.reported:
            self._append_once(MachineFault(fault.kind, fault.message, fault.machine.state),
                              self._key(len(self.delivered), "stop", fault.kind,
                                        self.shoe.counters.actions))
        return self._result("stopped", fault.kind, f"card {position}: {fault.message}",
                            fault.resumable)

    def _recover(self) -> None:
        """Put the shoe back to work after a stop: clear its fault, settle a half-done card."""
        self.shoe.refresh()
        if self.shoe.state is HostState.FAULT:
            self.shoe.resume()
        position = len(self.delivered)
        last_read = self.station.last_read(position)
        if self.shoe.state is not HostState.IDLE or last_read is None or last_read.card is None:
            return
        if self.log.seq_of(self._key(position, "uncertain")) is not None:
            self._confirm_placed_by_hand(position, last_read.card)
        else:
            self._settle_routed_card(position, last_read.card)

    def _confirm_placed_by_hand(self, position: int, card: Card) -> None:
        """The operator was asked to make sure the card lies in its pocket, then resume: the
        resume is that confirmation, and it is logged as such."""
        pocket = self.plan.pocket_for(position, card, [c for c, _ in self.delivered])
        self._append_once(MachineFault("placed-by-hand", f"the operator confirmed {card} in "
                                       f"pocket {pocket} after the shoe reset", "idle"),
                          self._key(position, "placed-by-hand"))
        self._log_delivery(position, card, pocket)
        self.placed_by_hand[pocket.value] += 1

    def _settle_routed_card(self, position: int, card: Card) -> None:
        """The card at ``position`` was read but its delivery is not in the log: the pockets'
        counts say whether the shoe dropped it before the host stopped."""
        logged = self._expected_counts()
        counted = self.shoe.counts
        grown = [p for p in POCKET_NAMES if counted[p] == logged[p] + 1]
        others_match = all(counted[p] == logged[p] for p in POCKET_NAMES if p not in grown)
        if len(grown) != 1 or not others_match:
            return
        pocket = Seat(grown[0])
        planned = self.plan.pocket_for(position, card, [c for c, _ in self.delivered])
        self._log_delivery(position, card, pocket)
        if pocket is not planned:
            raise StationStop("misrouted", f"card {position + 1} ({card}) fell into pocket "
                              f"{pocket} instead of {planned}: call the director before anyone "
                              "picks up a hand", False)

    def _deal_one(self, deck_check: DeckCheckLike) -> None:
        position = len(self.delivered)
        where = self._where(position)

        def check(reading: Reading) -> None:
            verdict = deck_check.add(reading)
            if verdict in DECK_CHECK_STOPS:
                reason, what = DECK_CHECK_STOPS[verdict]
                raise StationStop(reason, f"{where}: read {reading.card}: {what}. Take it out "
                                  "of the read station and call the director; "
                                  f"{self._wrong_deck_rule()}", False)

        def pocket_for(card: Card) -> Seat:
            try:
                return self.plan.pocket_for(position, card, [c for c, _ in self.delivered])
            except PlanRefusal as exc:
                raise StationStop("not-in-plan", f"{where}: {exc}: take it out of the read "
                                  "station and check the deck against the deal", False) from None

        station = self.station
        station.bring_card()
        self.delivered.append(station.pass_card(position, where, pocket_for, check))

    def _where(self, position: int) -> str:
        # Only for a stop's prompt: the deck's size is a sum, not worth taking on every card.
        return f"card {position + 1} of {self.plan.deck.size}"

    def _log_delivery(self, position: int, card: Card, pocket: Seat) -> None:
        self.station.log_delivery(position, card, pocket)
        self.delivered.append((card, pocket))

    def _check_end(self, deck_check: DeckCheckLike) -> None:
        if not deck_check.complete:
            missing = " ".join(map(str, deck_check.missing()))
            raise StationStop("deck-incomplete", f"the deck is not complete: {missing} never "
                              f"read; {self._wrong_deck_rule()}", False)
        self.shoe.refresh()
        if not self.counts_cover_deal:
            return
        logged = self._expected_counts()
        counted = self.shoe.counts
        if any(counted[p] != logged[p] for p in POCKET_NAMES):
            raise StationStop("count-mismatch",
                              "the pockets' break-beam counts "
                              + " ".join(f"{p}:{counted[p]}" for p in POCKET_NAMES)
                              + " differ from the log "
                              + " ".join(f"{p}:{logged[p]}" for p in POCKET_NAMES)
                              + ": count the pockets by hand before anyone picks up a hand",
                              False)

    def _expected_counts(self) -> Counter[str]:
        """What the break beams should have counted: the logged deliveries, less the cards
        the operator placed by hand."""
        return Counter(seat.value for _, seat in self.delivered) - self.placed_by_hand

    def _wrong_deck_rule(self) -> str:
        return WRONG_DECK_RULE.get(self.plan.deck.name, "call the director")

    def _result(self, status: str, reason: str, prompt: str, resumable: bool) -> DealOutcome:
        pockets: dict[str, list[str]] = {p: [] for p in POCKET_NAMES}
        for card, seat in self.delivered:
            pockets[seat.value].append(str(card))
        return DealOutcome(status, pockets, reason, prompt, len(self.delivered),
                          self.shoe.retransmits, resumable, self.shoe.machine.describe(),
                          self.deal_key)


def deck_check_for(deck: DeckSpec) -> DeckCheckLike:
    """The vision issue's deck check for ``deck``: duplicate, foreign, complete."""
    return DeckCheck(deck)


def latest_shoe_deal(log: EventLog) -> tuple[int, HandStarted] | None:
    """The last deal a shoe started in this log, with the sequence number of its HandStarted."""
    row = log.connection.execute(
        "SELECT seq FROM events WHERE key LIKE ? ORDER BY seq DESC LIMIT 1",
        (DEAL_KEY_PREFIX + "%",)).fetchone()
    if row is None:
        return None
    event = log.event_at(int(row[0]))
    return (int(row[0]), event) if isinstance(event, HandStarted) else None


def deal_deck(shoe: Shoe, camera: StationCamera, plan: DealPlan, log: EventLog, *,
              hand: HandStarted, deck_check_factory: Callable[[], DeckCheckLike],
              resume: bool = True) -> DealOutcome:
    """Deal one deck through a connected shoe; resume the log's unfinished deal if it is the
    same hand (game and dealer), otherwise start a new one.

    ``plan`` decides each card's pocket (``LiveDeal`` for the game's order, ``TargetDeal`` for a
    board's hands). Returns a complete result, or a stopped one whose prompt says which card,
    what was read and what to do; calling again with the same log resumes at that card.
    """
    deal = ShoeDeal(shoe, camera, plan, log, deck_check_factory, hand)
    previous = latest_shoe_deal(log) if resume else None
    if previous is not None and _same_hand(previous[1], hand):
        deal.resume_from(previous[0])
        if len(deal.delivered) < plan.deck.size:
            return deal.run()
    deal = ShoeDeal(shoe, camera, plan, log, deck_check_factory, hand)
    try:
        deal.start()
    except ShoeFault as fault:
        return deal.stopped_by(fault)
    return deal.run()


def _same_hand(logged: HandStarted, wanted: HandStarted) -> bool:
    return (logged.game, logged.dealer, logged.packet) == (wanted.game, wanted.dealer,
                                                          wanted.packet)
