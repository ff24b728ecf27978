"""`tablescan demo`: simulated hands through the real parts, logged and rebuilt from the log."""

import random
from itertools import pairwise

from scanner.app.terminal_demo import DemoTable
from scanner.cards import Seat
from scanner.cli import main
from scanner.events import CardDelivered, HandStarted, Redeal
from scanner.live import LiveTable
from scanner.log import EventLog
from scanner.pinochle.auction import Auction
from scanner.pinochle.bidders import scripted_call
from scanner.pinochle.live_game import PinochleGame
from scanner.pinochle.table import fold
from scanner.verdicts import OK


class Record:
    """A reporter that keeps what it is told."""

    def __init__(self):
        self.rulings = []
        self.deals = []

    def hand_started(self, state, deal):
        self.deals.append((state.hand.number, deal, state.hand.dealer))

    def ruling(self, verdict, hands):
        self.rulings.append(verdict)

    def auction_over(self, hand):
        pass

    def meld_shown(self, hand):
        pass

    def played(self, hand, tricks):
        pass

    def scored(self, state):
        pass


def demo(tmp_path, hands, expose=False, seed=1):
    path = tmp_path / "demo.sqlite"
    record = Record()
    table = LiveTable(lambda: EventLog(path, session="demo"), PinochleGame())
    try:
        state = DemoTable(table, record, random.Random(seed)).play(hands, expose)
    finally:
        table.close()
    return EventLog(path, session="demo"), record, state


def test_every_hand_is_scored_with_the_dealer_rotating_clockwise(tmp_path):
    log, _, state = demo(tmp_path, 5)
    dealers = [row.dealer for row in state.sheet]
    assert len(state.sheet) == 5
    assert all(b is a.left for a, b in pairwise(dealers))
    log.close()


def test_an_exposed_card_is_ruled_a_redeal_by_the_same_dealer(tmp_path):
    log, record, state = demo(tmp_path, 1, expose=True)
    first = record.rulings[0]
    assert first.status == "redeal-same-dealer"
    assert first.rule == "Setup & Deal: The deal"
    assert "face up" in first.reason
    assert record.rulings[1].status == OK
    (_, deal1, dealer1), (_, deal2, dealer2) = record.deals
    assert (deal1, deal2, dealer1) == (1, 2, dealer2)
    assert state.sheet[0].hand == 1
    log.close()


def test_the_log_holds_the_redeal_and_both_deals(tmp_path):
    log, _, _ = demo(tmp_path, 1, expose=True)
    events = [event for _, event in log.replay(session="demo")]
    assert sum(isinstance(e, Redeal) for e in events) == 1
    assert sum(isinstance(e, HandStarted) for e in events) == 2
    assert sum(isinstance(e, CardDelivered) and e.exposed for e in events) == 1
    log.close()


def test_the_demo_table_is_rebuilt_exactly_from_its_log(tmp_path):
    log, _, state = demo(tmp_path, 3, expose=True)
    log.close()
    with EventLog(tmp_path / "demo.sqlite", session="demo") as reopened:
        rebuilt = fold(event for _, event in reopened.replay(session="demo"))
        assert rebuilt.to_dict() == state.to_dict()


def test_a_scripted_bidder_never_bids_against_its_partner():
    hands = {seat: [] for seat in Seat}
    auction = Auction(Seat.N).bid(Seat.E, 20).pass_(Seat.S)
    assert auction.next_seat is Seat.W
    assert scripted_call(auction, hands) is None


def test_demo_command_prints_rulings_meld_and_the_score_sheet(tmp_path, capsys):
    db = tmp_path / "cli.sqlite"
    assert main(["demo", "--db", str(db), "--hands", "2", "--expose"]) == 0
    out = capsys.readouterr().out
    assert "RULING: redeal-same-dealer" in out
    assert "remedy:   gather the cards and redeal with the same dealer" in out
    assert "deal 2 (redeal, same dealer)" in out
    assert "meld:" in out and "team meld:" in out
    assert "Score sheet" in out
    assert "table rebuilt identically" in out
    assert db.exists()


def test_demo_refuses_a_log_file_that_is_not_a_log(tmp_path, capsys):
    db = tmp_path / "not-a-log.sqlite"
    db.write_text("hello, this is not SQLite")
    assert main(["demo", "--db", str(db)]) == 2
    assert "--db" in capsys.readouterr().err


def test_demo_refuses_zero_hands(tmp_path, capsys):
    assert main(["demo", "--db", str(tmp_path / "x.sqlite"), "--hands", "0"]) == 2
    assert "--hands" in capsys.readouterr().err
