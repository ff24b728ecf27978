"""The event stream: each open page is sent every new state of the table as Server-Sent Events.

A stream is an asyncio task, not a thread, so hundreds of spectators cost hundreds of small
tasks and never take a thread the operator's requests need. One thread follows the table and
encodes each new state once; every stream sends those same bytes. The number of streams is
bounded (a page over the bound is told to come back later), and a page that does not take
what it is sent within SEND_TIMEOUT_S is shed, so a stalled reader holds nothing for long.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from typing import Any

HEARTBEAT_S = 15.0
SEND_TIMEOUT_S = 10.0
# Streams are woken this many at a time, and the event loop serves whatever else is waiting
# (the operator's request) between one batch and the next.
WAKE_BATCH = 25
# A reconnecting page waits this long (ms) before it tries again.
RETRY_MS = 1000

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]


class StreamRefused(Exception):
    """A stream that cannot be opened: the status and the reason to answer with."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def state_frame(version: int, snapshot: dict[str, Any]) -> bytes:
    return f"id: {version}\nevent: state\ndata: {json.dumps(snapshot)}\n\n".encode()


class StateFeed:
    """The table's latest state as one encoded frame, and a wake-up for streams when it moves.

    Its thread blocks on the table's ``wait_for_change`` and hands each new frame to the event
    loop, which wakes the waiting streams in batches.
    """

    def __init__(self, table: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._table = table
        self._loop = loop
        self.current = self._frame()
        self._waiting: set[asyncio.Future[None]] = set()
        self._waking: set[asyncio.Task[None]] = set()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._follow, name="tablescan-feed", daemon=True)
        self._thread.start()

    def _frame(self) -> tuple[int, bytes]:
        version, snapshot = self._table.snapshot()
        return version, state_frame(version, snapshot)

    def _follow(self) -> None:
        version = self.current[0]
        while not self._stopped.is_set():
            if self._table.wait_for_change(version, timeout=0.5) == version:
                continue
            frame = self._frame()
            version = frame[0]
            self._loop.call_soon_threadsafe(self._publish, frame)

    def _publish(self, frame: tuple[int, bytes]) -> None:
        self.current = frame
        waiting, self._waiting = self._waiting, set()
        waking = asyncio.ensure_future(self._wake(list(waiting)))
        self._waking.add(waking)  # the loop keeps only a weak reference to a task
        waking.add_done_callback(self._waking.discard)

    async def _wake(self, waiting: list[asyncio.Future[None]]) -> None:
        for start in range(0, len(waiting), WAKE_BATCH):
            for waiter in waiting[start:start + WAKE_BATCH]:
                if not waiter.done():
                    waiter.set_result(None)
            await asyncio.sleep(0)

    async def next_after(self, version: int, timeout: float) -> tuple[int, bytes] | None:
        """The current frame if it is past ``version``, else the next one; None on timeout."""
        if self.current[0] != version:
            return self.current
        waiter = self._loop.create_future()
        self._waiting.add(waiter)
        try:
            async with asyncio.timeout(timeout):
                await waiter
        except TimeoutError:
            return None
        finally:
            self._waiting.discard(waiter)
        return self.current

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join()


class StreamSlots:
    """At most ``limit`` streams at once."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0

    def take(self) -> bool:
        if self.open >= self.limit:
            return False
        self.open += 1
        return True

    def give_back(self) -> None:
        self.open -= 1


def since_version(headers: dict[bytes, bytes], query: bytes) -> int:
    """Where a page's stream starts: its Last-Event-ID (or ?since=N), or -1 for a new page."""
    text = headers.get(b"last-event-id", b"").decode("latin-1")
    if not text:
        for pair in query.decode("latin-1").split("&"):
            name, _, value = pair.partition("=")
            if name == "since":
                text = value
    if not text:
        return -1
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise StreamRefused(400, f"Last-Event-ID must be a whole number, not {text[:40]!r}")
    return int(text)


async def serve_stream(feed: StateFeed, slots: StreamSlots, since: int,
                       receive: Receive, send: Send) -> None:
    """Send the state whenever the table moves past ``since``, until the page goes away."""
    if not slots.take():
        raise StreamRefused(503, f"the page already has {slots.limit} spectators: try again "
                                 "later")
    # One watcher per stream, for its whole life: when the page goes, it ends the stream.
    stream = asyncio.current_task()
    assert stream is not None
    gone = asyncio.ensure_future(_end_when_gone(receive, stream))
    try:
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/event-stream; charset=utf-8"),
            (b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no")]})
        await _send_body(send, f"retry: {RETRY_MS}\n\n".encode())
        version = since
        while True:
            frame = await feed.next_after(version, HEARTBEAT_S)
            if frame is None:
                await _send_body(send, b": keep-alive\n\n")
            else:
                version = frame[0]
                await _send_body(send, frame[1])
    except asyncio.CancelledError:
        if not gone.done():
            raise
    except (TimeoutError, ConnectionError):
        return  # shed: the page did not take what it was sent in time
    finally:
        gone.cancel()
        slots.give_back()


async def _send_body(send: Send, chunk: bytes) -> None:
    """Send a chunk; TimeoutError when the page does not take it in time."""
    async with asyncio.timeout(SEND_TIMEOUT_S):
        await send({"type": "http.response.body", "body": chunk, "more_body": True})


async def _end_when_gone(receive: Receive, stream: asyncio.Task) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    stream.cancel()
