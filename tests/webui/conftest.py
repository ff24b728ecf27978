"""A live pinochle table on a real SQLite log, behind the real app, for the route tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from webui_support import PIN, post

from scanner.live import LiveTable
from scanner.log import EventLog
from scanner.pinochle.live_game import PinochleGame
from webui import create_app


@pytest.fixture
def table(tmp_path) -> Iterator[LiveTable]:
    live = LiveTable(lambda: EventLog(tmp_path / "table.sqlite"), PinochleGame())
    yield live
    live.close()


@pytest.fixture
def app(table):
    return create_app(table, pin=PIN, TESTING=True)


@pytest.fixture
def operator(app) -> FlaskClient:
    client = app.test_client()
    assert post(client, "/login", {"pin": PIN}).status_code == 200
    return client


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium driven by Playwright (no browser download, ever)."""
    from playwright.sync_api import sync_playwright

    from scanner.app.browser import CHROMIUM_ARGS, chromium_path

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                              args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
