"""The table page in real headless Chromium, against a real `tablescan serve --demo deal`.

The simulated shoe deals each hand through the virtual camera, the card reader, the deal
tracker and the SQLite log; the operator plays the hand from the page, as at a real table.
"""

from __future__ import annotations

import pytest

from scanner.app.browser import running_server

SCRIPT_NAME = "<script>window.pwned = 1</script>"


@pytest.fixture
def server(tmp_path):
    with running_server(tmp_path, "--demo", "deal", "--name", f"E={SCRIPT_NAME}",
                        "--name", "N=Ann") as running:
        yield running


@pytest.fixture
def operator_page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(server.url)
    page.fill("#pin", server.pin)
    page.press("#pin", "Enter")
    page.wait_for_function("document.getElementById('whoami').textContent === 'operator'")
    yield page
    context.close()


def wait_for_the_deal(page) -> None:
    page.wait_for_function(
        "document.getElementById('deckcheck').textContent.includes('48 of 48 cards — ok')",
        timeout=90_000)


def bid_from_the_keyboard(page, text: str) -> None:
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def test_the_operator_plays_a_full_hand_through_the_page(operator_page, output_dir):
    page = operator_page
    wait_for_the_deal(page)
    page.screenshot(path=output_dir / "dealt.png", full_page=True)
    bid_from_the_keyboard(page, "21")
    for _ in range(3):
        page.keyboard.press("p")
    page.wait_for_function(
        "document.getElementById('contract').textContent.startsWith('E 21')")
    page.click("text=♠ Spades")
    page.wait_for_function(
        "document.getElementById('contract').textContent.includes('trump ♠ spades')")
    assert "meld" in page.inner_text(".seat-E")
    page.fill("#counters-ns", "10")
    page.fill("#tricks-ns", "5")
    page.fill("#counters-ew", "15")
    page.fill("#tricks-ew", "7")
    page.click("text=Enter counters")
    page.wait_for_function("document.getElementById('result').textContent.includes('EW bid 21')")
    scores = page.inner_text("#scores")
    assert "E 21" in scores
    assert "next dealer: E" in page.inner_text("#nextdealer")
    page.screenshot(path=output_dir / "scored.png", full_page=True)


def test_a_spectator_page_updates_without_a_reload(browser, server, operator_page, output_dir):
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    spectator = phone.new_page()
    spectator.goto(server.url)
    assert not spectator.is_visible("#controls")
    wait_for_the_deal(operator_page)
    bid_from_the_keyboard(operator_page, "23")
    spectator.wait_for_selector("#bids li:has-text('E: 23')", timeout=10_000)
    assert spectator.evaluate("performance.getEntriesByType('navigation').length") == 1
    spectator.screenshot(path=output_dir / "spectator-phone.png", full_page=True)
    phone.close()


def test_an_injected_exposure_shows_the_redeal_verdict(operator_page, output_dir):
    page = operator_page
    wait_for_the_deal(page)
    page.fill("#expose-card", "QS")
    page.select_option("#expose-seat", "E")
    page.click("text=Mark exposed")
    banner = page.wait_for_selector("#banner:not([hidden])")
    text = banner.inner_text()
    assert "REDEAL" in text
    assert "Setup & Deal: The deal" in text
    assert "same dealer" in text
    page.screenshot(path=output_dir / "redeal-banner.png", full_page=True)
    page.click("text=Confirm redeal")
    page.wait_for_selector("#banner", state="hidden")
    assert "dealer" in page.inner_text(".seat-N")


def test_an_illegal_bid_is_refused_inline_with_its_rule(operator_page):
    page = operator_page
    wait_for_the_deal(page)
    bid_from_the_keyboard(page, "19")
    refusal = page.wait_for_selector("#refusal:not([hidden])")
    assert "minimum" in refusal.inner_text()
    assert "Setup & Deal: Auction" in refusal.inner_text()
    assert page.inner_text("#bids") == ""


def test_a_player_named_script_is_shown_as_text_and_never_run(operator_page):
    page = operator_page
    assert SCRIPT_NAME in page.inner_text(".seat-E")
    assert page.evaluate("window.pwned") is None
