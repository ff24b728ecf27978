"""Calibrating the table camera's seat zones on the page, in real headless Chromium, against
`tablescan serve --dealing hand --table FILM --zones FILE`: the operator takes a still, clicks
the table's corners on it, saves; the watcher then counts into those zones. A calibration
that does not fit the camera's frames is shown as such, and never overwritten unasked."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from scanner.app.browser import running_server
from scanner.cards import Seat
from scanner.handdeal import footage
from scanner.handdeal.zones import SeatZones, load_zones

PIN = "1357"


@pytest.fixture(scope="module")
def six_cards(tmp_path_factory):
    """The first two packets of a pinochle deal by North, filmed from above the table."""
    script = footage.right_deal("pinochle", Seat.N, 11)
    script = replace(script, draws=script.draws[:6])
    return footage.render_deal(script, tmp_path_factory.mktemp("film"), seed=11)


def operator_page(browser, url):
    page = browser.new_page(viewport={"width": 1400, "height": 1400})
    page.goto(url)
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    page.wait_for_function("document.getElementById('whoami').textContent === 'operator'")
    page.wait_for_selector("#zones-panel", state="visible", timeout=30_000)
    return page


def take_a_still(page):
    """Ask for a still and wait until the page shows it and asks for the first mark: the
    image decodes (its natural width known) a moment before its load handler draws."""
    page.click("#zones-still")
    page.wait_for_function("document.getElementById('zones-img').naturalWidth === 1280 "
                           "&& document.getElementById('zones-next').textContent"
                           ".startsWith('click')", timeout=30_000)


def click_table_corners(page):
    still = page.locator("#zones-img")
    box = still.bounding_box()
    for fx, fy in ((0.002, 0.003), (0.998, 0.003), (0.998, 0.997), (0.002, 0.997)):
        still.click(position={"x": fx * box["width"], "y": fy * box["height"]})


def count_of(page, seat):
    return page.inner_text(f"#hand-counts tr[data-seat='{seat}'] td:nth-child(2)")


def test_the_operator_marks_the_tables_corners_on_a_still_and_the_watcher_counts_into_them(
        browser, tmp_path, six_cards, output_dir):
    zones = tmp_path / "zones.json"
    with running_server(tmp_path, "--dealing", "hand", "--table", str(six_cards.table),
                        "--zones", str(zones), "--dealer", "N") as server:
        page = operator_page(browser, server.url)
        take_a_still(page)
        assert page.inner_text("#zones-next").startswith("click the table's top-left corner")
        click_table_corners(page)
        assert page.inner_text("#zones-next") == "all marked: save the zones"
        page.screenshot(path=output_dir / "zones-marked.png", full_page=True)
        page.click("#zones-save")
        page.wait_for_function(
            "document.getElementById('zones-status').textContent.startsWith('✓ calibrated "
            "for 1280×720 frames')")
        saved = load_zones(zones)
        assert saved.frame_size == (1280, 720) and set(saved.zones) == set(Seat)
        # The film plays once the zones fit it: three cards to East, three to South.
        page.wait_for_function(
            "document.querySelector('#hand-counts tr[data-seat=\"S\"]') !== null && "
            "document.querySelector('#hand-counts tr[data-seat=\"S\"]').textContent"
            ".includes('3 / 12')", timeout=120_000)
        assert count_of(page, "E") == "3 / 12"
        assert count_of(page, "N") == "0 / 12" and count_of(page, "W") == "0 / 12"
        page.close()


def test_zones_that_do_not_fit_the_camera_are_shown_so_and_replaced_only_when_asked(
        browser, tmp_path, six_cards):
    zones = tmp_path / "zones.json"
    halved = {seat: p / 2 for seat, p in load_zones(six_cards.zones).zones.items()}
    zones.write_text(json.dumps(SeatZones((640, 360), halved).to_dict()), "utf-8")
    before = zones.read_bytes()
    with running_server(tmp_path, "--dealing", "hand", "--table", str(six_cards.table),
                        "--zones", str(zones)) as server:
        page = operator_page(browser, server.url)
        take_a_still(page)
        page.wait_for_function(
            "document.getElementById('zones-status').textContent.startsWith('✗')")
        status = page.inner_text("#zones-status")
        assert "calibrated on 640×360 frames but camera" in status
        assert "gives 1280×720: calibrate the zones again" in status
        click_table_corners(page)
        page.click("#zones-save")
        page.wait_for_function("!document.getElementById('refusal').hidden")
        assert "holds a calibration already: say to replace it" in page.inner_text("#refusal")
        assert zones.read_bytes() == before
        page.check("#zones-replace")
        page.click("#zones-save")
        page.wait_for_function(
            "document.getElementById('zones-status').textContent.startsWith('✓')")
        assert load_zones(zones).frame_size == (1280, 720)
        page.close()
