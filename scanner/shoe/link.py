"""The byte link to the shoe: a pyserial port on any URL, carrying PROTOCOL.md blocks.

``serial_for_url`` opens ``/dev/ttyUSB0``, ``COM3``, a pty path, ``socket://``, ``rfc2217://`` and
``loop://`` alike. The link only moves blocks; retransmission and resynchronisation belong to the
driver, which is told of an unplugged cable by ``LinkDown``.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import serial

from .protocol import BAUDRATE, SILENCE_S, Block, BlockParser

READ_SLICE_S = 0.01
WRITE_TIMEOUT_S = 1.0
NO_WRITE_TIMEOUT = ("rfc2217://",)
PortOpener = Callable[[str], serial.SerialBase]


class LinkDown(Exception):
    """The port failed (cable unplugged, socket closed); the driver reopens it."""


def open_serial(url: str) -> serial.SerialBase:
    # A write to a wedged USB adapter must not hang the host; pyserial's rfc2217:// refuses a
    # write timeout, so it goes without.
    write_timeout = None if url.startswith(NO_WRITE_TIMEOUT) else WRITE_TIMEOUT_S
    return serial.serial_for_url(url, baudrate=BAUDRATE, timeout=READ_SLICE_S,
                                 write_timeout=write_timeout)


@dataclass
class LinkStats:
    blocks_sent: int = 0
    blocks_received: int = 0
    bytes_discarded: int = 0
    bad_blocks: int = 0
    reopened: int = 0


class Link:
    """Blocks over one serial port, reopened on demand after the port fails."""

    def __init__(self, url: str, open_port: PortOpener = open_serial) -> None:
        self.url = url
        self._open_port = open_port
        self._port: serial.SerialBase | None = None
        self._parser = BlockParser()
        self._pending: deque[Block] = deque()
        self._last_byte_at = 0.0
        self.stats = LinkStats()

    @property
    def is_open(self) -> bool:
        return self._port is not None

    def open(self) -> None:
        """Open the port; raise LinkDown naming the URL when it cannot be opened."""
        self.close()
        try:
            self._port = self._open_port(self.url)
            # Reads must come back to the driver's timers, whoever opened the port.
            if self._port.timeout != READ_SLICE_S:
                self._port.timeout = READ_SLICE_S
        except (serial.SerialException, OSError, ValueError) as exc:
            raise LinkDown(f"cannot open {self.url}: {exc}") from exc
        self._parser = BlockParser()
        self._pending.clear()

    def reopen(self) -> None:
        self.open()
        self.stats.reopened += 1

    def close(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
        self._account_parser()

    def send(self, data: bytes) -> None:
        port = self._require_port()
        try:
            port.write(data)
            port.flush()
        except (serial.SerialException, OSError) as exc:
            self.close()
            raise LinkDown(f"write to {self.url} failed: {exc}") from exc
        self.stats.blocks_sent += 1

    def receive(self, until: float) -> Block | None:
        """The next valid block, or None when ``until`` (time.monotonic) passes first."""
        while not self._pending:
            now = time.monotonic()
            if now >= until:
                return None
            port = self._require_port()
            try:
                # A socket:// port reports at most 1 byte waiting; asking for the rest of the
                # block takes it in one read. A short block costs no more than an idle read:
                # READ_SLICE_S, then the driver's timers run as before.
                data = port.read(max(self._parser.missing, port.in_waiting))
            except (serial.SerialException, OSError) as exc:
                self.close()
                raise LinkDown(f"read from {self.url} failed: {exc}") from exc
            if data:
                if now - self._last_byte_at > SILENCE_S:
                    self._parser.silence()
                self._last_byte_at = time.monotonic()
                self._pending.extend(self._parser.feed(data))
        self.stats.blocks_received += 1
        return self._pending.popleft()

    def _require_port(self) -> serial.SerialBase:
        if self._port is None:
            raise LinkDown(f"{self.url} is not open")
        return self._port

    def _account_parser(self) -> None:
        self.stats.bytes_discarded += self._parser.discarded
        self.stats.bad_blocks += self._parser.bad_blocks
        self._parser = BlockParser()
