"""The one event vocabulary: every event round-trips through JSON; bad objects name the field."""

import json

import pytest

from scanner.cards import Seat, Suit, parse_card
from scanner.events import (
    EVENT_TYPES,
    Bid,
    CardDelivered,
    CardRead,
    CountersTaken,
    EventError,
    HandStarted,
    Marker,
    TrumpNamed,
    event_from_dict,
)

SAMPLES = [
    HandStarted("pinochle", Seat.N, 3, "evening"),
    CardRead(parse_card("QS"), "up", 0.98, "station"),
    CardRead(None, "none", 0.0),
    CardDelivered(parse_card("TH"), Seat.E, exposed=True),
    Marker("bidding-ended"),
    Bid(Seat.E, 21),
    TrumpNamed(Seat.E, Suit.S),
    CountersTaken("NS", 14, 7),
]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.type)
def test_event_round_trips_through_json(event):
    assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event


def test_every_event_type_has_a_unique_name():
    assert len(EVENT_TYPES) == len({cls.type for cls in EVENT_TYPES.values()})


def test_unreadable_card_is_kept_as_none_never_a_guess():
    assert event_from_dict({"type": "card-read", "card": None, "face": "up"}).card is None


@pytest.mark.parametrize(
    ("obj", "field"),
    [
        ({"type": "bid", "seat": "X", "amount": 21}, "seat"),
        ({"type": "bid", "seat": "N", "amount": "21"}, "amount"),
        ({"type": "card-delivered", "card": "ZZ", "to": "N"}, "card"),
        ({"type": "marker", "name": "lunch"}, "name"),
        ({"type": "card-delivered", "card": "AS"}, "to"),
        ({"type": "counters-taken", "side": "NE", "points": 3, "tricks": 1}, "side"),
    ],
)
def test_a_malformed_event_names_the_field(obj, field):
    with pytest.raises(EventError, match=repr(field)):
        event_from_dict(obj)


def test_an_unknown_event_type_is_refused():
    with pytest.raises(EventError, match="unknown event type"):
        event_from_dict({"type": "teleport"})


def test_an_unknown_field_is_refused_rather_than_dropped():
    with pytest.raises(EventError, match="unknown field"):
        event_from_dict({"type": "pass", "seat": "N", "extra": 1})
