"""LIN as BBO writes it: boards cut at pn|, numbered by ah|Board N|, the fourth hand left out;
read and written both ways against endplay, an independent reader (issue 21, cases 22, 25)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner.bridge.board import Board, Vulnerability
from scanner.bridge.dealset import generate
from scanner.bridge.formats import load, read_boards, write_boards
from scanner.cards import Seat
from scanner.cli import main

BOARD_1 = ("pn|south,west,north,east|st||md|3SJT9H982DQ532CQ83,SQ432HKJ76D64CJT4,"
           "S65HA53DJT7CAK762,|rh||ah|Board 1|sv|o|mb|1C|mb|p|mb|1S|mb|p|mb|p|mb|p|pg||")


def _unusual(boards: list[Board]) -> list[Board]:
    """Some boards with a dealer and vulnerability that are not their number's own."""
    return [Board(b.number, Seat.W, Vulnerability.ALL, b.hands) if b.number % 3 == 0 else b
            for b in boards]


def test_case_22_a_lin_saved_from_bbo_without_qx_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bbo.lin"
    path.write_text(BOARD_1 + "\n" + BOARD_1.replace("Board 1", "Board 2")
                    .replace("md|3", "md|4").replace("sv|o", "sv|n") + "\n")
    boards = list(read_boards(path))
    assert [(b.number, b.dealer, b.vulnerability) for b in boards] == [
        (1, Seat.N, Vulnerability.NONE), (2, Seat.E, Vulnerability.NS)]


def test_case_22_a_board_may_run_over_several_lines(tmp_path: Path) -> None:
    path = tmp_path / "bbo.lin"
    path.write_text(BOARD_1.replace("|rh||", "|\nrh||").replace("|mb|p", "|\nmb|p") + "\n")
    [board] = read_boards(path)
    assert board.number == 1 and None not in board.hands


def test_case_25_three_hands_fix_the_fourth(tmp_path: Path) -> None:
    path = tmp_path / "three.lin"
    path.write_text(BOARD_1 + "\n")
    assert main(["convert", str(path), str(tmp_path / "out.pbn")]) == 0
    deal = next(line for line in (tmp_path / "out.pbn").read_text().splitlines()
                if line.startswith("[Deal "))
    assert "-" not in deal
    assert deal.split()[2] == "AK87.QT4.AK98.95"  # East, the hand BBO left out


def test_case_25_three_hands_that_are_not_regular_are_damage_not_guessed(tmp_path) -> None:
    path = tmp_path / "short.lin"
    path.write_text(BOARD_1.replace("SJT9H982", "SJTH982") + "\n")
    loaded = load(path)
    assert not loaded.boards and loaded.damage[0].board == 1


def test_case_22_what_tablescan_writes_is_lin_as_bbo_writes_it(tmp_path: Path) -> None:
    path = tmp_path / "set.lin"
    write_boards(path, generate(range(1, 3), seed="bbo"))
    first = path.read_text().splitlines()[0]
    assert first.startswith("pn|") and "|ah|Board 1|" in first and "sv|o|" in first
    assert "qx|" not in first


def test_case_22_endplay_reads_what_tablescan_writes(tmp_path: Path) -> None:
    lin = pytest.importorskip("endplay.parsers.lin")
    boards = _unusual(generate(range(1, 17), seed="to endplay"))
    path = tmp_path / "ours.lin"
    write_boards(path, boards)
    with path.open() as stream:
        theirs = lin.load(stream)
    assert len(theirs) == len(boards)
    for ours, their in zip(boards, theirs, strict=True):
        assert their.board_num == ours.number
        assert their.dealer.abbr == str(ours.dealer)
        assert their.vul.to_lin() == {"None": "o", "NS": "n", "EW": "e",
                                      "All": "b"}[str(ours.vulnerability)]
        assert their.deal.to_pbn() == _pbn_deal(ours)


def test_case_22_tablescan_reads_what_endplay_writes(tmp_path: Path) -> None:
    lin = pytest.importorskip("endplay.parsers.lin")
    from endplay.types import Board as TheirBoard
    from endplay.types import Deal, Player, Vul

    boards = _unusual(generate(range(1, 17), seed="from endplay"))
    vul = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
    theirs = [TheirBoard(Deal(_pbn_deal(b)), board_num=b.number,
                         dealer=Player.find(str(b.dealer)), vul=vul[str(b.vulnerability)])
              for b in boards]
    path = tmp_path / "theirs.lin"
    with path.open("w") as stream:
        lin.dump(theirs, stream)
    ours = list(read_boards(path))
    assert [(b.number, b.dealer, b.vulnerability, b.complete_hands()) for b in ours] == [
        (b.number, b.dealer, b.vulnerability, b.complete_hands()) for b in boards]


def _pbn_deal(board: Board) -> str:
    from scanner.bridge.formats.pbn import format_deal

    return format_deal(Board(board.number, board.dealer, board.vulnerability,
                             board.complete_hands()))
