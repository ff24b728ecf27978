"""The operator's check of a card read from the table: confirm the read, or name the card.

The table camera reads the faces it sees lying up: a card exposed in the deal, meld laid down.
Each is logged as read, a card or None when the reader could not name it. The operator may
look at the card and say on the page which it is; that is logged as a ``ReadChecked`` naming
the read's place in the hand before anything acts on it. Whoever folds the hand then takes its
events through ``checked``, which puts the operator's card in place of the camera's. The read
itself is never rewritten, so the log keeps what the camera saw beside what the operator said.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card, DeckSpec
from ..events import CardDelivered, CardExposed, Event, ReadChecked
from ..live import MalformedAction, card_param


def is_table_read(event: Event) -> bool:
    """A face the table camera read: shown at a seat (exposed or meld), or landed face up."""
    return ((isinstance(event, CardExposed) and event.seat is not None)
            or (isinstance(event, CardDelivered) and event.exposed))


def check_read(events: Sequence[Event], deck: DeckSpec, params: Mapping[str, Any]
               ) -> ReadChecked:
    """The operator's ``{"slot": n, "card": "QS"}`` as an event to log, or MalformedAction
    naming what is wrong: a slot that holds no read from the table, a card not of the deck."""
    slot = params.get("slot")
    if isinstance(slot, bool) or not isinstance(slot, int):
        raise MalformedAction("'slot' must be a whole number: the read's place in the hand")
    if not 0 <= slot < len(events) or not is_table_read(events[slot]):
        raise MalformedAction(f"'slot': no card was read from the table at {slot} in this hand")
    card = card_param(params)
    if card not in deck.distinct:
        raise MalformedAction(f"'card': {card} is not a card of the {deck.name} deck")
    return ReadChecked(slot, card)


def checks(events: Sequence[Event]) -> dict[int, Card]:
    """The card the operator gave each read, by its place in the hand; the latest one counts."""
    given: dict[int, Card] = {}
    for event in events:
        if isinstance(event, ReadChecked):
            given[event.event] = event.card
    return given


def checked(events: Sequence[Event]) -> list[Event]:
    """The hand's events with each checked read carrying the operator's card. Every event
    keeps its place, so the tracker's evidence indexes still point into the log."""
    out = list(events)
    for slot, card in checks(events).items():
        if 0 <= slot < len(out) and is_table_read(out[slot]):
            out[slot] = dataclasses.replace(out[slot], card=card)
    return out
