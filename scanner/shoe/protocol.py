"""The shoe's wire protocol (firmware/PROTOCOL.md, version 1): blocks, CRC and message tables.

The numbers live in one table, ``protocol.json`` beside this module: the messages, states,
flags, fault codes and events. This module reads it; the firmware's ``core/protocol.h`` is
written from it at build time (``firmware/tools/protocol_h.py``), and the tests check it
against PROTOCOL.md. So the driver, the simulator, the firmware and the tests read one table.
A flashed shoe may still be older than its host: its ``identity`` carries the table's CRC
(``DICTIONARY_CRC``), and the driver refuses a shoe whose number differs, as Klipper's host
refuses a micro-controller built from another data dictionary.
"""

from __future__ import annotations

import binascii
import json
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from pathlib import Path

SPEC_PATH = Path(__file__).with_name("protocol.json")
SPEC: Mapping = json.loads(SPEC_PATH.read_text(encoding="utf-8"))

PROTOCOL_VERSION: int = SPEC["version"]
BAUDRATE: int = SPEC["baudrate"]
SYNC = int(SPEC["block"]["sync"], 16)
HEADER_LEN: int = SPEC["block"]["header"]  # LEN, SEQ
TRAILER_LEN: int = SPEC["block"]["trailer"]  # CRC hi, CRC lo, SYNC
MIN_BLOCK = HEADER_LEN + TRAILER_LEN
MAX_BLOCK: int = SPEC["block"]["max"]
MAX_PAYLOAD = MAX_BLOCK - MIN_BLOCK
POCKET_NAMES: tuple[str, ...] = tuple(SPEC["pockets"])
# After this much silence the next byte starts a block (PROTOCOL.md §2); a byte takes 87 µs.
SILENCE_S = 0.020


class ProtocolViolation(ValueError):
    """Bytes or a message that do not follow PROTOCOL.md; the message names the field."""


