"""Board files by extension: PBN, DLM, DUP (and its halves BRI and DGE), LIN and CSV.

``read_boards(path)`` streams the boards of a record file and raises FormatError at the
first damage; ``load(path)`` reads the whole file and keeps every good board and every
problem, so a caller can report both. ``strict`` (the default) also demands that each
board be one regular deal; observed hands, which are evidence, are read with
``strict=False`` and keep whatever irregularity they have.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType

from ...output_file import written_atomically
from ..board import Board, deal_problems, dealer_for, vulnerability_for
from . import csv_deals, dlm, dup, lin, pbn
from .reading import Damage, FileReading, FormatError, Located, SetInfo, number_ranges

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
    a deal that is not four regular hands of one pack.

    The same deal again under the same number is a repeat of that board (``repeat_of``),
    as in a results file that lists a board once per table. Another deal under a number
    already used is a board of its own only in another event, section or round (``group``);
    within one it is damage.
    """
    seen: dict[int, list[Located]] = {}
    for item in items:
        if isinstance(item, Damage):
            yield item
            continue
        board = item.board
        earlier = seen.get(board.number, [])
        first = next((e for e in earlier if e.board.same_deal(board)), None)
        if first is not None:
            yield Located(board, item.where, repeat_of=first.where)
            continue
        clash = next((e for e in earlier if e.board.group == board.group), None)
        if clash is not None:
            yield Damage(item.where, f"board {board.number} appears again with another deal "
                                     f"(first at {clash.where})", board.number)
            continue
        problems = deal_problems(board.hands) if strict else []
        if problems:
            yield Damage(item.where, "; ".join(problems), board.number)
        else:
            seen.setdefault(board.number, []).append(item)
            yield item


def read_boards(path: Path | str, *, strict: bool = True) -> Iterator[Board]:
    """Stream the boards of a file, each once; raise FormatError at the first damaged one."""
    reading = open_reading(path, strict=strict)
    for item in reading.items:
        if isinstance(item, Damage):
            raise FormatError(str(path), [item])
        if item.repeat_of is None:
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
        """The boards by number; ValueError when the file uses a number for several deals
        (several events or sections), since a number then names no one board."""
        boards: dict[int, Board] = {}
        for board in self.boards:
            other = boards.setdefault(board.number, board)
            if other is not board:
                raise ValueError(f"{self.path}: board {board.number} is in the file more than "
                                 f"once with different deals ({other.group or 'no event'}; "
                                 f"{board.group or 'no event'}); use a file with one event")
        return boards

    def report(self) -> dict[str, object]:
        """What was fine and what was not: the JSON every command prints on damage."""
        return {"file": self.path, "good_boards": [b.number for b in self.boards],
                "errors": [d.to_dict() for d in self.damage]}


def load(path: Path | str, *, strict: bool = True) -> LoadedSet:
    reading = open_reading(path, strict=strict)
    loaded = LoadedSet(str(path), reading.info)
    index: dict[str, int] = {}
    for item in reading.items:
        if isinstance(item, Damage):
            loaded.damage.append(item)
        elif item.repeat_of is not None:
            # One board; the repeat's own tags (its table's result) are kept with it.
            at = index[item.repeat_of]
            first = loaded.boards[at]
            loaded.boards[at] = replace(first, played=(*first.played, item.board.tags))
        else:
            index[item.where] = len(loaded.boards)
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
    boards = list(boards)
    _refuse_what_the_format_cannot_say(module, path, boards)
    with written_atomically(path, overwrite=overwrite, inputs=inputs) as temp:
        module.write(temp, boards, info or SetInfo())


def _refuse_what_the_format_cannot_say(module: ModuleType, path: Path,
                                       boards: list[Board]) -> None:
    """ValueError, before anything is written, when the format would change or drop a
    board: never a board silently altered."""
    kind = path.suffix.lower()
    if not getattr(module, "HOLDS_REPEATED_NUMBERS", False):
        count = Counter(board.number for board in boards)
        repeated = sorted(number for number, n in count.items() if n > 1)
        if repeated:
            groups = sorted({b.group or "no event" for b in boards if b.number == repeated[0]})
            raise ValueError(
                f"board(s) {number_ranges(repeated)} are in the set more than once with "
                f"different deals ({'; '.join(groups)}); a {kind} file holds one deal per "
                "board number: write .pbn, or one event at a time")
    if getattr(module, "NUMBER_GIVES_DEALER_AND_VULNERABILITY", False):
        odd = [b for b in boards if (b.dealer, b.vulnerability)
               != (dealer_for(b.number), vulnerability_for(b.number))]
        if odd:
            b = odd[0]
            raise ValueError(
                f"board {b.number} has dealer {b.dealer} and vulnerability {b.vulnerability}, "
                f"but a {kind} file takes both from the board number ({dealer_for(b.number)}, "
                f"{vulnerability_for(b.number)}) and would change them; "
                f"{len(odd)} board(s) are like this ({number_ranges(b.number for b in odd)}): "
                "write .pbn, .lin or .csv instead")
