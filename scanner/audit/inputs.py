"""Evidence for the audit: a dealing order from a deal log, and a stated prior order.

The audit abstains rather than guess: a card that was not read, an object that is no card,
a card the deck does not hold, or a deal that is not the whole deck stops the audit with the
line that is wrong. A missing card cannot be filled in from "the one nobody holds", because
where it was dealt is exactly what the order-based tests look at.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ..cards import DECK_FOR_GAME, Card, CardError, DeckSpec, parse_card
from ..dealfile import DealFileError, read_deal_log
from ..events import CardDelivered
from .suite import NEW_PACK, NO_PRIOR, DealtOrder, Prior

NAMED_PRIORS: dict[str, Prior] = {"new-pack": NEW_PACK, "none": NO_PRIOR}


class AuditInputError(ValueError):
    """Evidence the audit cannot use; the message names the file, line and field."""


def order_from_log(path: str | Path, deal: int = 1) -> DealtOrder:
    """The cards of a deal log in the order they were dealt."""
    try:
        log = read_deal_log(path)
    except DealFileError as exc:
        raise AuditInputError(str(exc)) from None
    deck = DECK_FOR_GAME[log.header.game]
    cards: list[Card] = []
    seen: Counter[Card] = Counter()
    for event, line in zip(log.events, log.lines, strict=True):
        if not isinstance(event, CardDelivered):
            continue
        where = f"{path}: line {line}"
        if event.foreign:
            raise AuditInputError(f"{where}: field 'card' is a {event.foreign}, not a card of "
                                  f"the {deck.name} deck; the deal is wrong, not auditable")
        if event.card is None:
            raise AuditInputError(f"{where}: field 'card' is null (not read); the audit needs "
                                  "every card of the dealing order: read it again or enter it")
        seen[event.card] += 1
        allowed = deck.multiset[event.card]
        if seen[event.card] > allowed:
            what = "not in" if allowed == 0 else f"copy {seen[event.card]} of {allowed} in"
            raise AuditInputError(f"{where}: field 'card': {event.card} is {what} the "
                                  f"{deck.name} deck")
        cards.append(event.card)
    if len(cards) != deck.size:
        missing = deck.multiset - seen
        raise AuditInputError(
            f"{path}: the log deals {len(cards)} cards, not the {deck.size} of the {deck.name} "
            f"deck (missing: {_names(missing)}); the "
            "audit needs the whole dealing order")
    return DealtOrder(tuple(cards), deck, {"deal": deal, "file": str(path),
                                           "game": log.header.game})


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
