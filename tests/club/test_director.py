"""The director's page: every table live, boards compared across tables (Law 87), deals
repeated in the club's history (Law 6D2), and only the director acts."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest
from club_support import Store, ship
from director_support import random_deal, record_deals, rotated
from flask.testing import FlaskClient

from scanner.app.pg_cluster import wait_until
from scanner.bridge.formats import read_boards, write_boards
from scanner.cards import Seat, parse_card
from scanner.club.access import parse_token
from scanner.club.shipper import open_table_link
from scanner.club.view import ClubView
from scanner.events import (
    CardDelivered,
    CardExposed,
    HandStarted,
    MachineFault,
    Marker,
    Redeal,
)
from scanner.log import EventLog
from webui.director import create_director_app

PIN = "2468"
REPO = Path(__file__).resolve().parents[2]


def club_state(store: Store) -> dict:
    """What the director's page shows of the store now, read once."""
    view = ClubView(store.admin_url)
    try:
        return view.snapshot()[1]
    finally:
        view.close()


def planted_set(store: Store, tmp_path: Path) -> dict:
    """Boards 1–4 dealt by the machine; each play table verifies one copy, three of them
    planted wrong: rotated, holding another board, and one card moved between hands."""
    rng = random.Random(87)
    dealt = {n: random_deal(rng) for n in (1, 2, 3, 4)}
    record_deals(tmp_path / "machine.sqlite", "tuesday", "dealt", dealt)
    ship(store, "machine", tmp_path / "machine.sqlite")
    one_card = {seat: list(cards) for seat, cards in dealt[4].items()}
    moved = one_card[Seat.N].pop(0)
    one_card[Seat.E].append(moved)
    back = one_card[Seat.E].pop(0)
    one_card[Seat.N].append(back)
    copies = {"T1": (1, dealt[1]), "T2": (2, rotated(dealt[2], 1)), "T3": (3, dealt[4]),
              "T4": (4, one_card)}
    for table, (number, hands) in copies.items():
        db = tmp_path / f"{table}.sqlite"
        record_deals(db, "tuesday", "verified", {number: hands})
        ship(store, table, db)
    return {"moved": (str(moved), str(back))}


def test_fouled_boards_are_named_board_by_board_with_the_copy_that_agrees(
        store: Store, tmp_path: Path) -> None:
    planted = planted_set(store, tmp_path)
    state = club_state(store)
    fouled = {b["board"]: b for b in state["fouled"]}
    assert sorted(fouled) == [2, 3, 4]
    for board in fouled.values():
        assert board["record"] == {"table": "machine", "source": "dealt"}
        assert board["rule"] == "Law 87A"
        assert "Law 87B" in board["remedy"]
    [copy2] = fouled[2]["copies"]
    assert (copy2["table"], copy2["status"], copy2["laws"]) == ("T2", "rotated", ["Law 6F"])
    assert "shifted 1 seat" in copy2["detail"]
    [copy3] = fouled[3]["copies"]
    assert (copy3["table"], copy3["status"]) == ("T3", "swapped")
    assert "holds board 4" in copy3["detail"]
    [copy4] = fouled[4]["copies"]
    assert (copy4["table"], copy4["status"]) == ("T4", "differs")
    moved, back = planted["moved"]
    assert f"card {moved} is in E but belongs to N" in copy4["detail"]
    assert f"card {back} is in N but belongs to E" in copy4["detail"]
    board1 = next(b for b in state["boards"] if b["board"] == 1)
    assert not board1["differs"]
    assert [(c["table"], c["status"]) for c in board1["copies"]] == [("T1", "match")]


