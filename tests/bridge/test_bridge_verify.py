"""Verification (Law 6F, Law 7B1): each status, and each kind of difference, named exactly."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from scanner.bridge.board import Board
from scanner.bridge.formats import read_boards, write_boards
from scanner.bridge.verify import ObservedFile, verify_set
from scanner.cards import Seat, parse_card
from scanner.cli import main


@pytest.fixture
def record(fixtures: Path) -> list[Board]:
    return list(read_boards(fixtures / "test.pbn"))


def verify(record: list[Board], observed: list[Board]):
    return verify_set(record, ObservedFile({b.number: b for b in observed}))


def moved(board: Board, card: str, to: Seat | None, also_keep: bool = False) -> Board:
    """The board with ``card`` taken from its hand (unless kept) and put in ``to``."""
    target = parse_card(card)
    hands = [list(h) for h in board.hands]
    if not also_keep:
        for hand in hands:
            if target in hand:
                hand.remove(target)
    if to is not None:
        hands[to.index].append(target)
    return replace(board, hands=tuple(tuple(h) for h in hands))


def rotated(board: Board, seats: int) -> Board:
    return replace(board, hands=tuple(board.hands[(i - seats) % 4] for i in range(4)))


def texts(result) -> list[str]:
    return [d["text"] for d in result.differences]


def test_exact_copies_match(record: list[Board]) -> None:
    assert {r.status for r in verify(record, record)} == {"match"}


def test_fourteen_twelve_names_the_long_and_short_hands_and_the_card(
        record: list[Board]) -> None:
    # Board 1: 4C is West's; it went into East's pocket.
    observed = [moved(record[0], "4C", Seat.E), *record[1:]]
    result = verify(record, observed)[0]
    assert result.status == "differs"
    assert texts(result) == ["14–12: E holds 14 cards, W holds 12",
                             "card 4C is in E but belongs to W"]
    assert result.to_dict()["laws"] == ["Law 6F", "Law 7B1"]


def test_missing_card_is_named_with_its_owner(record: list[Board]) -> None:
    observed = [moved(b, "AS", None) if b.number == 2 else b for b in record]
    result = verify(record, observed)[1]
    assert result.status == "differs"
    assert "card AS is missing (belongs to N)" in texts(result)
    assert result.differences[0]["counts"] == {"N": 12, "E": 13, "S": 13, "W": 13}


def test_card_in_two_hands_is_named(record: list[Board]) -> None:
    observed = [moved(record[0], "4C", Seat.N, also_keep=True), *record[1:]]
    result = verify(record, observed)[0]
    assert "card 4C is in N and W (belongs to W)" in texts(result)


def test_hand_not_read_is_reported_without_claiming_its_cards_missing(
        record: list[Board]) -> None:
    observed = [replace(record[0], hands=(*record[0].hands[:3], None)), *record[1:]]
    result = verify(record, observed)[0]
    assert result.status == "differs" and texts(result) == ["hand W was not read"]


@pytest.mark.parametrize("seats", [1, 2, 3])
def test_all_four_hands_shifted_is_rotated_by_that_many_seats(
        record: list[Board], seats: int) -> None:
    observed = [rotated(b, seats) if b.number == 7 else b for b in record]
    result = verify(record, observed)[6]
    assert (result.status, result.rotation) == ("rotated", seats)
    assert f"N's hand is in {'NESW'[seats]}" in texts(result)[0]


def test_neighbouring_boards_exchanged_are_swapped_not_a_repeat(record: list[Board]) -> None:
    by_number = {b.number: b for b in record}
    observed = [*record]
    observed[3], observed[4] = by_number[5].renumbered(4), by_number[4].renumbered(5)
    results = verify(record, observed)
    assert (results[3].status, results[3].matches) == ("swapped", 5)
    assert (results[4].status, results[4].matches) == ("swapped", 4)


def test_board_holding_a_distant_board_is_swapped(record: list[Board]) -> None:
    by_number = {b.number: b for b in record}
    observed = [by_number[12].renumbered(3) if b.number == 3 else b for b in record]
    result = verify(record, observed)[2]
    assert (result.status, result.matches) == ("swapped", 12)
    assert texts(result) == ["holds board 12"]


def test_crash_mid_deal_shifts_every_later_board_onto_its_predecessor(
        record: list[Board]) -> None:
    # Boards 9 and 10 came out identical, and every later board is one behind.
    shifted = [b if b.number <= 9 else record[b.number - 2].renumbered(b.number)
               for b in record]
    statuses = [(r.board, r.status, r.matches) for r in verify(record, shifted)]
    assert statuses[:9] == [(n, "match", None) for n in range(1, 10)]
    assert statuses[9:] == [(n, "repeat-of-previous", n - 1) for n in range(10, 17)]
    ruling = verify(record, shifted)[9].to_dict()
    assert ruling["laws"] == ["Law 6F"] and "every later one" in ruling["remedy"]


def test_board_absent_from_the_observed_hands_is_not_observed(record: list[Board]) -> None:
    result = verify(record, record[1:])[0]
    assert result.status == "not-observed"


def test_boards_default_to_every_board_of_the_set(record: list[Board]) -> None:
    assert [r.board for r in verify(record, record)] == list(range(1, 17))


def test_asking_for_a_board_not_in_the_set_is_refused(record: list[Board]) -> None:
    with pytest.raises(KeyError):
        verify_set(record, ObservedFile({}), [17])


# ---- the command line -------------------------------------------------------------------

def test_verify_command_accepts_irregular_observed_hands_and_prints_json_and_a_table(
        fixtures: Path, record: list[Board], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    observed = [moved(record[0], "4C", Seat.E), *record[1:]]
    write_boards(tmp_path / "seen.pbn", observed)
    code = main(["verify", str(fixtures / "test.dlm"), "--observed", str(tmp_path / "seen.pbn"),
                 "--boards", "1-2"])
    captured = capsys.readouterr()
    assert code == 0
    boards = json.loads(captured.out)["boards"]
    assert [(b["board"], b["status"]) for b in boards] == [(1, "differs"), (2, "match")]
    assert "card 4C is in E but belongs to W" in boards[0]["differences"][1]["text"]
    assert "14–12" in captured.err and "differs" in captured.err


def test_verify_command_exits_2_on_a_damaged_record(
        fixtures: Path, record: list[Board], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    write_boards(tmp_path / "bad.pbn", [moved(record[0], "4C", Seat.E), *record[1:]])
    code = main(["verify", str(tmp_path / "bad.pbn"), "--observed", str(fixtures / "test.dup")])
    assert code == 2
    assert json.loads(capsys.readouterr().out)["errors"][0]["board"] == 1


def test_verify_command_flags_a_deal_played_in_another_session(
        fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    args = ["verify", str(fixtures / "test.pbn"), "--observed", str(fixtures / "test.dlm"),
            "--boards", "3", "--db", db]
    assert main([*args, "--session", "monday"]) == 0
    first = json.loads(capsys.readouterr().out)["boards"][0]
    assert "history" not in first
    assert main([*args, "--session", "thursday"]) == 0
    again = json.loads(capsys.readouterr().out)["boards"][0]
    assert again["history"]["status"] == "no-result"
    assert again["history"]["law"] == "Law 6D2"
    assert again["history"]["sightings"][0]["session"] == "monday"


def test_a_sealed_set_names_no_card_unless_revealed(
        fixtures: Path, record: list[Board], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from scanner.bridge.formats.reading import SetInfo
    write_boards(tmp_path / "sealed.dlm", record, SetInfo(sealed=True))
    write_boards(tmp_path / "seen.pbn", [moved(record[0], "4C", Seat.E), *record[1:]])
    args = ["verify", str(tmp_path / "sealed.dlm"), "--observed", str(tmp_path / "seen.pbn"),
            "--boards", "1"]
    assert main(args) == 0
    captured = capsys.readouterr()
    board = json.loads(captured.out)["boards"][0]
    assert board["status"] == "differs"
    assert [d["text"] for d in board["differences"]] == [
        "14–12: E holds 14 cards, W holds 12", "a card is in E but belongs to W"]
    assert "4C" not in captured.out and "4C" not in captured.err
    assert main([*args, "--reveal"]) == 0
    assert "card 4C is in E but belongs to W" in capsys.readouterr().out
