"""Verifying duplicated boards (Law 6F, Law 7): read each board again, compare with the record.

The record is the set file: one regular deal per board. The observed hands are evidence and
may be anything (14–12, a card missing, a card in two hands, a hand not read); they are
compared as they are, never tidied first. Each board gets one status, tried in this order:

1. ``match``: every card is in the seat the record says.
2. ``repeat-of-previous``: the board holds the record's previous board — the classic crash
   mid-deal that shifts every later board by one. When the previous board holds this one
   in turn, the two were exchanged, and that is ``swapped``.
3. ``swapped``: the board holds another board of the set.
4. ``rotated``: all four hands are shifted by one, two or three seats.
5. ``differs``: anything else, with every difference listed card by card.

A board not present in the observed hands is ``not-observed``: absent evidence is not a match.

Observed hands come from an ``ObservedSource``. A file of hands is one; the shoe and camera
plug in as another, answering the same question board by board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..cards import ALL_CARDS, SEATS, Card, Seat
from .board import HAND_SIZE, Board, hand_indexes

MATCH = "match"
REPEAT_OF_PREVIOUS = "repeat-of-previous"
SWAPPED = "swapped"
ROTATED = "rotated"
DIFFERS = "differs"
NOT_OBSERVED = "not-observed"
STATUSES = (MATCH, REPEAT_OF_PREVIOUS, SWAPPED, ROTATED, DIFFERS, NOT_OBSERVED)

# The rule each status answers to, and what the director does about it.
RULINGS: dict[str, tuple[str | None, str]] = {
    MATCH: (None, "none: this copy is exact"),
    DIFFERS: ("Law 6F", "deal this copy again from the record before play"),
    ROTATED: ("Law 6F", "put each hand back in its own pocket"),
    SWAPPED: ("Law 6F", "put the hands back in the board they belong to, or deal both boards "
                        "again from the record"),
    REPEAT_OF_PREVIOUS: ("Law 6F", "deal this board and every later one again from the record: "
                                   "the dealing slipped one board"),
    NOT_OBSERVED: (None, "read this board's hands before play"),
}
# A hand of the wrong size is also a Law 7B1 matter at the table.
COUNT_LAW = "Law 7B1"

# Owner per card index, N=0 E=1 S=2 W=3: two regular deals are equal when these are.
OwnerKey = tuple[int, ...]


class ObservedSource(Protocol):
    """Where observed hands come from: a file now, the shoe and camera later."""

    def observed(self, number: int) -> Board | None:
        """The hands read for board ``number``, or None when that board was not read.

        Asking again about a board returns the same hands: verification looks at a board's
        predecessor too, to tell a shifted set from two exchanged boards."""


@dataclass(frozen=True)
class ObservedFile:
    """Observed hands from a set file, read as evidence (``strict=False``)."""

    boards: Mapping[int, Board]

    def observed(self, number: int) -> Board | None:
        return self.boards.get(number)


@dataclass(frozen=True)
class BoardComparison:
    """One board's verdict. ``differences`` always explain a status other than ``match``:
    card by card for ``differs``, in one sentence for the others."""

    board: int
    status: str
    differences: tuple[dict, ...] = ()
    matches: int | None = None
    rotation: int | None = None

    def laws(self) -> list[str]:
        law = RULINGS[self.status][0]
        laws = [law] if law else []
        if any(d["kind"] == "count" for d in self.differences):
            laws.append(COUNT_LAW)
        return laws

    def to_dict(self) -> dict:
        out: dict = {"board": self.board, "status": self.status,
                     "differences": list(self.differences), "laws": self.laws(),
                     "remedy": RULINGS[self.status][1]}
        if self.matches is not None:
            out["matches"] = self.matches
        if self.rotation is not None:
            out["rotation"] = self.rotation
        return out

    def summary(self) -> str:
        """One line for people: what is wrong with this board."""
        return "; ".join(d["text"] for d in self.differences)


def _holds(number: int, status: str, other: int) -> BoardComparison:
    text = (f"holds board {other}, the board before it" if status == REPEAT_OF_PREVIOUS
            else f"holds board {other}")
    return BoardComparison(number, status, ({"kind": status, "board": other, "text": text},),
                       matches=other)


def _rotated(number: int, seats: int) -> BoardComparison:
    text = (f"all four hands shifted {seats} seat{'s' if seats > 1 else ''} clockwise: "
            f"N's hand is in {SEATS[seats]}")
    return BoardComparison(number, ROTATED, ({"kind": ROTATED, "seats": seats, "text": text},),
                       rotation=seats)


@dataclass
class RecordIndex:
    """The record set, indexed so that each observed board is placed in constant time."""

    boards: dict[int, Board]
    keys: dict[int, OwnerKey] = field(init=False)
    by_key: dict[OwnerKey, int] = field(init=False)
    previous: dict[int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.keys = {n: owner_key(b) for n, b in self.boards.items()}
        self.by_key = {}
        for number in sorted(self.keys):
            self.by_key.setdefault(self.keys[number], number)
        ordered = sorted(self.boards)
        self.previous = dict(zip(ordered[1:], ordered, strict=False))


def owner_key(board: Board) -> OwnerKey:
    """Owner per card of a regular deal (a single unknown hand is filled as determined)."""
    return tuple(seat.index for seat in board.owners())


def observed_key(board: Board) -> OwnerKey | None:
    """The owner key of an observed board, or None when it is not one regular deal."""
    owner = [-1] * len(ALL_CARDS)
    for seat, hand in zip(SEATS, board.hands, strict=True):
        if hand is None or len(hand) != HAND_SIZE:
            return None
        for index in hand_indexes(hand):
            if owner[index] != -1:
                return None
            owner[index] = seat.index
    return tuple(owner)


def rotate(key: OwnerKey, seats: int) -> OwnerKey:
    return tuple((owner + seats) % 4 for owner in key)


def verify_board(index: RecordIndex, number: int, observed: Board | None,
                 previous_observed: Board | None = None) -> BoardComparison:
    """One board's status. ``previous_observed`` (the hands read for the previous board)
    tells a shift, where it holds its own or an earlier deal, from an exchange."""
    if observed is None:
        return BoardComparison(number, NOT_OBSERVED, ({
            "kind": NOT_OBSERVED, "text": f"board {number} was not among the observed hands"},))
    record_key = index.keys[number]
    seen = observed_key(observed)
    if seen is not None:
        if seen == record_key:
            return BoardComparison(number, MATCH)
        previous = index.previous.get(number)
        if previous is not None and seen == index.keys[previous]:
            exchanged = (previous_observed is not None
                         and observed_key(previous_observed) == record_key)
            return _holds(number, SWAPPED if exchanged else REPEAT_OF_PREVIOUS, previous)
        other = index.by_key.get(seen)
        if other is not None and other != number:
            return _holds(number, SWAPPED, other)
        for seats in (1, 2, 3):
            if seen == rotate(record_key, seats):
                return _rotated(number, seats)
    return BoardComparison(number, DIFFERS, tuple(differences(index.boards[number], observed)))


def verify_set(record: Iterable[Board], source: ObservedSource,
               numbers: Iterable[int] | None = None) -> list[BoardComparison]:
    """Verify boards ``numbers`` (default: every board of the record) against ``source``."""
    index = RecordIndex({board.number: board for board in record})
    wanted = sorted(index.boards) if numbers is None else list(numbers)
    unknown = [n for n in wanted if n not in index.boards]
    if unknown:
        raise KeyError(f"board(s) {unknown} are not in the record set")
    results = []
    for number in wanted:
        previous = index.previous.get(number)
        previous_observed = source.observed(previous) if previous is not None else None
        results.append(verify_board(index, number, source.observed(number), previous_observed))
    return results


def differences(record: Board, observed: Board) -> list[dict]:
    """Every way the observed board departs from the record, hand sizes first, then card by
    card in pack order."""
    belongs = {card: seat for seat, hand in zip(SEATS, record.complete_hands(), strict=True)
               for card in hand}
    out: list[dict] = []
    unread = [seat for seat in SEATS if observed.hand(seat) is None]
    for seat in unread:
        out.append({"kind": "unread-hand", "seat": str(seat),
                    "text": f"hand {seat} was not read"})
    counts = {seat: len(observed.hand(seat) or ()) for seat in SEATS if seat not in unread}
    if any(n != HAND_SIZE for n in counts.values()):
        out.append(_count_difference(counts))
    holders: dict[Card, list[Seat]] = {}
    for seat in SEATS:
        for card in observed.hand(seat) or ():
            holders.setdefault(card, []).append(seat)
    for card in ALL_CARDS:
        difference = _card_difference(card, belongs[card], holders.get(card, []), bool(unread))
        if difference:
            out.append(difference)
    return out


def _count_difference(counts: dict[Seat, int]) -> dict:
    long = [s for s, n in counts.items() if n > HAND_SIZE]
    short = [s for s, n in counts.items() if n < HAND_SIZE]
    sizes = {str(s): n for s, n in counts.items()}
    if len(long) == 1 and len(short) == 1:
        text = (f"{counts[long[0]]}–{counts[short[0]]}: {long[0]} holds {counts[long[0]]} "
                f"cards, {short[0]} holds {counts[short[0]]}")
    else:
        listed = ", ".join(f"{s} {n}" for s, n in sizes.items())
        text = f"hand sizes {listed} (not {HAND_SIZE} each)"
    return {"kind": "count", "counts": sizes, "text": text}


def _card_difference(card: Card, owner: Seat, seats: list[Seat], hand_unread: bool) -> dict | None:
    if seats == [owner]:
        return None
    if not seats:
        if hand_unread:
            return None  # it may be in the hand nobody read: no claim either way
        return {"kind": "missing", "card": str(card), "belongs": str(owner),
                "text": f"card {card} is missing (belongs to {owner})"}
    if len(seats) == 1:
        return {"kind": "misplaced", "card": str(card), "in": str(seats[0]),
                "belongs": str(owner), "text": f"card {card} is in {seats[0]} but belongs "
                                              f"to {owner}"}
    where = " and ".join(str(s) for s in seats)
    if len(set(seats)) == 1:
        where = f"{seats[0]} {len(seats)} times"
    return {"kind": "duplicate", "card": str(card), "in": [str(s) for s in seats],
            "belongs": str(owner), "text": f"card {card} is in {where} (belongs to {owner})"}


def withheld(result: BoardComparison) -> BoardComparison:
    """The result with every card's name withheld, for a Sealed set whose hands the operator
    must not see. Seats and counts stay, so the status and the remedy are as clear."""
    return replace(result, differences=tuple(_without_card(d) for d in result.differences))


def _without_card(difference: dict) -> dict:
    if "card" not in difference:
        return difference
    out = {key: value for key, value in difference.items() if key != "card"}
    out["text"] = difference["text"].replace(f"card {difference['card']}", "a card")
    return out


def results_table(results: list[BoardComparison]) -> str:
    """The readable table for stderr: one line per board."""
    lines = [f"{'board':>5}  {'status':<18}  detail"]
    for result in results:
        lines.append(f"{result.board:>5}  {result.status:<18}  {result.summary()}".rstrip())
    counts = {status: sum(r.status == status for r in results) for status in STATUSES}
    lines.append(", ".join(f"{n} {status}" for status, n in counts.items() if n))
    return "\n".join(lines)
