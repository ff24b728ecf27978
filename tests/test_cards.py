"""Card notation: canonical rank+suit, forgiving input, errors naming the token."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scanner.cards import (
    ALL_CARDS,
    BRIDGE_52,
    PINOCHLE_48,
    Card,
    CardError,
    Rank,
    Seat,
    Suit,
    format_hand,
    parse_card,
    parse_hand,
    parse_seat,
)


@pytest.mark.parametrize("token", ["TH", "10h", "T♥", "th", " 10♡ ", "10H"])
def test_ten_of_hearts_is_accepted_in_every_notation(token):
    assert parse_card(token) == Card(Rank.T, Suit.H)


def test_lowercase_ace_of_spades_parses():
    assert parse_card("as") == Card(Rank.A, Suit.S)


def test_cards_format_canonically_as_rank_then_suit():
    assert str(parse_card("10♦")) == "TD"


@pytest.mark.parametrize("token", ["", "A", "ZS", "1X", "11H", "joker", "AS!"])
def test_a_bad_token_is_an_error_naming_the_token(token):
    with pytest.raises(CardError) as excinfo:
        parse_card(token)
    assert repr(token) in str(excinfo.value)


@given(st.sampled_from(ALL_CARDS))
def test_every_card_round_trips_through_its_text(card):
    assert parse_card(str(card)) == card


def test_bridge_deck_has_52_distinct_cards():
    assert BRIDGE_52.size == 52
    assert len(BRIDGE_52.distinct) == 52


def test_pinochle_deck_is_two_copies_of_a_ten_king_queen_jack_nine_in_each_suit():
    deck = PINOCHLE_48.multiset
    assert PINOCHLE_48.size == 48
    assert set(deck.values()) == {2}
    assert {c.rank for c in deck} == {Rank.A, Rank.T, Rank.K, Rank.Q, Rank.J, Rank.R9}


def test_hand_formats_as_pbn_suit_strings_with_a_dash_for_a_void():
    hand = [parse_card(t) for t in "9S AS TS KS JH QH 8C AC 9C".split()]
    assert format_hand(hand) == "AKT9.QJ.-.A98"


def test_hand_formats_with_empty_voids_for_pbn_deals():
    assert format_hand([parse_card("AS")], void="") == "A..."


def test_hand_text_round_trips():
    assert format_hand(parse_hand("AKT9.QJ.-.A98")) == "AKT9.QJ.-.A98"


def test_a_hand_without_four_suits_is_an_error():
    with pytest.raises(CardError, match="four suits"):
        parse_hand("AKQ.JT9")


def test_the_dealers_left_is_the_next_seat_clockwise():
    assert [s.left for s in Seat] == [Seat.E, Seat.S, Seat.W, Seat.N]


def test_an_unknown_seat_is_an_error_naming_it():
    with pytest.raises(CardError, match="'X'"):
        parse_seat("X")


def test_card_index_follows_the_dlm_order_spades_ace_first_clubs_deuce_last():
    assert parse_card("AS").index == 0
    assert parse_card("2C").index == 51
    assert [c.index for c in ALL_CARDS] == list(range(52))
