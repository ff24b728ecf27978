"""The hand-shape nulls are exact combinatorics: they agree with brute force on a small deck
and reproduce the published bridge and pinochle figures (hand-pattern tables; Pavlicek's
freakness)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from scanner.audit.hand_nulls import (
    deal_null,
    hand_freakness,
    hand_pattern_probabilities,
    session_big_fit_null,
    session_freakness_null,
    suit_freakness,
)


def _all_deals(cards: list[int], hand_size: int):
    """Every deal of ``cards`` into four hands (small decks only)."""
    if not cards:
        yield []
        return
    for hand in combinations(cards, hand_size):
        rest = [c for c in cards if c not in hand]
        for others in _all_deals(rest, hand_size):
            yield [hand, *others]


def test_freakness_of_a_suit_is_distance_from_three_or_four_plus_void_and_singleton():
    assert [suit_freakness(n) for n in range(8)] == [5, 3, 1, 0, 0, 1, 2, 3]
    assert hand_freakness((4, 4, 3, 2)) == 1
    assert hand_freakness((13, 0, 0, 0)) == 24


def test_deal_freakness_null_equals_brute_force_on_an_eight_card_deck():
    # Four suits of two cards, four hands of two: every one of the 2,520 deals.
    suit_of = {card: card // 2 for card in range(8)}
    brute: Counter[int] = Counter()
    for deal in _all_deals(list(range(8)), 2):
        brute[sum(hand_freakness([sum(suit_of[c] == s for c in hand) for s in range(4)])
                  for hand in deal)] += 1
    null = deal_null(suit_size=2, hand_size=2).freakness
    total = sum(brute.values())
    for value, count in brute.items():
        assert null.pmf(value) == pytest.approx(count / total, rel=1e-12)
    assert sum(null.pmf(v) for v in brute) == pytest.approx(1.0)


@pytest.mark.parametrize(("pattern", "percent"), [
    ("4-4-3-2", 21.551), ("5-3-3-2", 15.517), ("5-4-3-1", 12.931), ("5-4-2-2", 10.580),
    ("4-3-3-3", 10.536), ("6-3-2-2", 5.642), ("6-4-2-1", 4.702), ("6-3-3-1", 3.448),
    ("5-5-2-1", 3.174), ("4-4-4-1", 2.993), ("7-3-2-1", 1.881), ("6-4-3-0", 1.326),
    ("5-4-4-0", 1.243)])
def test_bridge_hand_pattern_probabilities_match_the_published_table(pattern, percent):
    assert 100 * hand_pattern_probabilities()[pattern] == pytest.approx(percent, abs=0.0005)


def test_longest_suit_tails_match_the_published_figures():
    patterns = hand_pattern_probabilities()
    longest = {k: int(k.split("-")[0]) for k in patterns}
    for length, published in ((6, 0.2058), (7, 0.0403), (8, 0.0050)):
        tail = sum(p for k, p in patterns.items() if longest[k] >= length)
        assert tail == pytest.approx(published, abs=0.00006)


@pytest.mark.parametrize(("pattern", "percent"), [
    ("4-3-3-2", 27.2), ("5-3-2-2", 13.1), ("4-4-3-1", 11.1), ("5-4-2-1", 10.7),
    ("4-4-2-2", 9.2), ("3-3-3-3", 3.4)])
def test_pinochle_hand_pattern_probabilities_match_the_published_table(pattern, percent):
    assert 100 * hand_pattern_probabilities(12, 12)[pattern] == pytest.approx(percent, abs=0.05)


def test_a_partnership_holds_a_ten_card_fit_in_17_45_percent_of_deals():
    assert deal_null().big_fit == pytest.approx(0.1745, abs=0.00005)


def test_deal_freakness_mean_is_four_times_the_hand_mean():
    hand_mean = sum(p * hand_freakness([int(n) for n in k.split("-")])
                    for k, p in hand_pattern_probabilities().items())
    assert deal_null().freakness.mean() == pytest.approx(4 * hand_mean)
    # The reference rounds the hand mean to 2.98; the exact value is 2.998.
    assert hand_mean == pytest.approx(2.998, abs=0.001)


@pytest.mark.parametrize(("boards", "flat_below", "wild_from"), [
    (16, 132, 257), (24, 213, 366), (27, 244, 407)])
def test_session_freakness_thresholds_have_false_alarm_rates_near_1e_3(boards, flat_below,
                                                                        wild_from):
    null = session_freakness_null(boards)
    assert 5e-4 < null.at_most(flat_below - 1) < 2e-3
    assert 5e-4 < null.at_least(wild_from) < 2e-3


def test_nine_big_fits_in_sixteen_boards_is_rarer_than_1e_3():
    assert 1e-4 < session_big_fit_null(16).at_least(9) <= 1e-3


def test_thirteen_big_fits_in_sixteen_boards_has_chance_about_5e_8():
    assert session_big_fit_null(16).at_least(13) == pytest.approx(5e-8, rel=0.1)
