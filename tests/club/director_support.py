"""The director's page served in this process (its real server on a free port of 127.0.0.1), and a
table's log filled with bridge deals, for the page tests and the latency bench."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from scanner.cards import BRIDGE_52, SEATS, Card, Seat
from scanner.club.view import ClubView
from scanner.history import DealHistory
from scanner.log import EventLog
from webui.director import create_director_app
from webui.serving import TableServer


@dataclass
class Director:
    url: str
    pin: str
    view: ClubView


@contextmanager
def running_director(store_url: str, pin: str = "2468", poll_interval: float = 0.05
                     ) -> Iterator[Director]:
    view = ClubView(store_url, poll_interval=poll_interval).start()
    app = create_director_app(view, pin=pin, store_url=store_url)
    server = TableServer(app, view, "127.0.0.1", 0).start()
    try:
        yield Director(server.url, pin, view)
    finally:
        server.stop()
        view.close()


def random_deal(rng: random.Random) -> dict[Seat, list[Card]]:
    cards = BRIDGE_52.cards()
    rng.shuffle(cards)
    return {seat: cards[13 * i:13 * i + 13] for i, seat in enumerate(SEATS)}


def rotated(hands: dict[Seat, list[Card]], seats: int) -> dict[Seat, list[Card]]:
    """Every hand moved ``seats`` seats clockwise: N's hand goes to E when seats is 1."""
    return {SEATS[(i + seats) % 4]: hands[seat] for i, seat in enumerate(SEATS)}


def record_deals(db: Path, session: str, source: str,
                 boards: dict[int, dict[Seat, list[Card]]]) -> None:
    """A table's log and deal history, as predeal (dealt) or verification (verified) leave it."""
    with EventLog(db, session=session) as log:
        history = DealHistory(log)
        for number, hands in boards.items():
            history.record(hands, session, source, board=number)


def chromium_launch_options() -> dict:
    """How the page tests launch Debian's Chromium (scanner/app/browser.py)."""
    from scanner.app.browser import CHROMIUM_ARGS, chromium_path

    return {"executable_path": chromium_path(), "headless": True, "args": CHROMIUM_ARGS}
