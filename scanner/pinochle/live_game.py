"""Pinochle as a live game: operator actions become events, the table state becomes a view.

``PinochleGame`` is what ``scanner.live.LiveTable`` runs for a pinochle table. Each action is
turned into the event(s) it means (a bid for the seat whose turn it is, trump for the
declarer) and checked with ``table.apply`` before anything is logged, so a refused action
leaves the log and the state untouched and says which rule refused it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import PINOCHLE_48, CardError, Seat, Suit, parse_seat
from ..events import (
    Bid,
    CardDelivered,
    CardExposed,
    Conceded,
    CountersTaken,
    Event,
    HandStarted,
    Pass,
    Redeal,
    TrumpNamed,
    Undo,
)
from ..live import ActionRefused, MalformedAction, card_param
from ..tracker import DealTracker
from ..verdicts import CORRECTION_POLICY, OK, REDEAL_SAME_DEALER
from .options import DEFAULT_OPTIONS, TableOptions
from .scoring import SIDES
from .table import (
    RULE_AUCTION,
    RULE_DEAL,
    RULE_TRUMP,
    GameError,
    TableState,
    apply,
    current_deal,
    deal_verdict,
    fold,
)

DEFAULT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}

# What the banner says for a verdict that stops the hand: the remedy in plain words.
BANNERS = {
    REDEAL_SAME_DEALER: "REDEAL — gather the cards; the same dealer deals again",
    CORRECTION_POLICY: "STOP THE HAND — the table's correction policy applies",
}
REDEAL_STATUSES = frozenset(BANNERS)

# `tablescan serve --demo MODE`: scripted players, or the operator plays what the shoe deals.
DEMO_MODES = ("auto", "deal")


def _int_param(params: Mapping[str, Any], name: str, *, optional: bool = False) -> int | None:
    value = params.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(f"{name!r} must be a whole number, not {value!r}")
    return value


def _text_param(params: Mapping[str, Any], name: str) -> str:
    value = params.get(name)
    if not isinstance(value, str) or not value.strip():
        raise MalformedAction(f"{name!r} must be given as text")
    return value


@dataclass(frozen=True)
class PinochleGame:
    """The pinochle rules run live: fold, snapshot and the operator's actions."""

    options: TableOptions = DEFAULT_OPTIONS
    names: Mapping[Seat, str] = field(default_factory=lambda: dict(DEFAULT_NAMES))
    first_dealer: Seat = Seat.N
    packet: int = 3

    def initial(self) -> TableState:
        return TableState(self.options)

    def apply(self, state: TableState, event: Event) -> TableState:
        return fold([event], self.options, start=state)

    def command(self, state: TableState, action: str, params: Mapping[str, Any]) -> list[Event]:
        builder = _ACTIONS.get(action)
        if builder is None:
            raise MalformedAction(f"unknown action {action!r}; known: {sorted(_ACTIONS)}")
        events = builder(self, state, params)
        checked = state
        for event in events:
            try:
                checked = apply(checked, event)
            except GameError as exc:
                raise ActionRefused(str(exc), exc.rule) from None
        return events

    def snapshot(self, state: TableState) -> dict[str, Any]:
        return table_view(state, self.names)

    def next_hand_event(self, state: TableState, session: str = "") -> HandStarted:
        dealer = state.next_dealer or self.first_dealer
        return HandStarted("pinochle", dealer, self.packet, session)


def _turn(state: TableState) -> Seat:
    """Whose call it is. Before the first call the dealer's left opens; ``apply`` then checks
    that the deal is complete and regular, which is what opens the auction."""
    hand = state.hand
    if hand is not None and hand.auction is not None:
        seat = hand.auction.next_seat
    else:
        seat = hand.dealer.left if hand is not None and hand.phase == "deal" else None
    if seat is None:
        raise ActionRefused("no call is due now: the auction is not running", RULE_AUCTION)
    return seat


def _bid(game: PinochleGame, state: TableState, params: Mapping[str, Any]) -> list[Event]:
    return [Bid(_turn(state), _int_param(params, "amount"))]


def _pass(game: PinochleGame, state: TableState, params: Mapping[str, Any]) -> list[Event]:
    return [Pass(_turn(state))]


