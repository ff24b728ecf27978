"""The same board as seen at several tables, compared with its dealt record (Law 87).

A board's copies should all be the deal the machine dealt (Law 6F: copies are exact). Each
table's sighting of a board is compared with the session's record the way the shoe verifies a
board (scanner.bridge.verify): ``match``, ``rotated`` (the hands k seats round), ``swapped`` or
``repeat-of-previous`` (the copy holds another board of the set), or ``differs``, card by card.
Any copy that is not a match makes the board a fouled board (Law 87A), scored in groups of
tables that played the same copy (Law 87B).

The record is the sighting the dealing machine logged (``dealt``), else the set file's
(``generated``). Without one no copy is called right: the copies are grouped and shown,
and the director decides, rather than the majority being guessed right.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..bridge.board import Board
from ..bridge.verify import MATCH, RULINGS, RecordIndex, verify_board
from ..cards import SEATS, Seat, parse_hand

RECORD_SOURCES = ("dealt", "generated")
FOULED_RULE = "Law 87A"
FOULED_REMEDY = ("call the director: a fouled board; score it in groups of tables that played "
                 "the same copy (Law 87B), and make the copy right before it is played again")
NO_RECORD = "no-record"


@dataclass(frozen=True)
class BoardCopy:
    """One table's sighting of a board: how (dealt, verified, checked) and the deal text."""

    table: str
    source: str
    board: int
    deal: str  # canonical ``N:… E:… S:… W:…`` (scanner.history)


def board_from_deal(number: int, deal: str) -> Board:
    """A board from a deal's canonical text (``N:AKQ.… E:… S:… W:…``)."""
    hands: dict[Seat, tuple] = {}
    for part in deal.split():
        seat, _, hand = part.partition(":")
        hands[Seat(seat)] = tuple(parse_hand(hand))
    return Board.standard(number, tuple(hands.get(seat) for seat in SEATS))


def session_report(session: str, sightings: Iterable[BoardCopy]) -> list[dict[str, Any]]:
    """Every board of one session, each copy compared with the record; board by board.

    ``sightings`` come in the order they were recorded: a table's later sighting of a board
    (verified again once its copy was made right) stands for that table's copy."""
    sightings = list(sightings)
    record: dict[int, BoardCopy] = {}
    for s in sorted((s for s in sightings if s.source in RECORD_SOURCES),
                    key=lambda s: RECORD_SOURCES.index(s.source)):
        record.setdefault(s.board, s)
    index = RecordIndex({n: board_from_deal(n, s.deal) for n, s in record.items()})
    by_table = {(s.table, s.board): s for s in sightings if s not in record.values()}
    reports = []
    for number in sorted({s.board for s in sightings}):
        copies = sorted((s for (_, board), s in by_table.items() if board == number),
                        key=lambda s: s.table)
        if number in record:
            found = [_compared(index, s, by_table) for s in copies]
        else:
            found = _grouped(copies)
        differs = any(c["status"] != MATCH for c in found)
        reports.append({
            "session": session, "board": number,
            "record": ({"table": record[number].table, "source": record[number].source}
                       if number in record else None),
            "copies": found, "differs": differs,
            "rule": FOULED_RULE if differs else "", "remedy": FOULED_REMEDY if differs else ""})
    return reports


def _compared(index: RecordIndex, s: BoardCopy,
              by_table: Mapping[tuple[str, int], BoardCopy]) -> dict[str, Any]:
    # The same table's copy of the board before tells a slipped run from two exchanged boards.
    before = index.previous.get(s.board)
    previous = by_table.get((s.table, before)) if before is not None else None
    result = verify_board(index, s.board, board_from_deal(s.board, s.deal),
                          board_from_deal(before, previous.deal) if previous else None)
    return {"table": s.table, "source": s.source, "status": result.status,
            "laws": result.laws(), "detail": result.summary(),
            "remedy": RULINGS[result.status][1]}


def _grouped(copies: list[BoardCopy]) -> list[dict[str, Any]]:
    groups = Counter(s.deal for s in copies)
    names = {deal: chr(ord("A") + i) for i, (deal, _) in enumerate(groups.most_common())}
    status = MATCH if len(groups) == 1 else NO_RECORD
    return [{"table": s.table, "source": s.source, "status": status, "laws": [],
             "detail": (f"no dealt record; copy {names[s.deal]}, seen at {groups[s.deal]} of "
                        f"{len(copies)} table(s)"),
             "remedy": "" if status == MATCH else "the director decides which copy is right"}
            for s in copies]
