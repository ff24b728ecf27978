"""Issue 21, case 8: `serve` and `deal-deck` on one log: the page shows the deal.

A real `tablescan serve`, a real `tablescan shoe-sim` and a real `tablescan deal-deck`, as a
user runs them side by side on one event log.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

from scanner.app.browser import running_server
from scanner.cards import PINOCHLE_48, Seat
from scanner.events import HandStarted
from scanner.live import LiveTable
from scanner.log import EventLog
from scanner.pinochle.live_game import PinochleGame
from scanner.shoe.virtual_deck import DeckCard, format_virtual_deck

TABLESCAN = [sys.executable, "-m", "scanner"]


@pytest.fixture
def shoe(tmp_path) -> Iterator[dict]:
    deck = PINOCHLE_48.cards()
    random.Random(21).shuffle(deck)
    path = tmp_path / "deck.txt"
    path.write_text(format_virtual_deck([DeckCard(card) for card in deck]), encoding="utf-8")
    process = subprocess.Popen([*TABLESCAN, "shoe-sim", "--deck", str(path), "--motion", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    yield json.loads(process.stdout.readline())
    process.terminate()
    process.wait(timeout=10)


def deal_deck(shoe: dict, db, *extra: str) -> None:
    out = subprocess.run(
        [*TABLESCAN, "deal-deck", "--shoe", shoe["shoe"], "--camera", shoe["camera"],
         "--game", "pinochle", "--dealer", "N", "--db", str(db), *extra],
        capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["status"] == "complete"


def cards_on_the_page(url: str, timeout: float = 30.0) -> list[int]:
    """Each seat's received count, once the page's state shows the whole deck dealt."""
    deadline = time.monotonic() + timeout
    while True:
        with urllib.request.urlopen(url + "state", timeout=10) as response:
            seats = json.load(response)["state"]["seats"]
        received = [seat["received"] for seat in seats]
        if sum(received) == 48 or time.monotonic() > deadline:
            return received
        time.sleep(0.1)


def test_deal_deck_logs_into_the_sitting_serve_shows(tmp_path, shoe):
    with running_server(tmp_path) as server:
        sitting = re.search(r"sitting (\S+)\)", (tmp_path / "serve.log").read_text()).group(1)
        deal_deck(shoe, server.db, "--session", sitting)
        assert cards_on_the_page(server.url) == [12, 12, 12, 12]


def test_the_page_follows_a_new_sitting_that_a_writer_opens(tmp_path, shoe):
    with running_server(tmp_path) as server:
        deal_deck(shoe, server.db)
        assert cards_on_the_page(server.url) == [12, 12, 12, 12]


def test_a_table_told_its_sitting_keeps_to_it(tmp_path):
    db = tmp_path / "table.sqlite"
    table = LiveTable(lambda: EventLog(db, session="friday"), PinochleGame(),
                      follow_interval=0.01)
    try:
        with EventLog(db, session="saturday") as other:
            other.append(HandStarted("pinochle", Seat.E, 3, "saturday"))
        assert table.wait_for_change(0, timeout=0.3) == 0
        assert table.session == "friday"
    finally:
        table.close()


def test_a_following_table_switches_to_the_newest_sitting_and_acts_there(tmp_path):
    db = tmp_path / "table.sqlite"
    with EventLog(db, session="friday") as old:
        old.append(HandStarted("pinochle", Seat.N, 3, "friday"))
    table = LiveTable(lambda: EventLog(db, session="friday"), PinochleGame(),
                      follow_interval=0.01,
                      open_sitting=lambda name: EventLog(db, session=name))
    try:
        with EventLog(db, session="saturday") as other:
            seq = other.append(HandStarted("pinochle", Seat.E, 3, "saturday"))
        assert table.wait_for_change(1, timeout=5) == seq
        assert table.session == "saturday"
        assert table.snapshot()[1]["dealer"] == "E"
        table.act("undo", {})
    finally:
        table.close()
    with EventLog(db) as log:
        assert [e.type for _, e in log.replay(session="saturday")] == ["hand-started", "undo"]
