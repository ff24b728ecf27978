"""Write, or check, firmware/core/protocol.h from the protocol's one table.

    python3 firmware/tools/protocol_h.py --write firmware/core/protocol.h
    python3 firmware/tools/protocol_h.py --check firmware/core/protocol.h   (exit 1 if stale)

scanner/shoe/protocol.json is the single source of the wire protocol's numbers: the host's
driver and simulator read it at import, and the firmware compiles this header made from it.
`make` runs --write whenever the table changes; the header is kept in the repository so that
a PlatformIO build, which does not run make, compiles the same numbers.
"""

from __future__ import annotations

import argparse
import binascii
import json
import sys
from pathlib import Path

SPEC = Path(__file__).resolve().parents[2] / "scanner" / "shoe" / "protocol.json"


def _enum(tag: str, prefix: str, table: dict[str, int], *, bits: bool = False) -> list[str]:
    lines = [f"enum {tag}{{" if tag else "enum {"]
    for name, value in table.items():
        lines.append(f"    {prefix}{name.upper()} = {f'1 << {value}' if bits else value},")
    return [*lines, "};", ""]


def dictionary_crc(spec: dict) -> int:
    """PROTOCOL.md §4: CRC-16/CCITT-FALSE of the table as compact JSON with sorted keys, without
    its "about" note. The host computes the same number (scanner/shoe/protocol.py); a test
    holds the two to each other."""
    table = {key: value for key, value in spec.items() if key != "about"}
    return binascii.crc_hqx(json.dumps(table, sort_keys=True, separators=(",", ":")).encode(),
                            0xFFFF)


def header(spec: dict) -> str:
    block = spec["block"]
    commands = {m["name"] for m in spec["messages"] if m["kind"] != "answer"}
    to_shoe = {m["name"]: int(m["id"], 16) for m in spec["messages"] if m["kind"] != "answer"}
    # An answer named like its query ("status") takes a _REPLY suffix in C's one namespace.
    to_host = {m["name"] + ("_reply" if m["name"] in commands else ""): int(m["id"], 16)
               for m in spec["messages"] if m["kind"] == "answer"}
    faults = dict(spec["fault_codes"])
    ok = {"ok": faults.pop("ok")}
    lines = [
        "/* The wire protocol's numbers (firmware/PROTOCOL.md, version "
        f"{spec['version']}).",
        " * Generated from scanner/shoe/protocol.json by firmware/tools/protocol_h.py: do not",
        " * edit; change the table and run make. */",
        "#ifndef SHOE_PROTOCOL_H",
        "#define SHOE_PROTOCOL_H",
        "",
        f"#define PROTOCOL_VERSION {spec['version']}",
        "/* The table's own CRC, sent in identity: a host built from another table refuses us. */",
        f"#define PROTOCOL_DICTIONARY_CRC 0x{dictionary_crc(spec):04X}",
        "",
        f"#define FRAME_SYNC 0x{int(block['sync'], 16):02X}",
        f"#define FRAME_HEADER {block['header']} /* LEN, SEQ */",
        f"#define FRAME_TRAILER {block['trailer']} /* CRC hi, CRC lo, SYNC */",
        "#define FRAME_MIN (FRAME_HEADER + FRAME_TRAILER)",
        f"#define FRAME_MAX {block['max']}",
        "#define PAYLOAD_MAX (FRAME_MAX - FRAME_MIN)",
        "",
        "/* host -> shoe */",
        *_hex_enum(to_shoe),
        "/* shoe -> host */",
        *_hex_enum(to_host),
        *_enum("shoe_state ", "STATE_", spec["states"]),
        *_enum("", "FLAG_", spec["flag_bits"], bits=True),
        "enum fault_code {",
        f"    RESULT_OK = {ok['ok']},",
        *_enum("", "FAULT_", faults)[1:-2],
        "};",
        "",
        "/* fault.where for FAULT_JAM; WHERE_POCKET_CHUTE + the pocket's index */",
        *_enum("", "WHERE_", spec["jam_where"]),
        *_enum("event_code ", "EVENT_", spec["events"]),
        f"#define POCKET_COUNT {len(spec['pockets'])}",
        "",
        "#endif",
    ]
    return "\n".join(lines) + "\n"


def _hex_enum(table: dict[str, int]) -> list[str]:
    rows = [f"    MSG_{name.upper()} = 0x{value:02X}," for name, value in table.items()]
    return ["enum {", *rows, "};", ""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", type=Path, metavar="HEADER")
    mode.add_argument("--check", type=Path, metavar="HEADER")
    args = parser.parse_args(argv)
    text = header(json.loads(SPEC.read_text(encoding="utf-8")))
    if args.check:
        if args.check.read_text(encoding="utf-8") != text:
            print(f"{args.check} is stale: run make -C firmware", file=sys.stderr)
            return 1
        return 0
    path = args.write
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return 0  # unchanged: keep its time stamp, so nothing is rebuilt for nothing
    temp = path.with_name(path.name + ".tmp")
    temp.write_text(text, encoding="utf-8")
    temp.replace(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
