"""The bridge view of the live page: what a set being dealt and verified shows, from the log.

A real LiveTable on a real SQLite log runs BridgeSetGame; the events are the ones the shoe's
loops write (board-started, card-delivered, board-result, audit-result). Routes go through
the real Flask app with its PIN and CSRF.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from scanner.bridge.live_set import BridgeSetGame
from scanner.cards import SEATS, parse_card
from scanner.events import (
    AuditResult,
    BoardResult,
    BoardStarted,
    CardDelivered,
    DeckLoaded,
    DeckWanted,
    MachineFault,
)
from scanner.live import LiveTable
from scanner.log import EventLog
from webui import create_app

PIN = "1357"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "club.sqlite"


@pytest.fixture
def table(db) -> Iterator[LiveTable]:
    live = LiveTable(lambda: EventLog(db, session="tuesday"), BridgeSetGame())
    yield live
    live.close()


@pytest.fixture
def client(table):
    return create_app(table, pin=PIN, TESTING=True).test_client()


def state_of(client) -> dict:
    response = client.get("/state")
    assert response.status_code == 200
    return response.get_json()["state"]


def deliver(table: LiveTable, cards: str, seats: str) -> None:
    table.record(CardDelivered(parse_card(c), seat) for c, seat in
                 zip(cards.split(), [s for s in SEATS if s.value in seats] * 13, strict=False))


def test_progress_shows_the_board_the_copy_and_how_many_are_done(table, client):
    table.record([BoardStarted(1, "deal", 1, 1, 4),
                  BoardResult(1, "dealt", "deal", 1, "Law 6F"),
                  BoardStarted(1, "deal", 2, 2, 4)])
    state = state_of(client)
    assert state["game"] == "bridge"
    assert state["mode"] == "dealing"
    assert state["progress"] == {"board": 1, "copy": 2, "stage": "deal", "position": 2,
                                 "total": 4, "done": 1}


def test_pocket_counts_are_the_current_boards_only(table, client):
    table.record([BoardStarted(1, "deal", 1, 1, 2)])
    deliver(table, "AS KS QS JS", "NESW")
    table.record([BoardResult(1, "dealt", "deal"), BoardStarted(2, "deal", 1, 2, 2)])
    deliver(table, "AH KH", "NE")
    assert state_of(client)["pockets"] == {"N": 1, "E": 1, "S": 0, "W": 0}


def test_each_board_shows_its_verification_result_and_differences(table, client):
    table.record([
        BoardStarted(1, "verify", 1, 1, 2),
        BoardResult(1, "match", "verify", 1, "", "", "none: this copy is exact"),
        BoardStarted(2, "verify", 1, 2, 2),
        BoardResult(2, "differs", "verify", 1, "Law 6F, Law 7B1",
                    "14–12: E holds 14 cards, N holds 12\na card is in E but belongs to N",
                    "deal this copy again from the record before play"),
    ])
    state = state_of(client)
    rows = {row["board"]: row for row in state["boards"]}
    assert rows[1]["status"] == "match" and rows[1]["ok"]
    assert rows[2]["status"] == "differs" and not rows[2]["ok"]
    assert rows[2]["differences"] == ["14–12: E holds 14 cards, N holds 12",
                                      "a card is in E but belongs to N"]
    assert state["mode"] == "verified"
    assert state["banner"]["title"].startswith("BOARD DIFFERS FROM THE RECORD: board 2")
    assert "Law 6F" in state["banner"]["rule"]
    assert state["banner"]["remedy"] == "deal this copy again from the record before play"


def test_law_6d2_history_flag_is_shown_on_its_board(table, client):
    flag = ("no-result (Law 6D2): this deal was played in another session; no result may "
            "stand: replace the board before play")
    table.record([BoardStarted(7, "deal", 1, 1, 1),
                  BoardResult(7, "dealt", "deal", 1, "Law 6F", history=flag)])
    state = state_of(client)
    assert state["boards"][0]["history"] == [flag]
    assert state["banner"]["rule"] == "Law 6D2"


def test_a_stop_at_the_shoe_is_a_banner_until_dealing_goes_on(table, client):
    table.record([BoardStarted(3, "deal", 1, 1, 1),
                  MachineFault("jam", "feed: jam (in the feed path)", "fault"),
                  BoardResult(3, "stopped", "deal", 1, "Law 6F",
                              "card 18 of 52: a card this board does not hold")])
    state = state_of(client)
    assert state["mode"] == "stopped"
    assert "board 3" in state["banner"]["title"]
    assert "card 18 of 52" in state["banner"]["reason"]
    assert "resumes at this card" in state["banner"]["remedy"]
    deliver(table, "2C", "N")
    assert state_of(client)["mode"] == "dealing"


def test_the_audit_result_is_shown_with_its_false_alarm_rate(table, client):
    table.record([AuditResult(False, 0.001, 2, "Law 6E4")])
    assert state_of(client)["audit"] == {"alarm": False, "false_alarm_rate": 0.001, "tests": 2,
                                         "rule": "Law 6E4", "evidence": "", "remedy": ""}


def test_an_audit_alarm_is_a_banner(table, client):
    table.record([AuditResult(True, 0.001, 2, "Law 6A", "session-freakness = 3 (p = 1e-05)",
                              "shuffle again and redeal")])
    banner = state_of(client)["banner"]
    assert banner["title"] == "SHUFFLE AUDIT ALARM"
    assert banner["remedy"] == "shuffle again and redeal"


def operator_csrf(client) -> str:
    csrf = client.get("/").get_data(as_text=True).split('name="csrf-token" content="')[1]
    login = client.post("/login", json={"pin": PIN}, headers={"X-CSRF-Token": csrf.split('"')[0]})
    assert login.status_code == 200
    return login.get_json()["csrf"]


def test_deck_loaded_while_nothing_is_awaited_is_refused_and_logs_nothing(table, client):
    csrf = operator_csrf(client)
    version = table.snapshot()[0]
    response = client.post("/act/deck-loaded", json={}, headers={"X-CSRF-Token": csrf})
    assert response.status_code == 409
    assert "not waiting" in response.get_json()["error"]
    assert table.snapshot()[0] == version


def test_an_unknown_action_is_a_bad_request(table, client):
    response = client.post("/act/next-board", json={},
                           headers={"X-CSRF-Token": operator_csrf(client)})
    assert response.status_code == 400
    assert "deck-loaded" in response.get_json()["error"]


def test_the_awaited_deck_is_shown_and_the_operator_says_it_is_loaded(db, table, client):
    table.record([DeckWanted(3, "deal", 2)])
    state = state_of(client)
    assert state["mode"] == "waiting for the operator"
    assert state["wanted"]["text"] == ("the shoe waits for a shuffled deck for board 3, copy 2 "
                                       "in the hopper")
    response = client.post("/act/deck-loaded", json={},
                           headers={"X-CSRF-Token": operator_csrf(client)})
    assert response.status_code == 200
    assert response.get_json()["state"]["wanted"] is None
    with EventLog(db) as log:
        assert [event for _, event in log.replay()][-1] == DeckLoaded(3, "deal", 2)


def test_a_spectator_cannot_act(client):
    csrf = client.get("/").get_data(as_text=True).split('name="csrf-token" content="')[1]
    response = client.post("/act/start", json={}, headers={"X-CSRF-Token": csrf.split('"')[0]})
    assert response.status_code in (401, 403)


def test_another_writer_appends_appear_on_the_page(db, table, client):
    """The shoe's loop runs in another process: its appends reach the page by the log."""
    with EventLog(db, session="tuesday") as writer:
        writer.append(BoardStarted(5, "verify", 1, 1, 1))
    deadline = time.monotonic() + 2
    while state_of(client)["progress"] is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert state_of(client)["progress"]["board"] == 5


def test_the_page_has_the_bridge_view(client):
    page = client.get("/").get_data(as_text=True)
    for element in ('id="bridge"', 'id="bridge-progress"', 'id="pockets"', 'id="boards"',
                    'id="audit"'):
        assert element in page
