"""The host-native core answers exactly like the AVR image: the same script, sent to both,
gets the same blocks back, byte for byte."""

from __future__ import annotations

import time
from pathlib import Path

from scanner.app.firmware_wire import (
    CLEAR_COUNTS,
    DONE,
    EVENT,
    FAULT,
    FEED,
    IDENTIFY,
    IDENTITY,
    RESUME,
    ROUTE,
    STATUS,
    STATUS_REPLY,
    ShoeTarget,
    WireBlock,
)

SCRIPT: list[tuple[str, object]] = [
    ("send", (9, bytes((FEED,)))),           # before identify: a pure ack, nothing fed
    ("query", IDENTIFY),
    ("query", STATUS),
    ("act", bytes((FEED,))),
    ("act", bytes((ROUTE, 1))),
    ("again", None),                          # the same route block, byte for byte
    ("act", bytes((ROUTE, 9))),               # bad pocket
    ("act", bytes((0x3C,))),                  # unknown command
    ("act", bytes((FEED,))),
    ("act", bytes((ROUTE, 3))),
    ("control", "door open"),
    ("act", bytes((FEED,))),
    ("control", "door close"),
    ("act", bytes((RESUME,))),
    ("act", bytes((CLEAR_COUNTS,))),
    ("query", STATUS),
    ("control", "reset"),
    ("query", IDENTIFY),
    ("query", STATUS),
]


def collect_until(target: ShoeTarget, done, seconds: float = 2.0) -> list[WireBlock]:
    """Blocks until one satisfies done (or seconds pass), then whatever follows in 50 ms."""
    blocks: list[WireBlock] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not any(done(b) for b in blocks):
        blocks += target.receive(0.02)
    return blocks + target.receive(0.05)


def transcript(target: ShoeTarget) -> list[WireBlock]:
    blocks: list[WireBlock] = []
    last_block = (0, b"")
    for step, argument in SCRIPT:
        if step == "send":
            target.send(*argument)
            blocks += collect_until(target, lambda b: not b.payload)
        elif step == "query":
            target.send(0x33, bytes((argument,)))
            reply = IDENTITY if argument == IDENTIFY else STATUS_REPLY
            blocks += collect_until(target, lambda b, r=reply: b.payload[:1] == bytes((r,)))
            if argument == IDENTIFY:
                target.seq = blocks[-1].seq
        elif step == "control":
            target.control(argument)
            blocks += target.receive(0.1)
        else:
            if step == "act":
                last_block = (target.seq, argument)
                target.seq = (target.seq + 1) % 256
            target.send(*last_block)
            seq = last_block[0]
            blocks += collect_until(target, lambda b, s=seq: b.payload[:1] in (
                bytes((DONE,)), bytes((FAULT,))) and b.payload[1] == s)
    return blocks


def test_native_core_and_avr_image_send_the_same_blocks(firmware_build: Path,
                                                        deck_file: Path) -> None:
    seen = {}
    for executable in ("shoe-sim", "shoe-native"):
        target = ShoeTarget([str(firmware_build / executable), "--deck", str(deck_file)])
        try:
            target.port.reset_input_buffer()
            seen[executable] = transcript(target)
        finally:
            target.close()
    assert seen["shoe-sim"] == seen["shoe-native"]
    events = [b.payload[1] for b in seen["shoe-sim"] if b.payload[:1] == bytes((EVENT,))]
    assert events == [2, 3, 1]  # door opened, door closed, reset
