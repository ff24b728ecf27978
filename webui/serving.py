"""Serving the page: Hypercorn, an asyncio HTTP server, in front of the Flask app.

Why this model: the page is read by many spectators at once (a club room, phones round a
table), each holding an open event stream. A thread-per-request server (waitress, 32 threads)
gave one thread to each stream, so 32 spectators took the page down for everyone. Here the
streams are asyncio tasks (webui.stream) and the Flask app runs on a small pool of its own
threads, which no stream ever holds: the operator's page and actions answer whatever the
spectators do. Hypercorn also sheds what a thread server could not: a connection that has not
sent a whole request within IDLE_TIMEOUT_S (idle, or headers trickling in) is closed, headers
over MAX_HEADER_BYTES get 431, and the front below refuses a body announced over the limit
(413) from its Content-Length alone, before any of it is read.

The front checks every request first: the Host header must name this server (a page fetched
through a stranger's DNS name is refused), and the body must fit.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import socket
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask
from hypercorn.asyncio import serve
from hypercorn.config import Config
from hypercorn.middleware import AsyncioWSGIMiddleware

from .pages import MAX_REQUEST_BYTES
from .stream import StateFeed, StreamRefused, StreamSlots, serve_stream, since_version

MAX_STREAMS = 600
REQUEST_THREADS = 8
IDLE_TIMEOUT_S = 5.0
MAX_HEADER_BYTES = 16 * 1024
BACKLOG = 1024
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("0.0.0.0", "::", "")

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class AllowedHosts:
    """The names a page may be fetched by: those the server was started for.

    A server started for a wildcard address (``--host 0.0.0.0``) also answers to this machine's
    name and, for each connection, to the address that connection came in on: the LAN address
    a phone at the table types.
    """

    def __init__(self, host: str) -> None:
        names = {host.lower()}
        self.any_local_address = host in WILDCARDS
        if self.any_local_address or _is_loopback(host):
            names.update(LOOPBACK_NAMES)
        if self.any_local_address:
            machine = socket.gethostname().lower()
            names.update({machine, f"{machine}.local"})
        names.discard("")
        self.names = frozenset(names)

    def allows(self, host_header: str, local_address: str) -> bool:
        name = _host_name(host_header)
        if name in self.names:
            return True
        return self.any_local_address and name == local_address.lower()


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.lower() == "localhost"


def _host_name(header: str) -> str:
    """``example:5000`` → ``example``; ``[::1]:5000`` → ``::1``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    return header.rpartition(":")[0] if header.count(":") == 1 else header


class Front:
    """The ASGI app: check Host and size, then the event stream or the Flask app."""

    def __init__(self, app: Flask, table: Any, hosts: AllowedHosts,
                 max_streams: int = MAX_STREAMS) -> None:
        self._wsgi = AsyncioWSGIMiddleware(app, max_body_size=MAX_REQUEST_BYTES)
        self._table = table
        self._hosts = hosts
        self._slots = StreamSlots(max_streams)
        self._feed: StateFeed | None = None

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._feed = StateFeed(self._table, asyncio.get_running_loop())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self._feed is not None:
                    await asyncio.to_thread(self._feed.stop)
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])
        local = (scope.get("server") or ("",))[0] or ""
        host = headers.get(b"host", b"").decode("latin-1")
        if not self._hosts.allows(host, local):
            await _refuse(send, 400, f"this server does not answer to the name {host[:80]!r}: "
                                     "use the address it printed when it started")
            return
        length = headers.get(b"content-length", b"0").decode("latin-1")
        if not (length.isascii() and length.isdigit()):
            await _refuse(send, 400, "Content-Length must be a whole number")
            return
        if int(length) > MAX_REQUEST_BYTES:
            await _refuse(send, 413, f"the request body is over {MAX_REQUEST_BYTES} bytes")
            return
        if scope["method"] == "GET" and scope["path"] == "/events":
            await self._stream(scope, headers, receive, send)
            return
        body = await _read_body(receive)
        if body is None:
            await _refuse(send, 413, f"the request body is over {MAX_REQUEST_BYTES} bytes")
            return
        await self._wsgi(scope, _replay(body), send)

    async def _stream(self, scope: dict[str, Any], headers: dict[bytes, bytes],
                      receive: Receive, send: Send) -> None:
        assert self._feed is not None, "the server starts the feed before it serves"
        try:
            since = since_version(headers, scope["query_string"])
            await serve_stream(self._feed, self._slots, since, receive, send)
        except StreamRefused as refused:
            extra = [(b"retry-after", b"10")] if refused.status == 503 else []
            await _refuse(send, refused.status, refused.reason, extra)


async def _read_body(receive: Receive) -> bytes | None:
    """The whole body (also when chunked), or None once it passes the limit."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return bytes(body)
        body += message.get("body", b"")
        if len(body) > MAX_REQUEST_BYTES:
            return None
        if not message.get("more_body"):
            return bytes(body)


def _replay(body: bytes) -> Receive:
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}
    return receive


async def _refuse(send: Send, status: int, reason: str,
                  headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"error": reason}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"), *(headers or [])]})
    await send({"type": "http.response.body", "body": body, "more_body": False})


class TableServer:
    """The page served on ``host:port``: bound at once (so errors show before anything runs),
    served by ``run`` until ``stop`` or SIGINT/SIGTERM."""

    def __init__(self, app: Flask, table: Any, host: str, port: int, *,
                 max_streams: int = MAX_STREAMS, idle_timeout: float = IDLE_TIMEOUT_S) -> None:
        _allow_many_connections()
        self._sock = socket.create_server(
            (host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET,
            backlog=BACKLOG)
        self.port = self._sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{self.port}/"
        self._front = Front(app, table, AllowedHosts(host), max_streams)
        self._config = Config()
        self._config.keep_alive_timeout = idle_timeout
        self._config.h11_max_incomplete_size = MAX_HEADER_BYTES
        self._config.backlog = BACKLOG
        self._config.graceful_timeout = 1.0
        self._config.accesslog = None
        self._stop_asked = threading.Event()
        self._thread: threading.Thread | None = None

    def run(self, *, on_signals: bool = True) -> None:
        asyncio.run(self._serve(on_signals))

    async def _serve(self, on_signals: bool) -> None:
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(REQUEST_THREADS, thread_name_prefix="tablescan-request"))
        self._config.bind = [f"fd://{self._sock.detach()}"]
        trigger = None if on_signals else self._until_stopped
        await serve(self._front, self._config, shutdown_trigger=trigger, mode="asgi")

    async def _until_stopped(self) -> None:
        while not self._stop_asked.is_set():
            await asyncio.sleep(0.05)

    def start(self) -> TableServer:
        """Serve on a thread of its own (for tests and benches); ``stop`` ends it."""
        self._thread = threading.Thread(target=self.run, kwargs={"on_signals": False},
                                        name="tablescan-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop_asked.set()
        if self._thread is not None:
            self._thread.join(timeout=10)


def _allow_many_connections() -> None:
    """Raise the open-file limit to its ceiling: each spectator is a socket."""
    try:
        import resource
    except ImportError:  # Windows has no such limit to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
