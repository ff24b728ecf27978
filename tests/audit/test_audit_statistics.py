"""What each audit statistic counts, on decks whose answer is known by hand."""

from __future__ import annotations

from scanner.audit import statistics as stat
from scanner.audit.shuffles import NEW_DECK_ORDER, deal_round_robin
from scanner.cards import BRIDGE_52, PINOCHLE_48, Card, Rank, Suit, parse_cards


def test_rising_sequences_of_the_prior_order_itself_is_one():
    assert stat.rising_sequences(NEW_DECK_ORDER, NEW_DECK_ORDER) == 1


def test_rising_sequences_of_the_prior_dealt_backwards_is_n():
    assert stat.rising_sequences(NEW_DECK_ORDER[::-1], NEW_DECK_ORDER) == 52


def test_one_perfect_interleave_of_two_halves_gives_two_rising_sequences():
    top, bottom = NEW_DECK_ORDER[:26], NEW_DECK_ORDER[26:]
    interleaved = [card for pair in zip(bottom, top, strict=True) for card in pair]
    assert stat.rising_sequences(interleaved, NEW_DECK_ORDER) == 2


def test_a_cut_adds_one_rising_sequence():
    cut = NEW_DECK_ORDER[20:] + NEW_DECK_ORDER[:20]
    assert stat.rising_sequences(cut, NEW_DECK_ORDER) == 2


def test_new_pack_statistic_is_four_for_an_unshuffled_pack_in_any_suit_order_or_direction():
    assert stat.new_pack_statistic(NEW_DECK_ORDER)[0] == 4
    assert stat.new_pack_statistic(NEW_DECK_ORDER[::-1])[0] == 4
    by_suit = sorted(NEW_DECK_ORDER, key=lambda c: (c.suit.value, 0))
    assert stat.new_pack_statistic(by_suit)[0] == 4


def test_unshuffled_new_pack_has_48_same_suit_adjacent_rank_neighbours():
    assert stat.neighbour_count(NEW_DECK_ORDER, stat.same_suit_adjacent_rank) == 48


def test_ace_and_two_are_adjacent_ranks_ace_and_king_are_not():
    ace, two, king = (Card(r, Suit.S) for r in (Rank.A, Rank.R2, Rank.K))
    assert stat.same_suit_adjacent_rank(ace, two)
    assert not stat.same_suit_adjacent_rank(ace, king)
    assert not stat.same_suit_adjacent_rank(ace, Card(Rank.R2, Suit.H))


def test_same_suit_neighbours_of_a_suit_sorted_pack_are_48():
    assert stat.neighbour_count(BRIDGE_52.cards(), stat.same_suit) == 48


def test_successor_pairs_count_only_the_prior_direction():
    order = parse_cards("AS KS QS 2H 3H".split())
    follows = stat.successor_in(parse_cards("AS KS QS 3H 2H".split()))
    assert stat.neighbour_count(order, follows) == 2


def test_sorted_pinochle_pack_has_24_identical_neighbours():
    assert stat.neighbour_count(PINOCHLE_48.cards(), stat.identical) == 24


def test_all_four_hands_4333_from_a_sorted_pack_dealt_one_at_a_time_have_no_freakness():
    hands = deal_round_robin(BRIDGE_52.cards())
    assert [stat.suit_lengths(h) for h in hands] == [(4, 3, 3, 3), (3, 4, 3, 3),
                                                      (3, 3, 4, 3), (3, 3, 3, 4)]
    assert stat.deal_freakness(hands) == 0


def test_big_fit_is_a_partnership_holding_ten_of_a_suit():
    spades = [Card(r, Suit.S) for r in Rank]
    hearts = [Card(r, Suit.H) for r in Rank]
    diamonds = [Card(r, Suit.D) for r in Rank]
    clubs = [Card(r, Suit.C) for r in Rank]
    north = spades[:5] + hearts[:8]
    south = spades[5:10] + diamonds[:8]
    east = spades[10:] + hearts[8:] + clubs[:5]
    west = diamonds[8:] + clubs[5:]
    assert stat.deal_has_big_fit([north, east, south, west])  # N-S: ten spades


def test_flat_hands_have_no_big_fit():
    assert not stat.deal_has_big_fit(deal_round_robin(BRIDGE_52.cards()))
