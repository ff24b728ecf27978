"""The hand-dealt table as the live page shows it: folded from the log, whoever wrote it.

``HandDealGame`` is what ``scanner.live.LiveTable`` runs for a table dealt by hand. Its state
is the latest hand's events; its view tells the dealer what comes next ("3 to Bob"), counts
each seat's cards, lists each exposure with its rule and remedy, puts the meld read from
the table beside the tally of the dealt hand, and shows a stopped draw's prompt. Its actions
answer a stop: ``correct-read`` names the card the camera could not read, ``confirm-read``
says the dealer did what the prompt asked and draws again. Both are logged as the
operator's reads, which the watcher takes up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import CardError, Seat, parse_card
from ..events import CardDelivered, CardExposed, CardRead, Event, HandStarted, MachineFault, Marker
from ..live import ActionRefused, MalformedAction
from ..shoe.deal_plan import LiveDeal
from ..tracker import DealTracker, rules_for_game
from ..verdicts import REMEDIES
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
        stop = waiting_stop(state)
        if action not in ("correct-read", "confirm-read"):
            raise MalformedAction(f"unknown action {action!r}: correct-read or confirm-read")
        if stop is None or stop.kind not in RETRIES:
            raise ActionRefused("no draw is waiting for an answer")
        if action == "confirm-read":
            return [CardRead(None, "none", 1.0, OPERATOR_SOURCE)]
        if stop.kind == "double-draw":
            raise ActionRefused("two cards left the shoe: put one back and confirm, rather "
                                "than name one")
        text = params.get("card")
        if not isinstance(text, str):
            raise MalformedAction("'card' must be given as text, e.g. QS")
        try:
            card = parse_card(text)
        except CardError as exc:
            raise MalformedAction(f"'card': {exc}") from None
        return [CardRead(card, "up", 1.0, OPERATOR_SOURCE)]

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
    tracker = DealTracker.for_hand(hand)
    tracker.feed_all(state.events)
    dealt: dict[Seat, list] = {seat: [] for seat in Seat}
    meld: dict[Seat, list] = {seat: [] for seat in Seat}
    meld_unread: Counter[Seat] = Counter()
    exposures = []
    after = False
    fault = rules.faults["exposed"]
    for event in state.events:
        if isinstance(event, CardDelivered):
            if event.card is not None:
                dealt[event.to].append(event.card)
            else:
                dealt[event.to].append(None)
            if event.exposed:
                exposures.append((event.card, event.to))
        elif isinstance(event, Marker) and event.name in rules.after_markers:
            after = True
        elif isinstance(event, CardExposed) and event.seat is not None:
            if after and event.card is not None:
                meld[event.seat].append(event.card)
            elif after:
                meld_unread[event.seat] += 1
            elif not after:
                exposures.append((event.card, event.seat))
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
        "exposures": [{"card": None if card is None else str(card), "seat": seat.value,
                       "status": fault.before, "rule": fault.rule,
                       "remedy": REMEDIES[fault.before]} for card, seat in exposures],
        "verdict": verdict.to_dict(),
        "meld": [m.to_dict() for m in meld_checks(hand.game, known, meld, unknown=unread,
                                                 unread=meld_unread)],
        "cameras": list(cameras),
    }
