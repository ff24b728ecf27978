"""The live table follows the log: the log is the truth, whoever wrote to it."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from scanner.cards import PINOCHLE_48, Seat
from scanner.events import CardDelivered, HandStarted
from scanner.live import ActionRefused, LiveTable, MalformedAction, TableBusy
from scanner.log import EventLog, LogConflict
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


# -- issue 21, case 7: two servers on one log and sitting -------------------------------------

def test_of_two_tables_acting_on_one_version_the_second_is_refused_and_logs_nothing(db):
    """Before, both servers said yes to `next-hand` in 29 of 30 simultaneous rounds."""
    # An hour between looks at the log: the second table has not seen the first's action.
    first, second = (LiveTable(lambda: EventLog(db, session=SESSION), PinochleGame(),
                               follow_interval=3600) for _ in range(2))
    try:
        first.act("next-hand", {})
        with pytest.raises(ActionRefused, match="the table changed") as refused:
            second.act("next-hand", {})
        assert "Nothing was logged" in refused.value.reason
        # The loser now shows the winner's action and can act on it.
        assert second.snapshot() == first.snapshot()
        second.act("undo", {})
    finally:
        first.close()
        second.close()
    with EventLog(db) as log:
        assert [event.type for _, event in log.replay()] == ["hand-started", "undo"]


def test_a_write_checked_against_an_old_version_is_refused_in_its_transaction(db):
    with EventLog(db, session=SESSION) as log:
        seq = log.append(HandStarted("pinochle", Seat.N, 3, SESSION))
        with pytest.raises(LogConflict) as conflict:
            log.append_many([HandStarted("pinochle", Seat.E, 3, SESSION)],
                            expected_version=seq - 1)
        assert conflict.value.gained == [(seq, None)]
        assert log.append_many([HandStarted("pinochle", Seat.E, 3, SESSION)],
                               expected_version=seq) == [seq + 1]
        # Another sitting's events do not move this one.
        with EventLog(db, session="another-night") as other:
            other.append(HandStarted("pinochle", Seat.S, 3, "another-night"))
        log.append_many([HandStarted("pinochle", Seat.W, 3, SESSION)], expected_version=seq + 1)


def test_an_action_is_checked_again_when_only_cards_came_in_meanwhile(db):
    """Cards dealt by another writer are facts: an exposure reported mid-deal still stands."""
    table = LiveTable(lambda: EventLog(db, session=SESSION), PinochleGame(),
                      follow_interval=3600)
    try:
        table.act("next-hand", {})
        with EventLog(db, session=SESSION) as shoe_log:
            card = PINOCHLE_48.cards()[0]
            shoe_log.append(CardDelivered(card, Seat.E), key="deal-1/card-0")
        table.act("expose", {"card": "QS", "seat": "E"})
        assert table.snapshot()[1]["banner"]["status"] == "redeal-same-dealer"
    finally:
        table.close()
    with EventLog(db) as log:
        assert [e.type for _, e in log.replay()] == ["hand-started", "card-delivered",
                                                     "card-exposed"]


class DealingMeanwhile(PinochleGame):
    """While ``dealing``, the shoe delivers another card each time an action is checked,
    before the action can be logged."""

    def __init__(self, db: Path) -> None:
        super().__init__()
        self.shoe_log = EventLog(db, session=SESSION)
        self.cards = iter(enumerate(PINOCHLE_48.cards()))
        self.dealing = False

    def command(self, state, action, params):
        events = super().command(state, action, params)
        if self.dealing:
            number, card = next(self.cards)
            self.shoe_log.append(CardDelivered(card, Seat.E), key=f"deal-1/card-{number}")
        return events


def test_an_action_cards_keep_arriving_under_is_refused_as_busy_and_stands_when_repeated(db):
    """The table says "try again" rather than log an action checked against a state it no
    longer is; the demo's operator, reporting an exposure mid-deal, does try again."""
    game = DealingMeanwhile(db)
    table = LiveTable(lambda: EventLog(db, session=SESSION), game, follow_interval=3600)
    try:
        table.act("next-hand", {})
        game.dealing = True
        with pytest.raises(TableBusy, match="changing too fast") as busy:
            table.act("expose", {"card": "QS", "seat": "E"})
        assert isinstance(busy.value, ActionRefused)
        game.dealing = False
        table.act("expose", {"card": "QS", "seat": "E"})
        assert table.snapshot()[1]["banner"]["status"] == "redeal-same-dealer"
    finally:
        table.close()
        game.shoe_log.close()
    with EventLog(db) as log:
        kinds = [e.type for _, e in log.replay()]
    assert kinds.count("card-exposed") == 1 and kinds[-1] == "card-exposed"


def test_the_live_table_bench_still_runs_against_the_live_table_as_it_is(tmp_path) -> None:
    # bench/live_table.py measures the README's per-event figure with its own in-memory log;
    # once that log fell behind the live table's EventSink and the bench stopped measuring.
    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "live_table.py", "--hands", "2", "--rounds", "1",
                           "--dir", str(tmp_path)], cwd=repo / "bench", capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(repo)})
    assert done.returncode == 0, done.stderr
    assert "ratio" in done.stdout
