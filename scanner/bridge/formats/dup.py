"""DUP, the Duplimate (DOS) set file, and its two halves BRI and DGE as files of their own.

A DUP board is 156 bytes: a BRI part (78 digits: the N, E and S hands as card numbers
01 = ♠A … 52 = ♣2; West holds the rest), a DGE part (four 17-byte hands N E S W, each
suit a marker byte then its ranks) and a 10-byte trailer ``YN1  1 32 `` (random hands,
backwards counting, low board, copies, high board). Writers disagree on the trailer:
some repeat it on every board, some write it on the first board only and NULs after;
both are read. The two parts say the same thing twice, so the reader checks one against
the other: a disagreement is damage, never settled by picking a side.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ...cards import ALL_CARDS, Card, Suit
from ..board import HAND_SIZE, Board, Hand
from .reading import Damage, FileReading, Located, SetInfo, number_ranges, whole_number

EXTENSIONS = (".dup", ".bri", ".dge")
# A board is a position in the file; its dealer and vulnerability are its number's.
NUMBER_GIVES_DEALER_AND_VULNERABILITY = True

BRI_SIZE = 78
DGE_SIZE = 68
DGE_HAND = 17
TRAILER_SIZE = 10
SUIT_MARKERS: dict[int, Suit] = {0x06: Suit.S, 0x03: Suit.H, 0x04: Suit.D, 0x05: Suit.C}
MARKER_OF: dict[Suit, int] = {suit: marker for marker, suit in SUIT_MARKERS.items()}
# (suit marker, rank byte) → the card, so a DGE hand decodes by table look-up.
DGE_CARDS: dict[tuple[int, int], Card] = {
    (MARKER_OF[card.suit], ord(card.rank.value)): card for card in ALL_CARDS}


@dataclass(frozen=True)
class Layout:
    """How one file kind lays out a board; BRI and DGE files pad each board to 128 bytes."""

    size: int
    bri: bool
    dge: bool
    trailer: bool
    padding: bytes = b""


LAYOUTS: dict[str, Layout] = {
    ".dup": Layout(BRI_SIZE + DGE_SIZE + TRAILER_SIZE, bri=True, dge=True, trailer=True),
    ".bri": Layout(128, bri=True, dge=False, trailer=False, padding=b" " * 32 + b"\0" * 18),
    ".dge": Layout(128, bri=False, dge=True, trailer=False, padding=b"\0" * 60),
}


@dataclass(frozen=True)
class Trailer:
    random_hands: bool
    backwards: bool
    low: int
    copies: int
    high: int

    def encode(self) -> bytes:
        flags = ("Y" if self.random_hands else "N") + ("Y" if self.backwards else "N")
        return f"{flags}{self.low:<3}{self.copies:<2}{self.high:<3}".encode("ascii")


class PartError(ValueError):
    """One part of a board that does not decode; the message says which bytes and why."""


# ---- reading ---------------------------------------------------------------------------

def read(path: Path) -> FileReading:
    layout = LAYOUTS[path.suffix.lower()]
    data = path.read_bytes()
    if layout.bri and not layout.dge and _one_board_per_line(data):
        return FileReading(SetInfo(), _bri_lines(data))
    count, rest = divmod(len(data), layout.size)
    trailer: Trailer | None = None
    damage: list[Damage] = []
    if layout.trailer:
        trailer, damage = _first_trailer(data, layout)
    info = SetInfo(copies=trailer.copies if trailer else None,
                   random_hands=trailer.random_hands if trailer else True,
                   backwards=trailer.backwards if trailer else False)
    return FileReading(info, _records(data, layout, count, rest, trailer, damage))


def _one_board_per_line(data: bytes) -> bool:
    """A BRI file some tools write as text: each board's 78 digits, then a line end (LF or
    CRLF) instead of the padding to 128 bytes. Read by fixed size it would misnumber every
    board after the first."""
    return data[BRI_SIZE:BRI_SIZE + 1] in (b"\n", b"\r")


def _bri_lines(data: bytes) -> Iterator[Located | Damage]:
    lines = data.splitlines()
    while lines and not lines[-1].strip(b" \0"):
        lines.pop()
    for number, line in enumerate(lines, start=1):
        where = f"line {number}"
        digits = line.rstrip(b" \0")
        try:
            if len(digits) != BRI_SIZE:
                raise PartError(f"{len(digits)} characters, not the {BRI_SIZE} digits of a "
                                "board")
            hands = _bri_hands(digits)
        except PartError as exc:
            yield Damage(where, str(exc), number)
            continue
        yield Located(Board.standard(number, hands), where)


def _first_trailer(data: bytes, layout: Layout) -> tuple[Trailer | None, list[Damage]]:
    raw = data[layout.size - TRAILER_SIZE:layout.size]
    if len(data) < layout.size:
        return None, []
    try:
        return parse_trailer(raw), []
    except PartError as exc:
        return None, [Damage(f"byte {layout.size - TRAILER_SIZE}",
                             f"first board's trailer: {exc}; the boards cannot be numbered")]


def parse_trailer(raw: bytes) -> Trailer:
    text = raw.decode("latin-1")
    if text.strip("\0") == "":
        raise PartError("trailer is empty (all NUL)")
    flags = text[:2]
    low, copies, high = whole_number(text[2:5]), whole_number(text[5:7]), whole_number(text[7:10])
    if any(flag not in "YN" for flag in flags) or low is None or high is None:
        raise PartError(f"trailer {text!r} is not 'YN', low board, copies, high board")
    return Trailer(flags[0] == "Y", flags[1] == "Y", low, copies or 0, high)


def _records(data: bytes, layout: Layout, count: int, rest: int, trailer: Trailer | None,
             damage: list[Damage]) -> Iterator[Located | Damage]:
    yield from damage
    if layout.trailer and trailer is None:
        if count == 0 and rest:
            yield Damage("byte 0", f"file cut off: {rest} of the {layout.size} bytes of its "
                                   "first board")
        return
    low = trailer.low if trailer else 1
    for i in range(count):
        offset = i * layout.size
        record = data[offset:offset + layout.size]
        number = low + i
        try:
            hands = _hands(record, layout, trailer)
        except PartError as exc:
            yield Damage(f"byte {offset}", str(exc), number)
            continue
        yield Located(Board.standard(number, hands), f"byte {offset}")
    if rest:
        yield Damage(f"byte {count * layout.size}",
                     f"file truncated: {rest} of {layout.size} bytes of a board", low + count)
    if trailer is not None and trailer.high - trailer.low + 1 != count:
        yield Damage("trailer", f"trailer says boards {trailer.low}–{trailer.high} "
                                f"({trailer.high - trailer.low + 1} boards) but the file holds "
                                f"{count}")


def _hands(record: bytes, layout: Layout, trailer: Trailer | None) -> tuple[Hand, ...]:
    bri = _bri_hands(record[:BRI_SIZE]) if layout.bri else None
    dge_start = BRI_SIZE if layout.bri else 0
    dge = _dge_hands(record[dge_start:dge_start + DGE_SIZE]) if layout.dge else None
    if layout.trailer and trailer is not None:
        raw = record[-TRAILER_SIZE:]
        if raw.strip(b"\0") and parse_trailer(raw) != trailer:
            raise PartError(f"trailer {raw!r} differs from the first board's")
    if bri is not None and dge is not None:
        for seat, from_bri, from_dge in zip("NESW", bri, dge, strict=True):
            if Counter(from_bri) != Counter(from_dge):
                raise PartError(f"the BRI and DGE parts disagree on hand {seat}: "
                                f"{_diff(from_bri, from_dge)}")
        return dge
    return bri if bri is not None else dge  # type: ignore[return-value]


def _bri_hands(part: bytes) -> tuple[Hand, ...]:
    text = part.decode("latin-1")
    cards: list[Card] = []
    for i in range(0, BRI_SIZE, 2):
        pair = text[i:i + 2]
        number = whole_number(pair) if len(pair.strip()) == 2 else None
        if number is None or not 1 <= number <= len(ALL_CARDS):
            raise PartError(f"BRI part: {pair!r} at byte {i} is not a card number 01–52")
        cards.append(ALL_CARDS[number - 1])
    seen: dict[Card, int] = {}
    for i, card in enumerate(cards):
        if card in seen:
            first, second = "NES"[seen[card] // HAND_SIZE], "NES"[i // HAND_SIZE]
            raise PartError(f"BRI part: card {card} is in {first} and {second}")
        seen[card] = i
    west = tuple(card for card in ALL_CARDS if card not in seen)
    return (*(tuple(cards[k:k + HAND_SIZE]) for k in range(0, 3 * HAND_SIZE, HAND_SIZE)), west)


def _dge_hands(part: bytes) -> tuple[Hand, ...]:
    hands: list[Hand] = []
    for h, seat in enumerate("NESW"):
        chunk = part[h * DGE_HAND:(h + 1) * DGE_HAND]
        marker: int | None = None
        cards: list[Card] = []
        for byte in chunk.rstrip(b"\0 "):
            if byte in SUIT_MARKERS:
                marker = byte
            elif (marker, byte) in DGE_CARDS:
                cards.append(DGE_CARDS[(marker, byte)])
            else:
                raise PartError(f"DGE part, hand {seat}: byte 0x{byte:02x} is not a suit "
                                "marker or a rank" + (" (no suit marker yet)" if marker is None
                                                      else ""))
        hands.append(tuple(cards))
    return tuple(hands)


def _diff(left: Hand, right: Hand) -> str:
    only_left = sorted(set(left) - set(right), key=lambda c: c.index)
    only_right = sorted(set(right) - set(left), key=lambda c: c.index)
    parts = []
    if only_left:
        parts.append("BRI only " + " ".join(map(str, only_left)))
    if only_right:
        parts.append("DGE only " + " ".join(map(str, only_right)))
    if len(left) != len(right):
        parts.append(f"{len(left)} cards in BRI, {len(right)} in DGE")
    return "; ".join(parts)


# ---- writing ---------------------------------------------------------------------------

def write(path: Path, boards: Iterable[Board], info: SetInfo, *,
          trailer_on_every_board: bool = False) -> None:
    layout = LAYOUTS[path.suffix.lower()]
    ordered = sorted(boards, key=lambda b: b.number)
    if not ordered:
        raise ValueError(f"a {path.suffix} file needs at least one board")
    low, high = ordered[0].number, ordered[-1].number
    expected_low = low if layout.trailer else 1
    numbers = [b.number for b in ordered]
    if numbers != list(range(expected_low, expected_low + len(ordered))) or high > 999:
        where = f"from {low}" if layout.trailer else "from 1"
        raise ValueError(f"a {path.suffix} file numbers its boards by position, so it needs "
                         f"boards {where} with no gaps, up to 999; this set has boards "
                         f"{number_ranges(numbers)}")
    trailer = Trailer(info.random_hands, info.backwards, low, info.copies or 0, high)
    out = bytearray()
    for i, board in enumerate(ordered):
        hands = board.complete_hands()
        record = bytearray()
        if layout.bri:
            record += "".join(f"{card.index + 1:02d}" for hand in hands[:3]
                              for card in hand).encode("ascii")
        if layout.dge:
            record += b"".join(_dge_hand(hand) for hand in hands)
        if layout.trailer:
            record += trailer.encode() if i == 0 or trailer_on_every_board else b"\0" * 10
        out += record + layout.padding
    path.write_bytes(bytes(out))


def _dge_hand(hand: Hand) -> bytes:
    out = bytearray()
    for suit in Suit:
        out.append(MARKER_OF[suit])
        out += "".join(c.rank.value for c in hand if c.suit is suit).encode("ascii")
    return bytes(out.ljust(DGE_HAND, b"\0"))