def _trump(game: PinochleGame, state: TableState, params: Mapping[str, Any]) -> list[Event]:
    text = _text_param(params, "suit").strip().upper()
    try:
        suit = Suit(text)
    except ValueError:
        raise MalformedAction(f"'suit' must be one of S, H, D, C, not {text!r}") from None
    declarer = state.hand.declarer if state.hand else None
    if declarer is None:
        raise ActionRefused("trump is named by the declarer, after the auction", RULE_TRUMP)
    return [TrumpNamed(declarer, suit)]


def _expose(game: PinochleGame, state: TableState, params: Mapping[str, Any]) -> list[Event]:
    card = card_param(params)
    try:
        seat = parse_seat(params["seat"]) if params.get("seat") else None
    except CardError as exc:
        raise MalformedAction(str(exc)) from None
    return [CardExposed(card, seat)]


def _counters(game: PinochleGame, state: TableState, params: Mapping[str, Any]) -> list[Event]:
    return [CountersTaken(side, _int_param(params, side), _int_param(params, f"tricks_{side}"))
            for side in SIDES]


def _concede(game: PinochleGame, state: TableState, params: Mapping[str, Any]) -> list[Event]:
    declarer = state.hand.declarer if state.hand else None
    if declarer is None:
        raise ActionRefused("only a declaring side can concede", RULE_AUCTION)
    return [Conceded(declarer)]


def _redeal(game: PinochleGame, state: TableState, params: Mapping[str, Any]) -> list[Event]:
    verdict = hand_verdict(state)
    if verdict is None or verdict["status"] not in REDEAL_STATUSES:
        raise ActionRefused("no verdict calls for a redeal: the deal stands", RULE_DEAL)
    return [Redeal(f"{verdict['rule']}: {verdict['reason']}", same_dealer=True)]


def _next_hand(game: PinochleGame, state: TableState, params: Mapping[str, Any]) -> list[Event]:
    return [game.next_hand_event(state)]


def _undo(game: PinochleGame, state: TableState, params: Mapping[str, Any]) -> list[Event]:
    return [Undo(reason="operator")]


_ACTIONS: dict[str, Callable[[PinochleGame, TableState, Mapping[str, Any]], list[Event]]] = {
    "bid": _bid,
    "pass": _pass,
    "trump": _trump,
    "expose": _expose,
    "counters": _counters,
    "concede": _concede,
    "redeal": _redeal,
    "next-hand": _next_hand,
    "undo": _undo,
}


def hand_verdict(state: TableState) -> dict[str, Any] | None:
    """The deal's ruling as the table should see it now.

    While cards are still arriving only what is already wrong counts (a packet out of turn,
    an exposed card, a third copy); a hand that is merely short is a deal in progress. Once
    the whole deck is out, or the auction has begun, the tracker rules on the complete deal.
    """
    hand = state.hand
    if hand is None or hand.phase in ("redeal", "thrown-in"):
        return None
    started, dealt = current_deal(hand)
    delivered = sum(isinstance(e, CardDelivered) for e in dealt)
    if hand.phase == "deal" and delivered < PINOCHLE_48.size:
        tracker = DealTracker.for_hand(started)
        tracker.feed_all(dealt)
        verdict = tracker.verdict().to_dict()
        if verdict["status"] == OK:
            verdict.update(rule=RULE_DEAL, reason=f"dealing: {delivered} of "
                                                  f"{PINOCHLE_48.size} cards, no fault so far")
        return verdict
    return deal_verdict(hand).verdict.to_dict()


