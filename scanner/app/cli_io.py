"""What the bridge commands share at the command line: loading a set file so that damage
exits 2 with every good board and every problem named, and printing JSON to stdout."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..bridge.formats import LoadedSet, UnknownFormat, load
from ..bridge.formats.reading import FormatError, whole_number


class DamagedInput(Exception):
    """A set file with damage; ``report`` is the JSON that names the good and bad boards."""

    def __init__(self, loaded: LoadedSet) -> None:
        self.report = loaded.report()
        super().__init__(f"{loaded.path}: {len(loaded.damage)} problem(s)")


def load_set(path: str, *, strict: bool = True) -> LoadedSet:
    """Load a whole set file; raise DamagedInput when any board is damaged."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"{path}: no such file")
    try:
        loaded = load(path, strict=strict)
    except FormatError as exc:
        loaded = LoadedSet(str(path), damage=exc.damage)
    if loaded.damage:
        raise DamagedInput(loaded)
    return loaded


def print_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


def report_damage(exc: DamagedInput) -> int:
    """Print what was fine and what was not (JSON on stdout, one line per problem on
    stderr) and return the exit code for unusable input."""
    print_json(exc.report)
    for error in exc.report["errors"]:
        board = f"board {error['board']}, " if error["board"] is not None else ""
        print(f"{exc.report['file']}: {board}{error['where']}: {error['problem']}",
              file=sys.stderr)
    good = exc.report["good_boards"]
    print(f"{exc.report['file']}: {len(good)} board(s) fine: {_ranges(good)}", file=sys.stderr)
    return 2


def parse_board_numbers(text: str) -> list[int]:
    """``1-32``, ``1-16,20,25-26`` → board numbers in order; ValueError names the bad part."""
    numbers: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        first = whole_number(low)
        last = whole_number(high) if dash else first
        if first is None or last is None:
            raise ValueError(f"--boards {text!r}: {part.strip()!r} is not N or N-M")
        if first < 1 or last < first:
            raise ValueError(f"--boards {text!r}: {part.strip()!r} is not a rising range "
                             "of board numbers from 1")
        numbers.extend(range(first, last + 1))
    return list(dict.fromkeys(numbers))


def _ranges(numbers: list[int]) -> str:
    if not numbers:
        return "none"
    numbers = sorted(numbers)
    spans: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        spans.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ",".join(spans)


__all__ = ["DamagedInput", "UnknownFormat", "load_set", "parse_board_numbers", "print_json",
           "report_damage"]
