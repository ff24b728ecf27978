"""CSV deal lists: one row per board, 16 suit holdings (N, E, S, W, each S H D C), the board
number, and ``dealer/vulnerability`` such as ``N/-``, ``E/NS``, ``S/EW``, ``W/All``."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ...cards import SEATS, Suit, parse_seat
from ..board import Board, Hand, Vulnerability
from .pbn import VULNERABLE_NAMES, DealSyntaxError, parse_pbn_hand
from .reading import Damage, FileReading, Located, SetInfo, whole_number

EXTENSIONS = (".csv",)
SUITS_PER_ROW = 16
VULNERABILITY_TEXT = {Vulnerability.NONE: "-", Vulnerability.NS: "NS",
                      Vulnerability.EW: "EW", Vulnerability.ALL: "All"}


def read(path: Path) -> FileReading:
    return FileReading(SetInfo(), _boards(path))


def _boards(path: Path) -> Iterator[Located | Damage]:
    with path.open(encoding="utf-8", errors="replace", newline="") as stream:
        rows = csv.reader(stream)
        try:
            yield from _rows(rows)
        except csv.Error as exc:
            yield Damage(f"line {rows.line_num}", f"not CSV: {exc}")


def _rows(rows: Any) -> Iterator[Located | Damage]:
    """Boards from a ``csv.reader`` (whose ``line_num`` locates each row)."""
    for row in rows:
        if not any(cell.strip() for cell in row):
            continue
        where = f"line {rows.line_num}"
        number = whole_number(row[16]) if len(row) > 16 else None
        try:
            yield Located(_board(row, number), where)
        except (DealSyntaxError, ValueError) as exc:
            yield Damage(where, str(exc), number)


def _board(row: list[str], number: int | None) -> Board:
    if len(row) != SUITS_PER_ROW + 2:
        raise ValueError(f"{len(row)} fields, not {SUITS_PER_ROW} suits, board and "
                         "dealer/vulnerability")
    if number is None or number < 1:
        raise ValueError(f"board field {row[16]!r} is not a board number")
    dealer_text, _, vul_text = row[17].partition("/")
    if vul_text.strip().upper() not in VULNERABLE_NAMES:
        raise ValueError(f"dealer/vulnerability {row[17]!r}: {vul_text!r} is not -, NS, EW "
                         "or All")
    hands: list[Hand | None] = []
    for i, seat in enumerate(SEATS):
        suits = row[4 * i:4 * i + 4]
        hands.append(parse_pbn_hand(".".join(s.strip() for s in suits), seat))
    return Board(number, parse_seat(dealer_text), VULNERABLE_NAMES[vul_text.strip().upper()],
                 (hands[0], hands[1], hands[2], hands[3]))


def write(path: Path, boards: Iterable[Board], info: SetInfo) -> None:
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
        for board in boards:
            hands = board.complete_hands()
            suits = ["".join(c.rank.value for c in hand if c.suit is suit)
                     for hand in hands for suit in Suit]
            writer.writerow([*suits, str(board.number),
                             f"{board.dealer}/{VULNERABILITY_TEXT[board.vulnerability]}"])
