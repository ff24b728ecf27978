"""The simulated shoes' control channel, on all three targets, against a careless or hostile
client: every line gets a reply, and no reply shows what a file holds (issue 21, case 20)."""

from __future__ import annotations

import socket

import pytest

from scanner.shoe.control import parse_address
from scanner.shoe.virtual_deck import VirtualDeckError, load_virtual_deck

SECRET = "root:$6$hunter2-not-a-card:19000:0:99999:7:::"


class RawControl:
    """The control channel spoken in bytes, as a hostile client would."""

    def __init__(self, address: str) -> None:
        self.sock = socket.create_connection(parse_address(address), timeout=10)
        self.buffer = b""

    def ask(self, line: bytes) -> bytes:
        self.sock.sendall(line + b"\n")
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError(f"the control channel closed after {line!r}")
            self.buffer += chunk
        reply, _, self.buffer = self.buffer.partition(b"\n")
        return reply

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def control(start_target, write_deck, bridge_deck):
    running = start_target(write_deck(bridge_deck(3)))
    channel = RawControl(running.control)
    yield channel
    channel.close()


def test_a_line_that_is_not_utf8_is_answered_with_an_error_and_the_channel_goes_on(control):
    reply = control.ask(b"\xff\xfe deck \xc3")
    assert reply.startswith(b"err ")
    assert b"UTF-8" in reply
    reply.decode("utf-8")
    assert control.ask(b"station").startswith(b"ok")


def test_a_deck_command_never_echoes_what_the_file_holds(control, tmp_path):
    secret = tmp_path / "shadow"
    secret.write_text(f"{SECRET}\nAS\n", encoding="utf-8")
    reply = control.ask(f"deck {secret}".encode())
    assert reply.startswith(b"err ")
    assert b"line 1" in reply
    assert b"hunter2" not in reply and b"$6$" not in reply
    assert control.ask(b"station").startswith(b"ok")


def test_a_deck_that_never_ends_is_refused(control):
    reply = control.ask(b"deck /dev/zero")
    assert reply.startswith(b"err ")
    assert b"not a deck" in reply


def test_a_deck_files_error_names_the_line_not_its_text(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(f"AS\n{SECRET}\n", encoding="utf-8")
    with pytest.raises(VirtualDeckError, match="line 2: not a card") as refused:
        load_virtual_deck(path)
    assert "hunter2" not in str(refused.value)
