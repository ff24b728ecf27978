"""One hand dealt by hand, logged as the dealing shoe logs it, ruled by the deal tracker.

What the cameras see comes in as calls: ``on_pass`` for each draw past the reading shoe,
``on_arrival`` for each card landing in a seat's zone on the table, ``on_meld`` for cards
laid face up after the auction. Each becomes the shoe's events in the same log:

* a draw is a ``CardRead``; a draw that cannot be taken as one known card (unreadable, a
  back, two cards at once, a card already dealt, a card of another deck) stops the deal with
  a prompt, as at the shoe, and nothing is delivered;
* without a table camera, a read card is delivered to the seat the game's dealing pattern
  names (pinochle packets of three, bridge one at a time, clockwise from the dealer's left);
* with one, the cards read since the last landing are delivered to the zone they land in, so
  a card given to the wrong seat is counted where it lies; one that lands face up is
  delivered ``exposed``, and a face seen in a zone without a draw is a ``CardExposed``;
* meld is logged as faces shown (``CardExposed``) after the marker, which the tracker leaves
  to the laws of play, and checked here against what that seat was dealt.

The tracker then rules on the hand's events exactly as it does for the shoe's.

A stop is the dealing shoe's ``StationStop``, and the log keys are its read station's
(``{base}:{position}:read:{attempt}``, ``{base}:{position}:delivered``). The station's loop
itself (``scanner.shoe.station.Station``) is not used, because it is driven by a motor that a
reading shoe lacks: the shoe feeds, a sensor says a card rests at the station, one look reads
it, the shoe routes it to the pocket the plan names and the delivery is logged at once. Here
no sensor says a card is in the window: a draw is a run of frames judged whole (``passes``),
and a double draw shows only across that run, never in one look. And nothing routes the
card: the dealer's hand does, so with a table camera its seat is known only frames later,
where it lands, which need not be the seat the plan names (a card misdealt is counted where
it lies), and a stop cannot halt the dealer, so the frames go on being watched.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..cards import Card, Seat, Suit
from ..events import (
    FACES_NOT_READ,
    CardDelivered,
    CardExposed,
    CardRead,
    Event,
    HandStarted,
    MachineFault,
    Marker,
)
from ..log import EventLog
from ..pinochle.meld import MeldError, best_trump, evaluate
from ..shoe.deal_plan import LiveDeal
from ..shoe.dealing import WRONG_DECK_RULE
from ..shoe.station import StationStop
from ..tracker import DealResult, DealTracker, rules_for_game
from ..verdicts import DIRECTOR, NEEDS_REREAD, Verdict, most_severe
from ..vision.deckcheck import DeckCheck, DeckStatus
from .checks import checked
from .passes import CardPass

READ_SOURCE = "reading-shoe"
HAND_KEY_PREFIX = "hand-deal:"

# Why a draw stops the deal: the tracker's fault whose rule it breaks, and what the dealer
# is asked to do. Every prompt starts with "card N of M: ".
STOPS: dict[str, tuple[str, str]] = {
    "unreadable": ("unread", "the camera could not read it and no card was guessed: look at it "
                   "without showing its face to anyone, say which card it is on the page (or "
                   "put it back on top of the shoe and draw it again)"),
    "face-down": ("unread", "the camera saw its back: the card lies the wrong way round in the "
                  "shoe; put it back on top, face the other way, and draw it again"),
    "double-draw": ("packet-size", "two cards left the shoe in one draw ({cards}): put both "
                    "back on top of the shoe without showing them, and draw them one at a "
                    "time"),
    "duplicate": ("extra-copy", "{card} was already dealt from this deck: keep it apart and "
                  "call the director"),
    "foreign": ("foreign", "{card} is not part of this deck: keep it apart and call the "
                "director"),
}
DECK_CHECK_STOPS = {DeckStatus.DUPLICATE: "duplicate", DeckStatus.FOREIGN: "foreign"}
# Stops the dealer puts right by drawing again (or the operator by naming the card); the others
# wait for the director.
RETRIES = frozenset({"unreadable", "face-down", "double-draw"})
OPERATOR_SOURCE = "operator"  # a CardRead the operator entered on the page
CAMERA_LOST = "camera-lost"  # a MachineFault: a camera stopped or froze mid-deal


@dataclass(frozen=True)
class MeldCheck:
    """A seat's meld as read from the table, beside what the seat was dealt: the points the
    cards on the table score, and the tally the dealt hand scores, in the same trump. A hand
    dealt face down with no reading shoe is not known: its meld is scored, not checked."""

    seat: Seat
    cards: tuple[Card, ...]
    not_dealt: tuple[Card, ...]  # shown but not in the seat's dealt hand
    trump: Suit | None = None
    points: int | None = None
    tally: int | None = None
    hand_known: bool = True
    unread: int = 0  # faces laid down that the reader could not name

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat.value, "cards": [str(c) for c in self.cards],
                "not_dealt": [str(c) for c in self.not_dealt], "hand_known": self.hand_known,
                "unread": self.unread,
                "trump": self.trump.value if self.trump else None,
                "points": self.points, "tally": self.tally}


@dataclass
class HandDeal:
    """One hand dealt by hand, from its ``HandStarted`` to its verdict."""

    log: EventLog
    hand: HandStarted
    table_camera: bool = False
    reading_shoe: bool = True
    names: Mapping[Seat, str] = field(default_factory=dict)
    deal_key: str = ""
    # The deal stops until the dealer does what the stop's prompt asks: the project's one
    # stop type, as at the dealing shoe's read station; ``stop_verdict`` is its ruling.
    stop: StationStop | None = None
    stop_verdict: Verdict | None = None
    reads: int = 0  # draws taken as one known card
    # Read, not yet seen landing: each card with the last frame it showed at the shoe.
    pending: list[tuple[Card, int]] = field(default_factory=list)
    delivered: Counter[Seat] = field(default_factory=Counter)
    dealt: dict[Seat, list[Card]] = field(default_factory=lambda: {s: [] for s in Seat})
    meld: dict[Seat, list[Card]] = field(default_factory=lambda: {s: [] for s in Seat})
    # Cards seen lying face up at each seat during the deal, already ruled on.
    face_up: dict[Seat, Counter[Card]] = field(default_factory=lambda: {s: Counter()
                                                                      for s in Seat})
    bidding_ended: bool = False
    trump: Suit | None = None  # pinochle: meld is scored in this suit (default: the hand's best)

    def __post_init__(self) -> None:
        self.rules = rules_for_game(self.hand.game)
        self.plan = LiveDeal.for_game(self.hand.game, self.hand.dealer, self.hand.packet or None)
        self.deck_check = DeckCheck(self.plan.deck)
        self._attempts: Counter[int] = Counter()
        self._exposures = 0
        self.logged = 0
        self._answered = 0  # the last log entry looked at for the operator's answers

    @property
    def cards_dealt(self) -> int:
        """Cards dealt so far: drawn past the reading shoe, or without one, landed."""
        return self.reads if self.reading_shoe else sum(self.delivered.values())

    # -- log keys ------------------------------------------------------------------------------

    def start(self, token: str | None = None) -> int:
        """Log the ``HandStarted``; every later event is keyed under it."""
        seq = self.log.append(self.hand, key=HAND_KEY_PREFIX + (token or uuid.uuid4().hex))
        self.deal_key = f"hand:{seq}"
        self.hand_seq = seq
        if not self.reading_shoe:
            # Without a reading shoe the faces go down unread: the tracker counts them.
            self._append(Marker(FACES_NOT_READ), "counted-only")
        return seq

    def resume(self, hand_seq: int) -> None:
        """Take up the hand logged at ``hand_seq`` where its log ends: a deal stopped, or whose
        camera was lost. The cards dealt come back from the log; a draw the dealer can put
        right is drawn again; a stop for the director stays a stop."""
        self.hand_seq = hand_seq
        self.deal_key = f"hand:{hand_seq}"
        self._answered = hand_seq
        taken: list[Card] = []
        last_stop: MachineFault | None = None
        for event in self.events():
            self.logged += 1
            if isinstance(event, CardRead):
                if event.source != OPERATOR_SOURCE:
                    self._attempts[len(taken)] += 1
                if event.card is not None:
                    taken.append(event.card)
                last_stop = None
            elif isinstance(event, MachineFault) and event.kind == CAMERA_LOST:
                pass  # the cameras stopped, not the deal: it goes on where it was
            elif isinstance(event, MachineFault) and event.state == "stopped":
                # A card read and then stopped on (dealt already, or of another deck) was
                # not taken.
                if event.kind in DECK_CHECK_STOPS.values() and taken:
                    taken.pop()
                last_stop = event
            elif isinstance(event, CardDelivered):
                self.delivered[event.to] += 1
                if event.card is not None:
                    self.dealt[event.to].append(event.card)
                    if event.exposed:
                        self.face_up[event.to][event.card] += 1
            elif isinstance(event, Marker) and event.name == "bidding-ended":
                self.bidding_ended = True
            elif isinstance(event, CardExposed):
                self._exposures += 1
                if event.seat is None or event.card is None:
                    continue
                if self.bidding_ended:
                    self.meld[event.seat].append(event.card)
                else:
                    self.face_up[event.seat][event.card] += 1
        self.reads = len(taken)
        for card in taken:
            self.deck_check.add(card)
        if self.table_camera:
            left = Counter(card for cards in self.dealt.values() for card in cards)
            for card in taken:
                if left[card] > 0:
                    left[card] -= 1
                else:
                    self.pending.append((card, -1))  # read before the break: lands next
        if last_stop is not None and last_stop.kind not in RETRIES:
            verdict = Verdict(DIRECTOR, self.rules.deal_rule, last_stop.detail,
                              [self.logged - 1], "call the director")
            self.stop = StationStop(last_stop.kind, last_stop.detail, False)
            self.stop_verdict = verdict

    def _append(self, event: Event, *parts: object) -> int:
        self.logged += 1
        return self.log.append(event, key=":".join([self.deal_key, *map(str, parts)]))

    # -- what the cameras saw -------------------------------------------------------------------

    def on_pass(self, draw: CardPass) -> None:
        """A draw past the reading shoe: log it, then deliver it or stop.

        After a stop the dealer may do as asked and draw again: the next draw is taken for
        the same card when the stop was one the dealer can put right (``RETRIES``)."""
        if self.stop is not None:
            if self.stop.reason not in RETRIES:
                raise self.stop
            self.stop = None
        position = self.reads
        attempt = self._attempts[position]
        self._attempts[position] += 1
        card = draw.card if draw.face == "up" and not draw.double_draw else None
        seq = self._append(CardRead(card, draw.face, float(draw.confidence), READ_SOURCE),
                           position, "read", attempt)
        if draw.double_draw:
            both = " and ".join(str(c) for c in (draw.card, *draw.others))
            self._stop("double-draw", position, seq, cards=both)
        if draw.card is None:
            self._stop("face-down" if draw.face == "down" else "unreadable", position, seq)
        self._take(draw.card, position, seq, draw.last_frame)

    def _take(self, card: Card, position: int, seq: int, last_frame: int) -> None:
        """A card read for sure: check it against the deck, then deliver it or hold it
        until the table camera sees where it lands."""
        status = self.deck_check.add(card)
        if status in DECK_CHECK_STOPS:
            self._stop(DECK_CHECK_STOPS[status], position, seq, card=card)
        self.reads += 1
        if self.table_camera:
            self.pending.append((card, last_frame))
        else:
            self._deliver(card, self.plan.pocket_for(position, card, []), False)

    def answers_from_the_page(self) -> None:
        """Resolve the stop with the operator's answer, if one was logged since."""
        rows = self.log.connection.execute(
            "SELECT seq FROM events WHERE seq > ? AND type = ? AND session = ? ORDER BY seq",
            (self._answered, CardRead.type, self.log.session)).fetchall()
        for (seq,) in rows:
            self._answered = seq
            read = self.log.event_at(seq)
            if isinstance(read, CardRead) and read.source == OPERATOR_SOURCE:
                self.resolve(read, seq)

    def resolve(self, read: CardRead, seq: int, frame: int = -1) -> None:
        """The operator answered a stop from the page: ``read.card`` names the stopped card
        (the camera could not), or None when the dealer did as asked and draws again."""
        if self.stop is None or self.stop.reason not in RETRIES:
            return
        self.stop = None
        if read.card is not None:
            self._take(read.card, self.reads, seq, frame)

    def on_arrival(self, seat: Seat, faces_up: Sequence[Card | None] = (),
                   since: int | None = None) -> None:
        """Something landed in ``seat``'s zone; ``faces_up`` are the faces seen there on top
        (None for a face the table reader could not name). The cards it brought are those
        read before the zone began to move at frame ``since`` (all pending when None)."""
        if self.bidding_ended:
            self.on_meld(seat, faces_up)
            return
        shown = list(faces_up)
        # A card that landed face up earlier may still show on the pile, named or, half
        # covered now, not: it was ruled on then, and is no new exposure (nor its twin's).
        for card in self.face_up[seat].elements():
            if card in shown or None in shown:
                shown.remove(card if card in shown else None)
        if not self.reading_shoe:
            # Only the table camera: a card landed, and only a face up tells which.
            card = next((c for c in shown if c is not None), None)
            if card is not None:
                shown.remove(card)
            self._deliver(card, seat, card is not None)
        brought = [c for c, last in self.pending if since is None or last < since]
        self.pending = [(c, last) for c, last in self.pending
                        if not (since is None or last < since)]
        # A face the reader saw but could not name lies on top: on the last card that landed.
        unnamed = None in shown and bool(brought) and not any(c in shown for c in brought)
        for i, card in enumerate(brought):
            exposed = card in shown or (unnamed and i == len(brought) - 1)
            if exposed:
                shown.remove(card if card in shown else None)
            self._deliver(card, seat, exposed)
        for card in shown:
            self._exposures += 1
            self._append(CardExposed(card, seat), "exposed", self._exposures)
            if card is not None:
                self.face_up[seat][card] += 1

    def camera_lost(self, message: str) -> None:
        """A camera stopped or froze mid-deal: logged, so every page shows it until the
        next card, with what the log keeps. The deal itself is not stopped: it goes on
        (``resume``) when the camera is back."""
        kept = (f"; the {self.cards_dealt} card(s) dealt so far are kept in the log, and the "
                "deal goes on from there when the camera is back")
        self._append(MachineFault(CAMERA_LOST, message + kept, "stopped"), "camera-lost",
                     self.logged)

    def end_of_bidding(self) -> None:
        """The auction is over: faces laid down from now on are meld."""
        if not self.bidding_ended:
            self.bidding_ended = True
            self._append(Marker("bidding-ended"), "bidding-ended")

    def on_meld(self, seat: Seat, cards: Sequence[Card | None]) -> None:
        """Cards read face up in ``seat``'s zone after the auction: meld shown. A face the
        reader could not name (None) is logged as such and never guessed: the page asks
        for it to be checked by eye."""
        have = Counter(self.meld[seat])
        for card in cards:
            if card is None:
                self._exposures += 1
                self._append(CardExposed(None, seat), "meld", self._exposures)
                continue
            if have[card] > 0:
                have[card] -= 1
                continue
            self.meld[seat].append(card)
            self._exposures += 1
            self._append(CardExposed(card, seat), "meld", self._exposures)

    def _deliver(self, card: Card | None, seat: Seat, exposed: bool) -> None:
        position = sum(self.delivered.values())
        self._append(CardDelivered(card, seat, exposed), position, "delivered")
        self.delivered[seat] += 1
        if card is not None:
            self.dealt[seat].append(card)
            if exposed:
                self.face_up[seat][card] += 1

    def _stop(self, reason: str, position: int, seq: int, **what: object) -> None:
        kind, text = STOPS[reason]
        fault = self.rules.faults[kind]
        status = NEEDS_REREAD if kind in ("unread", "packet-size") else fault.before
        prompt = f"card {position + 1} of {self.plan.deck.size}: {text.format(**what)}"
        if reason in ("duplicate", "foreign"):
            prompt += f"; {WRONG_DECK_RULE.get(self.plan.deck.name, 'call the director')}"
        verdict = Verdict(status, fault.rule, prompt, [self._index_of(seq)], prompt)
        self.stop = StationStop(reason, prompt, reason in RETRIES)
        self.stop_verdict = verdict
        # Logged, so the page shows the prompt and a restarted host knows the deal waits.
        self._answered = self._append(MachineFault(reason, prompt, "stopped"), position, "stop",
                                      self._attempts[position])
        raise self.stop

    def _index_of(self, seq: int) -> int:
        """A logged event's index as the tracker counts it: 0 is the first after the start."""
        row = self.log.connection.execute(
            "SELECT COUNT(*) FROM events WHERE seq > ? AND seq < ? AND session = ?",
            (self.hand_seq, seq, self.log.session)).fetchone()
        return int(row[0])

    # -- what the dealer is told ----------------------------------------------------------------

    def next_prompt(self) -> str:
        """What the dealer deals next: "3 to Bob", "2 more to Bob", "1 to East"."""
        if self.stop is not None:
            return f"stop: {self.stop.prompt}"
        size = self.plan.deck.size
        dealt = self.cards_dealt
        if dealt >= size:
            return "the deal is complete"
        # A live deal's seat depends on the position alone, whichever card comes.
        seat = self.plan.pocket_for(dealt, self.plan.deck.counts[0][0], [])
        left = self.plan.packet - dealt % self.plan.packet
        more = " more" if left < self.plan.packet else ""
        return f"{left}{more} to {self.names.get(seat, seat_name(seat))}"

    # -- the ruling -----------------------------------------------------------------------------

    def events(self) -> list[Event]:
        """This hand's events after its ``HandStarted``, in log order."""
        return [event for _, event in self.log.replay(from_seq=self.hand_seq + 1,
                                                       session=self.log.session)]

    def ruling(self) -> DealResult:
        """The tracker's ruling on the hand's events. A stopped deal is not over: it is
        ruled on what its cards already show (an exposure, a packet), not on its being short
        of cards, and its stop stands unless one of those is more severe."""
        tracker = DealTracker.for_hand(self.hand)
        # A read the operator confirmed or corrected on the page counts as the operator said.
        tracker.feed_all(checked(self.events()))
        if self.stop is None:
            return tracker.finish()
        so_far = tracker.findings()
        assert self.stop_verdict is not None
        worst = most_severe([self.stop_verdict, *so_far])
        ruled = tracker.finish()
        return replace(ruled, verdict=worst, findings=so_far)

    def meld_checks(self) -> list[MeldCheck]:
        """Each seat's meld beside its dealt hand, folded from the log: a card the operator
        confirmed or corrected on the page counts as the operator said (``checked``)."""
        dealt: dict[Seat, list[Card]] = {seat: [] for seat in Seat}
        meld: dict[Seat, list[Card]] = {seat: [] for seat in Seat}
        unread: Counter[Seat] = Counter()
        after = False
        for event in checked(self.events()):
            if isinstance(event, CardDelivered) and event.card is not None:
                dealt[event.to].append(event.card)
            elif isinstance(event, Marker) and event.name == "bidding-ended":
                after = True
            elif isinstance(event, CardExposed) and after and event.seat is not None:
                if event.card is None:
                    unread[event.seat] += 1
                else:
                    meld[event.seat].append(event.card)
        unknown = {seat for seat in Seat if len(dealt[seat]) < self.delivered[seat]}
        return meld_checks(self.hand.game, dealt, meld, self.trump, unknown, unread)

    def result(self) -> dict[str, Any]:
        """What ``watch`` prints: the verdict (a stop's, a stray meld card's, or the
        tracker's), the hands, the counts per seat, and the meld read beside the hands."""
        ruled = self.ruling()
        out = ruled.to_dict()
        verdict = ruled.verdict
        strays = [m for m in self.meld_checks() if m.not_dealt]
        if strays:
            verdict = self._stray_meld_verdict(strays)
        out.update(verdict.to_dict())
        out["stopped"] = self.stop.reason if self.stop is not None else ""
        out["prompt"] = self.stop.prompt if self.stop is not None else ""
        out["counts"] = {seat.value: self.delivered[seat] for seat in Seat}
        out["unplaced"] = [str(c) for c, _ in self.pending]
        out["meld"] = [m.to_dict() for m in self.meld_checks()]
        return out

    def _stray_meld_verdict(self, strays: list[MeldCheck]) -> Verdict:
        said = "; ".join(f"{m.seat} shows {' '.join(map(str, m.not_dealt))} in meld, not "
                         "dealt to that seat" for m in strays)
        index = len(self.events()) - 1
        return Verdict(DIRECTOR, self.rules.deal_rule, said, [index],
                       "call the director: a card shown in meld was not in that player's hand")


