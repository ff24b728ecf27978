"""`serve --demo`: hands dealt through the simulated shoe, the virtual camera and the real
card reader land on the live table, rule by rule, until the score sheet grows."""

from __future__ import annotations

import time
from dataclasses import replace

from scanner.app.pinochle_demo import DemoPace, PinochleDemo
from scanner.live import LiveTable
from scanner.log import EventLog
from scanner.pinochle.live_game import PinochleGame

FAST = DemoPace(card_motion_s=0.0, call_s=0.0, pause_s=0.01, expose_every=2)
# The redeal banner stays up from the exposure until the demo acts on it, a pause later: half
# a second, so that the test, woken by each change, sees it however fast the machine deals.
BANNER_SHOWN = replace(FAST, pause_s=0.5)


def wait_until(table: LiveTable, done, timeout: float = 120.0) -> dict:
    # A deadline in seconds: each change wakes the loop, and the table changes with every card.
    deadline = time.monotonic() + timeout
    version, snapshot = table.snapshot()
    while not done(snapshot) and time.monotonic() < deadline:
        version = table.wait_for_change(version, timeout=1.0)
        version, snapshot = table.snapshot()
    return snapshot


def test_the_scripted_demo_scores_hands_and_shows_a_redeal_after_an_exposure(tmp_path):
    db = tmp_path / "demo.sqlite"
    game = PinochleGame()
    table = LiveTable(lambda: EventLog(db), game)
    demo = PinochleDemo(table, game, db, mode="auto", pace=BANNER_SHOWN).start()
    banners = []
    try:
        snapshot = wait_until(table, lambda s: (banners.append(s["banner"]) or
                                                len(s["score_sheet"]) >= 2 or
                                                demo.error is not None))
    finally:
        demo.stop()
        table.close()
    assert demo.error is None
    assert len(snapshot["score_sheet"]) >= 2
    assert any(b and b["status"] == "redeal-same-dealer" for b in banners)
    assert [row["dealer"] for row in snapshot["score_sheet"][:2]] == ["N", "E"]


def test_every_card_on_the_table_came_through_the_camera(tmp_path):
    db = tmp_path / "demo.sqlite"
    game = PinochleGame()
    table = LiveTable(lambda: EventLog(db), game)
    demo = PinochleDemo(table, game, db, mode="deal", pace=FAST).start()
    try:
        wait_until(table, lambda s: s["deck_check"] and s["deck_check"]["text"].startswith("48"))
    finally:
        demo.stop()
        table.close()
    with EventLog(db) as log:
        kinds = [event.type for _, event in log.replay()]
    assert kinds.count("card-read") == kinds.count("card-delivered") == 48


def test_a_hand_the_operator_announces_is_dealt_into_by_the_shoe(tmp_path):
    db = tmp_path / "demo.sqlite"
    game = PinochleGame()
    table = LiveTable(lambda: EventLog(db), game)
    table.act("next-hand", {})
    demo = PinochleDemo(table, game, db, mode="deal", pace=FAST).start()
    try:
        snapshot = wait_until(table, lambda s: s["deck_check"]["text"].startswith("48"))
        state = table.state
    finally:
        demo.stop()
        table.close()
    assert demo.error is None
    assert snapshot["hand_number"] == 1
    assert snapshot["deck_check"]["status"] == "ok"
    assert state.refused == ()
