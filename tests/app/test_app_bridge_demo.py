"""`serve --demo --game bridge`: a CSPRNG set pre-dealt through the simulated shoe and the
virtual camera, read back and verified, recorded and audited — all of it on the page."""

from __future__ import annotations

import sqlite3
import time

from scanner.app.bridge_demo import BridgeDemo, BridgeDemoPace
from scanner.bridge.live_set import BridgeSetGame
from scanner.live import LiveTable
from scanner.log import EventLog
from webui import create_app

# One board, whose players put a card back in the wrong pocket: 104 cards through the camera.
FAST = BridgeDemoPace(card_motion_s=0.0, pause_s=0.0, boards=1, misplaced_board=1)


def test_the_demo_deals_verifies_records_and_audits_a_set_on_the_page(tmp_path):
    db = tmp_path / "demo.sqlite"
    table = LiveTable(lambda: EventLog(db), BridgeSetGame())
    demo = BridgeDemo(table, db, FAST).start()
    try:
        assert demo.finished.wait(timeout=300)
        assert demo.error is None
        deadline = time.monotonic() + 2  # the page follows the demo's writes by the log
        while table.snapshot()[1]["mode"] != "verified" and time.monotonic() < deadline:
            time.sleep(0.02)
        state = create_app(table, pin="1234", TESTING=True).test_client().get(
            "/state").get_json()["state"]
    finally:
        demo.stop()
        table.close()
    assert state["mode"] == "verified"
    assert state["progress"]["done"] == state["progress"]["total"] == 1
    (row,) = state["boards"]
    assert (row["board"], row["status"], row["copies_dealt"]) == (1, "differs", 1)
    assert row["differences"][0] == "14–12: E holds 14 cards, N holds 12"
    assert "a card is in E but belongs to N" in row["differences"]
    assert state["audit"]["false_alarm_rate"] > 0 and state["audit"]["tests"] > 0
    assert state["banner"]["title"] == "BOARD DIFFERS FROM THE RECORD: board 1"
    with sqlite3.connect(db) as conn:
        sources = sorted(r[0] for r in conn.execute("SELECT source FROM deals"))
    # A copy that differs is not recorded as verified, but as it was found, for the club.
    assert sources == ["dealt", "fouled"]