def meld_checks(game: str, dealt: Mapping[Seat, Sequence[Card]],
                meld: Mapping[Seat, Sequence[Card]], trump: Suit | None = None,
                unknown: Collection[Seat] = (), unread: Mapping[Seat, int] | None = None
                ) -> list[MeldCheck]:
    """Each seat's meld beside its dealt hand: the cards shown that it was not dealt, and,
    for pinochle, the points on the table and the tally of the hand in the same trump (the
    given one, or the hand's best). The ``unknown`` seats' hands were not all read: their
    meld is scored (in the meld's own best trump, unless given) but not checked. ``unread``
    counts each seat's meld faces the reader could not name."""
    unread = unread or {}
    checks = []
    for seat in Seat:
        shown = tuple(meld.get(seat, ()))
        if not shown and not unread.get(seat):
            continue
        known = seat not in unknown
        left = Counter(dealt.get(seat, ()))
        strays = []
        for card in shown:
            if left[card] > 0:
                left[card] -= 1
            elif known:
                strays.append(card)
        check = MeldCheck(seat, shown, tuple(strays), hand_known=known,
                          unread=unread.get(seat, 0))
        if game == "pinochle":
            check = _scored(check, list(dealt.get(seat, ())) if known else None, trump)
        checks.append(check)
    return checks


def _scored(check: MeldCheck, dealt: list[Card] | None, trump: Suit | None) -> MeldCheck:
    try:
        trump = trump or best_trump(check.cards if dealt is None else dealt).trump
        points = evaluate(check.cards, trump).total
        tally = None if dealt is None else evaluate(dealt, trump).total
    except MeldError:  # a hand that is no pinochle hand: nothing to score
        return check
    return replace(check, trump=trump, points=points, tally=tally)


SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


def seat_name(seat: Seat) -> str:
    return SEAT_NAMES[seat]
