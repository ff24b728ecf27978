"""Just enough of firmware/PROTOCOL.md to talk to a shoe target: the firmware tests and benches.

Written from the specification, independently of scanner/shoe's code, so that the firmware is
checked against PROTOCOL.md and not against the driver it is meant to agree with. The numbers
come from the protocol's one table (scanner/shoe/protocol.json), read here as plain data.
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import serial

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
BUILD = FIRMWARE / "build"
SYNC = 0x7E

# The protocol's one table of numbers (read as data, not through the driver's module).
SPEC = json.loads((FIRMWARE.parent / "scanner" / "shoe" / "protocol.json").read_text())
_IDS = {(m["name"], m["kind"] == "answer"): int(m["id"], 16) for m in SPEC["messages"]}
IDENTIFY, STATUS, FEED, ROUTE, CLEAR_COUNTS, RESUME = (
    _IDS[name, False] for name in ("identify", "status", "feed", "route", "clear_counts", "resume"))
IDENTITY, STATUS_REPLY, DONE, FAULT, EVENT = (
    _IDS[name, True] for name in ("identity", "status", "done", "fault", "event"))
STATES = {value: name for name, value in SPEC["states"].items()}
_BYTES = {"u8": 1, "u16": 2}
IDENTITY_LENGTH = 1 + sum(_BYTES[kind] for message in SPEC["messages"]
                          if message["name"] == "identity" for _, kind in message["args"])
EVENT_RESET, EVENT_DOOR_OPENED = SPEC["events"]["reset"], SPEC["events"]["door_opened"]


def crc16_ccitt_false(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def encode(seq: int, payload: bytes) -> bytes:
    body = bytes((len(payload) + 5, seq)) + payload
    return body + struct.pack(">H", crc16_ccitt_false(body)) + bytes((SYNC,))


@dataclass(frozen=True)
class WireBlock:
    seq: int
    payload: bytes


def decode(buffer: bytearray) -> list[WireBlock]:
    """Take every complete valid block off the front of buffer (resynchronising on SYNC)."""
    blocks = []
    while buffer:
        length = buffer[0]
        if not 5 <= length <= 64:
            del buffer[: buffer.index(SYNC) + 1 if SYNC in buffer else len(buffer)]
            continue
        if len(buffer) < length:
            break
        raw = bytes(buffer[:length])
        if raw[-1] == SYNC and crc16_ccitt_false(raw[:-3]) == struct.unpack(">H", raw[-3:-1])[0]:
            blocks.append(WireBlock(raw[1], raw[2:-3]))
            del buffer[:length]
        else:
            del buffer[: buffer.index(SYNC) + 1 if SYNC in buffer else len(buffer)]
    return blocks


class ShoeTarget:
    """A running simulated shoe (shoe-sim or shoe-native): its pty and its control channel."""

    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{argv[0]} did not start: {self.process.stderr.read()}")
        self.started = json.loads(line)
        host, port = self.started["control"].split(":")
        self._control = socket.create_connection((host, int(port)), timeout=5)
        self._control_file = self._control.makefile("rw", encoding="utf-8", newline="\n")
        self.port = serial.serial_for_url(self.started["serial"], baudrate=115200, timeout=0.02)
        self._received = bytearray()
        self.seq = 0

    def control(self, command: str) -> str:
        self._control_file.write(command + "\n")
        self._control_file.flush()
        return self._control_file.readline().rstrip("\n")

    def send(self, seq: int, payload: bytes) -> None:
        self.port.write(encode(seq, payload))

    def receive(self, seconds: float) -> list[WireBlock]:
        blocks: list[WireBlock] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._received += self.port.read(256)
            blocks += decode(self._received)
        return blocks

    def wait_for(self, message: int, seconds: float = 2.0) -> WireBlock:
        """The first block whose payload starts with message, within seconds."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._received += self.port.read(256)
            for block in decode(self._received):
                if block.payload[:1] == bytes((message,)):
                    return block
        raise AssertionError(f"no message 0x{message:02x} within {seconds} s")

    def query(self, message: int) -> WireBlock:
        self.port.reset_input_buffer()
        self._received.clear()
        self.send(0x77, bytes((message,)))
        return self.wait_for(IDENTITY if message == IDENTIFY else STATUS_REPLY)

    def identify(self) -> WireBlock:
        block = self.query(IDENTIFY)
        self.seq = block.seq
        return block

    def act(self, payload: bytes, seconds: float = 2.0) -> WireBlock:
        """Send one action with the next SEQ and return its result (done or fault)."""
        seq = self.seq
        self.seq = (self.seq + 1) % 256
        self._received.clear()
        self.send(seq, payload)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._received += self.port.read(256)
            for block in decode(self._received):
                if block.payload[:1] in (bytes((DONE,)), bytes((FAULT,))) \
                        and block.payload[1] == seq:
                    return block
        raise AssertionError(f"no result for action SEQ {seq} within {seconds} s")

    def close(self) -> int:
        if self.process.poll() is None:
            with contextlib.suppress(OSError):  # it may already be gone
                self.control("quit")
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self.port.close()
        self._control.close()
        return code


class NoisyLink:
    """Stop-and-wait with retransmission (PROTOCOL.md §2) over a line that corrupts bytes.

    Each byte, in either direction, is replaced by a random one with probability `corruption`.
    Enough of a host to show that the firmware never acts twice and never loses a result.
    """

    def __init__(self, shoe: ShoeTarget, corruption: float, seed: int) -> None:
        import random

        self.shoe = shoe
        self.corruption = corruption
        self.random = random.Random(seed)
        self.retransmits = 0

    def _garble(self, data: bytes) -> bytes:
        return bytes(self.random.randrange(256) if self.random.random() < self.corruption else b
                     for b in data)

    def _read(self) -> list[WireBlock]:
        self.shoe._received += self._garble(self.shoe.port.read(256))
        return decode(self.shoe._received)

    def identify(self) -> int:
        while True:
            self.shoe.port.write(self._garble(encode(0, bytes((IDENTIFY,)))))
            deadline = time.monotonic() + 0.2
            while time.monotonic() < deadline:
                for block in self._read():
                    if (block.payload[:1] == bytes((IDENTITY,))
                            and len(block.payload) == IDENTITY_LENGTH):
                        self.shoe.seq = block.seq
                        return block.seq
            self.retransmits += 1

    def act(self, payload: bytes, result_timeout: float = 1.0) -> WireBlock:
        seq = self.shoe.seq
        self.shoe.seq = (seq + 1) % 256
        block = encode(seq, payload)
        timeout = 0.05
        acknowledged_at = None
        while True:
            self.shoe.port.write(self._garble(block))
            deadline = time.monotonic() + (result_timeout if acknowledged_at else timeout)
            while time.monotonic() < deadline:
                for answer in self._read():
                    if answer.payload[:1] in (bytes((DONE,)), bytes((FAULT,))) \
                            and answer.payload[1] == seq:
                        return answer
                    if not answer.payload and answer.seq == (seq + 1) % 256:
                        acknowledged_at = time.monotonic()
                        deadline = acknowledged_at + result_timeout
            self.retransmits += 1
            timeout = min(timeout * 2, 0.4)
