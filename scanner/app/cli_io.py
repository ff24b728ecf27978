"""What the bridge commands share at the command line: loading a set file so that damage
exits 2 with every good board and every problem named, and printing JSON to stdout."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..bridge.formats import LoadedSet, UnknownFormat, load
from ..bridge.formats.reading import Damage, FormatError, number_ranges

# A person reads stderr: past this many problems the rest are counted, not listed.
SHOWN_PROBLEMS = 50


class DamagedInput(Exception):
    """A set file with damage; ``report`` is the JSON that names the good and bad boards."""

    def __init__(self, loaded: LoadedSet) -> None:
        self.report = loaded.report()
        super().__init__(f"{loaded.path}: {len(loaded.damage)} problem(s)")


def load_set(path: str, *, strict: bool = True) -> LoadedSet:
    """Load a whole set file; raise DamagedInput when any board is damaged or there is none.

    Every command that reads a set (records, verify, convert, audit, predeal) comes here,
    so they all refuse the same files: damage anywhere, a cut-off file, or no board at all.
    """
    file = Path(path)
    if file.is_dir():
        raise FileNotFoundError(f"{path}: is a folder, not a board file")
    if not file.exists():
        raise FileNotFoundError(f"{path}: no such file")
    if not file.is_file():
        raise FileNotFoundError(f"{path}: not a regular file (a device or other special file)")
    try:
        loaded = load(path, strict=strict)
    except FormatError as exc:
        loaded = LoadedSet(str(path), damage=exc.damage)
    if not loaded.boards and not loaded.damage:
        loaded.damage.append(Damage("file", _why_no_board(file)))
    if loaded.damage:
        raise DamagedInput(loaded)
    return loaded


def _why_no_board(file: Path) -> str:
    """Name the likely reason a file holds no board, from its first bytes."""
    with file.open("rb") as stream:
        head = stream.read(4096)
    kind = file.suffix.lower() or "board"
    if not head:
        return "the file is empty: no board in it"
    if not head.strip(b"\0"):
        return "the file holds only NUL bytes: no board in it (a file never written out?)"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head.count(b"\0") > len(head) // 4:
        return f"no board found: the file looks like UTF-16 text; save it as UTF-8 {kind}"
    return f"no board found: this is not a {kind} file, or it holds no deal"


def print_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


def report_damage(exc: DamagedInput) -> int:
    """Print what was fine and what was not (JSON on stdout, one line per problem on
    stderr, the first ``SHOWN_PROBLEMS`` of them) and return the exit code for unusable
    input."""
    print_json(exc.report)
    errors = exc.report["errors"]
    for error in errors[:SHOWN_PROBLEMS]:
        board = f"board {error['board']}, " if error["board"] is not None else ""
        print(f"{exc.report['file']}: {board}{error['where']}: {error['problem']}",
              file=sys.stderr)
    if len(errors) > SHOWN_PROBLEMS:
        print(f"{exc.report['file']}: and {len(errors) - SHOWN_PROBLEMS} more problem(s), "
              "every one in the JSON on stdout", file=sys.stderr)
    good = exc.report["good_boards"]
    print(f"{exc.report['file']}: {len(good)} board(s) fine: {number_ranges(good)}",
          file=sys.stderr)
    return 2


__all__ = ["DamagedInput", "UnknownFormat", "load_set", "print_json", "report_damage"]
