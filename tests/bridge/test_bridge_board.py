"""The board: dealer and vulnerability from the number (the reference table), and what makes
four hands one regular deal (Law 6B, Law 7B1)."""

from __future__ import annotations

import pytest

from scanner.bridge.board import (
    Board,
    DealError,
    Vulnerability,
    deal_problems,
    dealer_for,
    vulnerability_for,
)
from scanner.cards import ALL_CARDS, Seat, parse_card

V = Vulnerability
# Laws of Duplicate Bridge 2017, Law 2: board mod 16 from 0 (board 16) to 15.
REFERENCE = [V.EW, V.NONE, V.NS, V.EW, V.ALL, V.NS, V.EW, V.ALL,
             V.NONE, V.EW, V.ALL, V.NONE, V.NS, V.ALL, V.NONE, V.NS]


def sorted_deal() -> tuple:
    return tuple(ALL_CARDS[k:k + 13] for k in range(0, 52, 13))


@pytest.mark.parametrize("number", range(1, 37))
def test_dealer_follows_board_minus_one_mod_four(number: int) -> None:
    assert dealer_for(number) is (Seat.N, Seat.E, Seat.S, Seat.W)[(number - 1) % 4]


@pytest.mark.parametrize("number", range(1, 49))
def test_vulnerability_follows_the_reference_table_by_board_mod_16(number: int) -> None:
    assert vulnerability_for(number) is REFERENCE[number % 16]


def test_regular_deal_has_no_problems() -> None:
    assert deal_problems(sorted_deal()) == []


def test_law_7b1_fourteen_twelve_is_named_per_hand() -> None:
    n, e, s, w = sorted_deal()
    problems = deal_problems(((*n, w[0]), e, s, w[1:]))
    assert problems == ["hand N holds 14 cards, not 13", "hand W holds 12 cards, not 13"]


def test_card_in_two_hands_and_card_in_no_hand_are_named() -> None:
    n, e, s, w = sorted_deal()
    problems = deal_problems((n, e, s, (*w[:-1], n[0])))
    assert "card AS is in N and W" in problems
    assert "1 card in no hand: 2C" in problems


def test_one_unknown_hand_is_determined_and_filled() -> None:
    n, e, s, w = sorted_deal()
    board = Board.standard(1, (n, e, None, w))
    assert deal_problems(board.hands) == []
    assert board.complete_hands()[Seat.S.index] == s


def test_two_unknown_hands_leave_the_deal_unknown() -> None:
    n, e, _, _ = sorted_deal()
    board = Board.standard(1, (n, e, None, None))
    assert deal_problems(board.hands) == ["hands S, W are unknown"]
    with pytest.raises(DealError, match="board 1: hands S, W are unknown"):
        board.complete_hands()


def test_owners_list_the_seat_of_every_card_in_pack_order() -> None:
    board = Board.standard(3, sorted_deal())
    owners = board.owners()
    assert owners[parse_card("AS").index] is Seat.N
    assert owners[parse_card("2C").index] is Seat.W


def test_renumbered_board_takes_the_new_numbers_dealer_and_vulnerability() -> None:
    board = Board.standard(1, sorted_deal()).renumbered(6)
    assert (board.dealer, board.vulnerability) == (Seat.E, V.EW)
