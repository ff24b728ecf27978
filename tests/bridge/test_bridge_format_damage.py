"""Damaged files: every problem is named with its board and place, the good boards are still
reported, and the command line exits 2 without writing anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scanner.bridge.formats import FormatError, load, read_boards
from scanner.bridge.formats.dlm import board_checksum
from scanner.cli import main


def errors_of(path: Path) -> list[tuple[int | None, str]]:
    return [(d.board, d.problem) for d in load(path).damage]


def good_of(path: Path) -> list[int]:
    return [b.number for b in load(path).boards]


# ---- DLM --------------------------------------------------------------------------------

def dlm_lines(fixtures: Path) -> list[str]:
    return (fixtures / "test.dlm").read_bytes().decode("ascii").split("\r\n")


def write_dlm(path: Path, lines: list[str]) -> Path:
    path.write_bytes("\r\n".join(lines).encode("ascii"))
    return path


def board_line(lines: list[str], number: int) -> int:
    return lines.index(next(line for line in lines if line.startswith(f"Board {number:02d}=")))


def test_dlm_bad_board_checksum_names_the_board(fixtures: Path, tmp_path: Path) -> None:
    lines = dlm_lines(fixtures)
    i = board_line(lines, 3)
    lines[i] = lines[i][:-3] + "999"
    path = write_dlm(tmp_path / "bad.dlm", lines)
    [(board, problem)] = errors_of(path)
    assert board == 3 and "checksum is 999" in problem
    assert good_of(path) == [n for n in range(1, 17) if n != 3]


def test_dlm_bad_header_checksum_is_damage(fixtures: Path, tmp_path: Path) -> None:
    lines = [line.replace("Checksum=17", "Checksum=16") for line in dlm_lines(fixtures)]
    [(board, problem)] = errors_of(write_dlm(tmp_path / "bad.dlm", lines))
    assert board is None and "header checksum is 16, expected 17" in problem


def test_dlm_header_checksum_is_not_count_xor_show(fixtures: Path, tmp_path: Path) -> None:
    # The published mistake: Duplicates XOR Show alone. It must be rejected here.
    lines = [line.replace("Checksum=17", f"Checksum={1 ^ 1}") for line in dlm_lines(fixtures)]
    assert errors_of(write_dlm(tmp_path / "bad.dlm", lines))


def test_dlm_fourteen_twelve_deal_is_damage_in_a_record(fixtures: Path, tmp_path: Path) -> None:
    lines = dlm_lines(fixtures)
    i = board_line(lines, 5)
    letters = lines[i].split("=")[1][:26]
    # letter 0 holds ♠A (North's) and ♠K (East's): give both to North ('a').
    moved = "a" + letters[1:]
    lines[i] = f"Board 05={moved}{board_checksum(5, moved):03d}"
    path = write_dlm(tmp_path / "bad.dlm", lines)
    [(board, problem)] = errors_of(path)
    assert board == 5
    assert "hand N holds 14 cards" in problem and "hand E holds 12 cards" in problem


def test_dlm_board_one_letter_short_is_damage_naming_the_board(
        fixtures: Path, tmp_path: Path) -> None:
    # DLM cannot spell a 51-card deal; the nearest damage is a board value a letter short.
    lines = dlm_lines(fixtures)
    i = board_line(lines, 9)
    letters = lines[i].split("=")[1][:25]
    lines[i] = f"Board 09={letters}{board_checksum(9, letters):03d}"
    [(board, problem)] = errors_of(write_dlm(tmp_path / "bad.dlm", lines))
    assert board == 9 and "is not 26 letters" in problem


def test_dlm_truncated_file_names_the_missing_boards(fixtures: Path, tmp_path: Path) -> None:
    lines = dlm_lines(fixtures)
    path = write_dlm(tmp_path / "cut.dlm", lines[:board_line(lines, 12)])
    errors = errors_of(path)
    assert {board for board, _ in errors} >= {12, 13, 14, 15, 16}
    assert all("truncated" in problem for _, problem in errors)
    assert good_of(path) == list(range(1, 12))


def test_dlm_sealed_status_is_read_and_written(fixtures: Path, tmp_path: Path) -> None:
    from scanner.bridge.formats import write_boards
    from scanner.bridge.formats.reading import SetInfo
    boards = list(read_boards(fixtures / "test.dlm"))
    write_boards(tmp_path / "sealed.dlm", boards, SetInfo(sealed=True))
    text = (tmp_path / "sealed.dlm").read_text()
    assert "Status=Sealed" in text and "Checksum=16" in text  # 1 ^ 1 ^ 16 ^ 0
    loaded = load(tmp_path / "sealed.dlm")
    assert loaded.info.sealed and not loaded.damage and len(loaded.boards) == 16


# ---- DUP --------------------------------------------------------------------------------

def dup_bytes(fixtures: Path) -> bytearray:
    return bytearray((fixtures / "test.dup").read_bytes())


def test_dup_card_in_two_hands_names_the_card_and_hands(fixtures: Path, tmp_path: Path) -> None:
    data = dup_bytes(fixtures)
    board = 6
    start = (board - 1) * 156
    data[start + 26:start + 28] = data[start:start + 2]  # E's first card := N's first card
    (tmp_path / "bad.dup").write_bytes(bytes(data))
    [(number, problem)] = errors_of(tmp_path / "bad.dup")
    assert number == board and "is in N and E" in problem


def test_dup_fifty_one_card_deal_is_damage(fixtures: Path, tmp_path: Path) -> None:
    data = dup_bytes(fixtures)
    start = 2 * 156 + 78 + 3 * 17  # board 3, DGE part, West
    data[start + 16] = 0  # drop West's last card
    (tmp_path / "bad.dup").write_bytes(bytes(data))
    [(number, problem)] = errors_of(tmp_path / "bad.dup")
    assert number == 3 and "hand W" in problem and "13 cards in BRI, 12 in DGE" in problem


def test_dup_truncated_file_names_the_partial_board(fixtures: Path, tmp_path: Path) -> None:
    data = dup_bytes(fixtures)
    (tmp_path / "cut.dup").write_bytes(bytes(data[:156 * 10 + 40]))
    errors = errors_of(tmp_path / "cut.dup")
    assert (11, "file truncated: 40 of 156 bytes of a board") in errors
    assert any("trailer says boards 1–16" in problem for _, problem in errors)
    assert good_of(tmp_path / "cut.dup") == list(range(1, 11))


def test_dup_without_a_first_trailer_cannot_be_numbered(fixtures: Path, tmp_path: Path) -> None:
    data = dup_bytes(fixtures)
    data[146:156] = b"\0" * 10
    (tmp_path / "bad.dup").write_bytes(bytes(data))
    [(board, problem)] = errors_of(tmp_path / "bad.dup")
    assert board is None and "cannot be numbered" in problem


# ---- PBN --------------------------------------------------------------------------------

def pbn_with(fixtures: Path, tmp_path: Path, old: str, new: str) -> Path:
    text = (fixtures / "test-jfr.pbn").read_text()
    assert old in text
    path = tmp_path / "bad.pbn"
    path.write_text(text.replace(old, new))
    return path


def test_pbn_fifty_one_card_deal_names_the_short_hand_and_the_lost_card(
        fixtures: Path, tmp_path: Path) -> None:
    path = pbn_with(fixtures, tmp_path, "Q432.KJ76.64.JT4\"", "Q432.KJ76.64.JT\"")
    [(board, problem)] = errors_of(path)
    assert board == 1
    assert "hand W holds 12 cards, not 13" in problem and "in no hand: 4C" in problem


def test_pbn_card_in_two_hands_is_named(fixtures: Path, tmp_path: Path) -> None:
    path = pbn_with(fixtures, tmp_path, "N:65.A53.JT7.AK762 AK87", "N:65.A53.JT7.AK762 AK86")
    [(board, problem)] = errors_of(path)
    assert board == 1 and "card 6S is in N and E" in problem


def test_pbn_truncated_inside_a_tag_is_damage(fixtures: Path, tmp_path: Path) -> None:
    text = (fixtures / "test-jfr.pbn").read_text()
    cut = text.index('[Deal "N:KT9532')  # board 12
    (tmp_path / "cut.pbn").write_text(text[:cut + 20])
    errors = errors_of(tmp_path / "cut.pbn")
    assert any("unreadable tag" in problem for _, problem in errors)
    assert good_of(tmp_path / "cut.pbn") == list(range(1, 12))


def test_read_boards_raises_at_the_first_damage(fixtures: Path, tmp_path: Path) -> None:
    path = pbn_with(fixtures, tmp_path, "N:65.A53.JT7.AK762 AK87", "N:65.A53.JT7.AK762 AK86")
    with pytest.raises(FormatError, match="board 1"):
        list(read_boards(path))


# ---- the command line -------------------------------------------------------------------

def test_convert_of_damaged_input_exits_2_reporting_good_and_bad_boards(
        fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = dlm_lines(fixtures)
    i = board_line(lines, 7)
    lines[i] = lines[i][:-3] + "000"
    write_dlm(tmp_path / "bad.dlm", lines)
    out = tmp_path / "out.pbn"
    assert main(["convert", str(tmp_path / "bad.dlm"), str(out)]) == 2
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["good_boards"] == [n for n in range(1, 17) if n != 7]
    assert [e["board"] for e in report["errors"]] == [7]
    assert "board 7" in captured.err and not out.exists()


def test_convert_picks_formats_by_extension(fixtures: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(fixtures / "test.pbn"), str(tmp_path / "set.dlm")]) == 0
    assert json.loads(capsys.readouterr().out)["boards"] == list(range(1, 17))
    assert [b.number for b in read_boards(tmp_path / "set.dlm")] == list(range(1, 17))


def test_convert_refuses_an_unknown_extension(fixtures: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(fixtures / "test.pbn"), str(tmp_path / "set.xyz")]) == 2
    assert ".xyz" in capsys.readouterr().err


def test_convert_will_not_unseal_a_sealed_set_unasked(fixtures: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    text = (fixtures / "test.dlm").read_text().replace("Status=Show", "Status=Sealed")
    (tmp_path / "sealed.dlm").write_text(text.replace("Checksum=17", "Checksum=16"))
    assert main(["convert", str(tmp_path / "sealed.dlm"), str(tmp_path / "open.pbn")]) == 2
    assert "Sealed" in capsys.readouterr().err
    assert main(["convert", str(tmp_path / "sealed.dlm"), str(tmp_path / "open.pbn"),
                 "--unseal"]) == 0


def test_convert_will_not_overwrite_a_file_unasked(fixtures: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set.dlm"
    out.write_text("an earlier set")
    assert main(["convert", str(fixtures / "test.pbn"), str(out)]) == 2
    assert out.read_text() == "an earlier set" and "--force" in capsys.readouterr().err
    assert main(["convert", str(fixtures / "test.pbn"), str(out), "--force"]) == 0
