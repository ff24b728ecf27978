"""The page of a table dealt by hand, in real headless Chromium.

Against `tablescan serve --demo --dealing hand` (rendered films watched live), and against a
live table whose log a reading shoe's deal writes into, to answer its stops from the page.
"""

from __future__ import annotations

import re

import pytest

from scanner.app.browser import running_server
from scanner.cards import Seat, parse_card
from scanner.events import CardDelivered, CardRead, HandStarted, ReadChecked
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
    # Each meld card is logged as it is read, so the page may show the queen alone (0
    # points) for a moment before the pinochle: wait for the whole meld.
    page.wait_for_function(
        "document.querySelector('#hand-meld tr[data-seat=\"E\"] td:nth-child(3)')"
        "?.textContent === '4'")
    cells = page.locator("#hand-meld tr[data-seat='E'] td").all_inner_texts()
    assert cells[0] == "E" and cells[2] == "4" and cells[4] == "✓"
    assert int(cells[3]) >= 4
    page.close()


def log_in(page, url):
    page.goto(url)
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    page.wait_for_function("document.getElementById('whoami').textContent === 'operator'")


def read_line(slot: int) -> str:
    return f"#hand-reads li[data-slot='{slot}']"


def meld_cells(page, seat: str) -> list[str]:
    return page.locator(f"#hand-meld tr[data-seat='{seat}'] td").all_inner_texts()


def checks_logged(deal):
    return [e for e in deal.events() if isinstance(e, ReadChecked)]


def test_the_operator_names_a_meld_card_the_camera_could_not_read_and_the_meld_is_rescored(
        browser, live_hand, output_dir):
    url, deal = live_hand
    for card in ("QS", "JD", "KS"):
        deal.on_pass(one(card))  # the first packet: all three to Bob (East)
    deal.end_of_bidding()
    deal.on_meld(Seat.E, [parse_card("QS"), None])
    unread = next(i for i, e in enumerate(deal.events())
                  if getattr(e, "seat", None) == Seat.E and getattr(e, "card", 0) is None)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    log_in(page, url)
    page.wait_for_selector(read_line(unread))
    assert "not read: check by eye" in page.inner_text(read_line(unread))
    assert "1 card not read: check by eye" in meld_cells(page, "E")[4]

    # A card of no pinochle deck: refused on the page, nothing logged.
    page.fill(f"{read_line(unread)} input", "2C")
    page.click(f"{read_line(unread)} .set-read")
    page.wait_for_function("!document.getElementById('refusal').hidden")
    assert "2C is not a card of the pinochle-48 deck" in page.inner_text("#refusal")
    assert checks_logged(deal) == []

    page.fill(f"{read_line(unread)} input", "JD")
    page.click(f"{read_line(unread)} .set-read")
    page.wait_for_function(
        f"document.querySelector(\"{read_line(unread)}\").textContent.includes('corrected')")
    assert checks_logged(deal) == [ReadChecked(unread, parse_card("JD"))]
    page.wait_for_function(
        "document.querySelector('#hand-meld tr[data-seat=\"E\"] td:nth-child(3)')"
        ".textContent === '4'")
    assert meld_cells(page, "E")[1].split() == ["Q♠", "J♦"]
    assert meld_cells(page, "E")[4] == "✓"

    # A card the camera did read is confirmed with one click.
    named = unread - 1
    page.click(f"{read_line(named)} .confirm-table-read")
    page.wait_for_function(
        f"document.querySelector(\"{read_line(named)}\").textContent.includes('confirmed')")
    assert checks_logged(deal)[-1] == ReadChecked(named, parse_card("QS"))
    page.screenshot(path=output_dir / "hand-read-checked.png", full_page=True)
    page.close()


def test_a_spectator_can_neither_see_nor_post_a_check_of_a_read(browser, live_hand):
    url, deal = live_hand
    deal.on_arrival(Seat.W, [parse_card("JD")])  # a face seen on the table mid-deal
    page = browser.new_page()
    page.goto(url)
    page.wait_for_selector(read_line(0))
    assert page.locator(f"{read_line(0)} form").is_hidden()
    post = """async ([token]) => {
        const r = await fetch('/act/check-read', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json', 'X-CSRF-Token': token},
            body: JSON.stringify({slot: 0, card: 'KS'})});
        return [r.status, (await r.json()).error];
    }"""
    token = page.get_attribute('meta[name="csrf-token"]', "content")
    status, error = page.evaluate(post, [token])
    assert status == 403 and "only the operator" in error
    status, error = page.evaluate(post, ["forged"])
    assert status == 403 and "CSRF" in error
    assert checks_logged(deal) == []
    assert page.inner_text(read_line(0)).startswith("J♦")
    page.close()
