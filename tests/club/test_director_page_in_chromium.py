"""The director's page in headless Chromium: tables live, fouled boards named, and the
director's PIN needed to revoke a table."""

from __future__ import annotations

import random
from pathlib import Path

from club_support import Store
from director_support import (
    chromium_launch_options,
    random_deal,
    record_deals,
    rotated,
    running_director,
)
from playwright.sync_api import expect, sync_playwright

from scanner.cards import Seat
from scanner.club.access import parse_token
from scanner.club.shipper import Shipper
from scanner.events import Bid, HandStarted
from scanner.log import EventLog


def test_the_page_follows_tables_names_fouled_boards_and_lets_the_director_revoke(
        store: Store, tmp_path: Path) -> None:
    rng = random.Random(7)
    dealt = {1: random_deal(rng)}
    record_deals(tmp_path / "m.sqlite", "tuesday", "dealt", dealt)
    record_deals(tmp_path / "t1.sqlite", "tuesday", "verified", {1: rotated(dealt[1], 2)})
    shippers = {}
    for table, db in (("machine", "m.sqlite"), ("T1", "t1.sqlite")):
        shippers[table] = Shipper(tmp_path / db, store.table_url(),
                                  parse_token(store.token(table)), poll_interval=0.02).start()
    with running_director(store.admin_url) as director, sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium_launch_options())
        page = browser.new_page()
        page.goto(director.url)
        fouled = page.locator('#fouled .board[data-board="1"] li[data-table="T1"]')
        expect(fouled).to_have_attribute("data-status", "rotated")
        expect(fouled).to_contain_text("shifted 2 seats")

        with EventLog(tmp_path / "t1.sqlite", session="tuesday") as log:
            log.append(HandStarted("bridge", Seat.N))
            log.append(Bid(Seat.E, 137))
        card = page.locator('.tablecard[data-table="T1"]')
        expect(card).to_contain_text("amount=137")
        expect(card).to_contain_text("auction")
        expect(card.locator("button.revoke")).to_have_count(0)  # a spectator cannot act

        page.fill("#pin", director.pin)
        page.click("#login button")
        card.locator("button.revoke").click()
        expect(card).to_contain_text("revoked")
        browser.close()
    for shipper in shippers.values():
        shipper.stop(drain_timeout=1)
