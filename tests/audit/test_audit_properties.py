"""Properties of the statistics that hold for every deck, checked on generated decks."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scanner.audit import statistics as stat
from scanner.audit.order_nulls import Component, neighbour_count_null
from scanner.audit.shuffles import NEW_DECK_ORDER, deal_round_robin
from scanner.cards import BRIDGE_52, Card, Suit

decks = st.randoms(use_true_random=False).map(
    lambda rng: rng.sample(list(NEW_DECK_ORDER), len(NEW_DECK_ORDER)))


@given(decks)
def test_rising_sequences_of_a_deck_and_of_its_reverse_add_up_to_53(deck):
    assert (stat.rising_sequences(deck, NEW_DECK_ORDER)
            + stat.rising_sequences(deck[::-1], NEW_DECK_ORDER)) == 53


@given(decks, st.permutations(list(Suit)))
def test_new_pack_statistic_ignores_suit_names_and_dealing_direction(deck, relabel):
    rename = dict(zip(Suit, relabel, strict=True))
    renamed = [Card(card.rank, rename[card.suit]) for card in deck]
    t = stat.new_pack_statistic(deck)[0]
    assert stat.new_pack_statistic(renamed)[0] == t
    assert stat.new_pack_statistic(deck[::-1])[0] == t


@settings(max_examples=50)
@given(decks)
def test_every_neighbour_count_lies_in_the_support_of_its_null(deck):
    adjacent = neighbour_count_null(52, (Component("path", 13),) * 4)
    same = neighbour_count_null(52, (Component("clique", 13),) * 4)
    assert adjacent.pmf(stat.neighbour_count(deck, stat.same_suit_adjacent_rank)) > 0
    assert same.pmf(stat.neighbour_count(deck, stat.same_suit)) > 0


@given(st.randoms(use_true_random=False))
def test_a_deal_round_robin_gives_every_hand_thirteen_cards(rng: random.Random):
    deck = BRIDGE_52.cards()
    rng.shuffle(deck)
    hands = deal_round_robin(deck)
    assert [sum(stat.suit_lengths(h)) for h in hands] == [13, 13, 13, 13]
