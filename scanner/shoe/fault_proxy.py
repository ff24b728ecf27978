"""A byte-level fault-injection proxy between the driver and a shoe, for tests and benchmarks.

The driver opens ``socket://127.0.0.1:PORT`` on the proxy; the proxy holds the target's own port
(a pty path or a ``socket://`` URL) open through pyserial. In both directions it can drop,
duplicate and reorder whole frames, and corrupt single bytes, each decided by a seeded random
generator so a failing run can be replayed. ``outage(seconds)`` unplugs the driver's side: its
connection is closed and new ones are refused until the time is up.
"""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time
from dataclasses import dataclass

import serial

from .link import open_serial
from .protocol import SYNC

POLL_S = 0.005


@dataclass
class FaultRates:
    """Probabilities per byte (corruption) and per frame (drop, duplicate, hold back)."""

    corrupt_byte: float = 0.0
    drop_frame: float = 0.0
    duplicate_frame: float = 0.0
    reorder_frame: float = 0.0


@dataclass
class FaultCounts:
    bytes_corrupted: int = 0
    frames_dropped: int = 0
    frames_duplicated: int = 0
    frames_reordered: int = 0
    outages: int = 0


class _Direction:
    """One direction of the stream: cut into frames at SYNC, then faults, then bytes out."""

    def __init__(self, rates: FaultRates, rng: random.Random, counts: FaultCounts) -> None:
        self.rates = rates
        self.rng = rng
        self.counts = counts
        self.partial = bytearray()
        self.held: bytes | None = None

    def process(self, data: bytes) -> bytes:
        self.partial.extend(data)
        out = bytearray()
        while True:
            end = self.partial.find(SYNC)
            if end < 0:
                break
            frame = bytes(self.partial[: end + 1])
            del self.partial[: end + 1]
            out += self._frame(frame)
        return bytes(out)

    def _frame(self, frame: bytes) -> bytes:
        rates, rng = self.rates, self.rng
        if rng.random() < rates.drop_frame:
            self.counts.frames_dropped += 1
            return b""
        if rng.random() < rates.duplicate_frame:
            self.counts.frames_duplicated += 1
            frame = frame + frame
        if self.held is None and rng.random() < rates.reorder_frame:
            self.counts.frames_reordered += 1
            self.held = frame
            return b""
        held, self.held = self.held or b"", None
        return self._corrupt(frame) + self._corrupt(held)

    def flush_held(self) -> bytes:
        held, self.held = self.held or b"", None
        return self._corrupt(held)

    def _corrupt(self, data: bytes) -> bytes:
        if not data or self.rates.corrupt_byte <= 0:
            return data
        out = bytearray(data)
        for i in range(len(out)):
            if self.rng.random() < self.rates.corrupt_byte:
                out[i] ^= 1 << self.rng.randrange(8)
                self.counts.bytes_corrupted += 1
        return bytes(out)


class FaultProxy:
    """Listen on 127.0.0.1 for the driver; forward to ``target`` with the configured faults."""

    def __init__(self, target: str, rates: FaultRates | None = None, seed: int = 0) -> None:
        self.rates = rates or FaultRates()
        self.counts = FaultCounts()
        rng = random.Random(seed)
        self._to_target = _Direction(self.rates, random.Random(rng.random()), self.counts)
        self._to_driver = _Direction(self.rates, random.Random(rng.random()), self.counts)
        self._target = open_serial(target)
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(4)
        self._client: socket.socket | None = None
        self._down_until = 0.0
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._threads: list[threading.Thread] = []

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self._listener.getsockname()[1]}"

    def start(self) -> FaultProxy:
        for target in (self._accept, self._from_target, self._release_held):
            thread = threading.Thread(target=target, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        self._stopped.set()
        with contextlib.suppress(OSError):
            # shutdown, not only close, wakes the thread blocked in accept().
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        self._drop_client()
        for thread in self._threads:
            thread.join(timeout=2)
        self._target.close()

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def outage(self, seconds: float) -> None:
        """Unplug the driver's side now, for ``seconds``."""
        with self._lock:
            self._down_until = time.monotonic() + seconds
            self.counts.outages += 1
        self._drop_client()

    @property
    def link_down(self) -> bool:
        return time.monotonic() < self._down_until

    def _drop_client(self) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(OSError):
                client.shutdown(socket.SHUT_RDWR)
            client.close()

    def _accept(self) -> None:
        while not self._stopped.is_set():
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            if self.link_down:
                conn.close()
                continue
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._drop_client()
            with self._lock:
                self._client = conn
            threading.Thread(target=self._from_driver, args=(conn,), daemon=True).start()

    def _from_driver(self, conn: socket.socket) -> None:
        while not self._stopped.is_set():
            try:
                data = conn.recv(4096)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                out = self._to_target.process(data)
            if out and not self.link_down:
                with contextlib.suppress(serial.SerialException, OSError):
                    self._target.write(out)

    def _from_target(self) -> None:
        while not self._stopped.is_set():
            try:
                data = self._target.read(max(1, self._target.in_waiting))
            except (serial.SerialException, OSError):
                if self._stopped.wait(POLL_S):
                    return
                continue
            if not data:
                continue
            with self._lock:
                out = self._to_driver.process(data)
            self._to_driver_bytes(out)

    def _release_held(self) -> None:
        """A frame held back for reordering goes out late if no later frame overtakes it."""
        while not self._stopped.wait(0.02):
            with self._lock:
                to_target = self._to_target.flush_held()
                to_driver = self._to_driver.flush_held()
            if to_target and not self.link_down:
                with contextlib.suppress(serial.SerialException, OSError):
                    self._target.write(to_target)
            self._to_driver_bytes(to_driver)

    def _to_driver_bytes(self, data: bytes) -> None:
        with self._lock:
            client = self._client
        if data and client is not None and not self.link_down:
            with contextlib.suppress(OSError):
                client.sendall(data)