def table_view(state: TableState, names: Mapping[Seat, str]) -> dict[str, Any]:
    """The table as the page shows it: seats, auction, contract, meld, verdicts, score sheet."""
    data = state.to_dict()
    hand = data["hand"] or {}
    auction = hand.get("auction") or {}
    passed = {c["seat"] for c in auction.get("history", []) if c["call"] == "pass"}
    bids = [c for c in auction.get("history", []) if c["call"] != "pass"]
    verdict = hand_verdict(state)
    expected = PINOCHLE_48.hand_size
    seats = []
    for seat in Seat:
        received = len(hand.get("cards", {}).get(seat.value, [])) + hand.get("unread", {}).get(
            seat.value, 0)
        seats.append({
            "seat": seat.value,
            "name": names.get(seat, seat.value),
            "dealer": hand.get("dealer") == seat.value,
            "received": received,
            "expected": expected,
            "passed": seat.value in passed,
            "meld": hand.get("meld", {}).get(seat.value),
        })
    contract = None
    if hand.get("declarer"):
        contract = {"declarer": hand["declarer"], "amount": hand["contract"],
                    "trump": hand.get("trump")}
    team_meld = hand.get("team_meld") or {}
    taken = hand.get("taken") or {}
    teams = [{
        "side": side,
        "meld": team_meld.get(side),
        "counters": taken.get(side, {}).get("points"),
        "needed": hand.get("counters_needed") if side == _side_of(hand.get("declarer")) else None,
        "score": data["totals"].get(side, 0),
    } for side in SIDES]
    result = hand.get("result")
    return {
        "game": "pinochle",
        "hand_number": hand.get("number"),
        "phase": hand.get("phase", "waiting for the first hand"),
        "dealer": data["dealer"],
        "seats": seats,
        "deck_check": _deck_check(hand, verdict, expected),
        "verdicts": [verdict] if verdict else [],
        "banner": _banner(verdict),
        "auction": {
            "history": auction.get("history", []),
            "turn": auction.get("next") or _opening_seat(hand, verdict),
            "high": {"seat": bids[-1]["seat"], "amount": bids[-1]["call"]} if bids else None,
            "passed": sorted(passed),
            "stuck_dealer": any(c.get("forced") for c in auction.get("history", [])),
            "finished": auction.get("finished", False),
        },
        "contract": contract,
        "teams": teams,
        "result": _result(result, hand),
        "score_sheet": [_sheet_row(row) for row in data["sheet"]],
        "totals": data["totals"],
        "next_dealer": data["next_dealer"],
        "winner": data["winner"],
        "refused": data["refused"][-3:],
    }


def _opening_seat(hand: Mapping[str, Any], verdict: Mapping[str, Any] | None) -> str | None:
    """The dealer's left opens once the whole deck is dealt and the deal is ruled regular."""
    dealt = sum(len(c) for c in hand.get("cards", {}).values())
    if hand.get("phase") != "deal" or dealt != PINOCHLE_48.size or not verdict:
        return None
    return Seat(hand["dealer"]).left.value if verdict["status"] == "ok" else None


def _side_of(seat: str | None) -> str | None:
    return None if seat is None else ("NS" if seat in ("N", "S") else "EW")


def _deck_check(hand: Mapping[str, Any], verdict: Mapping[str, Any] | None,
                per_seat: int) -> dict[str, Any] | None:
    if not hand:
        return None
    dealt = sum(len(c) for c in hand.get("cards", {}).values())
    unread = sum(hand.get("unread", {}).values())
    text = f"{dealt + unread} of {4 * per_seat} cards"
    if unread:
        text += f", {unread} unread"
    if hand.get("foreign"):
        text += f", foreign: {', '.join(hand['foreign'])}"
    status = verdict["status"] if verdict else "ok"
    return {"status": status, "text": f"{text} — {status}"}


def _banner(verdict: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not verdict or verdict["status"] not in BANNERS:
        return None
    return {"title": BANNERS[verdict["status"]], **verdict}


def _result(result: Mapping[str, Any] | None, hand: Mapping[str, Any]) -> dict[str, Any] | None:
    if hand.get("thrown_in"):
        return {"text": f"hand thrown in: {hand['thrown_in']}"}
    if not result:
        return None
    side = result["declaring_side"]
    outcome = {"made": "made it", "set": "went set", "conceded": "conceded"}[result["outcome"]]
    points = ", ".join(f"{s} {p:+d}" for s, p in result["points"].items())
    return {"outcome": result["outcome"], "text": f"{side} bid {result['bid']} and {outcome} "
                                                  f"({points})"}


def _sheet_row(row: Mapping[str, Any]) -> dict[str, Any]:
    points = row.get("points") or {}
    return {"hand": row["hand"], "dealer": row["dealer"],
            "contract": f"{row['declarer']} {row['bid']}" if row.get("declarer") else None,
            "result": row["outcome"], "NS": points.get("NS", 0), "EW": points.get("EW", 0)}
