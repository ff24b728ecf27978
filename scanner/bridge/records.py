"""Printable hand records: one HTML page per set, six boards to an A4 sheet.

Each board shows the four-hand diagram with the board number, the dealer and the
vulnerability. Suits carry their symbol and their name for screen readers; red suits are
also coloured, but colour is never the only signal. Every piece of text from a file is
escaped: a set file is input, and input may hold markup.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from ..cards import SUIT_NAMES, Rank, Seat, Suit
from .board import Board, Hand, Vulnerability

BOARDS_PER_SHEET = 6
SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
VULNERABLE_SEATS: dict[Vulnerability, frozenset[Seat]] = {
    Vulnerability.NONE: frozenset(),
    Vulnerability.NS: frozenset({Seat.N, Seat.S}),
    Vulnerability.EW: frozenset({Seat.E, Seat.W}),
    Vulnerability.ALL: frozenset(Seat),
}
VULNERABILITY_TEXT = {Vulnerability.NONE: "None", Vulnerability.NS: "N-S",
                      Vulnerability.EW: "E-W", Vulnerability.ALL: "All"}
RANK_TEXT = {Rank.T: "10"}
RED_SUITS = frozenset({Suit.H, Suit.D})
# Where each seat sits in the diagram grid (below the heading): row, and the columns it
# spans. North and South may use the empty cell to their right, so a long suit fits.
GRID = {Seat.N: (2, "2 / 4"), Seat.W: (3, "1"), Seat.E: (3, "3"), Seat.S: (4, "2 / 4")}
RANK_GAP = " "
# Suits this long are set smaller and without gaps (still unambiguous: there is no rank "1"),
# so they fit beside the compass unwrapped.
LONG_SUIT = 10

STYLE = """
@page { size: A4; margin: 10mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0; }
header { margin: 0 0 4mm; }
h1 { font-size: 14pt; margin: 0; }
header p { margin: 1mm 0 0; font-size: 9pt; }
.sheet { display: grid; grid-template-columns: 1fr 1fr; grid-auto-rows: 84mm; gap: 3mm;
         break-after: page; page-break-after: always; }
.sheet:last-of-type { break-after: auto; page-break-after: auto; }
.board { border: 0.3mm solid #000; padding: 2mm; display: grid; overflow: hidden;
         grid-template-columns: minmax(0, 1fr) auto minmax(0, 1fr);
         grid-template-rows: auto auto 1fr auto;
         column-gap: 1mm; break-inside: avoid; page-break-inside: avoid; font-size: 9pt; }
.board h2 { grid-column: 1 / 4; font-size: 11pt; margin: 0 0 1mm; }
.board .facts { font-weight: normal; font-size: 9pt; }
.hand { line-height: 1.25; white-space: nowrap; }
.hand .long { font-size: 7.5pt; }
.hand .seat { font-size: 8pt; font-weight: bold; }
.suit { display: inline-block; width: 1.2em; }
.red { color: #c00000; }
.compass { align-self: center; justify-self: center; width: 18mm; height: 18mm;
           border: 0.3mm solid #000; position: relative; font-size: 8pt; }
.compass span { position: absolute; width: 6mm; text-align: center; }
.compass .N { top: 0.5mm; left: 6mm; } .compass .S { bottom: 0.5mm; left: 6mm; }
.compass .W { left: 0.5mm; top: 6.5mm; } .compass .E { right: 0.5mm; top: 6.5mm; }
.compass .vul { background: #c00000; color: #fff; font-weight: bold; }
.compass .dealer { text-decoration: underline; font-weight: bold; }
.compass .number { top: 5.5mm; left: 3mm; width: 12mm; font-size: 10pt; font-weight: bold; }
@media screen { body { margin: 10mm; } .sheet { max-width: 190mm; margin-bottom: 10mm; } }
"""


def render(boards: Iterable[Board], title: str, subtitle: str = "") -> str:
    """The whole page for a set, boards in number order."""
    ordered = sorted(boards, key=lambda b: b.number)
    sheets = [ordered[i:i + BOARDS_PER_SHEET] for i in range(0, len(ordered), BOARDS_PER_SHEET)]
    body = "\n".join(_sheet(sheet) for sheet in sheets)
    sub = f"<p>{escape(subtitle)}</p>" if subtitle else ""
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<header><h1>{escape(title)}</h1>{sub}</header>\n{body}\n</body>\n</html>\n")


def _sheet(boards: list[Board]) -> str:
    return '<section class="sheet">\n' + "\n".join(_board(b) for b in boards) + "\n</section>"


def _board(board: Board) -> str:
    vulnerability = VULNERABILITY_TEXT[board.vulnerability]
    facts = f"Dealer {SEAT_NAMES[board.dealer]} · Vulnerable {vulnerability}"
    cells = [f'<h2>Board {board.number} <span class="facts">{escape(facts)}</span></h2>']
    for seat, (row, columns) in GRID.items():
        cells.append(_hand(seat, board.hand(seat), row, columns))
    cells.append(_compass(board, vulnerability))
    label = escape(f"Board {board.number}, {facts}")
    return f'<article class="board" aria-label="{label}">' + "".join(cells) + "</article>"


def _hand(seat: Seat, hand: Hand | None, row: int, columns: str) -> str:
    style = f'style="grid-row: {row}; grid-column: {columns}"'
    lines = [f'<div class="seat">{SEAT_NAMES[seat]}</div>']
    if hand is None:
        lines.append("<div>(not known)</div>")
    else:
        for suit in Suit:
            ranks = [c.rank for c in hand if c.suit is suit]
            ranks.sort(key=lambda r: r.index)
            long = len(ranks) >= LONG_SUIT
            gap = "" if long else RANK_GAP
            text = gap.join(RANK_TEXT.get(r, r.value) for r in ranks) or "—"
            colour = " red" if suit in RED_SUITS else ""
            size = ' class="long"' if long else ""
            lines.append(f'<div{size}><span class="suit{colour}" role="img" '
                         f'aria-label="{SUIT_NAMES[suit]}">{suit.symbol}</span>'
                         f"{escape(text)}</div>")
    return f'<div class="hand" {style}>' + "".join(lines) + "</div>"


def _compass(board: Board, vulnerability: str) -> str:
    vulnerable = VULNERABLE_SEATS[board.vulnerability]
    marks = []
    for seat in Seat:
        classes = [seat.value] + (["vul"] if seat in vulnerable else []) + (
            ["dealer"] if seat is board.dealer else [])
        title = SEAT_NAMES[seat] + (", vulnerable" if seat in vulnerable else "") + (
            ", dealer" if seat is board.dealer else "")
        marks.append(f'<span class="{" ".join(classes)}" title="{title}">{seat.value}</span>')
    marks.append(f'<span class="number">{board.number}</span>')
    return (f'<div class="compass" style="grid-row: 3; grid-column: 2" '
            f'aria-label="dealer {board.dealer}, vulnerable {vulnerability}">'
            + "".join(marks) + "</div>")
