"""The pinochle table's state: one pure fold of the event log.

dealer → deal → auction → trump → meld → play → scored (or thrown in, or redeal) → next
dealer. ``apply(state, event)`` returns the next state or raises ``GameError`` naming the
event and the rule, leaving the given state as it was (states are immutable values).
``fold(events)`` replays a whole log; an event the rules refuse is kept aside in
``state.refused`` with its reason instead of stopping the replay, because the log keeps
everything that happened, including what the table got wrong.

Undo is an event, not a deletion: it cancels the latest action not yet undone (a call,
trump, counters, an exposure, a redeal, a new hand…) by replaying the hand without it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, Seat, Suit
from ..events import (
    Bid,
    CardDelivered,
    CardExposed,
    Conceded,
    CountersTaken,
    Event,
    HandStarted,
    HandThrownIn,
    Marker,
    Pass,
    Redeal,
    TrumpNamed,
    Undo,
)
from ..tracker import DealResult, check_deal
from ..verdicts import OK
from .auction import Auction, AuctionError
from .meld import Meld, MeldError, evaluate, side_of, team_totals
from .options import DEFAULT_OPTIONS, TableOptions
from .scoring import (
    SIDES,
    HandScore,
    ScoreError,
    Taken,
    check_taken,
    counters_needed,
    game_winner,
    score_concession,
    score_play,
)

RULE_DEALER = "Setup & Deal: Seating and first dealer"
RULE_DEAL = "Setup & Deal: The deal"
RULE_AUCTION = "Setup & Deal: Auction"
RULE_TRUMP = "Setup & Deal: Declaring trump"
RULE_MELD = "Setup & Deal: Displaying meld"
RULE_SCORING = "reference: Scoring the play"

# Actions an Undo can cancel. Card deliveries are what the reader saw, not choices, so an
# undo never hides them; an exposure is undoable because the operator reports it by hand.
UNDOABLE = (HandStarted, Bid, Pass, TrumpNamed, CountersTaken, Conceded, HandThrownIn, Redeal,
            CardExposed)

# Phases of a hand. "redeal" waits for the same dealer's new deal.
OPEN_PHASES = ("deal", "auction", "trump", "meld", "play")
CLOSED_PHASES = ("scored", "thrown-in")


class GameError(ValueError):
    """An event the rules refuse; names the event and the rule. The state is unchanged."""

    def __init__(self, event: Event, rule: str, detail: str) -> None:
        self.event = event
        self.rule = rule
        self.detail = detail
        super().__init__(f"{describe(event)}: {detail} ({rule})")


def describe(event: Event) -> str:
    """A short name for an event in a message: ``bid 25 by E``, ``trump S by N``."""
    fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
    match event:
        case Bid(seat=seat, amount=amount):
            return f"bid {amount} by {seat}"
        case Pass(seat=seat):
            return f"pass by {seat}"
        case TrumpNamed(seat=seat, suit=suit):
            return f"trump {suit} by {seat}"
        case CountersTaken(side=side, points=points, tricks=tricks):
            return f"counters {side} {points} in {tricks} tricks"
    detail = " ".join(f"{k}={v}" for k, v in fields.items() if v not in ("", None, False))
    return f"{event.type} {detail}".strip()


@dataclass(frozen=True)
class Exposure:
    seat: Seat | None
    card: Card | None
    phase: str


@dataclass(frozen=True)
class HandState:
    """One hand, from its first deal to its score."""

    number: int
    dealer: Seat
    phase: str = "deal"
    deal: int = 1
    cards: Mapping[Seat, tuple[Card, ...]] = field(default_factory=dict)
    unread: Mapping[Seat, int] = field(default_factory=dict)
    foreign: tuple[str, ...] = ()
    exposures: tuple[Exposure, ...] = ()
    auction: Auction | None = None
    trump_seat: Seat | None = None
    trump: Suit | None = None
    meld: Mapping[Seat, Meld] = field(default_factory=dict)
    taken: Mapping[str, Taken] = field(default_factory=dict)
    score: HandScore | None = None
    thrown_in: str = ""
    events: tuple[Event, ...] = ()

    @property
    def declarer(self) -> Seat | None:
        return self.auction.declarer if self.auction else None

    @property
    def contract(self) -> int | None:
        return self.auction.contract if self.auction else None

    @property
    def declaring_side(self) -> str | None:
        return side_of(self.declarer) if self.declarer else None

    @property
    def team_meld(self) -> dict[str, int]:
        return team_totals(self.meld)

    def to_dict(self) -> dict[str, Any]:
        needed = None
        if self.declaring_side and self.meld and self.contract is not None:
            needed = counters_needed(self.contract, self.team_meld[self.declaring_side])
        return {
            "number": self.number,
            "dealer": self.dealer.value,
            "phase": self.phase,
            "deal": self.deal,
            "cards": {s.value: [str(c) for c in cards] for s, cards in self.cards.items()},
            "unread": {s.value: n for s, n in self.unread.items()},
            "foreign": list(self.foreign),
            "exposures": [{"seat": e.seat.value if e.seat else None,
                           "card": str(e.card) if e.card else None, "phase": e.phase}
                          for e in self.exposures],
            "auction": self.auction.to_dict() if self.auction else None,
            "declarer": self.declarer.value if self.declarer else None,
            "contract": self.contract,
            "trump": self.trump.value if self.trump else None,
            "meld": {s.value: m.to_dict() for s, m in self.meld.items()},
            "team_meld": self.team_meld if self.meld else None,
            "counters_needed": needed,
            "taken": {side: {"points": t.points, "tricks": t.tricks}
                      for side, t in self.taken.items()},
            "result": self.score.to_dict() if self.score else None,
            "thrown_in": self.thrown_in or None,
        }


@dataclass(frozen=True)
class SheetRow:
    """One line of the score sheet."""

    game: int
    hand: int
    dealer: Seat
    outcome: str  # made, set, conceded, thrown in
    declarer: Seat | None = None
    bid: int | None = None
    trump: Suit | None = None
    meld: Mapping[str, int] = field(default_factory=dict)
    counters: Mapping[str, int] = field(default_factory=dict)
    points: Mapping[str, int] = field(default_factory=dict)
    totals: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "hand": self.hand, "dealer": self.dealer.value,
                "outcome": self.outcome,
                "declarer": self.declarer.value if self.declarer else None, "bid": self.bid,
                "trump": self.trump.value if self.trump else None, "meld": dict(self.meld),
                "counters": dict(self.counters), "points": dict(self.points),
                "totals": dict(self.totals)}


@dataclass(frozen=True)
class TableState:
    """The whole table: the current hand, the score sheet, the running totals."""

    options: TableOptions = DEFAULT_OPTIONS
    hand: HandState | None = None
    game: int = 1
    totals: Mapping[str, int] = field(default_factory=lambda: {side: 0 for side in SIDES})
    sheet: tuple[SheetRow, ...] = ()
    winner: str | None = None
    next_dealer: Seat | None = None
    before_hand: TableState | None = None
    refused: tuple[str, ...] = ()

    @property
    def dealer(self) -> Seat | None:
        return self.hand.dealer if self.hand else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "options": self.options.to_dict(),
            "game": self.game,
            "dealer": self.dealer.value if self.dealer else None,
            "next_dealer": self.next_dealer.value if self.next_dealer else None,
            "hand": self.hand.to_dict() if self.hand else None,
            "totals": dict(self.totals),
            "winner": self.winner,
            "sheet": [row.to_dict() for row in self.sheet],
            "refused": list(self.refused),
        }


def _replace_hand(state: TableState, event: Event, **changes: Any) -> TableState:
    assert state.hand is not None
    hand = dataclasses.replace(state.hand, events=(*state.hand.events, event), **changes)
    return dataclasses.replace(state, hand=hand)


def _require_phase(state: TableState, event: Event, phases: Iterable[str], rule: str) -> HandState:
    phases = tuple(phases)
    if state.hand is None:
        raise GameError(event, rule, "no hand has started")
    if state.hand.phase not in phases:
        raise GameError(event, rule, f"hand {state.hand.number} is in the {state.hand.phase} "
                                     f"phase, not {' or '.join(phases)}")
    return state.hand


def current_deal(hand: HandState) -> tuple[HandStarted, list[Event]]:
    """The hand-started event of the deal in progress and the events of that deal."""
    started = hand.events[0]
    dealt: list[Event] = []
    for event in hand.events[1:]:
        if isinstance(event, HandStarted):
            started, dealt = event, []
        elif isinstance(event, Redeal):
            dealt = []
        else:
            dealt.append(event)
    assert isinstance(started, HandStarted)
    return started, dealt


def deal_verdict(hand: HandState) -> DealResult:
    """The deal tracker's ruling on the deal in progress, replayed from the hand's events."""
    started, dealt = current_deal(hand)
    return check_deal(started, dealt)


# -- handlers: one per event type, each (state, event) -> state or GameError ------------------

def _hand_started(state: TableState, event: HandStarted) -> TableState:
    if event.game != "pinochle":
        raise GameError(event, RULE_DEALER, f"this table plays pinochle, not {event.game}")
    hand = state.hand
    if hand is not None and hand.phase == "redeal":
        if event.dealer != state.next_dealer:
            raise GameError(event, RULE_DEAL, f"a misdeal is redealt by the same dealer, "
                                              f"{state.next_dealer}, not {event.dealer}")
        state = dataclasses.replace(state, next_dealer=event.dealer.left)
        return _replace_hand(state, event, phase="deal", deal=hand.deal + 1)
    if hand is not None and hand.phase not in CLOSED_PHASES:
        raise GameError(event, RULE_DEALER, f"hand {hand.number} is still in the {hand.phase} "
                                            f"phase: score it, throw it in or redeal first")
    if state.next_dealer is not None and event.dealer != state.next_dealer:
        raise GameError(event, RULE_DEALER, f"the deal passes clockwise: {state.next_dealer} "
                                            f"deals this hand, not {event.dealer}")
    number = hand.number + 1 if hand else 1
    started = dataclasses.replace(state, before_hand=state)
    if state.winner:
        started = dataclasses.replace(started, game=state.game + 1, winner=None,
                                      totals={side: 0 for side in SIDES})
    return dataclasses.replace(started, hand=HandState(number, event.dealer, events=(event,)),
                               next_dealer=event.dealer.left)


def _card_delivered(state: TableState, event: CardDelivered) -> TableState:
    hand = _require_phase(state, event, ("deal", "redeal"), RULE_DEAL)
    if hand.phase == "redeal":
        # The redeal began without a new hand-started event: the same dealer deals again.
        hand = dataclasses.replace(hand, phase="deal", deal=hand.deal + 1)
        state = dataclasses.replace(state, hand=hand, next_dealer=hand.dealer.left)
    changes: dict[str, Any] = {}
    if event.foreign:
        changes["foreign"] = (*hand.foreign, f"{event.foreign} to {event.to}")
    elif event.card is None:
        changes["unread"] = {**hand.unread, event.to: hand.unread.get(event.to, 0) + 1}
    else:
        changes["cards"] = {**hand.cards, event.to: (*hand.cards.get(event.to, ()), event.card)}
    if event.exposed:
        changes["exposures"] = (*hand.exposures, Exposure(event.to, event.card, "deal"))
    return _replace_hand(state, event, **changes)


def _card_exposed(state: TableState, event: CardExposed) -> TableState:
    hand = _require_phase(state, event, OPEN_PHASES, RULE_DEAL)
    exposure = Exposure(event.seat, event.card, hand.phase)
    return _replace_hand(state, event, exposures=(*hand.exposures, exposure))


def _start_auction(state: TableState, event: Event) -> HandState:
    hand = _require_phase(state, event, ("deal", "auction"), RULE_AUCTION)
    if hand.phase == "deal":
        # The auction opens only on a deal the tracker rules complete and regular.
        result = deal_verdict(hand)
        if result.verdict.status != OK or not result.complete:
            verdict = result.verdict
            raise GameError(event, verdict.rule or RULE_DEAL,
                            f"the deal is not ready for the auction: {verdict.reason}; "
                            f"remedy: {verdict.remedy}")
        options = state.options
        return dataclasses.replace(hand, phase="auction", auction=Auction(
            hand.dealer, minimum=options.minimum_bid, stick=options.stick_the_dealer))
    return hand


def _marker(state: TableState, event: Marker) -> TableState:
    if event.name == "auction-started":
        hand = _start_auction(state, event)
        return dataclasses.replace(state, hand=dataclasses.replace(
            hand, events=(*hand.events, event)))
    # "bidding-ended" is for the deal tracker; the auction itself knows when it ended.
    if state.hand is None:
        raise GameError(event, RULE_AUCTION, "no hand has started")
    return _replace_hand(state, event)


def _call(state: TableState, event: Bid | Pass) -> TableState:
    hand = _start_auction(state, event)
    assert hand.auction is not None
    try:
        auction = hand.auction.call(event.seat, event.amount if isinstance(event, Bid) else None)
    except AuctionError as exc:
        raise GameError(event, RULE_AUCTION, f"{exc.detail}: \"{exc.rule_text}\"") from None
    phase = "trump" if auction.finished else "auction"
    hand = dataclasses.replace(hand, auction=auction, phase=phase,
                               events=(*hand.events, event))
    return dataclasses.replace(state, hand=hand)


def _trump_named(state: TableState, event: TrumpNamed) -> TableState:
    hand = state.hand
    if hand is not None and hand.trump is not None:
        raise GameError(event, RULE_TRUMP, f"{hand.trump.value} was announced by "
                                           f"{hand.trump_seat}; the choice is final once "
                                           f"announced")
    hand = _require_phase(state, event, ("trump",), RULE_TRUMP)
    if event.seat != hand.declarer:
        raise GameError(event, RULE_TRUMP,
                        f"the declarer, {hand.declarer}, names trump, not {event.seat}")
    try:
        meld = {seat: evaluate(hand.cards[seat], event.suit, state.options) for seat in Seat}
    except MeldError as exc:
        raise GameError(event, RULE_MELD, str(exc)) from None
    return _replace_hand(state, event, trump=event.suit, trump_seat=event.seat, meld=meld,
                         phase="meld")


def _counters_taken(state: TableState, event: CountersTaken) -> TableState:
    hand = _require_phase(state, event, ("meld", "play"), RULE_SCORING)
    if event.side in hand.taken:
        taken = hand.taken[event.side]
        raise GameError(event, RULE_SCORING, f"{event.side}'s counters are already recorded "
                                             f"({taken.points} in {taken.tricks} tricks); "
                                             f"undo them to correct")
    taken = Taken(event.points, event.tricks)
    try:
        check_taken(event.side, taken, state.options)
    except ScoreError as exc:
        raise GameError(event, RULE_SCORING, str(exc)) from None
    all_taken = {**hand.taken, event.side: taken}
    if len(all_taken) < len(SIDES):
        return _replace_hand(state, event, taken=all_taken, phase="play")
    assert hand.declaring_side is not None and hand.contract is not None
    try:
        score = score_play(hand.declaring_side, hand.contract, hand.team_meld, all_taken,
                           state.options)
    except ScoreError as exc:
        raise GameError(event, RULE_SCORING, str(exc)) from None
    state = _replace_hand(state, event, taken=all_taken)
    return _close_with_score(state, score)


def _conceded(state: TableState, event: Conceded) -> TableState:
    hand = _require_phase(state, event, ("meld",), RULE_SCORING)
    if not state.options.concession:
        raise GameError(event, RULE_SCORING, "this table does not allow concession")
    if side_of(event.seat) != hand.declaring_side:
        raise GameError(event, RULE_SCORING, f"only the declaring side "
                                             f"({hand.declaring_side}) may throw the hand in")
    assert hand.declaring_side is not None and hand.contract is not None
    score = score_concession(hand.declaring_side, hand.contract, hand.team_meld)
    return _close_with_score(_replace_hand(state, event), score)


def _close_with_score(state: TableState, score: HandScore) -> TableState:
    hand = state.hand
    assert hand is not None
    totals = {side: state.totals[side] + score.points[side] for side in SIDES}
    row = SheetRow(state.game, hand.number, hand.dealer, score.outcome, hand.declarer,
                   hand.contract, hand.trump, score.meld, score.counters, score.points, totals)
    return dataclasses.replace(
        state, hand=dataclasses.replace(hand, phase="scored", score=score), totals=totals,
        sheet=(*state.sheet, row), winner=game_winner(totals, score.declaring_side,
                                                      state.options))


def _throw_in(state: TableState, event: HandThrownIn | Redeal, reason: str) -> TableState:
    hand = _require_phase(state, event, (*OPEN_PHASES, "redeal"), RULE_DEALER)
    row = SheetRow(state.game, hand.number, hand.dealer, "thrown in",
                   totals=dict(state.totals))
    state = _replace_hand(state, event, phase="thrown-in", thrown_in=reason)
    # Clockwise after every hand, a thrown-in hand included.
    return dataclasses.replace(state, sheet=(*state.sheet, row),
                               next_dealer=hand.dealer.left)


def _hand_thrown_in(state: TableState, event: HandThrownIn) -> TableState:
    return _throw_in(state, event, event.reason or "thrown in")


def _redeal(state: TableState, event: Redeal) -> TableState:
    hand = _require_phase(state, event, OPEN_PHASES, RULE_DEAL)
    if not event.same_dealer:
        return _throw_in(state, event, event.reason or "redealt by the next dealer")
    cleared = dataclasses.replace(
        hand, phase="redeal", cards={}, unread={}, foreign=(), exposures=(), auction=None,
        trump=None, trump_seat=None, meld={}, taken={}, events=(*hand.events, event))
    return dataclasses.replace(state, hand=cleared, next_dealer=hand.dealer)


def _undo(state: TableState, event: Undo) -> TableState:
    hand = state.hand
    if hand is None:
        raise GameError(event, RULE_DEALER, "nothing to undo")
    last = max(i for i, e in enumerate(hand.events) if isinstance(e, UNDOABLE))
    assert state.before_hand is not None
    redone = state.before_hand
    if last > 0:
        try:
            for kept in hand.events[:last] + hand.events[last + 1:]:
                redone = apply(redone, kept)
        except GameError as exc:
            raise GameError(event, exc.rule, f"cannot undo {describe(hand.events[last])}: "
                                             f"{exc}") from None
    return dataclasses.replace(redone, refused=state.refused)


_HANDLERS: dict[type[Event], Callable[[TableState, Any], TableState]] = {
    HandStarted: _hand_started,
    CardDelivered: _card_delivered,
    CardExposed: _card_exposed,
    Marker: _marker,
    Bid: _call,
    Pass: _call,
    TrumpNamed: _trump_named,
    CountersTaken: _counters_taken,
    Conceded: _conceded,
    HandThrownIn: _hand_thrown_in,
    Redeal: _redeal,
    Undo: _undo,
}


def apply(state: TableState, event: Event) -> TableState:
    """The state after ``event``; raise GameError (naming event and rule) if it is refused.

    Events that say nothing about the game (a card read, a machine fault) leave it as is.
    """
    handler = _HANDLERS.get(type(event))
    return handler(state, event) if handler else state


def fold(events: Iterable[Event], options: TableOptions = DEFAULT_OPTIONS,
         start: TableState | None = None) -> TableState:
    """Replay events into a table (from ``start``, or an empty one).

    A refused event is listed in ``refused`` with its reason, never dropped silently.
    """
    state = start if start is not None else TableState(options)
    for event in events:
        try:
            state = apply(state, event)
        except GameError as exc:
            state = dataclasses.replace(state, refused=(*state.refused, str(exc)))
    return state
