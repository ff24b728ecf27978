"""Trick play for the simulated table: legal cards, the winning card, counters and tricks."""

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from pinochle_hands import cards, shuffled_hands

from scanner.cards import Seat, Suit
from scanner.pinochle.options import MODERN_COUNT, OLD_COUNT
from scanner.pinochle.play import legal_cards, play_hand, winning_card

H, S = Suit.H, Suit.S


def test_a_player_must_follow_suit():
    assert legal_cards(cards("9C KH AS"), cards("TC"), H) == cards("9C")


def test_a_player_must_beat_the_trick_when_following_if_able():
    assert legal_cards(cards("9C KC AC"), cards("QC"), H) == cards("KC AC")


def test_a_player_who_cannot_beat_it_follows_with_any_card_of_the_suit():
    assert legal_cards(cards("9C JC AS"), cards("AC"), H) == cards("9C JC")


def test_once_trumped_following_suit_need_not_beat_the_led_card():
    assert legal_cards(cards("9C KC AS"), cards("QC 9H"), H) == cards("9C KC")


def test_a_player_void_in_the_suit_led_must_trump():
    assert legal_cards(cards("9H AS"), cards("QC"), H) == cards("9H")


def test_a_player_who_trumps_must_beat_a_trump_already_played_if_able():
    assert legal_cards(cards("9H AH AS"), cards("QC JH"), H) == cards("AH")


def test_void_in_both_the_suit_led_and_trump_any_card_may_be_played():
    assert legal_cards(cards("AS KD"), cards("QC"), H) == cards("AS KD")


def test_of_two_identical_cards_the_first_played_wins():
    assert winning_card(cards("AS 9S AS TS"), H) == 0


def test_the_highest_trump_wins():
    assert winning_card(cards("AS 9H TH KS"), H) == 2


def test_ten_ranks_between_ace_and_king():
    assert winning_card(cards("KS TS"), H) == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(list(Suit)), st.sampled_from(list(Seat)))
def test_a_played_out_hand_accounts_for_every_counter_and_trick(seed, trump, leader):
    taken, tricks = play_hand(shuffled_hands(seed), trump, leader, MODERN_COUNT)
    assert sum(t.points for t in taken.values()) == 25
    assert sum(t.tricks for t in taken.values()) == 12 == len(tricks)


def test_old_count_adds_up_to_250():
    taken, _ = play_hand(shuffled_hands(3), S, Seat.E, OLD_COUNT)
    assert sum(t.points for t in taken.values()) == 250


def test_the_winner_of_a_trick_leads_the_next():
    _, tricks = play_hand(shuffled_hands(5), S, Seat.E, MODERN_COUNT)
    assert tricks[0].leader is Seat.E
    assert all(later.leader is earlier.winner for earlier, later in pairwise(tricks))