def test_a_copy_verify_finds_wrong_at_a_table_reaches_the_director_as_fouled(
        store: Store, tmp_path: Path, cli) -> None:
    cli("club", "session", "--store", store.admin_url, "--open", "tuesday")
    made = cli("generate", "--boards", "1-3", str(tmp_path / "set.pbn"), "--seed", "87",
               "--db", str(tmp_path / "machine.sqlite"), "--club", store.table_url(),
               "--table-token", store.token("machine"))
    assert made.returncode == 0, made.stderr
    # Table T2's board 2 went into its pockets one seat round.
    copies = [replace(b, hands=b.hands[-1:] + b.hands[:-1]) if b.number == 2 else b
              for b in read_boards(tmp_path / "set.pbn")]
    write_boards(tmp_path / "t2-copies.pbn", copies)
    for table, observed in (("T1", "set.pbn"), ("T2", "t2-copies.pbn")):
        checked = cli("verify", str(tmp_path / "set.pbn"), "--observed", str(tmp_path / observed),
                      "--db", str(tmp_path / f"{table}.sqlite"), "--club", store.table_url(),
                      "--table-token", store.token(table))
        assert checked.returncode == 0, checked.stderr
    state = club_state(store)
    [fouled] = state["fouled"]
    assert (fouled["session"], fouled["board"]) == ("tuesday", 2)
    assert fouled["record"] == {"table": "machine", "source": "generated"}
    assert [(c["table"], c["source"], c["status"]) for c in fouled["copies"]] == [
        ("T1", "verified", "match"), ("T2", "fouled", "rotated")]


def test_a_copy_made_right_and_verified_again_is_no_longer_fouled(store: Store,
                                                                  tmp_path: Path) -> None:
    rng = random.Random(7)
    dealt = {1: random_deal(rng)}
    record_deals(tmp_path / "machine.sqlite", "tuesday", "dealt", dealt)
    ship(store, "machine", tmp_path / "machine.sqlite")
    record_deals(tmp_path / "T1.sqlite", "tuesday", "fouled", {1: rotated(dealt[1], 2)})
    record_deals(tmp_path / "T1.sqlite", "tuesday", "verified", dealt)
    ship(store, "T1", tmp_path / "T1.sqlite")
    state = club_state(store)
    assert state["fouled"] == []
    [board] = state["boards"]
    assert [(c["table"], c["status"]) for c in board["copies"]] == [("T1", "match")]


def test_a_deal_played_in_an_earlier_session_is_found_by_hash(store: Store, tmp_path: Path
                                                              ) -> None:
    rng = random.Random(62)
    old, fresh = random_deal(rng), random_deal(rng)
    record_deals(tmp_path / "m.sqlite", "monday", "dealt", {5: old})
    record_deals(tmp_path / "m.sqlite", "thursday", "dealt", {5: fresh, 6: old})
    ship(store, "machine", tmp_path / "m.sqlite")
    record_deals(tmp_path / "t.sqlite", "thursday", "verified", {6: old})
    ship(store, "T9", tmp_path / "t.sqlite")
    state = club_state(store)
    [repeat] = state["repeats"]
    assert (repeat["status"], repeat["law"]) == ("no-result", "Law 6D2")
    assert sorted((s["session"], s["table"], s["board"]) for s in repeat["sightings"]) == [
        ("monday", "machine", 5), ("thursday", "T9", 6), ("thursday", "machine", 6)]


