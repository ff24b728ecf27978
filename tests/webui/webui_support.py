"""Helpers for the route and page tests: CSRF round-trips and a regular pinochle deal."""

from __future__ import annotations

import random

from flask.testing import FlaskClient

from scanner.cards import PINOCHLE_48, Seat
from scanner.events import CardDelivered
from scanner.live import LiveTable

PIN = "2468"


def csrf_of(client: FlaskClient) -> str:
    page = client.get("/").get_data(as_text=True)
    return page.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]


def post(client: FlaskClient, path: str, body=None, *, token: str | None = None, **kwargs):
    token = csrf_of(client) if token is None else token
    return client.post(path, json=body if body is not None else {},
                       headers={"X-CSRF-Token": token}, **kwargs)


def deal_in_packets(table: LiveTable, dealer: Seat = Seat.N) -> None:
    """A regular deal of a shuffled deck: packets of three, dealer's left first, clockwise."""
    deck = PINOCHLE_48.cards()
    random.Random(7).shuffle(deck)
    order = [s for _ in range(4) for s in dealer.left.clockwise_from() for _ in range(3)]
    table.record(CardDelivered(card, seat) for card, seat in zip(deck, order, strict=True))
