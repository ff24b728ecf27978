"""The bridge view in a real browser: Debian's Chromium (driven by Playwright) against the real
app behind its real server on 127.0.0.1, following a real LiveTable on a SQLite log."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from predeal_support import LOAD_DECK, ROOT, json_lines, shoe_args

from scanner.bridge.live_set import BridgeSetGame
from scanner.cards import Seat, parse_card
from scanner.events import AuditResult, BoardResult, BoardStarted, CardDelivered
from scanner.live import LiveTable
from scanner.log import EventLog
from webui import create_app
from webui.serving import TableServer

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]
HOSTILE = '<img src=x onerror="document.title=\'pwned\'">'


@pytest.fixture
def table(tmp_path) -> Iterator[LiveTable]:
    live = LiveTable(lambda: EventLog(tmp_path / "club.sqlite", session="tuesday"),
                     BridgeSetGame())
    yield live
    live.close()


@pytest.fixture
def url(table) -> Iterator[str]:
    server = TableServer(create_app(table, pin="1357"), table, "127.0.0.1", 0).start()
    yield server.url
    server.stop()


@pytest.fixture
def page(url) -> Iterator:
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(url)
        yield page
        browser.close()


def test_the_bridge_view_shows_the_set_and_follows_the_log_live(table, page):
    table.record([
        BoardStarted(1, "verify", 1, 1, 2),
        BoardResult(1, "differs", "verify", 1, "Law 6F, Law 7B1",
                    f"14–12: E holds 14 cards, N holds 12\n{HOSTILE}",
                    "deal this copy again from the record before play"),
        AuditResult(False, 0.001, 2, "Law 6E4"),
        BoardStarted(2, "verify", 1, 2, 2),
        CardDelivered(parse_card("AS"), Seat.N),
    ])
    progress = page.locator("#bridge-progress")
    playwright_api.expect(progress).to_have_text("verifying: board 2 · 1 of 2 done")
    assert page.locator("#pinochle").is_hidden()
    boards = page.locator("#boards")
    playwright_api.expect(boards).to_contain_text("✗ differs")
    playwright_api.expect(boards).to_contain_text("14–12: E holds 14 cards, N holds 12")
    # Text from the log is shown as text, never as markup.
    playwright_api.expect(boards).to_contain_text(HOSTILE)
    assert boards.locator("img").count() == 0
    assert page.title() != "pwned"
    playwright_api.expect(page.locator("#pockets")).to_contain_text("N 1 / 13")
    playwright_api.expect(page.locator("#audit")).to_contain_text("✓ no alarm")
    playwright_api.expect(page.locator("#banner")).to_contain_text(
        "BOARD DIFFERS FROM THE RECORD: board 1")

    table.record([BoardResult(2, "match", "verify", 1, "", "", "none: this copy is exact")])
    playwright_api.expect(progress).to_have_text("verified: board 2 · 2 of 2 done",
                                                 timeout=3000)
    playwright_api.expect(boards).to_contain_text("✓ match")


def test_the_operator_gives_the_go_ahead_for_the_next_deck_on_the_page(
        table, page, sim, set_file, shoe_env, tmp_path):
    """`predeal --wait-for-page`: the page shows what the shoe waits for, and the operator's
    'Loaded' button (after the PIN) lets the deal go on."""
    predeal = subprocess.Popen(
        [sys.executable, "-m", "scanner", "predeal", str(set_file), "--boards", "1",
         *shoe_args(sim), "--db", str(tmp_path / "club.sqlite"), "--session", "tuesday",
         "--wait-for-page"], env=shoe_env, cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        wanted = page.locator("#wanted")
        playwright_api.expect(wanted).to_have_text(
            "⏸ the shoe waits for a shuffled deck for board 1, copy 1 in the hopper",
            timeout=20000)
        assert page.locator("#deck-loaded").is_hidden()  # spectators have no button
        page.fill("#pin", "1357")
        page.click("#login button")
        subprocess.run(LOAD_DECK, shell=True, check=True, env={
            **shoe_env, "TABLESCAN_BOARD": "1", "TABLESCAN_COPY": "1"})
        page.click("#deck-loaded")
        playwright_api.expect(wanted).to_be_hidden()
        stdout, stderr = predeal.communicate(timeout=240)
    finally:
        if predeal.poll() is None:
            predeal.kill()
            predeal.communicate()
    assert predeal.returncode == 0, stderr
    assert json_lines(stdout)[0]["status"] == "dealt"
    playwright_api.expect(page.locator("#bridge-progress")).to_have_text(
        "dealt: board 1, copy 1 · 1 of 1 done", timeout=3000)
