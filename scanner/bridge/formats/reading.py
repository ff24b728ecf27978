"""What a format reader hands back: the set's own settings, then boards and damage in file order.

Readers never stop at the first damaged board: they report it as ``Damage`` and go on,
so a caller can name every bad board and every good one in a single pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..board import Board


@dataclass(frozen=True)
class SetInfo:
    """Settings a file keeps for the whole set.

    ``sealed`` is DLM's Status=Sealed: the hands are in the file, but the operator must not
    see them (blind pre-dealing), so nothing should show or print them without being asked.
    """

    sealed: bool = False
    copies: int | None = None
    headline: str = ""
    random_hands: bool = True
    backwards: bool = False


@dataclass(frozen=True)
class Damage:
    """One problem in a file, located as precisely as the format allows."""

    where: str
    problem: str
    board: int | None = None

    def __str__(self) -> str:
        board = f"board {self.board}, " if self.board is not None else ""
        return f"{board}{self.where}: {self.problem}"

    def to_dict(self) -> dict[str, object]:
        return {"board": self.board, "where": self.where, "problem": self.problem}


@dataclass(frozen=True)
class Located:
    """A board and where in the file it came from (``line 12``, ``byte 312``)."""

    board: Board
    where: str
    # Where the same deal under the same number was first read, when this is a repeat.
    repeat_of: str | None = None


@dataclass
class FileReading:
    info: SetInfo
    items: Iterator[Located | Damage]


def whole_number(text: str) -> int | None:
    """``text`` as a whole number when it is ASCII digits only, else None.

    ``str.isdigit`` alone is not enough: it accepts ``²`` and other digits ``int`` refuses.
    """
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def number_ranges(numbers: Iterable[int], *, limit: int = 20) -> str:
    """``1-5,7,9-12`` for board numbers; past ``limit`` spans the rest is counted, not listed,
    so a message about a huge set stays short."""
    ordered = sorted(set(numbers))
    if not ordered:
        return "none"
    spans: list[str] = []
    start = prev = ordered[0]
    for n in [*ordered[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        spans.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    if len(spans) > limit:
        return ",".join(spans[:limit]) + f", and {len(spans) - limit} more ranges"
    return ",".join(spans)


class FormatError(ValueError):
    """A file that cannot be used as it stands; ``damage`` lists what is wrong and where."""

    def __init__(self, path: str, damage: list[Damage]) -> None:
        self.path = path
        self.damage = damage
        super().__init__(f"{path}: " + "; ".join(str(d) for d in damage))
