"""Board files by extension: PBN, DLM, DUP (and its halves BRI and DGE), LIN and CSV.

``read_boards(path)`` streams the boards of a record file and raises FormatError at the
first damage; ``load(path)`` reads the whole file and keeps every good board and every
problem, so a caller can report both. ``strict`` (the default) also demands that each
board be one regular deal; observed hands, which are evidence, are read with
``strict=False`` and keep whatever irregularity they have.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from ...output_file import written_atomically
from ..board import Board, deal_problems
from . import csv_deals, dlm, dup, lin, pbn
from .reading import Damage, FileReading, FormatError, Located, SetInfo

__all__ = ["FORMATS", "Damage", "FormatError", "LoadedSet", "SetInfo", "UnknownFormat",
           "format_for", "load", "read_boards", "read_deals", "write_boards"]

FORMATS: dict[str, ModuleType] = {ext: module for module in (pbn, dlm, dup, lin, csv_deals)
                                  for ext in module.EXTENSIONS}


class UnknownFormat(ValueError):
    """A file name whose extension names no format we read or write."""


def format_for(path: Path | str) -> ModuleType:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UnknownFormat(f"{path}: unknown board file type {suffix or '(none)'!r}; "
                            f"known: {', '.join(sorted(FORMATS))}")
    return FORMATS[suffix]


def open_reading(path: Path | str, *, strict: bool = True) -> FileReading:
    """The file's set settings and its boards and damage, checked, in file order."""
    path = Path(path)
    module = format_for(path)
    try:
        reading = module.read(path)
    except OSError as exc:
        raise FormatError(str(path), [Damage("file", exc.strerror or str(exc))]) from None
    return FileReading(reading.info, _checked(reading.items, strict))


def _checked(items: Iterable[Located | Damage], strict: bool) -> Iterator[Located | Damage]:
    """Add the checks every format shares: a board number used twice and, when strict,
    a deal that is not four regular hands of one pack."""
    seen: dict[int, str] = {}
    for item in items:
        if isinstance(item, Damage):
            yield item
            continue
        board = item.board
        if board.number in seen:
            yield Damage(item.where, f"board {board.number} appears again (first at "
                                     f"{seen[board.number]})", board.number)
            continue
        seen[board.number] = item.where
        problems = deal_problems(board.hands) if strict else []
        if problems:
            yield Damage(item.where, "; ".join(problems), board.number)
        else:
            yield item


def read_boards(path: Path | str, *, strict: bool = True) -> Iterator[Board]:
    """Stream the boards of a file; raise FormatError at the first damaged one."""
    reading = open_reading(path, strict=strict)
    for item in reading.items:
        if isinstance(item, Damage):
            raise FormatError(str(path), [item])
        yield item.board


read_deals = read_boards  # the name the shuffle audit asked for


@dataclass
class LoadedSet:
    """A whole file read: its settings, the good boards, and every problem found."""

    path: str
    info: SetInfo = field(default_factory=SetInfo)
    boards: list[Board] = field(default_factory=list)
    damage: list[Damage] = field(default_factory=list)

    def by_number(self) -> dict[int, Board]:
        return {board.number: board for board in self.boards}

    def report(self) -> dict[str, object]:
        """What was fine and what was not: the JSON every command prints on damage."""
        return {"file": self.path, "good_boards": [b.number for b in self.boards],
                "errors": [d.to_dict() for d in self.damage]}


def load(path: Path | str, *, strict: bool = True) -> LoadedSet:
    reading = open_reading(path, strict=strict)
    loaded = LoadedSet(str(path), reading.info)
    for item in reading.items:
        if isinstance(item, Damage):
            loaded.damage.append(item)
        else:
            loaded.boards.append(item.board)
    return loaded


def write_boards(path: Path | str, boards: Iterable[Board], info: SetInfo | None = None, *,
                 overwrite: bool = True, inputs: Iterable[Path | str] = ()) -> None:
    """Write boards in the format the extension names, atomically (scanner.output_file).

    Raises ValueError when the format cannot hold them (a gap in a DLM range, an unknown
    hand in DUP), and OutputError when the file may not be written; either way the file
    is left as it was. Commands pass ``overwrite=--force`` and their inputs.
    """
    path = Path(path)
    module = format_for(path)
    with written_atomically(path, overwrite=overwrite, inputs=inputs) as temp:
        module.write(temp, boards, info or SetInfo())
