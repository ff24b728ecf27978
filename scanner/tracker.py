"""The deal tracker: card events in, four hands and verdicts out, driven by a game's DealRules.

The tracker knows no game. A game's rules module (``scanner.pinochle.deal_rules``,
``scanner.bridge.deal_rules``) supplies the deck, the packet sizes, the marker that splits
"found before" from "found after", and for every kind of fault the rule it breaks and the
status it earns on each side of that marker.

It rules as cards arrive (an extra copy, a foreign card, an exposed card, a packet of the wrong
size, a hand that grows too long) and again when the deal should be complete: when the marker
arrives, and at the end of the events if cards came after the marker or no marker came at all.

Evidence is a list of event indexes, 0 being the first event fed to the tracker. A finding that
no single card shows (a card missing from the deck, a hand one short) cites the event at which
the deal was checked: the marker, or the last event when there was none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .bridge.deal_rules import BRIDGE_DEAL_RULES
from .cards import SEATS, Card, Seat
from .events import FACES_NOT_READ, CardDelivered, CardExposed, Event, HandStarted, Marker
from .pinochle.deal_rules import PINOCHLE_DEAL_RULES
from .rules import DealRules
from .verdicts import OK, Verdict, most_severe

if TYPE_CHECKING:
    from .history import DealHistory, Sighting

# How many missing cards a reason names before it says "and N more".
_LISTED_CARDS = 12


@dataclass
class _Finding:
    kind: str
    after: bool
    evidence: list[int]
    details: list[str]


@dataclass(frozen=True)
class DealResult:
    """The hands as dealt, every finding, and the deal's verdict (the most severe finding)."""

    game: str
    dealer: Seat
    hands: dict[Seat, list[Card | str | None]]
    verdict: Verdict
    findings: list[Verdict] = field(default_factory=list)
    complete: bool = False

    def to_dict(self) -> dict[str, Any]:
        out = self.verdict.to_dict()
        out["hands"] = {seat.value: [_token(c) for c in _sorted_hand(cards)]
                        for seat, cards in self.hands.items()}
        out["game"] = self.game
        out["dealer"] = self.dealer.value
        out["complete"] = self.complete
        out["findings"] = [f.to_dict() for f in self.findings]
        return out


def _token(card: Card | str | None) -> str | None:
    return str(card) if isinstance(card, Card) else card


def _sorted_hand(cards: Iterable[Card | str | None]) -> list[Card | str | None]:
    known = sorted((c for c in cards if isinstance(c, Card)), key=lambda c: c.index)
    foreign = [c for c in cards if isinstance(c, str)]
    unread = [c for c in cards if c is None]
    return [*known, *foreign, *unread]


