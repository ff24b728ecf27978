"""LIN (Bridge Base Online): ``key|value|`` pairs; a deal is ``md|3<S>,<W>,<N>,<E>|``.

The digit after ``md|`` names the dealer (1 = S, 2 = W, 3 = N, 4 = E) and the hands follow
from South, clockwise. BBO leaves the fourth hand out (``md|3…,…,…,|``): three hands fix it,
so the reader completes it. ``sv|`` is the vulnerability (o or 0 none, n NS, e EW, b both).

Pairs run across line breaks, so the file is read as one stream of pairs, cut into boards the
way BBO and endplay cut it: a board starts at ``qx|`` (vugraph), or at ``pn|`` or ``md|`` once
the board being read already has its deal. The number comes from ``qx|o7|`` (open room) or
``qx|c7|`` (closed room), else from ``ah|Board 7|``. A team match lists each board once per
room: the second, identical listing is the same board, not a repeat; one that differs is
damage. The writer writes what BBO writes: ``pn|…|st||md|…|rh||ah|Board N|sv|o|pg||``.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from ...cards import ALL_CARDS, Seat
from ..board import Board, Hand, Vulnerability, deal_problems, vulnerability_for
from .pbn import DealSyntaxError, parse_pbn_hand
from .reading import Damage, FileReading, Located, SetInfo, whole_number

EXTENSIONS = (".lin",)
DEALER_DIGITS: dict[str, Seat] = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
DIGIT_OF: dict[Seat, str] = {seat: digit for digit, seat in DEALER_DIGITS.items()}
LIN_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)
VULNERABILITY_CODES: dict[str, Vulnerability] = {
    "0": Vulnerability.NONE, "o": Vulnerability.NONE, "-": Vulnerability.NONE,
    "n": Vulnerability.NS, "e": Vulnerability.EW, "b": Vulnerability.ALL}
CODE_OF: dict[Vulnerability, str] = {Vulnerability.NONE: "o", Vulnerability.NS: "n",
                                     Vulnerability.EW: "e", Vulnerability.ALL: "b"}


def read(path: Path) -> FileReading:
    return FileReading(SetInfo(), _boards(path))


# key|value| pairs; a key may carry the line break before it.
_PAIR = re.compile(r"([^|]*)\|([^|]*)\|")


def _records(text: str) -> Iterator[tuple[int, dict[str, str]]]:
    """Each board's pairs (first value of each key) and the line its deal is on."""
    record: dict[str, str] = {}
    line = deal_line = 1
    position = 0
    for match in _PAIR.finditer(text):
        line += text.count("\n", position, match.start(2))
        position = match.start(2)
        key, value = match.group(1).strip().lower(), match.group(2).strip()
        if key == "qx" or (key in ("pn", "md") and "md" in record):
            if "md" in record:
                yield deal_line, record
            record = {}
        if key == "md":
            deal_line = line
        record.setdefault(key, value)
    if "md" in record:
        yield deal_line, record


def _boards(path: Path) -> Iterator[Located | Damage]:
    first_listing: dict[int, tuple[Board, str]] = {}
    text = path.read_text(encoding="utf-8", errors="replace")
    for line_no, pairs in _records(text):
        where = f"line {line_no}"
        try:
            board = _board(pairs)
        except (DealSyntaxError, ValueError) as exc:
            yield Damage(where, str(exc), _number_or_none(pairs))
            continue
        seen = first_listing.get(board.number)
        if seen is None:
            first_listing[board.number] = (board, where)
            yield Located(board, where)
        elif not seen[0].same_deal(board):
            yield Damage(where, f"board {board.number} is listed again with another deal "
                                f"(first at {seen[1]})", board.number)


def _number_or_none(pairs: dict[str, str]) -> int | None:
    if "qx" in pairs:
        return whole_number(pairs["qx"][1:])
    heading = pairs.get("ah", "")
    if heading[:5].lower() == "board":
        return whole_number(heading[5:])
    return None


def _board(pairs: dict[str, str]) -> Board:
    number = _number_or_none(pairs)
    if number is None or number < 1:
        given = (f"qx|{pairs['qx']}|" if "qx" in pairs
                 else f"ah|{pairs['ah']}|" if "ah" in pairs else "neither qx|o7| nor ah|Board 7|")
        raise ValueError(f"no board number: {given} does not give one")
    deal = pairs["md"]
    if not deal or deal[0] not in DEALER_DIGITS:
        raise ValueError(f"md|{deal}| does not start with a dealer digit 1–4")
    written = deal[1:].split(",")
    if len(written) not in (3, 4):
        raise ValueError(f"md|{deal}| has {len(written)} hands, not 4")
    hands: list[Hand | None] = [None] * 4
    for seat, text in zip(LIN_ORDER, written, strict=False):
        hands[seat.index] = parse_pbn_hand(text, seat) if text.strip() else None
    code = pairs.get("sv", "").strip().lower()
    if code and code not in VULNERABILITY_CODES:
        raise ValueError(f"sv|{code}| is not o, n, e or b")
    vulnerability = VULNERABILITY_CODES[code] if code else vulnerability_for(number)
    return Board(number, DEALER_DIGITS[deal[0]], vulnerability, _completed(hands))


def _completed(hands: list[Hand | None]) -> tuple[Hand | None, Hand | None, Hand | None,
                                                  Hand | None]:
    """The hands with the one left out filled in, when the other three are regular.

    No guess: 39 cards of one pack in three hands of 13 leave exactly the fourth hand.
    """
    if hands.count(None) == 1 and not deal_problems(tuple(hands)):
        missing = hands.index(None)
        held = {card for hand in hands if hand is not None for card in hand}
        hands[missing] = tuple(card for card in ALL_CARDS if card not in held)
    return (hands[0], hands[1], hands[2], hands[3])


def write(path: Path, boards: Iterable[Board], info: SetInfo) -> None:
    lines = []
    for board in boards:
        hands = board.complete_hands()
        written = ",".join(_lin_hand(hands[seat.index]) for seat in LIN_ORDER)
        lines.append(f"pn|,,,|st||md|{DIGIT_OF[board.dealer]}{written}|rh||"
                     f"ah|Board {board.number}|sv|{CODE_OF[board.vulnerability]}|pg||")
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))


def _lin_hand(hand: Hand) -> str:
    return "".join(suit + "".join(c.rank.value for c in hand if c.suit.value == suit)
                   for suit in "SHDC")
