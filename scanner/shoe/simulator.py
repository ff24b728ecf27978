"""The Python simulator: the shoe model served on a TCP "serial" port and the control channel.

The serial side is what a driver opens as ``socket://127.0.0.1:PORT``; a new connection replaces
the old one, as a replugged USB cable does. The control channel is the line protocol every
simulated shoe shares (``station``, ``jam feed``, ``reset``, ``pockets`` …), so the virtual camera
and the fault-injection tests work the same against the firmware under simavr.

``scanner.app.simulator_process`` runs it as a process of its own, as the C targets run.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from typing import BinaryIO

from .machine_model import ShoeModel
from .protocol import POCKET_NAMES
from .virtual_deck import DeckCard, VirtualDeckError, load_virtual_deck

POLL_S = 0.005
# As the C targets' control channel (firmware/machine/control.h, CONTROL_LINE).
CONTROL_LINE_BYTES = 512


class ControlError(ValueError):
    """A control command that cannot be carried out; answered ``err <reason>``."""


class Simulator:
    """A ShoeModel behind a serial socket and a control socket, both on 127.0.0.1."""

    def __init__(self, deck: list[DeckCard] | None = None, motion_s: float = 0.0) -> None:
        self.model = ShoeModel(deck, motion_s=motion_s)
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self._serial_listener = _listen()
        self._control_listener = _listen()
        self._client: socket.socket | None = None
        self._threads: list[threading.Thread] = []

    @property
    def serial_url(self) -> str:
        return f"socket://127.0.0.1:{self._serial_listener.getsockname()[1]}"

    @property
    def control_address(self) -> str:
        return f"127.0.0.1:{self._control_listener.getsockname()[1]}"

    def start(self) -> Simulator:
        for target in (self._accept_serial, self._pump_output, self._accept_control):
            thread = threading.Thread(target=target, daemon=True, name=target.__name__)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        self.stopped.set()
        for sock in (self._serial_listener, self._control_listener, self._client):
            if sock is not None:
                _close(sock)
        for thread in self._threads:
            thread.join(timeout=2)

    def __enter__(self) -> Simulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- serial side --------------------------------------------------------------------------

    def _accept_serial(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self._serial_listener.accept()
            except OSError:
                return
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.settimeout(POLL_S)
            with self.lock:
                old, self._client = self._client, conn
                # Bytes the UART sent while nobody listened are gone, as on a real line.
                self.model.output.clear()
            if old is not None:
                _close(old)
            threading.Thread(target=self._read_serial, args=(conn,), daemon=True).start()

    def _read_serial(self, conn: socket.socket) -> None:
        while not self.stopped.is_set():
            try:
                data = conn.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
            if not data:
                break
            with self.lock:
                if self._client is not conn:
                    break
                self.model.receive(data, time.monotonic())
                self._flush()
        with self.lock:
            if self._client is conn:
                self._client = None
        _close(conn)

    def _pump_output(self) -> None:
        """Advance the model's motions and send what it said, including control-caused events."""
        while not self.stopped.wait(POLL_S):
            with self.lock:
                self.model.tick(time.monotonic())
                self._flush()

    def _flush(self) -> None:
        if not self.model.output:
            return
        data = bytes(self.model.output)
        self.model.output.clear()
        if self._client is not None:
            with contextlib.suppress(OSError):
                self._client.sendall(data)

    # -- control channel ----------------------------------------------------------------------

    def _accept_control(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self._control_listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve_control, args=(conn,), daemon=True).start()

    def _serve_control(self, conn: socket.socket) -> None:
        # Bytes in, so a line that is not UTF-8 gets an error reply, not a dead handler.
        with conn, conn.makefile("rwb") as stream:
            while True:
                try:
                    raw = stream.readline(CONTROL_LINE_BYTES + 1)
                except OSError:
                    return
                if not raw:
                    return
                if len(raw) > CONTROL_LINE_BYTES and not raw.endswith(b"\n"):
                    _skip_to_newline(stream)
                    line, reply = None, "err line too long"
                else:
                    line = _control_text(raw)
                    reply = ("err the command is not UTF-8 text" if line is None
                             else self.control(line))
                try:
                    stream.write(reply.encode("utf-8") + b"\n")
                    stream.flush()
                except OSError:
                    return
                if line == "quit":
                    self.stopped.set()
                    _close(self._serial_listener)
                    _close(self._control_listener)
                    return

    def control(self, line: str) -> str:
        """Carry out one control command; the answer is ``ok …`` or ``err <reason>``."""
        words = line.split()
        if not words:
            return "err empty command"
        handler = CONTROL_COMMANDS.get(words[0])
        if handler is None:
            return f"err unknown command {words[0]!r}; known: {' '.join(CONTROL_COMMANDS)}"
        try:
            with self.lock:
                result = handler(self.model, words[1:])
                self._flush()
        except ControlError as exc:
            return f"err {exc}"
        return f"ok {result}".rstrip()


