"""The page of a table dealt by hand, in real headless Chromium.

Against `tablescan serve --demo --dealing hand` (rendered films watched live), and against a
live table whose log a reading shoe's deal writes into, to answer its stops from the page.
"""

from __future__ import annotations

import re

import pytest

from scanner.app.browser import running_server
from scanner.cards import Seat, parse_card
from scanner.events import CardDelivered, CardRead, HandStarted
from scanner.handdeal.deal import HandDeal
from scanner.handdeal.game import HandDealGame
from scanner.handdeal.passes import CardPass
from scanner.handdeal.thumbnails import Thumbnails
from scanner.live import LiveTable
from scanner.log import EventLog
from scanner.shoe.station import StationStop
from webui import create_app
from webui.serving import TableServer

PIN = "8642"
PROMPT = re.compile(r"^[123]( more)? to (North|East|South|West)$")


def test_the_demo_tells_the_dealer_what_comes_next_counts_the_seats_and_shows_the_cameras(
        browser, tmp_path, output_dir):
    with running_server(tmp_path, "--demo", "--dealing", "hand") as server:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(server.url)
        page.wait_for_function(
            "document.querySelectorAll('#hand-counts td').length === 8", timeout=60_000)
        assert PROMPT.match(page.inner_text("#hand-prompt")), page.inner_text("#hand-prompt")
        # Cards keep arriving: the counts grow as the films play.
        page.wait_for_function(
            "[...document.querySelectorAll('#hand-counts td:nth-child(2)')]"
            ".map(td => parseInt(td.textContent)).reduce((a, b) => a + b, 0) >= 6",
            timeout=60_000)
        for camera in ("station", "table"):
            page.wait_for_function(
                f"document.querySelector('img[data-camera=\"{camera}\"]').naturalWidth === 240",
                timeout=30_000)
        page.screenshot(path=output_dir / "hand-demo.png", full_page=True)
        page.close()


def one(card, face="up", others=()):
    return CardPass(face, parse_card(card) if card else None, 1.0, tuple(others), 0, 0)


@pytest.fixture
def live_hand(tmp_path):
    """A live hand-deal table served on 127.0.0.1, and the deal writing into its log."""
    db = tmp_path / "table.sqlite"
    table = LiveTable(lambda: EventLog(db), HandDealGame(names={Seat.E: "Bob"},
                                                         cameras=("table",)))
    app = create_app(table, pin=PIN, cameras=Thumbnails(("table",)))
    server = TableServer(app, table, "127.0.0.1", 0).start()
    log = EventLog(db, session=table.session)
    deal = HandDeal(log, HandStarted("pinochle", Seat.N, 3, session=log.session))
    deal.start()
    yield server.url, deal
    server.stop()
    log.close()
    table.close()


def prompt_is(page, text: str) -> None:
    page.wait_for_function(
        f"document.getElementById('hand-prompt').textContent.startsWith({text!r})")


def test_the_operator_corrects_an_unread_card_and_confirms_a_redraw(browser, live_hand):
    url, deal = live_hand
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(url)
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    page.wait_for_function("document.getElementById('whoami').textContent === 'operator'")
    prompt_is(page, "3 to Bob")

    with pytest.raises(StationStop):
        deal.on_pass(one(None))
    prompt_is(page, "STOP — card 1 of 48: the camera could not read it")
    assert page.is_visible("#answer-form")
    page.fill("#answer-card", "QS")
    page.click("#correct-read")
    page.wait_for_function("document.getElementById('answer-form').hidden")
    deal.answers_from_the_page()
    delivered = [e for e in deal.events() if isinstance(e, CardDelivered)]
    assert [(e.card, e.to) for e in delivered] == [(parse_card("QS"), Seat.E)]
    prompt_is(page, "2 more to Bob")
    page.wait_for_function(
        "document.querySelector('#hand-counts tr[data-seat=\"E\"]').textContent"
        ".includes('1 / 12')")

    with pytest.raises(StationStop):
        deal.on_pass(one("KD", others=[parse_card("AS")]))
    prompt_is(page, "STOP — card 2 of 48: two cards left the shoe in one draw")
    assert page.is_disabled("#correct-read")
    page.click("#confirm-read")
    prompt_is(page, "2 more to Bob")
    reads = [e for e in deal.events() if isinstance(e, CardRead) and e.source == "operator"]
    assert [r.card for r in reads] == [parse_card("QS"), None]
    page.close()


def test_exposures_show_their_rule_and_remedy_and_meld_is_shown_beside_the_tally(
        browser, live_hand):
    url, deal = live_hand
    page = browser.new_page()
    page.goto(url)
    deal.on_arrival(Seat.W, [parse_card("JD")])  # a face seen on the table mid-deal
    page.wait_for_function("document.getElementById('hand-exposures').children.length === 1")
    line = page.inner_text("#hand-exposures li")
    assert "to W — Setup & Deal: The deal: redeal-same-dealer." in line
    assert "Remedy: gather the cards and redeal with the same dealer" in line
    for card in ("QS", "JD", "KS"):
        deal.on_pass(one(card))
    deal.end_of_bidding()
    deal.on_meld(Seat.E, [parse_card("QS"), parse_card("JD")])  # pinochle: 4 points
    page.wait_for_function(
        "document.querySelector('#hand-meld tr[data-seat=\"E\"]') !== null")
    cells = page.locator("#hand-meld tr[data-seat='E'] td").all_inner_texts()
    assert cells[0] == "E" and cells[2] == "4" and cells[4] == "✓"
    assert int(cells[3]) >= 4
    page.close()