def crc16_ccitt_false(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor.

    ``binascii.crc_hqx`` is exactly that CRC with the initial value passed in, computed in C:
    three CRCs per exchange were a visible share of the host's time per card in pure Python.
    """
    return binascii.crc_hqx(data, crc)


def dictionary_crc(spec: Mapping) -> int:
    """The protocol table's own CRC, as PROTOCOL.md §4 defines it: CRC-16/CCITT-FALSE of the
    table as compact JSON with sorted keys, leaving out its ``about`` note (prose, not protocol).
    """
    table = {key: value for key, value in spec.items() if key != "about"}
    return crc16_ccitt_false(json.dumps(table, sort_keys=True, separators=(",", ":")).encode())


DICTIONARY_CRC = dictionary_crc(SPEC)


@dataclass(frozen=True)
class Block:
    """One framed block: SEQ and the payload (message id + arguments; empty for a pure ack)."""

    seq: int
    payload: bytes = b""

    def encode(self) -> bytes:
        return encode_block(self.seq, self.payload)

    @property
    def is_pure_ack(self) -> bool:
        return not self.payload


def encode_block(seq: int, payload: bytes) -> bytes:
    if not 0 <= seq <= 255:
        raise ProtocolViolation(f"block SEQ {seq} is outside 0..255")
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolViolation(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes((len(payload) + MIN_BLOCK, seq)) + payload
    return body + struct.pack(">H", crc16_ccitt_false(body)) + bytes((SYNC,))


@dataclass
class BlockParser:
    """Turns a byte stream into blocks, resynchronising after noise as PROTOCOL.md §1 says.

    A LEN out of range, a missing SYNC or a CRC mismatch discards bytes up to and including
    the next 0x7E. ``discarded`` counts the bytes thrown away, for the link's statistics.
    """

    buffer: bytearray = field(default_factory=bytearray)
    hunting: bool = False
    discarded: int = 0
    bad_blocks: int = 0

    def feed(self, data: bytes) -> list[Block]:
        self.buffer.extend(data)
        blocks: list[Block] = []
        while self.buffer:
            if self.hunting:
                self._skip_past_sync()
                continue
            length = self.buffer[0]
            if not MIN_BLOCK <= length <= MAX_BLOCK:
                self._reject()
                continue
            if len(self.buffer) < length:
                break
            raw = bytes(self.buffer[:length])
            body, crc, sync = raw[:-3], raw[-3:-1], raw[-1]
            if sync != SYNC or struct.unpack(">H", crc)[0] != crc16_ccitt_false(body):
                self._reject()
                continue
            del self.buffer[:length]
            blocks.append(Block(raw[1], raw[2:-3]))
        return blocks

    @property
    def missing(self) -> int:
        """Bytes still to come before the block being read could be complete (at least 1), so
        a reader can take a whole block in one read instead of one byte at a time."""
        if self.hunting or not self.buffer or not MIN_BLOCK <= self.buffer[0] <= MAX_BLOCK:
            return 1
        return max(1, self.buffer[0] - len(self.buffer))

    def silence(self) -> None:
        """The line has been quiet for ``SILENCE_S``: abandon a partial block and stop hunting,
        so the next byte is read as a LEN and a retransmission gets through at once."""
        if self.buffer:
            self.discarded += len(self.buffer)
            self.buffer.clear()
        self.hunting = False

    def _reject(self) -> None:
        self.bad_blocks += 1
        self.hunting = True

    def _skip_past_sync(self) -> None:
        index = self.buffer.find(SYNC)
        if index < 0:
            self.discarded += len(self.buffer)
            self.buffer.clear()
            return
        self.discarded += index + 1
        del self.buffer[: index + 1]
        self.hunting = False


class Kind(Enum):
    QUERY = "query"
    ACTION = "action"
    ANSWER = "answer"


@dataclass(frozen=True)
class MessageSpec:
    """One row of PROTOCOL.md §3/§4: id, name, kind and the struct layout of the arguments."""

    id: int
    name: str
    kind: Kind
    fields: tuple[str, ...] = ()
    layout: str = ""

    @property
    def size(self) -> int:
        return 1 + struct.calcsize(">" + self.layout)


_LAYOUT = {"u8": "B", "u16": "H"}
MESSAGES: tuple[MessageSpec, ...] = tuple(
    MessageSpec(int(m["id"], 16), m["name"], Kind(m["kind"]),
                tuple(name for name, _ in m.get("args", ())),
                "".join(_LAYOUT[kind] for _, kind in m.get("args", ())))
    for m in SPEC["messages"])
MESSAGE_BY_ID: dict[int, MessageSpec] = {m.id: m for m in MESSAGES}
# Names are unique per direction; "status" is both a query and its answer.
COMMANDS: dict[str, MessageSpec] = {m.name: m for m in MESSAGES if m.kind is not Kind.ANSWER}
ANSWERS: dict[str, MessageSpec] = {m.name: m for m in MESSAGES if m.kind is Kind.ANSWER}


@dataclass(frozen=True)
class Message:
    """A decoded payload: its spec and the argument values by field name."""

    spec: MessageSpec
    args: Mapping[str, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec.name

    def __getitem__(self, name: str) -> int:
        return self.args[name]

    def encode(self) -> bytes:
        values = [self.args[f] for f in self.spec.fields]
        return bytes((self.spec.id,)) + struct.pack(">" + self.spec.layout, *values)


def command(name: str, **args: int) -> Message:
    """Build a host→shoe message by name: ``command("route", pocket=1)``."""
    return _build(COMMANDS, name, args)


def answer(name: str, **args: int) -> Message:
    """Build a shoe→host message by name: ``answer("done", action_seq=3, action=0x10, ...)``."""
    return _build(ANSWERS, name, args)


def _build(table: Mapping[str, MessageSpec], name: str, args: Mapping[str, int]) -> Message:
    spec = table.get(name)
    if spec is None:
        raise ProtocolViolation(f"unknown message {name!r}")
    missing = set(spec.fields) - set(args)
    extra = set(args) - set(spec.fields)
    if missing or extra:
        raise ProtocolViolation(
            f"message {name!r}: missing {sorted(missing)}, unexpected {sorted(extra)}")
    return Message(spec, dict(args))


def decode_message(payload: bytes, *, from_host: bool) -> Message:
    """Decode a non-empty payload; raise ProtocolViolation naming what is wrong."""
    if not payload:
        raise ProtocolViolation("empty payload is a pure acknowledgement, not a message")
    spec = MESSAGE_BY_ID.get(payload[0])
    if spec is None or (spec.kind is Kind.ANSWER) == from_host:
        direction = "host→shoe" if from_host else "shoe→host"
        raise ProtocolViolation(f"unknown {direction} message id 0x{payload[0]:02X}")
    if len(payload) != spec.size:
        raise ProtocolViolation(
            f"message {spec.name!r} has {len(payload) - 1} argument bytes, "
            f"expected {spec.size - 1}")
    values = struct.unpack(">" + spec.layout, payload[1:])
    return Message(spec, dict(zip(spec.fields, values, strict=True)))


def _codes(name: str, table: Mapping[str, int], doc: str) -> type[IntEnum]:
    codes = IntEnum(name, {key.upper(): value for key, value in table.items()})
    codes.__doc__ = doc
    codes.__module__ = __name__
    return codes


MachineState = _codes("MachineState", SPEC["states"], "``status.state``.")
Flag = _codes("Flag", SPEC["flag_bits"], "Bit numbers of ``status.flags``.")
FaultCode = _codes("FaultCode", SPEC["fault_codes"],
                   "``fault.code`` and ``status.last_result`` (0 is success).")
EventCode = _codes("EventCode", SPEC["events"],
                   "``event.code``: unsolicited, best-effort news from the shoe.")

FIRST_POCKET_CHUTE: int = SPEC["jam_where"]["pocket_chute"]
JAM_WHERE: dict[int, str] = {value: key.replace("_", " ")
                             for key, value in SPEC["jam_where"].items()
                             if value != FIRST_POCKET_CHUTE}


def describe_jam_where(where: int) -> str:
    """PROTOCOL.md: 0 feed path, 1 read station, 2 router, 3+p pocket p's chute."""
    if where in JAM_WHERE:
        return JAM_WHERE[where]
    pocket = where - FIRST_POCKET_CHUTE
    if 0 <= pocket < len(POCKET_NAMES):
        return f"pocket {POCKET_NAMES[pocket]}'s chute"
    return f"unknown place {where}"


def flags_set(flags: int) -> frozenset[Flag]:
    return frozenset(f for f in Flag if flags & (1 << f))


def flags_value(flags: frozenset[Flag] | set[Flag]) -> int:
    return sum(1 << f for f in flags)


@dataclass(frozen=True)
class Timing:
    """PROTOCOL.md §5, in seconds. Tests may shorten them; the defaults are the protocol's."""

    retransmit_initial: float = 0.05
    retransmit_max: float = 0.4
    action_result: Mapping[str, float] = field(
        default_factory=lambda: {"feed": 1.0, "route": 1.0, "clear_counts": 1.0, "resume": 1.0})
    link_lost_after: float = 10.0


def seq_add(seq: int, n: int) -> int:
    return (seq + n) & 0xFF
