"""DLM, the Duplimate (Windows) set file: a checksummed header and 99 checksummed board slots.

Each board is 26 letters: letter i holds the owners of cards 2i and 2i+1 (card order
♠A…♣2, owners N=0 E=1 S=2 W=3) as ``'a' + 4*owner(2i) + owner(2i+1)``, then a 3-digit
checksum, the board number XOR every letter's code. The header checksum is
Duplicates XOR From XOR To XOR (1 if Status=Show else 0). Lines end in CRLF.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ...cards import ALL_CARDS, Card
from ..board import Board
from .reading import Damage, FileReading, Located, SetInfo, whole_number

EXTENSIONS = (".dlm",)
# A slot is a board number, and its dealer and vulnerability are that number's.
NUMBER_GIVES_DEALER_AND_VULNERABILITY = True
SLOTS = 99
LETTERS = 26
STATUS_SHOW = {"Show": True, "Sealed": False}
# An unused slot holds the sorted pack: all spades to North, hearts to East, and so on.
UNUSED_SLOT = "aaaaaabffffffkkkkkklpppppp"
REQUIRED_KEYS = ("Status", "Duplicates", "From board", "To board", "Checksum")
NUMBER_KEYS = ("Duplicates", "From board", "To board", "Checksum", "Crypto key")

_SLOT = re.compile(r"(Duplicates|Board) ([0-9][0-9])=(.*)$")
_BOARD = re.compile(r"([a-p]{26})([0-9]{3})$")


def header_checksum(duplicates: int, first: int, last: int, show: bool) -> int:
    return duplicates ^ first ^ last ^ int(show)


def board_checksum(number: int, letters: str) -> int:
    total = number
    for letter in letters:
        total ^= ord(letter)
    return total


def encode_letters(board: Board) -> str:
    owners = [seat.index for seat in board.owners()]
    return "".join(chr(ord("a") + 4 * owners[i] + owners[i + 1])
                   for i in range(0, len(owners), 2))


def decode_letters(letters: str) -> tuple[tuple[Card, ...], ...]:
    hands: list[list[Card]] = [[], [], [], []]
    for i, letter in enumerate(letters):
        code = ord(letter) - ord("a")
        hands[code // 4].append(ALL_CARDS[2 * i])
        hands[code % 4].append(ALL_CARDS[2 * i + 1])
    return tuple(tuple(hand) for hand in hands)


# ---- reading ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Header:
    headline: str
    show: bool
    duplicates: int
    first: int
    last: int


def read(path: Path) -> FileReading:
    data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
    lines = data.decode("cp1252", errors="replace").splitlines()
    header, problems, body_start = _header(lines)
    if header is None:
        return FileReading(SetInfo(), iter(problems))
    info = SetInfo(sealed=not header.show, copies=header.duplicates, headline=header.headline)
    return FileReading(info, _slots(lines, body_start, header))


def _header(lines: list[str]) -> tuple[Header | None, list[Damage], int]:
    """The header, or None and its problems; and the index of the first slot line."""
    if not lines or lines[0].strip() != "[Document]":
        return None, [Damage("line 1", "not a DLM file: the first line is not [Document]")], 0
    values: dict[str, tuple[int, str]] = {}
    body_start = len(lines)
    for index, line in enumerate(lines[1:], start=1):
        if _SLOT.match(line):
            body_start = index
            break
        key, sep, value = line.partition("=")
        if sep:
            values[key.strip()] = (index + 1, value.strip())
    missing = [key for key in REQUIRED_KEYS if key not in values]
    if missing:
        return None, [Damage("header", f"missing field(s) {', '.join(missing)}")], body_start
    problems: list[Damage] = []
    numbers: dict[str, int] = {}
    for key in NUMBER_KEYS:
        line_no, text = values.get(key, (0, "0"))
        number = whole_number(text)
        if number is None:
            problems.append(Damage(f"line {line_no}", f"{key}={text!r} is not a number"))
        numbers[key] = number or 0
    status_line, status = values["Status"]
    if status not in STATUS_SHOW:
        problems.append(Damage(f"line {status_line}", f"Status={status!r} is not Show or Sealed"))
    header = Header(values.get("Headline", (0, ""))[1], STATUS_SHOW.get(status, True),
                    numbers["Duplicates"], numbers["From board"], numbers["To board"])
    if numbers["Crypto key"]:
        problems.append(Damage(f"line {values['Crypto key'][0]}",
                               f"Crypto key={numbers['Crypto key']}: encrypted sets are not "
                               "supported"))
    if not 1 <= header.first <= header.last <= SLOTS:
        problems.append(Damage(f"line {values['To board'][0]}",
                               f"From board={header.first}, To board={header.last} is not a "
                               f"range in 1–{SLOTS}"))
    expected = header_checksum(header.duplicates, header.first, header.last, header.show)
    if numbers["Checksum"] != expected:
        problems.append(Damage(f"line {values['Checksum'][0]}",
                               f"header checksum is {numbers['Checksum']}, expected {expected} "
                               "(Duplicates XOR From XOR To XOR Show)"))
    return (None if problems else header), problems, body_start


def _slots(lines: list[str], start: int, header: Header) -> Iterator[Located | Damage]:
    first, last = header.first, header.last
    slot = 0
    for index in range(start, len(lines), 2):
        slot += 1
        if slot > SLOTS:
            break
        line_no = index + 2
        pair = lines[index:index + 2]
        problem = _slot_problem(pair, slot)
        in_set = first <= slot <= last
        where = f"line {line_no}"
        if problem:
            yield Damage(where, problem, slot if in_set else None)
            continue
        letters, checksum = _BOARD.match(pair[1].split("=", 1)[1].strip()).groups()
        if int(checksum) != board_checksum(slot, letters):
            yield Damage(where, f"board checksum is {int(checksum)}, expected "
                                f"{board_checksum(slot, letters)}", slot if in_set else None)
        elif in_set:
            yield Located(Board.standard(slot, decode_letters(letters)), where)
    if slot < SLOTS:
        for missing in range(slot + 1, last + 1):
            yield Damage("end of file", "file truncated: this board's slot is missing", missing)
        if slot >= last:
            yield Damage("end of file", f"file truncated after slot {slot} of {SLOTS}")


def _slot_problem(pair: list[str], slot: int) -> str | None:
    if len(pair) < 2:
        return "file truncated inside this board's slot"
    expected = (("Duplicates", f"{slot:02d}"), ("Board", f"{slot:02d}"))
    for line, (key, number) in zip(pair, expected, strict=True):
        match = _SLOT.match(line.strip())
        if match is None or match.group(1) != key or match.group(2) != number:
            return f"expected '{key} {number}=…', found {line.strip()[:40]!r}"
    value = pair[1].split("=", 1)[1].strip()
    if _BOARD.match(value) is None:
        return (f"board value {value!r} is not {LETTERS} letters a–p and a 3-digit checksum "
                f"({len(value)} characters)")
    return None


# ---- writing ---------------------------------------------------------------------------

def write(path: Path, boards: Iterable[Board], info: SetInfo) -> None:
    by_number = {board.number: board for board in boards}
    if not by_number:
        raise ValueError("a DLM file needs at least one board")
    first, last = min(by_number), max(by_number)
    gaps = [n for n in range(first, last + 1) if n not in by_number]
    if last > SLOTS or gaps:
        raise ValueError(f"a DLM file holds one unbroken range of boards within 1–{SLOTS}; "
                         f"boards {first}–{last} " + (f"lack {gaps}" if gaps else "go past 99"))
    duplicates = info.copies if info.copies is not None else 1
    show = not info.sealed
    lines = [
        "[Document]",
        f"Headline={info.headline or 'tablescan'}",
        f"Status={'Show' if show else 'Sealed'}",
        f"Duplicates={duplicates}",
        f"From board={first}",
        f"To board={last}",
        "Next board to duplimate=0",
        "PrintOuts=0",
        "Crypto key=0",
        f"Checksum={header_checksum(duplicates, first, last, show)}",
    ]
    for slot in range(1, SLOTS + 1):
        letters = encode_letters(by_number[slot]) if slot in by_number else UNUSED_SLOT
        lines.append(f"Duplicates {slot:02d}=0")
        lines.append(f"Board {slot:02d}={letters}{board_checksum(slot, letters):03d}")
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1252", errors="replace"))