def _control_text(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None


def _skip_to_newline(stream: BinaryIO) -> None:
    while True:
        chunk = stream.readline(CONTROL_LINE_BYTES)
        if not chunk or chunk.endswith(b"\n"):
            return


def _listen() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)
    return sock


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


def _one_of(args: list[str], choices: tuple[str, ...], what: str) -> str:
    if len(args) != 1 or args[0] not in choices:
        raise ControlError(f"{what} expects one of {'|'.join(choices)}")
    return args[0]


def _no_args(args: list[str], name: str) -> None:
    if args:
        raise ControlError(f"{name} takes no arguments")


def _deck(model: ShoeModel, args: list[str]) -> str:
    if len(args) != 1:
        raise ControlError("deck expects a file path")
    try:
        cards = load_virtual_deck(args[0])
    except VirtualDeckError as exc:
        raise ControlError(str(exc)) from None
    model.load(cards)
    return f"{len(cards)} cards"


def _station(model: ShoeModel, args: list[str]) -> str:
    _no_args(args, "station")
    card = model.station_card()
    return "none" if card is None else str(card)


def _jam(model: ShoeModel, args: list[str]) -> str:
    if args in (["feed"], ["router"]):
        setattr(model.injected, f"jam_{args[0]}", True)
        return ""
    if len(args) == 2 and args[0] == "pocket" and args[1].upper() in POCKET_NAMES:
        model.injected.jam_pockets.add(POCKET_NAMES.index(args[1].upper()))
        return ""
    raise ControlError("jam expects feed, router or pocket N|E|S|W")


def _doublefeed(model: ShoeModel, args: list[str]) -> str:
    _no_args(args, "doublefeed")
    model.injected.double_feed = True
    return ""


def _empty(model: ShoeModel, args: list[str]) -> str:
    _no_args(args, "empty")
    model.empty_hopper()
    return ""


def _door(model: ShoeModel, args: list[str]) -> str:
    model.set_door(_one_of(args, ("open", "close"), "door") == "open")
    return ""


def _estop(model: ShoeModel, args: list[str]) -> str:
    model.set_estop(_one_of(args, ("on", "off"), "estop") == "on")
    return ""


def _reset(model: ShoeModel, args: list[str]) -> str:
    _no_args(args, "reset")
    model.reset()
    return ""


def _clearjam(model: ShoeModel, args: list[str]) -> str:
    _no_args(args, "clearjam")
    model.clear_jam()
    return ""


def _pockets(model: ShoeModel, args: list[str]) -> str:
    _no_args(args, "pockets")
    return " ".join(f"{p}:{','.join(str(c.card) for c in cards)}"
                    for p, cards in model.pockets.items())


def _quit(model: ShoeModel, args: list[str]) -> str:
    return ""


CONTROL_COMMANDS: dict[str, Callable[[ShoeModel, list[str]], str]] = {
    "deck": _deck,
    "station": _station,
    "jam": _jam,
    "doublefeed": _doublefeed,
    "empty": _empty,
    "door": _door,
    "estop": _estop,
    "reset": _reset,
    "clearjam": _clearjam,
    "pockets": _pockets,
    "quit": _quit,
}

