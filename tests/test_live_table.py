"""The live table follows the log: the log is the truth, whoever wrote to it."""

from __future__ import annotations

import random

import pytest

from scanner.cards import PINOCHLE_48, Seat
from scanner.events import CardDelivered, HandStarted
from scanner.live import ActionRefused, LiveTable, MalformedAction
from scanner.log import EventLog
from scanner.pinochle.live_game import PinochleGame

SESSION = "friday"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "table.sqlite"


@pytest.fixture
def table(db):
    live = LiveTable(lambda: EventLog(db, session=SESSION), PinochleGame(),
                     follow_interval=0.01)
    yield live
    live.close()


def test_events_another_writer_appends_reach_the_table_without_any_action(db, table):
    with EventLog(db, session=SESSION) as shoe_log:
        seq = shoe_log.append(HandStarted("pinochle", Seat.N, 3, SESSION))
    assert table.wait_for_change(0, timeout=5.0) == seq
    assert table.snapshot()[1]["hand_number"] == 1


def test_another_sittings_events_are_not_this_tables(db, table):
    with EventLog(db, session="another-night") as other:
        other.append(HandStarted("pinochle", Seat.E, 3, "another-night"))
    assert table.wait_for_change(0, timeout=0.2) == 0


def test_a_refused_action_writes_nothing_to_the_log(db, table):
    with pytest.raises(ActionRefused):
        table.act("trump", {"suit": "S"})
    with EventLog(db) as log:
        assert log.last_seq() == 0


def test_a_malformed_action_names_the_field(table):
    table.act("next-hand", {})
    with pytest.raises(MalformedAction, match="'suit'"):
        table.act("trump", {"suit": 7})


def test_a_keyed_fact_recorded_twice_is_logged_once(table):
    table.act("next-hand", {})
    card = CardDelivered(PINOCHLE_48.cards()[0], Seat.E)
    first = table.record([card], key="deal-1/card-0")
    again = table.record([card], key="deal-1/card-0")
    assert first == again == 2


def open_table(db) -> LiveTable:
    return LiveTable(lambda: EventLog(db, session=SESSION), PinochleGame())


def test_a_restarted_table_rebuilds_the_same_state_from_the_log(db):
    first = open_table(db)
    first.act("next-hand", {})
    deck = PINOCHLE_48.cards()
    random.Random(3).shuffle(deck)
    order = [s for _ in range(4) for s in Seat.E.clockwise_from() for _ in range(3)]
    first.record(CardDelivered(c, s) for c, s in zip(deck, order, strict=True))
    first.act("bid", {"amount": 21})
    before = first.snapshot()
    first.close()
    again = open_table(db)
    try:
        assert again.snapshot() == before
    finally:
        again.close()
