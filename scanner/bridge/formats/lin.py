"""LIN (Bridge Base Online): ``key|value|`` pairs; a deal is ``md|3<S>,<W>,<N>,<E>|``.

The digit after ``md|`` names the dealer (1 = S, 2 = W, 3 = N, 4 = E) and the hands follow
from South, clockwise; a missing fourth hand is the cards the other three do not hold. The
board number comes from ``qx|o7|`` (open room) or ``qx|c7|`` (closed room), and
``sv|`` is the vulnerability (0 or o none, n NS, e EW, b both). A team match lists each
board once per room: the second, identical listing is the same board, not a repeat; a
second listing that differs is damage.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from ...cards import Seat
from ..board import Board, Hand, Vulnerability, vulnerability_for
from .pbn import DealSyntaxError, parse_pbn_hand
from .reading import Damage, FileReading, Located, SetInfo, whole_number

EXTENSIONS = (".lin",)
DEALER_DIGITS: dict[str, Seat] = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
DIGIT_OF: dict[Seat, str] = {seat: digit for digit, seat in DEALER_DIGITS.items()}
LIN_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)
VULNERABILITY_CODES: dict[str, Vulnerability] = {
    "0": Vulnerability.NONE, "o": Vulnerability.NONE, "-": Vulnerability.NONE,
    "n": Vulnerability.NS, "e": Vulnerability.EW, "b": Vulnerability.ALL}
CODE_OF: dict[Vulnerability, str] = {Vulnerability.NONE: "0", Vulnerability.NS: "n",
                                     Vulnerability.EW: "e", Vulnerability.ALL: "b"}


def read(path: Path) -> FileReading:
    return FileReading(SetInfo(), _boards(path))


def _boards(path: Path) -> Iterator[Located | Damage]:
    first_listing: dict[int, tuple[Board, str]] = {}
    with path.open(encoding="utf-8", errors="replace") as stream:
        for line_no, line in enumerate(stream, start=1):
            pairs = _pairs(line)
            if "md" not in pairs:
                continue
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


def _pairs(line: str) -> dict[str, str]:
    tokens = line.strip().split("|")
    return {tokens[i].strip(): tokens[i + 1] for i in range(0, len(tokens) - 1, 2)}


def _number_or_none(pairs: dict[str, str]) -> int | None:
    room = pairs.get("qx", "")
    return whole_number(room[1:])


def _board(pairs: dict[str, str]) -> Board:
    number = _number_or_none(pairs)
    if number is None or number < 1:
        raise ValueError(f"qx|{pairs.get('qx', '')}| does not give a board number")
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
        raise ValueError(f"sv|{code}| is not 0, n, e or b")
    vulnerability = VULNERABILITY_CODES[code] if code else vulnerability_for(number)
    return Board(number, DEALER_DIGITS[deal[0]], vulnerability,
                 (hands[0], hands[1], hands[2], hands[3]))


def write(path: Path, boards: Iterable[Board], info: SetInfo) -> None:
    lines = []
    for board in boards:
        hands = board.complete_hands()
        written = ",".join(_lin_hand(hands[seat.index]) for seat in LIN_ORDER)
        lines.append(f"qx|o{board.number}|md|{DIGIT_OF[board.dealer]}{written}|"
                     f"sv|{CODE_OF[board.vulnerability]}|pg||")
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))


def _lin_hand(hand: Hand) -> str:
    return "".join(suit + "".join(c.rank.value for c in hand if c.suit.value == suit)
                   for suit in "SHDC")