def test_each_table_shows_game_phase_verdict_redeals_and_machine_faults(
        store: Store, tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with EventLog(db, session="friday") as log:
        log.append(HandStarted("pinochle", Seat.S, 3))
        log.append(CardExposed(None, Seat.W))
        log.append(MachineFault("jam", "card stuck at the gate"))
        log.append(Redeal("a card was exposed", True))
        log.append(HandStarted("pinochle", Seat.S, 3))
        for card in ("AS", "AS", "TS"):
            log.append(CardDelivered(parse_card(card), Seat.W))
        log.append(CardExposed(parse_card("KH"), Seat.N))
        log.append(Marker("auction-started"))
    ship(store, "T5", db)
    state = club_state(store)
    [table] = state["tables"]
    assert (table["table"], table["game"], table["phase"], table["hand"], table["dealer"]) == (
        "T5", "pinochle", "auction", 2, "S")
    assert table["redeals"] == 1 and table["last_redeal"] == "a card was exposed"
    assert table["faults"][0]["kind"] == "jam"
    assert table["verdict"]["status"] == "redeal-same-dealer" and table["verdict"]["rule"]
    assert table["events"] == 10


def test_an_event_reaches_the_view_while_another_tables_commit_is_still_open(
        store: Store, tmp_path: Path) -> None:
    # Another table mid-batch: its open transaction holds the snapshot's xmin back, which is
    # nearly always so on a busy club. The view must not wait for it to end.
    other, _ = open_table_link(store.table_url(), parse_token(store.token("T2")))
    other.execute("INSERT INTO tablescan.events (table_name, log_id, seq, session, type, body, "
                  "logged_at) VALUES ('T2', gen_random_uuid(), 1, 's', 'undo', '{}', now())")
    view = ClubView(store.admin_url, poll_interval=0.05).start()
    try:
        db = tmp_path / "t1.sqlite"
        with EventLog(db, session="friday") as log:
            log.append(HandStarted("pinochle", Seat.S, 3))
        ship(store, "T1", db)

        def t1_events() -> int:
            tables = {t["table"]: t for t in view.snapshot()[1]["tables"]}
            return tables["T1"]["events"] if "T1" in tables else 0

        assert wait_until(lambda: t1_events() == 1, 30)
        assert not other.closed and other.info.transaction_status.name == "INTRANS"
    finally:
        view.close()
        other.close()


@pytest.fixture
def director(store: Store):
    view = ClubView(store.admin_url, poll_interval=0.05).start()
    try:
        yield create_director_app(view, pin=PIN, store_url=store.admin_url)
    finally:
        view.close()


def visitor(app) -> tuple[FlaskClient, str]:
    """A browser that loaded the page: its cookie and the CSRF token the page carries."""
    client = app.test_client()
    page = client.get("/").get_data(as_text=True)
    return client, page.split('name="csrf-token" content="')[1].split('"')[0]


def post(client: FlaskClient, path: str, csrf: str | None, **body: str):
    headers = {"X-CSRF-Token": csrf} if csrf else {}
    return client.post(path, json=body, headers=headers)


def test_a_strangers_post_is_refused_and_changes_nothing(store: Store, director) -> None:
    store.token("T1")
    assert post(director.test_client(), "/act/revoke", None, table="T1").status_code == 403
    client, csrf = visitor(director)
    spectator = post(client, "/act/revoke", csrf, table="T1")
    assert spectator.status_code == 403 and "director" in spectator.get_json()["error"]
    assert post(client, "/login", csrf, pin="0000").status_code == 403
    assert post(client, "/act/token", csrf, table="T2").status_code == 403
    with store.admin() as conn:
        assert conn.execute("SELECT name, revoked_at FROM tablescan.tables").fetchall() == [
            ("T1", None)]


def test_spectators_read_the_whole_club(store: Store, director) -> None:
    first = director.test_client().get("/state").get_json()
    store.token("T1")
    # The long poll answers once the view has seen the new table.
    body = director.test_client().get(f"/state?since={first['version']}").get_json()
    assert body["director"] is False
    assert [t["table"] for t in body["state"]["tables"]] == ["T1"]


def test_the_director_with_the_pin_issues_and_revokes_tokens(store: Store, director,
                                                             tmp_path: Path) -> None:
    client, csrf = visitor(director)
    login = post(client, "/login", csrf, pin=PIN)
    assert login.status_code == 200
    csrf = login.get_json()["csrf"]
    minted = post(client, "/act/token", csrf, table="T3")
    assert minted.status_code == 200
    db = tmp_path / "t3.sqlite"
    with EventLog(db) as log:
        log.append(HandStarted("bridge", Seat.N))
    ship(store, "T3", db, minted.get_json()["token"])
    view = director.extensions["tablescan.club"]
    assert wait_until(lambda: any(t["table"] == "T3" and t["events"] == 1
                                  for t in view.snapshot()[1]["tables"]), 10)
    assert post(client, "/act/revoke", csrf, table="T3").status_code == 200
    assert wait_until(lambda: view.snapshot()[1]["tables"][0]["revoked"], 10)
    assert post(client, "/act/revoke", csrf, table="nobody").status_code == 404


def test_club_serve_runs_the_page_from_the_command_line(store: Store, tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "scanner", "club", "serve", "--store", store.admin_url,
             "--port", "0", "--pin", "97531"], stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        assert wait_until(lambda: "director's page http" in log.read_text(), 30), log.read_text()
        url = re.search(r"(http://127\.0\.0\.1:\d+/)", log.read_text()).group(1)
        with urllib.request.urlopen(url + "healthz", timeout=10) as response:
            assert json.load(response)["ok"] is True
        assert "director PIN 97531" in log.read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
