"""Helpers for the route and page tests: CSRF round-trips and a regular pinochle deal."""

from __future__ import annotations

import random
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager

from flask.testing import FlaskClient

from scanner.cards import PINOCHLE_48, Seat
from scanner.events import CardDelivered
from scanner.live import LiveTable
from webui.serving import TableServer

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


@contextmanager
def serving(app, table: LiveTable, host: str = "127.0.0.1", **options) -> Iterator[TableServer]:
    """The app behind the real server on a free port of ``host``, on a thread of its own."""
    server = TableServer(app, table, host, 0, **options).start()
    try:
        yield server
    finally:
        server.stop()


def exchange(port: int, request: bytes, timeout: float = 10.0) -> bytes:
    """Send raw bytes to 127.0.0.1:port and read until the server closes or a reply is whole."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        reply = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return reply
            reply += chunk
            head, sep, body = reply.partition(b"\r\n\r\n")
            length = re.search(rb"(?i)content-length: *(\d+)", head)
            if sep and length and len(body) >= int(length.group(1)):
                return reply


def status_of(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1])


def get(port: int, path: str, host: str = "127.0.0.1", headers: str = "") -> bytes:
    return exchange(port, f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{headers}\r\n".encode())


class Spectator:
    """An open event stream, read frame by frame (HTTP/1.0, so the body is not chunked)."""

    def __init__(self, port: int, headers: str = "") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(f"GET /events HTTP/1.0\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode())
        self.buffer = b""

    def frame(self) -> str:
        """The next SSE frame (a block ending in a blank line), without the HTTP head."""
        while b"\n\n" not in self._after_head():
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError(f"stream closed: {self.buffer[:200]!r}")
            self.buffer += chunk
        rest = self._after_head()
        frame, _, left = rest.partition(b"\n\n")
        self.buffer = self.buffer[:len(self.buffer) - len(rest)] + left
        return frame.decode()

    def _after_head(self) -> bytes:
        return self.buffer.partition(b"\r\n\r\n")[2]

    def close(self) -> None:
        self.sock.close()

