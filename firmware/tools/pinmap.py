"""Generate, or check, the pin table of hardware/PINMAP.md from firmware/avr/pins.h.

    python3 firmware/tools/pinmap.py --write hardware/PINMAP.md
    python3 firmware/tools/pinmap.py --check hardware/PINMAP.md   (exit 1 if they differ)

pins.h is the single source: the firmware, the simavr harness and this table all read it.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

PINS_H = Path(__file__).resolve().parents[1] / "avr" / "pins.h"
BEGIN = "<!-- pinmap:begin (generated from firmware/avr/pins.h: make -C firmware pinmap) -->"
END = "<!-- pinmap:end -->"
# X(signal, port, bit, nano pin, level, [hal bit,] "wiring")
ENTRY = re.compile(r'X\((\w+),\s*([BCD]),\s*(\d),\s*(\w+),\s*(HIGH|LOW),\s*'
                   r'(?:([\w()]+),\s*)?"([^"]*)"\)')


def pin_rows(header: str) -> list[tuple[str, ...]]:
    rows = []
    for block, direction in (("SHOE_INPUTS", "in, pull-up"), ("SHOE_OUTPUTS", "out")):
        body = header.split(f"#define {block}(X)", 1)[1].split("\n\n", 1)[0]
        for signal, port, bit, nano, level, _hal, wiring in ENTRY.findall(body):
            rows.append((nano, f"P{port}{bit}", signal, direction, f"active {level.lower()}",
                         wiring))
    return rows


def table(rows: list[tuple[str, ...]]) -> str:
    lines = ["| Nano pin | AVR | signal | direction | level | wiring |",
             "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join([BEGIN, *lines, END])


def with_table(document: str, generated: str) -> str:
    if BEGIN not in document or END not in document:
        raise SystemExit(f"the document has no {BEGIN!r} ... {END!r} section")
    head, rest = document.split(BEGIN, 1)
    return head + generated + rest.split(END, 1)[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, metavar="PINMAP_MD")
    action.add_argument("--check", type=Path, metavar="PINMAP_MD")
    args = parser.parse_args()
    generated = table(pin_rows(PINS_H.read_text(encoding="utf-8")))
    path = args.write or args.check
    document = path.read_text(encoding="utf-8")
    wanted = with_table(document, generated)
    if args.write:
        path.write_text(wanted, encoding="utf-8")
        return 0
    if wanted != document:
        print(f"{path} does not match {PINS_H}: run `make -C firmware pinmap`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
