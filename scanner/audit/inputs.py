"""Evidence for the audit: a dealing order from a deal log, and a stated prior order.

The audit abstains rather than guess: a card that was not read, an object that is no card,
a card the deck does not hold, or a deal that is not the whole deck stops the audit with the
line that is wrong. A missing card cannot be filled in from "the one nobody holds", because
where it was dealt is exactly what the order-based tests look at.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..cards import DECK_FOR_GAME, Card, CardError, DeckSpec, parse_card
from ..dealfile import DealFileError, read_deal_log
from ..events import CardDelivered, Event, Redeal, Undo
from .suite import NEW_PACK, NO_PRIOR, DealtOrder, Prior

NAMED_PRIORS: dict[str, Prior] = {"new-pack": NEW_PACK, "none": NO_PRIOR}


class AuditInputError(ValueError):
    """Evidence the audit cannot use; the message names the file, line and field."""


@dataclass(frozen=True)
class LoggedOrders:
    """The complete dealings of one log, and notes on any dealing that was not audited."""

    deals: list[DealtOrder]
    notes: list[str]


def orders_from_log(path: str | Path, first_deal: int = 1) -> LoggedOrders:
    """The cards of a deal log in the order they were dealt, one list per dealing.

    A ``redeal`` starts a new dealing; an ``undo`` takes back the latest action, so an undone
    delivery leaves the order. A dealing cut short by a redeal is noted, not audited: a
    partial order has no exact null. The last dealing must be complete.
    """
    try:
        log = read_deal_log(path)
    except DealFileError as exc:
        raise AuditInputError(str(exc)) from None
    deck = DECK_FOR_GAME[log.header.game]
    dealings = _dealings(log.events, log.lines, path)
    deals: list[DealtOrder] = []
    notes: list[str] = []
    for number, dealing in enumerate(dealings, start=1):
        last = number == len(dealings)
        cards = _checked_dealing(dealing, deck, path, must_be_complete=last)
        if cards is None:
            where = f"line {dealing[0][1]}" if dealing else "the start"
            notes.append(f"{path}: dealing {number} (from {where}) was cut short by a redeal "
                         f"after {len(dealing)} cards and is not audited")
            continue
        scope = {"deal": first_deal + len(deals), "file": str(path), "game": log.header.game}
        if len(dealings) > 1:
            scope["dealing"] = number
        deals.append(DealtOrder(tuple(cards), deck, scope))
    return LoggedOrders(deals, notes)


Dealing = list[tuple[Card, int]]


def _dealings(events: Sequence[Event], lines: Sequence[int], path: str | Path) -> list[Dealing]:
    """Split the deliveries at each redeal, honouring undo (of a delivery or a redeal)."""
    closed: list[Dealing] = []
    current: Dealing = []
    actions: list[str] = []
    for event, line in zip(events, lines, strict=True):
        if isinstance(event, Undo):
            undone = actions.pop() if actions else None
            if undone == "delivery":
                current.pop()
            elif undone == "redeal":
                current = closed.pop() + current
        elif isinstance(event, Redeal):
            closed.append(current)
            current = []
            actions.append("redeal")
        elif isinstance(event, CardDelivered):
            current.append((_card(event, f"{path}: line {line}"), line))
            actions.append("delivery")
        else:
            actions.append("other")
    return [*closed, current]


def _card(event: CardDelivered, where: str) -> Card:
    if event.foreign:
        raise AuditInputError(f"{where}: field 'card' is a {event.foreign}, not a playing "
                              "card; the deal is wrong, not auditable")
    if event.card is None:
        raise AuditInputError(f"{where}: field 'card' is null (not read); the audit needs "
                              "every card of the dealing order: read it again or enter it")
    return event.card


def _checked_dealing(dealing: Dealing, deck: DeckSpec, path: str | Path,
                     must_be_complete: bool) -> list[Card] | None:
    seen: Counter[Card] = Counter()
    for card, line in dealing:
        seen[card] += 1
        allowed = deck.multiset[card]
        if seen[card] > allowed:
            what = "not in" if allowed == 0 else f"copy {seen[card]} of {allowed} in"
            raise AuditInputError(f"{path}: line {line}: field 'card': {card} is {what} the "
                                  f"{deck.name} deck")
    if len(dealing) == deck.size:
        return [card for card, _ in dealing]
    if not must_be_complete:
        return None
    raise AuditInputError(
        f"{path}: the log deals {len(dealing)} cards, not the {deck.size} of the {deck.name} "
        f"deck (missing: {_names(deck.multiset - seen)}); the audit needs the whole dealing "
        "order")


def _names(cards: Counter[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards.elements(), key=lambda c: c.index))


def prior_from_text(text: str, deck: DeckSpec, source: str) -> Prior:
    """A stated prior order: card tokens separated by spaces, commas or new lines.

    ``#`` starts a comment. The order must hold every card of the deck exactly as often as
    the deck does.
    """
    cards: list[Card] = []
    where: dict[Card, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        for token in raw.split("#", 1)[0].replace(",", " ").split():
            try:
                card = parse_card(token)
            except CardError as exc:
                raise AuditInputError(f"{source}: line {number}: {exc}") from None
            if card in where and deck.multiset[card] == 1:
                raise AuditInputError(f"{source}: line {number}: {card} appears again "
                                      f"(first on line {where[card]})")
            where.setdefault(card, number)
            cards.append(card)
    _check_whole_deck(cards, deck, source)
    return Prior("stated", tuple(cards), source)


def _check_whole_deck(cards: Sequence[Card], deck: DeckSpec, source: str) -> None:
    counts = Counter(cards)
    extra = counts - deck.multiset
    missing = deck.multiset - counts
    if extra:
        raise AuditInputError(f"{source}: not in the {deck.name} deck: "
                              f"{_names(extra)}")
    if missing:
        raise AuditInputError(f"{source}: the prior order has {len(cards)} cards, not "
                              f"{deck.size}; missing: "
                              f"{_names(missing)}")


def read_prior(spec: str, deck: DeckSpec) -> Prior:
    """``new-pack``, ``none``, or a file holding the prior order."""
    if spec in NAMED_PRIORS:
        return NAMED_PRIORS[spec]
    path = Path(spec)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise AuditInputError(f"--prior {spec}: no such file (or use one of "
                              f"{', '.join(NAMED_PRIORS)})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AuditInputError(f"--prior {spec}: cannot read: {exc}") from None
    return prior_from_text(text, deck, str(path))
