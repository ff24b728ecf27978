"""The PBN quirks that have broken popular parsers, each read as a person would read it."""

from __future__ import annotations

from pathlib import Path

from scanner.bridge.board import Vulnerability
from scanner.bridge.formats import load, read_boards
from scanner.cards import Seat, parse_hand

DEAL = "N:65.A53.JT7.AK762 AK87.QT4.AK98.95 JT9.982.Q532.Q83 Q432.KJ76.64.JT4"
NORTH = tuple(parse_hand("65.A53.JT7.AK762"))
WEST = tuple(parse_hand("Q432.KJ76.64.JT4"))


def one_board(tmp_path: Path, text: str, strict: bool = True):
    path = tmp_path / "q.pbn"
    path.write_text(text)
    loaded = load(path, strict=strict)
    assert not loaded.damage, loaded.damage
    [board] = loaded.boards
    return board


def game(deal: str = DEAL, board: str = "1", dealer: str = "N", vul: str = "None") -> str:
    return (f'[Board "{board}"]\n[Dealer "{dealer}"]\n[Vulnerable "{vul}"]\n'
            f'[Deal "{deal}"]\n')


def test_suit_letters_inside_the_deal_string(tmp_path: Path) -> None:
    deal = "N:S65.HA53.DJT7.CAK762 SAK87.HQT4.DAK98.C95 SJT9.H982.DQ532.CQ83 SQ432.HKJ76.D64.CJT4"
    assert one_board(tmp_path, game(deal)).hand(Seat.N) == NORTH


def test_comment_only_lines_and_semicolon_comments(tmp_path: Path) -> None:
    text = "% PBN 2.1\n%   just a remark\n" + game().replace(
        '[Dealer "N"]', '[Dealer "N"] ; the dealer\n% between tags')
    assert one_board(tmp_path, text).dealer is Seat.N


def test_brace_comment_blocks_over_several_lines_even_with_a_blank_line(tmp_path: Path) -> None:
    text = '{ a comment\n[Board "99"]\n\nstill the comment }\n' + game()
    assert one_board(tmp_path, text).number == 1


def test_question_mark_values_fall_back_on_the_board_number(tmp_path: Path) -> None:
    board = one_board(tmp_path, '[Event "?"]\n' + game(board="6", dealer="?", vul="?"))
    assert board.dealer is Seat.E and board.vulnerability is Vulnerability.EW


def test_statistics_lines_between_games_are_not_a_game(tmp_path: Path) -> None:
    text = (game() + "\nN C 6\nN D 5\n[Ability \"x\"]\n\n"
            + game(board="2", dealer="E", vul="NS"))
    path = tmp_path / "q.pbn"
    path.write_text(text)
    assert [b.number for b in read_boards(path)] == [1, 2]


def test_lowercase_everywhere(tmp_path: Path) -> None:
    board = one_board(tmp_path, game(DEAL.lower(), dealer="w", vul="ew"))
    assert board.hand(Seat.N) == NORTH and board.dealer is Seat.W
    assert board.vulnerability is Vulnerability.EW


def test_ten_written_as_10(tmp_path: Path) -> None:
    deal = DEAL.replace("JT7", "J107").replace("AKQT", "AKQ10")
    assert one_board(tmp_path, game(deal)).hand(Seat.N) == NORTH


def test_deal_string_starting_at_west(tmp_path: Path) -> None:
    deal = "W:Q432.KJ76.64.JT4 65.A53.JT7.AK762 AK87.QT4.AK98.95 JT9.982.Q532.Q83"
    board = one_board(tmp_path, game(deal))
    assert board.hand(Seat.N) == NORTH and board.hand(Seat.W) == WEST


def test_one_unknown_hand_is_determined_by_the_other_three(tmp_path: Path) -> None:
    deal = "N:65.A53.JT7.AK762 AK87.QT4.AK98.95 JT9.982.Q532.Q83 -"
    board = one_board(tmp_path, game(deal))
    assert board.hand(Seat.W) is None
    assert set(board.complete_hands()[Seat.W.index]) == set(WEST)


def test_two_unknown_hands_are_damage_in_a_record_but_evidence_when_observed(
        tmp_path: Path) -> None:
    deal = "N:65.A53.JT7.AK762 AK87.QT4.AK98.95 - -"
    path = tmp_path / "q.pbn"
    path.write_text(game(deal))
    [damage] = load(path).damage
    assert "hands S, W are unknown" in damage.problem
    assert one_board(tmp_path, game(deal), strict=False).hand(Seat.S) is None


def test_vulnerability_synonyms(tmp_path: Path) -> None:
    expected = {"Love": Vulnerability.NONE, "-": Vulnerability.NONE, "Both": Vulnerability.ALL,
                "All": Vulnerability.ALL, "NS": Vulnerability.NS}
    for written, vul in expected.items():
        assert one_board(tmp_path, game(vul=written)).vulnerability is vul


def test_games_without_a_blank_line_between_them(tmp_path: Path) -> None:
    path = tmp_path / "q.pbn"
    path.write_text(game() + game(board="2", dealer="E", vul="NS"))
    assert [b.number for b in read_boards(path)] == [1, 2]


def test_a_game_with_no_board_and_no_deal_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "q.pbn"
    path.write_text('[Event "Club night"]\n[Site "Hall"]\n\n' + game())
    assert [b.number for b in read_boards(path)] == [1]


def test_windows_1252_names_do_not_stop_the_reader(tmp_path: Path) -> None:
    path = tmp_path / "q.pbn"
    path.write_bytes(('[Event "Ma\xf1ana"]\n' + game()).encode("cp1252"))
    [board] = read_boards(path)
    assert board.tags[0].value == "Mañana"
