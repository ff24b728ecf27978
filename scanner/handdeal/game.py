"""The hand-dealt table as the live page shows it: folded from the log, whoever wrote it.

``HandDealGame`` is what ``scanner.live.LiveTable`` runs for a table dealt by hand. Its state
is the latest hand's events; its view tells the dealer what comes next ("3 to Bob"), counts
each seat's cards, lists each exposure with its rule and remedy, puts the meld read from
the table beside the tally of the dealt hand, and shows a stopped draw's prompt. Its actions
answer a stop: ``correct-read`` names the card the camera could not read, ``confirm-read``
says the dealer did what the prompt asked and draws again. Both are logged as the
operator's reads, which the watcher takes up. ``check-read`` confirms or corrects a card the
table camera read face up (an exposure, meld), which the view then counts as the operator
said (``checks``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, Seat
from ..events import CardDelivered, CardExposed, CardRead, Event, HandStarted, MachineFault, Marker
from ..live import ActionRefused, MalformedAction, card_param
from ..shoe.deal_plan import LiveDeal
from ..tracker import DealTracker, rules_for_game
from ..verdicts import REMEDIES
from .checks import check_read, checked, checks, is_table_read
from .deal import OPERATOR_SOURCE, RETRIES, SEAT_NAMES, meld_checks


@dataclass(frozen=True)
class HandDealState:
    """The latest hand in the log: its start and the events after it."""

    hand: HandStarted | None = None
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class HandDealGame:
    names: Mapping[Seat, str] = field(default_factory=lambda: dict(SEAT_NAMES))
    cameras: tuple[str, ...] = ()  # the cameras whose thumbnails the page shows

    def initial(self) -> HandDealState:
        return HandDealState()

    def apply(self, state: HandDealState, event: Event) -> HandDealState:
        # A hand-started event opens a new hand; what came before the first one is no hand's.
        if isinstance(event, HandStarted):
            return HandDealState(event)
        if state.hand is None:
            return state
        return HandDealState(state.hand, (*state.events, event))

    def command(self, state: HandDealState, action: str, params: Mapping[str, Any]) -> list[Event]:
        if action == "check-read":
            if state.hand is None:
                raise ActionRefused("no hand has started: there is no read to check")
            deck = LiveDeal.for_game(state.hand.game, state.hand.dealer,
                                     state.hand.packet or None).deck
            return [check_read(state.events, deck, params)]
        stop = waiting_stop(state)
        if action not in ("correct-read", "confirm-read"):
            raise MalformedAction(f"unknown action {action!r}: correct-read, confirm-read or "
                                  "check-read")
        if stop is None or stop.kind not in RETRIES:
            raise ActionRefused("no draw is waiting for an answer")
        if action == "confirm-read":
            return [CardRead(None, "none", 1.0, OPERATOR_SOURCE)]
        if stop.kind == "double-draw":
            raise ActionRefused("two cards left the shoe: put one back and confirm, rather "
                                "than name one")
        return [CardRead(card_param(params), "up", 1.0, OPERATOR_SOURCE)]

    def snapshot(self, state: HandDealState) -> dict[str, Any]:
        if state.hand is None:
            return {"game": "hand", "started": False, "cameras": list(self.cameras),
                    "prompt": "waiting for the first card"}
        return hand_view(state, self.names, self.cameras)


def waiting_stop(state: HandDealState) -> MachineFault | None:
    """The stop the deal waits on: logged, with no card dealt or answer given since."""
    for event in reversed(state.events):
        if isinstance(event, CardDelivered):
            return None
        if isinstance(event, CardRead) and event.source == OPERATOR_SOURCE:
            return None
        if isinstance(event, MachineFault) and event.state == "stopped":
            return event
    return None


def hand_view(state: HandDealState, names: Mapping[Seat, str],
              cameras: Sequence[str] = ()) -> dict[str, Any]:
    hand = state.hand
    assert hand is not None
    rules = rules_for_game(hand.game)
    plan = LiveDeal.for_game(hand.game, hand.dealer, hand.packet or None)
    # The operator's word on a card read from the table stands in for the camera's read.
    events = checked(state.events)
    given = checks(state.events)
    tracker = DealTracker.for_hand(hand)
    tracker.feed_all(events)
    dealt: dict[Seat, list] = {seat: [] for seat in Seat}
    meld: dict[Seat, list] = {seat: [] for seat in Seat}
    meld_unread: Counter[Seat] = Counter()
    exposures = []
    reads = []
    after = False
    fault = rules.faults["exposed"]
    for slot, event in enumerate(events):
        if is_table_read(event):
            reads.append(_read_line(slot, state.events[slot], event, after, given))
        if isinstance(event, CardDelivered):
            if event.card is not None:
                dealt[event.to].append(event.card)
            else:
                dealt[event.to].append(None)
            if event.exposed:
                exposures.append((slot, event.card, event.to))
        elif isinstance(event, Marker) and event.name in rules.after_markers:
            after = True
        elif isinstance(event, CardExposed) and event.seat is not None:
            if after and event.card is not None:
                meld[event.seat].append(event.card)
            elif after:
                meld_unread[event.seat] += 1
            elif not after:
                exposures.append((slot, event.card, event.seat))
    count = sum(len(cards) for cards in dealt.values())
    stop = waiting_stop(state)
    size = plan.deck.size
    if stop is not None:
        prompt = f"STOP — {stop.detail}"
    elif count >= size:
        prompt = "the deal is complete"
    else:
        seat = plan.pocket_for(count, plan.deck.counts[0][0], [])
        left = plan.packet - count % plan.packet
        more = " more" if left < plan.packet else ""
        prompt = f"{left}{more} to {names.get(seat, SEAT_NAMES[seat])}"
    verdict = tracker.verdict() if count < size else tracker.finish().verdict
    known = {seat: [c for c in cards if c is not None] for seat, cards in dealt.items()}
    unread = {seat for seat, cards in dealt.items() if None in cards}
    return {
        "game": "hand",
        "started": True,
        "deal_game": hand.game,
        "dealer": hand.dealer.value,
        "prompt": prompt,
        "stop": None if stop is None else {"reason": stop.kind, "prompt": stop.detail,
                                           "answerable": stop.kind in RETRIES},
        "seats": [{"seat": seat.value, "name": names.get(seat, SEAT_NAMES[seat]),
                   "count": len(dealt[seat]), "expected": plan.deck.hand_size}
                  for seat in Seat],
        "dealt": count,
        "size": size,
        "exposures": [{"slot": slot, "card": None if card is None else str(card),
                       "seat": seat.value, "status": fault.before, "rule": fault.rule,
                       "remedy": REMEDIES[fault.before]} for slot, card, seat in exposures],
        "reads": reads,
        "verdict": verdict.to_dict(),
        "meld": [m.to_dict() for m in meld_checks(hand.game, known, meld, unknown=unread,
                                                 unread=meld_unread)],
        "cameras": list(cameras),
    }


def _read_line(slot: int, read: Event, now: Event, after: bool,
               given: Mapping[int, Card]) -> dict[str, Any]:
    """One card read from the table, as the page lists it for the operator to check: what
    the camera read, the card that counts now, and whether the operator confirmed or
    corrected it."""
    seen = getattr(read, "card", None)
    seat = read.to if isinstance(read, CardDelivered) else getattr(read, "seat", None)
    checked_as = ("" if slot not in given
                  else "confirmed" if given[slot] == seen else "corrected")
    card = getattr(now, "card", None)
    return {"slot": slot, "kind": "meld" if after else "exposure",
            "seat": None if seat is None else seat.value,
            "read": None if seen is None else str(seen),
            "card": None if card is None else str(card), "checked": checked_as}
