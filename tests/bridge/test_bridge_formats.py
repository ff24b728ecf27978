"""PBN, DLM and DUP (with BRI and DGE) on the real fixture files: every format reads the
same 16 deals, every pair of formats round-trips, and each writer reproduces its file."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from scanner.bridge.board import Vulnerability, dealer_for, vulnerability_for
from scanner.bridge.formats import load, read_boards, write_boards
from scanner.cards import Seat, parse_hand

FORMATS = ("pbn", "dlm", "dup", "bri", "dge", "lin", "csv")


def deals(path: Path) -> list[tuple]:
    return [(b.number, b.dealer, b.vulnerability, b.complete_hands()) for b in read_boards(path)]


def test_pbn_fixture_reads_sixteen_boards_with_their_tags(fixtures: Path) -> None:
    boards = list(read_boards(fixtures / "test.pbn"))
    assert [b.number for b in boards] == list(range(1, 17))
    first = boards[0]
    assert first.dealer is Seat.N and first.vulnerability is Vulnerability.NONE
    assert first.hand(Seat.N) == tuple(parse_hand("65.A53.JT7.AK762"))
    assert first.hand(Seat.W) == tuple(parse_hand("Q432.KJ76.64.JT4"))
    table = next(t for t in first.tags if t.name == "OptimumResultTable")
    assert table.value == "Declarer;Denomination\\2R;Result\\2R"
    assert table.section[:2] == ("N C 6", "N D 5") and len(table.section) == 20


@pytest.mark.parametrize("ext", FORMATS)
def test_every_format_holds_the_same_sixteen_deals(fixtures: Path, ext: str) -> None:
    assert deals(fixtures / f"test.{ext}") == deals(fixtures / "test.pbn")


def test_jfr_pbn_variant_holds_the_same_deals(fixtures: Path) -> None:
    assert deals(fixtures / "test-jfr.pbn") == deals(fixtures / "test.pbn")


def test_fixture_dealer_and_vulnerability_follow_the_board_number(fixtures: Path) -> None:
    for board in read_boards(fixtures / "test.pbn"):
        assert board.dealer is dealer_for(board.number)
        assert board.vulnerability is vulnerability_for(board.number)


@pytest.mark.parametrize(("source", "target"), list(itertools.permutations(FORMATS, 2)))
def test_round_trip_through_each_pair_of_formats(fixtures: Path, tmp_path: Path,
                                                 source: str, target: str) -> None:
    loaded = load(fixtures / f"test.{source}")
    write_boards(tmp_path / f"mid.{target}", loaded.boards, loaded.info)
    back = load(tmp_path / f"mid.{target}")
    write_boards(tmp_path / f"back.{source}", back.boards, back.info)
    assert deals(tmp_path / f"back.{source}") == deals(fixtures / f"test.{source}")


@pytest.mark.parametrize("ext", ["dlm", "dup", "bri", "dge", "csv"])
def test_binary_and_dlm_writers_reproduce_the_fixture_byte_for_byte(
        fixtures: Path, tmp_path: Path, ext: str) -> None:
    loaded = load(fixtures / f"test.{ext}")
    write_boards(tmp_path / f"out.{ext}", loaded.boards, loaded.info)
    assert (tmp_path / f"out.{ext}").read_bytes() == (fixtures / f"test.{ext}").read_bytes()


def test_pbn_writer_keeps_every_other_tag_as_it_was(fixtures: Path, tmp_path: Path) -> None:
    loaded = load(fixtures / "test.pbn")
    write_boards(tmp_path / "out.pbn", loaded.boards)
    written = (tmp_path / "out.pbn").read_text().splitlines()
    original = (fixtures / "test.pbn").read_text().splitlines()
    assert [line for line in written if not line.startswith("%")][1:] == original


def test_dlm_fixture_header_checksum_is_duplicates_xor_from_xor_to_xor_show(
        fixtures: Path) -> None:
    from scanner.bridge.formats.dlm import header_checksum
    text = (fixtures / "test.dlm").read_text()
    assert "Checksum=17" in text
    assert header_checksum(1, 1, 16, show=True) == 17


def test_dup_reads_trailer_on_every_board_as_well_as_on_the_first(
        fixtures: Path, tmp_path: Path) -> None:
    from scanner.bridge.formats import dup
    loaded = load(fixtures / "test.dup")
    dup.write(tmp_path / "every.dup", loaded.boards, loaded.info, trailer_on_every_board=True)
    data = (tmp_path / "every.dup").read_bytes()
    assert data[156 + 146:156 * 2] == b"YN1  0 16 "
    assert deals(tmp_path / "every.dup") == deals(fixtures / "test.dup")


def test_dup_numbers_boards_from_the_trailers_low_board(fixtures: Path, tmp_path: Path) -> None:
    boards = [b.renumbered(b.number + 16) for b in read_boards(fixtures / "test.pbn")]
    write_boards(tmp_path / "late.dup", boards)
    assert [b.number for b in read_boards(tmp_path / "late.dup")] == list(range(17, 33))


def test_lin_lists_each_board_once_per_room_and_that_is_one_board(fixtures: Path) -> None:
    text = (fixtures / "test.lin").read_text()
    assert text.count("qx|o1|") == 1 and text.count("qx|c1|") == 1
    assert [b.number for b in read_boards(fixtures / "test.lin")] == list(range(1, 17))


def test_lin_room_listings_that_disagree_are_damage(fixtures: Path, tmp_path: Path) -> None:
    lines = (fixtures / "test.lin").read_text().splitlines()
    closed = next(i for i, line in enumerate(lines) if line.startswith("qx|c2|"))
    lines[closed] = lines[closed].replace("|sv|n|", "|sv|e|")
    (tmp_path / "bad.lin").write_text("\n".join(lines))
    [damage] = load(tmp_path / "bad.lin").damage
    assert damage.board == 2 and "listed again with another deal" in damage.problem
