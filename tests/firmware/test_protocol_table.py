"""The wire protocol's numbers have one home, scanner/shoe/protocol.json: the firmware's
core/protocol.h is written from it, and says what it says, number for number."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from scanner.app.firmware_wire import FIRMWARE, SPEC
from scanner.shoe.protocol import DICTIONARY_CRC, dictionary_crc

GENERATOR = FIRMWARE / "tools" / "protocol_h.py"
HEADER = FIRMWARE / "core" / "protocol.h"


def check(header: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(GENERATOR), "--check", str(header)],
                          capture_output=True, text=True)


def test_the_firmware_header_is_the_one_written_from_the_protocol_table() -> None:
    result = check(HEADER)
    assert result.returncode == 0, result.stderr


def test_a_header_edited_by_hand_is_reported_stale(tmp_path: Path) -> None:
    edited = tmp_path / "protocol.h"
    edited.write_text(HEADER.read_text().replace("MSG_FEED = 0x10", "MSG_FEED = 0x14"))
    result = check(edited)
    assert result.returncode == 1 and "stale" in result.stderr


def test_every_message_and_code_of_the_table_is_in_the_header_with_its_number() -> None:
    defined = {name: int(value, 0) for name, value in
               re.findall(r"^\s+([A-Z_]+) = (0x[0-9A-F]+|\d+),", HEADER.read_text(), re.M)}
    commands = {m["name"] for m in SPEC["messages"] if m["kind"] != "answer"}
    for message in SPEC["messages"]:
        # An answer named like its query ("status") is MSG_STATUS_REPLY in C.
        reply = message["kind"] == "answer" and message["name"] in commands
        name = "MSG_" + message["name"].upper() + ("_REPLY" if reply else "")
        assert defined[name] == int(message["id"], 16), name
    for prefix, table in (("STATE_", SPEC["states"]), ("EVENT_", SPEC["events"]),
                          ("WHERE_", SPEC["jam_where"])):
        for key, value in table.items():
            assert defined[prefix + key.upper()] == value, key
    for key, value in SPEC["fault_codes"].items():
        assert defined["RESULT_OK" if key == "ok" else "FAULT_" + key.upper()] == value, key


def test_the_makefile_writes_the_header_before_anything_compiles_it() -> None:
    makefile = (FIRMWARE / "Makefile").read_text()
    assert re.search(r"^core/protocol\.h: \.\./scanner/shoe/protocol\.json", makefile, re.M)
    assert "tools/protocol_h.py --write $@" in makefile


def test_the_header_carries_the_dictionary_crc_the_host_computes_from_the_table() -> None:
    found = re.search(r"^#define PROTOCOL_DICTIONARY_CRC 0x([0-9A-F]{4})$", HEADER.read_text(),
                      re.M)
    assert found and int(found.group(1), 16) == DICTIONARY_CRC


def test_any_change_to_the_table_changes_its_dictionary_crc_but_its_note_does_not() -> None:
    renumbered = json.loads(json.dumps(SPEC))
    renumbered["messages"][2]["id"] = "0x14"
    noted = {**SPEC, "about": "another note"}
    assert dictionary_crc(renumbered) != dictionary_crc(SPEC) == dictionary_crc(noted)
