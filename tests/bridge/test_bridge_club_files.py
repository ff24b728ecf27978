"""A real club's files: results that list a board once per table, several events reusing board
numbers, boards whose dealer or vulnerability is not their number's, a BRI written as text
lines (issue 21, cases 23, 24 and 26)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner.bridge.board import Board, Vulnerability
from scanner.bridge.dealset import generate
from scanner.bridge.formats import load, read_boards, write_boards
from scanner.bridge.formats.pbn import format_deal
from scanner.cards import Seat
from scanner.cli import main

ONE, TWO = generate(range(1, 3), seed="club one")
OTHER_ONE, OTHER_TWO = generate(range(1, 3), seed="club two")


def _game(board: Board, **tags: str) -> str:
    lines = [f'[{name} "{value}"]' for name, value in tags.items() if name != "after"]
    lines += [f'[Board "{board.number}"]', f'[Dealer "{board.dealer}"]',
              f'[Vulnerable "{board.vulnerability}"]', f'[Deal "{format_deal(board)}"]']
    lines += [f'[{name} "{value}"]' for name, value in tags.get("after", {}).items()]
    return "\n".join(lines) + "\n\n"


@pytest.fixture
def results_file(tmp_path: Path) -> Path:
    """Each board once per table, each with that table's contract and result."""
    path = tmp_path / "results.pbn"
    path.write_text("".join(
        _game(board, Event="Club pairs", after={"Contract": contract, "Result": result})
        for board, contract, result in ((ONE, "3NT", "9"), (ONE, "4S", "10"), (TWO, "2H", "8"),
                                        (TWO, "3C", "7"), (ONE, "1NT", "6"))))
    return path


@pytest.fixture
def two_events(tmp_path: Path) -> Path:
    """Two events in one file, each with its own boards 1 and 2."""
    path = tmp_path / "events.pbn"
    path.write_text("".join([_game(ONE, Event="Monday"), _game(TWO, Event="#"),
                             _game(OTHER_ONE, Event="Thursday"), _game(OTHER_TWO)]))
    return path


def test_case_23_identical_repeats_are_one_board_with_every_result_kept(
        results_file: Path, tmp_path: Path) -> None:
    loaded = load(results_file)
    assert not loaded.damage
    assert [b.number for b in loaded.boards] == [1, 2]
    assert [len(b.played) for b in loaded.boards] == [2, 1]
    assert main(["convert", str(results_file), str(tmp_path / "back.pbn")]) == 0
    text = (tmp_path / "back.pbn").read_text()
    for result in ('"9"', '"10"', '"8"', '"7"', '"6"'):
        assert f"[Result {result}]" in text
    assert main(["convert", str(results_file), str(tmp_path / "set.dlm")]) == 0
    assert [b.number for b in read_boards(tmp_path / "set.dlm")] == [1, 2]


def test_case_23_different_deals_under_one_number_are_kept_apart_by_event(
        two_events: Path, tmp_path: Path) -> None:
    loaded = load(two_events)
    assert not loaded.damage
    assert [(b.number, b.group) for b in loaded.boards] == [
        (1, 'Event "Monday"'), (2, 'Event "Monday"'),
        (1, 'Event "Thursday"'), (2, 'Event "Thursday"')]
    assert main(["convert", str(two_events), str(tmp_path / "back.pbn")]) == 0
    again = load(tmp_path / "back.pbn").boards
    assert [b.hands for b in again] == [b.hands for b in (ONE, TWO, OTHER_ONE, OTHER_TWO)]


@pytest.mark.parametrize("suffix", ["dlm", "dup", "lin", "csv"])
def test_case_23_a_format_with_one_deal_per_number_refuses_and_says_why(
        two_events: Path, tmp_path: Path, capsys, suffix: str) -> None:
    out = tmp_path / f"set.{suffix}"
    assert main(["convert", str(two_events), str(out)]) == 2
    assert "one deal per board number" in capsys.readouterr().err
    assert not out.exists()


def test_case_23_verify_refuses_a_number_that_names_two_deals(two_events, capsys) -> None:
    assert main(["verify", str(two_events), "--observed", str(two_events)]) == 2
    assert "different deals" in capsys.readouterr().err


def test_case_23_the_same_number_with_another_deal_in_one_event_is_still_damage(
        tmp_path: Path) -> None:
    path = tmp_path / "clash.pbn"
    path.write_text(_game(ONE, Event="Monday") + _game(OTHER_ONE, Event="Monday"))
    loaded = load(path)
    assert loaded.damage and "another deal" in loaded.damage[0].problem


UNUSUAL = Board(3, Seat.W, Vulnerability.ALL, generate([3], seed="unusual")[0].hands)


@pytest.mark.parametrize("suffix", ["dlm", "dup", "bri", "dge"])
def test_case_24_a_board_whose_dealer_a_format_cannot_say_is_refused(
        tmp_path: Path, capsys, suffix: str) -> None:
    source = tmp_path / "unusual.pbn"
    write_boards(source, [UNUSUAL])
    out = tmp_path / f"out.{suffix}"
    assert main(["convert", str(source), str(out)]) == 2
    err = capsys.readouterr().err
    assert "board 3" in err and "dealer W" in err and "All" in err
    assert not out.exists()


@pytest.mark.parametrize("suffix", ["pbn", "lin", "csv"])
def test_case_24_formats_that_can_say_it_keep_dealer_and_vulnerability(
        tmp_path: Path, suffix: str) -> None:
    source = tmp_path / "unusual.pbn"
    write_boards(source, [UNUSUAL])
    out = tmp_path / f"out.{suffix}"
    assert main(["convert", str(source), str(out)]) == 0
    [board] = read_boards(out)
    assert (board.dealer, board.vulnerability) == (Seat.W, Vulnerability.ALL)


def _text_bri(tmp_path: Path, boards: list[Board], line_end: bytes) -> Path:
    padded = tmp_path / "padded.bri"
    write_boards(padded, boards)
    data = padded.read_bytes()
    path = tmp_path / "text.bri"
    path.write_bytes(b"".join(data[i:i + 78] + line_end for i in range(0, len(data), 128)))
    return path


@pytest.mark.parametrize("line_end", [b"\r\n", b"\n"], ids=["crlf", "lf"])
def test_case_26_a_bri_written_as_text_lines_is_read_board_by_board(
        tmp_path: Path, line_end: bytes) -> None:
    boards = generate(range(1, 13), seed="text bri")
    path = _text_bri(tmp_path, boards, line_end)
    assert [b.complete_hands() for b in read_boards(path)] == [
        b.complete_hands() for b in boards]


def test_case_26_damage_in_a_crlf_bri_names_the_right_board(tmp_path: Path) -> None:
    path = _text_bri(tmp_path, generate(range(1, 13), seed="text bri"), b"\r\n")
    data = bytearray(path.read_bytes())
    data[8 * 80:8 * 80 + 2] = b"99"  # the 9th deal's first card number
    path.write_bytes(bytes(data))
    [damage] = load(path).damage
    assert damage.board == 9 and damage.where == "line 9"
