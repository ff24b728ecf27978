"""PBN 2.1 games: read them as a stream, write them back with their other tags as they were.

The reader works line by line, so a file of any size is read in constant memory. It
survives the quirks real files carry: ``%`` and ``;`` comments, ``{ }`` blocks over
several lines, ``"?"`` values, statistics rows between games, lowercase, ``10`` for T,
suit letters inside a hand, a deal starting at any seat, ``-`` for an unknown hand, and
Love/-/Both for vulnerability.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from ...cards import ALL_CARDS, Card, Seat, Suit, format_hand, parse_seat
from ..board import Board, Hand, SourceTag, Vulnerability, dealer_for, vulnerability_for
from .reading import Damage, FileReading, Located, SetInfo, whole_number

EXTENSIONS = (".pbn",)
# Each game carries its own Event, Section and Round: several events may reuse numbers.
HOLDS_REPEATED_NUMBERS = True
GROUP_TAGS = ("Event", "Section", "Round")
CORE_TAGS = ("Board", "Dealer", "Vulnerable", "Deal")
UNKNOWN = "?"

VULNERABLE_NAMES: dict[str, Vulnerability] = {
    "NONE": Vulnerability.NONE, "LOVE": Vulnerability.NONE, "-": Vulnerability.NONE,
    "NS": Vulnerability.NS, "EW": Vulnerability.EW,
    "ALL": Vulnerability.ALL, "BOTH": Vulnerability.ALL,
}
SUIT_MARKS: dict[str, Suit] = {"S": Suit.S, "H": Suit.H, "D": Suit.D, "C": Suit.C,
                               "♠": Suit.S, "♥": Suit.H, "♦": Suit.D, "♣": Suit.C}
# Per suit in S H D C order, the card for each rank letter: parsing looks cards up by text.
_CARD_BY_RANK: tuple[dict[str, Card], ...] = tuple(
    {card.rank.value: card for card in ALL_CARDS if card.suit is suit} for suit in Suit)

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_SUIT_SEGMENT = re.compile("([SHDC♠♥♦♣])([^SHDC♠♥♦♣]*)")
_HAS_MARK = re.compile("[SHDC♠♥♦♣]")
SUITS: tuple[Suit, ...] = tuple(Suit)
_DEAL = re.compile(r"\s*([NESWnesw])\s*:\s*(.*)$", re.S)


class DealSyntaxError(ValueError):
    """A Deal value that does not spell four hands."""


# ---- reading ---------------------------------------------------------------------------

@dataclass
class _Tag:
    name: str
    value: str
    line: int
    section: list[str] = field(default_factory=list)


def read(path: Path) -> FileReading:
    return FileReading(SetInfo(), _boards(_games(_lines(path))))


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with path.open("rb") as probe:
        head = probe.read(1 << 16)
    encoding = _encoding(head)
    with path.open(encoding=encoding, errors="replace", newline=None) as stream:
        yield from enumerate(stream, start=1)


def _encoding(head: bytes) -> str:
    """UTF-8 when the start of the file decodes as UTF-8, else Windows-1252 (older tools)."""
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:
            return "cp1252"
    return "utf-8-sig"


def _games(lines: Iterable[tuple[int, str]]) -> Iterator[list[_Tag] | Damage]:
    """Group tags into games. A blank line ends a game; so does a tag repeating within one,
    because some writers leave the blank line out."""
    game: list[_Tag] = []
    names: set[str] = set()
    in_comment = False
    for number, raw in lines:
        line = raw.rstrip("\r\n")
        if in_comment:
            end = line.find("}")
            if end < 0:
                continue
            in_comment, line = False, line[end + 1:]
        elif not line.strip():
            if game:
                yield game
            game, names = [], set()
            continue
        elif line.lstrip().startswith("%"):
            continue
        pieces, in_comment, damage = _tokens(line, number)
        if damage:
            yield damage
        for piece in pieces:
            if isinstance(piece, _Tag):
                if piece.name in names:
                    yield game
                    game, names = [], set()
                game.append(piece)
                names.add(piece.name)
            elif game:
                game[-1].section.append(piece)
    if game and not any(tag.name in ("Board", "Deal") for tag in game):
        # A last game never closed by a blank line, with tags but neither Board nor Deal:
        # the file stops where a board was being written.
        yield Damage(f"line {game[-1].line}", "file cut off: it ends inside a game, before "
                                              "its Board and Deal")
    elif game:
        yield game


def _tokens(line: str, number: int) -> tuple[list[_Tag | str], bool, Damage | None]:
    """Tags and section text on one line, without comments. Returns the pieces, whether a
    ``{`` comment runs on past the line, and damage for an unreadable tag."""
    whole = _TAG.fullmatch(line)
    if whole is not None:  # the usual line: one tag and nothing else
        return [_Tag(whole.group(1), whole.group(2).replace('\\"', '"'), number)], False, None
    pieces: list[_Tag | str] = []
    pos = 0
    while pos < len(line):
        char = line[pos]
        if char.isspace():
            pos += 1
        elif char == ";":
            break
        elif char == "{":
            end = line.find("}", pos)
            if end < 0:
                return pieces, True, None
            pos = end + 1
        elif char == "[":
            match = _TAG.match(line, pos)
            if match is None:
                return pieces, False, Damage(f"line {number}", f"unreadable tag {line[pos:]!r}")
            # Only \" is an escape in practice: \2R in OptimumResultTable is literal.
            value = match.group(2).replace('\\"', '"')
            pieces.append(_Tag(match.group(1), value, number))
            pos = match.end()
        else:
            end = min((i for i in (line.find(c, pos) for c in "[{;") if i >= 0),
                      default=len(line))
            pieces.append(line[pos:end].strip())
            pos = end
    return pieces, False, None


def _boards(games: Iterable[list[_Tag] | Damage]) -> Iterator[Located | Damage]:
    context: dict[str, str] = {}
    for game in games:
        if isinstance(game, Damage):
            yield game
            continue
        by_name = {tag.name: tag for tag in game}
        # A game's event, section and round hold until a later game names others; "#" is
        # PBN's "as in the game before".
        for name in GROUP_TAGS:
            tag = by_name.get(name)
            if tag is not None and tag.value.strip() != "#":
                context[name] = tag.value.strip()
        if "Deal" not in by_name and "Board" not in by_name:
            continue  # a header game or a game of another kind: nothing to deal
        group = ", ".join(f'{name} "{context[name]}"' for name in GROUP_TAGS
                          if context.get(name))
        try:
            yield _board(game, by_name, group)
        except (DealSyntaxError, ValueError) as exc:
            yield Damage(f"line {_line_of(by_name)}", str(exc), _number_or_none(by_name))


def _board(game: list[_Tag], by_name: dict[str, _Tag], group: str) -> Located:
    number = _board_number(by_name)
    deal = by_name.get("Deal")
    if deal is None or deal.value.strip() in ("", UNKNOWN):
        raise ValueError("no Deal tag with the four hands")
    hands = parse_deal(deal.value)
    dealer_text = _value(by_name, "Dealer")
    try:
        dealer = dealer_for(number) if dealer_text is None else parse_seat(dealer_text)
    except ValueError:
        raise ValueError(f"Dealer {dealer_text!r} is not N, E, S or W") from None
    vul_text = _value(by_name, "Vulnerable")
    if vul_text is None:
        vulnerability = vulnerability_for(number)
    elif vul_text.upper() in VULNERABLE_NAMES:
        vulnerability = VULNERABLE_NAMES[vul_text.upper()]
    else:
        raise ValueError(f"Vulnerable {vul_text!r} is not None, NS, EW or All")
    tags = tuple(SourceTag(t.name, t.value, tuple(t.section)) for t in game)
    return Located(Board(number, dealer, vulnerability, hands, tags, group),
                   f"line {deal.line}")


def _value(by_name: dict[str, _Tag], name: str) -> str | None:
    """A tag's value, or None when it is absent or ``?`` (PBN's "unknown")."""
    tag = by_name.get(name)
    if tag is None or tag.value.strip() in ("", UNKNOWN):
        return None
    return tag.value.strip()


def _board_number(by_name: dict[str, _Tag]) -> int:
    text = _value(by_name, "Board")
    if text is None:
        raise ValueError("the Board tag is missing or '?': the board number is unknown")
    number = whole_number(text)
    if number is None or number < 1:
        raise ValueError(f"Board {text!r} is not a board number")
    return number


def _number_or_none(by_name: dict[str, _Tag]) -> int | None:
    text = _value(by_name, "Board")
    return None if text is None else whole_number(text)


def _line_of(by_name: dict[str, _Tag]) -> int:
    tag = by_name.get("Deal") or by_name.get("Board") or next(iter(by_name.values()))
    return tag.line


def parse_deal(text: str) -> tuple[Hand | None, Hand | None, Hand | None, Hand | None]:
    """``N:AKQ.… …`` → the hands N, E, S, W (``None`` for a ``-`` hand)."""
    match = _DEAL.match(text)
    if match is None:
        raise DealSyntaxError(f"Deal {text!r} does not start with a seat and ':'")
    first = parse_seat(match.group(1))
    written = match.group(2).split()
    if len(written) != 4:
        raise DealSyntaxError(f"Deal {text!r} has {len(written)} hands, not 4")
    hands: list[Hand | None] = [None] * 4
    for seat, hand_text in zip(first.clockwise_from(), written, strict=True):
        hands[seat.index] = parse_pbn_hand(hand_text, seat)
    return (hands[0], hands[1], hands[2], hands[3])


def parse_pbn_hand(text: str, seat: Seat) -> Hand | None:
    """One hand: ``AT3.K8654.AT6.93``, ``SA7.H864.DKQ.C2``, ``a10.…``; ``-`` is unknown."""
    if text == "-":
        return None
    upper = text.upper().replace("10", "T")
    if _HAS_MARK.search(upper):
        by_suit: dict[Suit, str] = {}
        for mark, ranks in _SUIT_SEGMENT.findall(upper):
            suit = SUIT_MARKS[mark]
            if suit in by_suit:
                raise DealSyntaxError(f"hand {seat} {text!r} names {suit.symbol} twice")
            by_suit[suit] = ranks.replace(".", "")
        suits = [by_suit.get(suit, "") for suit in SUITS]
    else:
        suits = upper.split(".")
        if len(suits) != 4:
            raise DealSyntaxError(f"hand {seat} {text!r} has {len(suits)} suits, not 4")
    cards: list[Card] = []
    position = 0
    try:
        for position, ranks in enumerate(suits):
            table = _CARD_BY_RANK[position]
            cards.extend([table[char] for char in ranks if char != "-"])
    except KeyError as exc:
        raise DealSyntaxError(f"hand {seat} {text!r}: {exc.args[0]!r} is not a rank "
                              f"(in {SUITS[position].symbol})") from None
    return tuple(cards)


# ---- writing ---------------------------------------------------------------------------

def write(path: Path, boards: Iterable[Board], info: SetInfo) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write("% PBN 2.1\n% EXPORT\n\n")
        for board in boards:
            # Every game the board was read from: each table's result goes back out.
            for tags in (board.tags, *board.played):
                out.write(format_game(replace(board, tags=tags, played=())))
                out.write("\n")


def format_deal(board: Board) -> str:
    """The Deal value, starting at North; an unknown hand is ``-``."""
    hands = ["-" if hand is None else format_hand(hand, void="") for hand in board.hands]
    return "N:" + " ".join(hands)


def format_game(board: Board) -> str:
    """One game: the tags the board came with, in their order, with Board, Dealer,
    Vulnerable and Deal written from the board itself."""
    core = {"Board": str(board.number), "Dealer": str(board.dealer),
            "Vulnerable": str(board.vulnerability), "Deal": format_deal(board)}
    tags = board.tags or (SourceTag("Event", ""),)
    lines: list[str] = []
    for tag in tags:
        lines.append(_tag_line(tag.name, core.get(tag.name, tag.value)))
        lines.extend(tag.section)
    present = {tag.name for tag in tags}
    lines.extend(_tag_line(name, core[name]) for name in CORE_TAGS if name not in present)
    return "\n".join(lines) + "\n"


def _tag_line(name: str, value: str) -> str:
    escaped = value.replace('"', '\\"')
    return f'[{name} "{escaped}"]'


# ---- export format (PBN 2.1 §2.1) -----------------------------------------------------------

# The Mandatory Tag Set in the order export format prescribes; every tag present, "?" when
# unknown. A hand record has no players, contract or result yet.
EXPORT_TAGS = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
               "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
EXPORT_EOL = "\r\n"


def export_text(boards: Iterable[Board], *, event: str = UNKNOWN, site: str = UNKNOWN,
                date: str = "????.??.??") -> str:
    """Boards as PBN 2.1 in its strict export form: ``% PBN 2.1`` and ``% EXPORT`` first,
    the mandatory tags in order, one space between tokens, CRLF line ends, a blank line after
    each game. The deal starts at the dealer. Every hand must be known."""
    lines = ["% PBN 2.1", "% EXPORT", ""]
    for board in boards:
        if any(hand is None for hand in board.hands):
            raise ValueError(f"board {board.number}: a hand record needs all four hands")
        start = board.dealer.index
        hands = [format_hand(board.hands[(start + i) % 4], void="") for i in range(4)]
        values = {"Event": event, "Site": site, "Date": date, "Board": str(board.number),
                  "Dealer": str(board.dealer), "Vulnerable": str(board.vulnerability),
                  "Deal": f"{board.dealer}:{' '.join(hands)}"}
        lines += [_tag_line(name, values.get(name, UNKNOWN)) for name in EXPORT_TAGS]
        lines.append("")
    return "".join(line + EXPORT_EOL for line in lines)
