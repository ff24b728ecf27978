"""The GSR riffle model: its closed forms reproduce Bayer & Diaconis's figures, and the
simulated riffle follows the closed form."""

from __future__ import annotations

import random
from collections import Counter
from math import factorial

import pytest

from scanner.audit.order_nulls import rising_sequences_null
from scanner.audit.shuffles import (
    NEW_DECK_ORDER,
    expected_rising_sequences,
    gsr_probability,
    riffle,
    riffles,
    rising_sequences_after,
    total_variation,
)
from scanner.audit.statistics import rising_sequences
from scanner.cards import BRIDGE_52


def test_expected_rising_sequences_after_one_to_ten_riffles_match_the_published_list():
    published = [2.0, 4.0, 7.95, 14.10, 19.61, 22.95, 24.71, 25.60, 26.05, 26.28]
    assert [round(expected_rising_sequences(52, k), 2) for k in range(1, 11)] == published


def test_total_variation_after_k_riffles_gives_seven_shuffles():
    published = {4: 1.000, 5: 0.924, 6: 0.614, 7: 0.334, 8: 0.167, 9: 0.085, 10: 0.043}
    for k, tv in published.items():
        assert total_variation(52, k) == pytest.approx(tv, abs=0.0006)


def test_power_of_alarming_at_19_rising_sequences_after_4_5_6_riffles():
    power = {k: sum(rising_sequences_after(52, k)[:19]) for k in (4, 5, 6)}
    assert power[4] == pytest.approx(1.00, abs=0.005)
    assert power[5] == pytest.approx(0.48, abs=0.005)
    assert power[6] == pytest.approx(0.04, abs=0.005)


def test_many_riffles_converge_to_the_uniform_rising_sequences_law():
    after = rising_sequences_after(52, 45)
    null = rising_sequences_null(52)
    assert after == pytest.approx(list(null.probs), abs=1e-9)


def test_gsr_probabilities_of_all_permutations_sum_to_one():
    counts = [1, 11, 11, 1]  # Eulerian numbers for n = 4
    for k in (1, 2, 3):
        total = sum(c * gsr_probability(4, k, r) for r, c in enumerate(counts, start=1))
        assert total == pytest.approx(1.0)
    assert gsr_probability(4, 50, 2) == pytest.approx(1 / factorial(4))


def test_a_simulated_riffle_follows_the_closed_form_law_of_rising_sequences():
    rng = random.Random(20261130)
    draws = 4000
    seen = Counter(rising_sequences(riffles(NEW_DECK_ORDER, 3, rng), NEW_DECK_ORDER)
                   for _ in range(draws))
    law = rising_sequences_after(52, 3)
    mean = sum(r * n for r, n in seen.items()) / draws
    assert mean == pytest.approx(expected_rising_sequences(52, 3), abs=0.1)
    for r in (6, 7, 8, 9, 10):
        assert seen[r] / draws == pytest.approx(law[r - 1], abs=0.025)


def test_one_riffle_interleaves_two_packets_that_keep_their_order():
    rng = random.Random(7)
    deck = BRIDGE_52.cards()
    shuffled = riffle(deck, rng)
    assert sorted(shuffled, key=lambda c: c.index) == sorted(deck, key=lambda c: c.index)
    assert rising_sequences(shuffled, deck) <= 2
