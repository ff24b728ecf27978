"""A client for the simulated shoe's control channel (the line protocol all three targets share)."""

from __future__ import annotations

import socket

from ..cards import parse_card
from .protocol import POCKET_NAMES
from .virtual_deck import DeckCard

CONTROL_TIMEOUT_S = 10.0
# A camera spec naming a simulated shoe's control channel: sim:HOST:PORT.
SIM_PREFIX = "sim:"


class ControlChannelError(RuntimeError):
    """The simulator answered ``err …`` or could not be reached; the message says which."""


def parse_address(address: str) -> tuple[str, int]:
    """``127.0.0.1:PORT`` → (host, port); raise ValueError naming the text otherwise."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"bad control address {address!r}: expected HOST:PORT")
    return host, int(port)


class ControlChannel:
    """One connection to a simulator's control channel; ``command`` returns the text after ok."""

    def __init__(self, address: str, timeout: float = CONTROL_TIMEOUT_S) -> None:
        self.address = address
        host, port = parse_address(address)
        try:
            self._sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise ControlChannelError(f"cannot reach the control channel at {address}: {exc}"
                                      ) from None
        self._stream = self._sock.makefile("rw", encoding="utf-8", newline="\n")

    def command(self, line: str) -> str:
        try:
            self._stream.write(line + "\n")
            self._stream.flush()
            reply = self._stream.readline()
        except OSError as exc:
            raise ControlChannelError(f"control channel {self.address}: {line!r}: {exc}"
                                      ) from None
        reply = reply.rstrip("\r\n")
        if reply == "ok" or reply.startswith("ok "):
            return reply[3:]
        if not reply:
            raise ControlChannelError(f"control channel {self.address} closed after {line!r}")
        raise ControlChannelError(f"control channel {self.address}: {line!r}: {reply}")

    def station(self) -> DeckCard | None:
        """The card resting at the read station, as the simulator's deck says it lies."""
        words = self.command("station").split()
        if words == ["none"]:
            return None
        face = words[1] if len(words) > 1 else "up"
        return DeckCard(parse_card(words[0]), face)

    def pockets(self) -> dict[str, list[str]]:
        """What physically lies in each pocket, bottom card first: the tests' ground truth."""
        found: dict[str, list[str]] = {p: [] for p in POCKET_NAMES}
        for item in self.command("pockets").split():
            name, _, cards = item.partition(":")
            found[name] = [str(parse_card(c)) for c in cards.split(",") if c]
        return found

    def close(self) -> None:
        self._stream.close()
        self._sock.close()

    def __enter__(self) -> ControlChannel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
