"""PROTOCOL.md §1 and the message tables: framing, CRC, resynchronisation, decoding."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scanner.shoe.protocol import (
    MAX_PAYLOAD,
    MESSAGES,
    SYNC,
    Block,
    BlockParser,
    EventCode,
    FaultCode,
    Flag,
    MachineState,
    ProtocolViolation,
    answer,
    command,
    crc16_ccitt_false,
    decode_message,
    encode_block,
)

PROTOCOL_MD = Path(__file__).resolve().parents[2] / "firmware" / "PROTOCOL.md"


def test_crc_check_value_of_123456789_is_0x29b1():
    assert crc16_ccitt_false(b"123456789") == 0x29B1


def bitwise_crc16_ccitt_false(data: bytes) -> int:
    """The CRC as PROTOCOL.md defines it, one bit at a time, as the firmware computes it."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


@given(st.binary(max_size=MAX_PAYLOAD + 2))
def test_crc_agrees_with_the_bitwise_definition_on_any_bytes(data):
    assert crc16_ccitt_false(data) == bitwise_crc16_ccitt_false(data)


def test_block_layout_is_len_seq_payload_crc_big_endian_sync():
    raw = encode_block(7, b"\x11\x02")
    assert raw[0] == len(raw) == 7
    assert raw[1] == 7
    assert raw[2:4] == b"\x11\x02"
    assert int.from_bytes(raw[4:6], "big") == crc16_ccitt_false(raw[:4])
    assert raw[-1] == SYNC


def test_pure_acknowledgement_is_five_bytes():
    assert len(encode_block(0, b"")) == 5


def test_payload_longer_than_58_bytes_is_refused():
    with pytest.raises(ProtocolViolation, match="exceeds"):
        encode_block(0, bytes(MAX_PAYLOAD + 1))


@given(st.integers(0, 255), st.binary(max_size=MAX_PAYLOAD))
def test_every_block_round_trips(seq, payload):
    assert BlockParser().feed(encode_block(seq, payload)) == [Block(seq, payload)]


@given(st.binary(max_size=40), st.integers(0, 255), st.binary(max_size=20))
def test_retransmissions_after_noise_always_get_through(noise, seq, payload):
    # §1: after a bad LEN, SYNC or CRC the receiver discards through the next 0x7E. Noise that
    # looks like a long LEN may swallow one copy; the sender's retransmissions get through.
    copies = encode_block(seq, payload) * (64 // (len(payload) + 5) + 2)
    blocks = BlockParser().feed(noise + bytes((SYNC,)) + copies)
    assert blocks and blocks[-1] == Block(seq, payload)


def test_crc_mismatch_discards_the_block():
    raw = bytearray(encode_block(3, b"\x10"))
    raw[2] ^= 0x01
    parser = BlockParser()
    assert parser.feed(bytes(raw)) == []
    assert parser.bad_blocks == 1


def test_len_out_of_range_starts_a_hunt_for_sync():
    parser = BlockParser()
    assert parser.feed(b"\x03\x00\x00" + bytes((SYNC,)) + encode_block(1, b"")) == [Block(1)]
    assert parser.discarded == 4


def test_the_parser_asks_for_the_rest_of_a_started_block_and_one_byte_otherwise():
    raw = encode_block(9, b"\x02\x03")
    parser = BlockParser()
    assert parser.missing == 1
    parser.feed(raw[:3])
    assert parser.missing == len(raw) - 3
    assert parser.feed(raw[3:]) == [Block(9, b"\x02\x03")] and parser.missing == 1
    hunting = BlockParser()
    hunting.feed(b"\x03\x00")
    assert hunting.hunting and hunting.missing == 1


def test_block_split_across_reads_is_reassembled():
    raw = encode_block(9, b"\x02")
    parser = BlockParser()
    assert parser.feed(raw[:3]) == []
    assert parser.feed(raw[3:]) == [Block(9, b"\x02")]


def test_route_encodes_pocket_as_one_byte():
    assert command("route", pocket=3).encode() == b"\x11\x03"


def test_status_answer_decodes_every_field():
    payload = answer("status", state=2, flags=1, count_N=1, count_E=2, count_S=3, count_W=4,
                     last_action_seq=9, last_result=0, fault_where=0, boot_id=0x1234).encode()
    message = decode_message(payload, from_host=False)
    assert message["boot_id"] == 0x1234 and message["count_W"] == 4


def test_a_message_of_the_wrong_length_is_a_violation_naming_it():
    with pytest.raises(ProtocolViolation, match="'done'"):
        decode_message(b"\x90\x01", from_host=False)


def test_an_answer_id_sent_by_the_host_is_unknown():
    with pytest.raises(ProtocolViolation, match="0x90"):
        decode_message(b"\x90\x00\x00\x00\x00", from_host=True)


def _md_table_rows(heading: str) -> list[list[str]]:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip().strip("`") for c in line.strip("|").split("|")]
        if cells[0] and not set(cells[0]) <= {"-"} and cells[0] not in ("id", "value", "bit",
                                                                         "code"):
            rows.append(cells)
    return rows


def test_message_table_matches_protocol_md():
    documented = {(int(r[0], 16), r[1]) for r in _md_table_rows("## 3. Messages, host → shoe")}
    documented |= {(int(r[0], 16), r[1]) for r in _md_table_rows("## 4. Messages, shoe → host")}
    assert {(m.id, m.name) for m in MESSAGES} == documented


def test_answer_argument_names_match_protocol_md():
    for row in _md_table_rows("## 4. Messages, shoe → host"):
        arguments = re.sub(r"\([^)]*\)", "", row[2]).split(" — ")[0]
        names = [a.strip().split(" ")[0] for a in arguments.split(",")]
        spec = next(m for m in MESSAGES if m.id == int(row[0], 16))
        assert names == list(spec.fields), row[1]


@pytest.mark.parametrize(("heading", "table"), [
    ("### States", MachineState),
    ("### Fault codes", FaultCode),
    ("### Events", EventCode),
])
def test_code_tables_match_protocol_md(heading, table):
    documented = {int(r[0]): r[1] for r in _md_table_rows(heading)}
    ours = {int(m): m.name.lower() for m in table if m.name != "OK"}
    assert ours == documented


def test_flag_bits_match_protocol_md():
    assert {int(r[0]) for r in _md_table_rows("### Flags")} == {int(f) for f in Flag}


def test_after_silence_the_next_byte_starts_a_block_even_while_hunting():
    # §2: a damaged block followed by 20 ms of quiet must not swallow the retransmission.
    parser = BlockParser()
    parser.feed(b"\x40\x01\x02")  # a LEN of 64 that will never be completed
    parser.silence()
    assert parser.feed(encode_block(5, b"")) == [Block(5)]