class DealTracker:
    """Folds one hand's events into four hands and findings. Feed events in log order.

    Deliveries, exposures and markers shape the deal; the game's ``after_event_types`` (a bid,
    trump named) also mean the marker has passed. Other events (reads, machine faults) do not
    change the deal: a delivery, not a read, puts a card in a hand.
    """

    def __init__(self, rules: DealRules, dealer: Seat, packet: int | None = None) -> None:
        # 0 or None: the table agreed nothing, so the game's default packet applies.
        packet = packet or rules.default_packet
        if packet not in rules.packet_sizes:
            raise ValueError(f"packet {packet} is not allowed in {rules.game}; "
                             f"allowed: {', '.join(map(str, rules.packet_sizes))}")
        self.rules = rules
        self.dealer = dealer
        self.packet = packet
        self.hands: dict[Seat, list[Card | str | None]] = {seat: [] for seat in SEATS}
        self._hand_size = rules.deck.hand_size
        # The per-event path looks each thing up once: a card to its slot in the deck (copies
        # are counted in a list by slot), a seat to its hand and the seat on its left.
        self._slot = rules.slots
        self._allowed = [n for _, n in rules.deck.counts]
        self._copies = [0] * len(self._allowed)
        # Where each copy of each card went, by slot, and which "extra-copy" detail speaks for
        # a slot: a surplus card then costs the same at the 100th card as at the 53rd.
        self._positions: list[list[int]] = [[] for _ in self._allowed]
        self._surplus_detail: dict[tuple[int, bool], int] = {}
        self._foreign = 0
        self._seat_info = {seat: (self.hands[seat], seat.left) for seat in SEATS}
        self._dealt: list[tuple[int, Card | None]] = []
        self._unread = 0
        self._counted_only = False
        self._findings: dict[tuple[str, bool], _Finding] = {}
        self._after = False
        self._cards_since_check = 0
        self._last_index = -1
        self._checkpoint = -1
        self._next_index = 0
        self._run_seat: Seat | None = None
        self._next_seat = dealer.left
        self._run_len = packet
        self._run_start = 0
        self._run_judged = False
        self._result: DealResult | None = None
        self._handlers: dict[type[Event], Callable[[Any, int], None]] = {
            CardDelivered: self._on_delivery,
            CardExposed: self._on_exposure,
            Marker: self._on_marker,
            HandStarted: self._on_hand_started,
        }
        for event_type in rules.after_event_types:
            self._handlers[event_type] = self._on_implied_marker

    @classmethod
    def for_hand(cls, started: HandStarted) -> DealTracker:
        """A tracker for the hand a ``hand-started`` event opens."""
        return cls(rules_for_game(started.game), started.dealer, started.packet)

    def feed(self, event: Event, index: int | None = None) -> None:
        """Take the next event; ``index`` defaults to the count of events fed so far."""
        if index is None:
            index = self._next_index
        self._next_index = index + 1
        self._last_index = index
        handler = self._handlers.get(type(event))
        if handler is not None:
            handler(event, index)

    def feed_all(self, events: Iterable[Event]) -> None:
        """``feed`` each event in turn, indexed from the count of events fed so far."""
        handlers = self._handlers
        index = self._next_index
        for event in events:
            self._last_index = index
            handler = handlers.get(type(event))
            if handler is not None:
                handler(event, index)
            index += 1
        self._next_index = index

    def findings(self) -> list[Verdict]:
        """Every finding so far, in the order first found."""
        return [self._verdict_of(f) for f in self._findings.values()]

    def verdict(self) -> Verdict:
        """The most severe finding so far (the deal need not be complete)."""
        return most_severe(self.findings())

    def finish(self, history: DealHistory | None = None, session: str | None = None,
               ) -> DealResult:
        """Rule on the deal as it stands at the end of its events.

        With a ``history``, a complete deal is also compared with deals recorded in other
        sessions than ``session`` (for games whose rules check repeats). The deal is ruled
        once: later calls return the same result.
        """
        if self._result is not None:
            return self._result
        if not self._after or self._cards_since_check:
            self._check_complete(self._last_index)
        complete = self.is_complete()
        if history is not None and self.rules.checks_repeats and complete:
            self._flag_repeats(history.seen_in_other_session(self.known_hands(), session))
        findings = self.findings()
        worst = most_severe(findings)
        if worst.status == OK:
            worst = self._clean_verdict(findings)
        self._result = DealResult(self.rules.game, self.dealer,
                                  {seat: list(cards) for seat, cards in self.hands.items()},
                                  worst, findings, complete)
        return self._result

    def is_complete(self) -> bool:
        """Every card read, the whole deck and nothing else, each hand full (for a deal
        counted only: each hand full, and no card seen twice or from another deck)."""
        if self._counted_only:
            return (all(len(cards) == self._hand_size for cards in self.hands.values())
                    and self._foreign == 0
                    and all(c <= n for c, n in zip(self._copies, self._allowed, strict=True)))
        return (self._unread == 0
                and all(len(cards) == self._hand_size for cards in self.hands.values())
                and self._foreign == 0 and self._copies == self._allowed)

    def known_hands(self) -> dict[Seat, list[Card]]:
        return {seat: [c for c in cards if isinstance(c, Card)]
                for seat, cards in self.hands.items()}

    # -- per-event rules: keep these to a few dict and list operations each

    def _on_delivery(self, event: CardDelivered, index: int) -> None:
        card, seat = event.card, event.to
        hand, left = self._seat_info[seat]
        dealt = self._dealt
        dealt.append((index, card))
        self._cards_since_check += 1
        if card is None:
            self._on_non_card(event, hand, index)
        else:
            hand.append(card)
            slot = self._slot.get(card)
            if slot is None:
                self._foreign += 1
                self._flag("foreign", [index],
                           f"{card} is not part of the {self.rules.deck.name} deck")
            else:
                copies = self._copies[slot] + 1
                self._copies[slot] = copies
                self._positions[slot].append(index)
                if copies > self._allowed[slot]:
                    self._on_surplus(card, slot, index)
        if len(hand) > self._hand_size:
            self._flag("count", [index],
                       f"{seat} received card {len(hand)} of a {self._hand_size}-card hand")
        if event.exposed:
            self._flag("exposed", [index], f"{_name(event)} to {seat} was dealt face up")
        if self._after:
            self._flag("late-card", [index], f"{_name(event)} to {seat} after {self.rules.marker}")
        if seat is self._run_seat:
            self._run_len += 1
            if self._run_len == self.packet + 1:
                self._flag_packet(seat)
        elif seat is self._next_seat and self._run_len == self.packet:
            self._run_seat, self._next_seat = seat, left
            self._run_len, self._run_start = 1, len(dealt) - 1
        else:
            self._start_packet(seat, left, index)

    def _on_non_card(self, event: CardDelivered, hand: list[Card | str | None],
                     index: int) -> None:
        if event.foreign:
            hand.append(event.foreign)
            self._foreign += 1
            self._flag("foreign", [index], f"a {event.foreign} to {event.to}")
        else:
            hand.append(None)
            self._unread += 1
            if self._counted_only:
                return
            self._flag("unread", [index], f"the card to {event.to} at event {index} was not read")

    def _on_surplus(self, card: Card, slot: int, index: int) -> None:
        where = self._positions[slot]
        detail = f"{card} dealt {len(where)} times; the deck holds {self._allowed[slot]}"
        key = ("extra-copy", self._after)
        line = self._surplus_detail.get((slot, self._after))
        if line is None:
            # The first surplus names every copy so far; later ones add only themselves and
            # update the card's one detail, so the finding grows by one entry per card dealt.
            self._flag("extra-copy", list(where), detail)
            self._surplus_detail[(slot, self._after)] = len(self._findings[key].details) - 1
        else:
            finding = self._findings[key]
            finding.evidence.append(index)
            finding.details[line] = detail

    def _start_packet(self, seat: Seat, left: Seat, index: int) -> None:
        previous = self._run_seat
        if previous is None:
            if seat is not self.dealer.left:
                self._flag("first-packet-seat", [index],
                           f"the first card went to {seat}, not to the dealer's left "
                           f"({self.dealer.left})")
        else:
            if self._run_len < self.packet and not self._run_judged:
                self._flag_packet(previous)
            if seat is not self._next_seat:
                self._flag("rotation", [index],
                           f"after {previous} the next card went to {seat}, "
                           f"not {self._next_seat} (clockwise)")
        self._run_seat, self._next_seat = seat, left
        self._run_len, self._run_start = 1, len(self._dealt) - 1
        self._run_judged = False

    def _flag_packet(self, seat: Seat) -> None:
        self._run_judged = True
        run = [i for i, _ in self._dealt[self._run_start:self._run_start + self._run_len]]
        size = len(run)
        if self.packet == 1:
            detail = f"{seat} received {size} cards in a row"
        else:
            detail = f"a packet of {size} to {seat}; the agreed packet is {self.packet}"
        self._flag("packet-size", run, detail)

    def _on_exposure(self, event: CardExposed, index: int) -> None:
        # Once the marker is passed, faces are shown on purpose (meld) or fall under the laws
        # of play; the deal tracker rules only on exposure during the deal.
        if not self._after:
            what = str(event.card) if event.card is not None else "a card"
            self._flag("exposed", [index], f"{what} was exposed during the deal")

    def _on_marker(self, event: Marker, index: int) -> None:
        if event.name == FACES_NOT_READ:
            # Unread by design: an unread card is no fault, a missing one a seat short.
            self._counted_only = True
        elif event.name in self.rules.after_markers:
            self._reach_marker(index)

    def _on_implied_marker(self, event: Event, index: int) -> None:
        self._reach_marker(index)

    def _on_hand_started(self, event: HandStarted, index: int) -> None:
        raise ValueError(f"event {index}: a new hand started; a tracker follows one hand, "
                         "so finish this one and start another")

    def _reach_marker(self, index: int) -> None:
        if not self._after:
            self._check_complete(index)
            self._after = True

    # -- rules on the deal as a whole

    def _check_complete(self, index: int) -> None:
        self._checkpoint = index
        self._cards_since_check = 0
        if self._run_seat is not None and not self._run_judged and self._run_len < self.packet:
            self._flag_packet(self._run_seat)
        self._check_counts(index)
        self._check_deck(index)
        self._check_shuffled()

    def _check_counts(self, index: int) -> None:
        size = self._hand_size
        wrong = {seat: len(cards) for seat, cards in self.hands.items() if len(cards) != size}
        if not wrong:
            return
        long = [f"{seat}" for seat, n in wrong.items() if n > size]
        short = [f"{seat}" for seat, n in wrong.items() if n < size]
        counts = ", ".join(f"{seat} has {n}" for seat, n in wrong.items())
        summary = (f"{counts}; each hand must hold {size}"
                   f" (long: {', '.join(long) or 'none'}; short: {', '.join(short) or 'none'})")
        finding = self._findings.get(("count", self._after))
        if finding is None:
            self._flag("count", [index], summary)
        else:
            finding.details = [summary]

    def _check_deck(self, index: int) -> None:
        missing = [f"{card}" for (card, allowed), copies
                   in zip(self.rules.deck.counts, self._copies, strict=True)
                   for _ in range(allowed - copies)]
        if len(missing) > self._unread and not self._counted_only:
            unread = (f"; {self._unread} unread card(s) may be {self._unread} of them"
                      if self._unread else "")
            shown = ", ".join(missing[:_LISTED_CARDS])
            unlisted = len(missing) - _LISTED_CARDS
            more = f" and {unlisted} more" if unlisted > 0 else ""
            self._flag("missing", [index],
                       f"the deck is incomplete: {len(missing)} card(s) never dealt "
                       f"({shown}{more}){unread}")

    def _check_shuffled(self) -> None:
        if any(kind == "unshuffled" for kind, _ in self._findings):
            return
        cards = [card for _, card in self._dealt]
        for pattern in self.rules.sorted_patterns:
            hits = pattern.pairs_in(cards)
            if hits >= pattern.min_pairs:
                self._flag("unshuffled", [i for i, _ in self._dealt],
                           f"dealt from a deck {pattern.name}: {hits} of {len(cards) - 1} "
                           f"consecutive cards show it (a shuffled deck averages "
                           f"{pattern.shuffled_mean:.0f})")
                return

    def _flag_repeats(self, sightings: Sequence[Sighting]) -> None:
        if not sightings:
            return
        first = sightings[0]
        board = f", board {first.board}" if first.board is not None else ""
        self._flag("repeat", [self._checkpoint],
                   f"this deal was already {first.source} in session {first.session!r} "
                   f"on {first.recorded_at}{board}"
                   + (f" (and {len(sightings) - 1} other sighting(s))" if len(sightings) > 1
                      else ""))

    # -- findings to verdicts

    def _flag(self, kind: str, evidence: list[int], detail: str) -> None:
        key = (kind, self._after)
        finding = self._findings.get(key)
        if finding is None:
            self._findings[key] = _Finding(kind, self._after, evidence, [detail])
        else:
            finding.evidence.extend(evidence)
            finding.details.append(detail)

    def _verdict_of(self, finding: _Finding) -> Verdict:
        fault = self.rules.faults[finding.kind]
        status = fault.after if finding.after else fault.before
        details = finding.details
        reason = "; ".join(details[:3])
        if len(details) > 3:
            reason += f"; and {len(details) - 3} more"
        if finding.after:
            reason += f" (found after {self.rules.marker})"
        return Verdict(status, fault.rule, reason, sorted(set(finding.evidence)))

    def _clean_verdict(self, findings: list[Verdict]) -> Verdict:
        deck = self.rules.deck
        reason = (f"the whole {deck.size}-card deck, {deck.hand_size} cards to each hand, "
                  "dealt by the rules")
        if self._counted_only and self.is_complete():
            reason = (f"{deck.size} cards counted face down, {deck.hand_size} to each hand, "
                      "dealt by the rules (no reading shoe: the faces were not read)")
        elif not self.is_complete():
            reason = "no fault so far; the deal is not complete"
        if findings:
            reason += f"; {len(findings)} note(s)"
        return Verdict(OK, self.rules.deal_rule, reason, [])


def _name(event: CardDelivered) -> str:
    if event.card is not None:
        return str(event.card)
    return event.foreign or "an unread card"


def rules_for_game(game: str) -> DealRules:
    """The deal rules of ``pinochle`` or ``bridge``; ValueError naming the game otherwise."""
    known = {r.game: r for r in (PINOCHLE_DEAL_RULES, BRIDGE_DEAL_RULES)}
    try:
        return known[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}: expected one of {sorted(known)}") from None


def check_deal(started: HandStarted, events: Iterable[Event],
               history: DealHistory | None = None, session: str | None = None,
               board: int | None = None) -> DealResult:
    """Rule on one dealt hand. With a history, compare it with earlier sessions and record it.

    A complete deal (every card read, whole deck, full hands) is recorded in ``history``
    under ``session`` with source ``checked``; an incomplete one is not a deal anyone played.
    """
    tracker = DealTracker.for_hand(started)
    tracker.feed_all(events)
    result = tracker.finish(history, session)
    if history is not None and result.complete and session is not None:
        history.record(tracker.known_hands(), session, "checked", board=board,
                       game=started.game)
    return result
