"""The dealing-order nulls are exact: they agree with brute force on small decks and
reproduce the published figures for a 52-card deck (Bayer & Diaconis 1992, rising sequences)."""

from __future__ import annotations

from itertools import pairwise, permutations
from math import comb, factorial

import pytest

from scanner.audit.order_nulls import (
    Component,
    eulerian_numbers,
    neighbour_count_null,
    rising_sequences_null,
    suit_folded_rising_sequences_null,
)


def _brute_force_neighbours(n: int, related) -> dict[int, int]:
    counts: dict[int, int] = {}
    for order in permutations(range(n)):
        k = sum(related(a, b) for a, b in pairwise(order))
        counts[k] = counts.get(k, 0) + 1
    return counts


def _as_counts(dist, n_factorial: int) -> dict[int, int]:
    return {x: round(p * n_factorial) for x, p in zip(dist.support, dist.probs, strict=True)
            if round(p * n_factorial)}


def test_eulerian_numbers_count_descents_of_every_permutation_of_six():
    brute = [0] * 6
    for order in permutations(range(6)):
        brute[sum(b < a for a, b in pairwise(order))] += 1
    assert list(eulerian_numbers(6)) == brute


@pytest.mark.parametrize(("c", "published"), [(16, 4.7e-7), (18, 5.0e-5), (19, 3.5e-4),
                                              (20, 1.9e-3), (21, 8.0e-3)])
def test_rising_sequences_left_tail_for_52_cards_matches_the_published_table(c, published):
    assert rising_sequences_null(52).at_most(c) == pytest.approx(published, rel=0.05)


def test_rising_sequences_null_has_mean_26_5_and_variance_53_over_12():
    null = rising_sequences_null(52)
    assert null.mean() == pytest.approx(26.5)
    assert null.variance() == pytest.approx(53 / 12)


def test_new_pack_statistic_null_has_mean_24_8_and_alarms_at_19_with_rate_4_5e_4():
    null = suit_folded_rising_sequences_null(4, 13)
    assert null.mean() == pytest.approx(24.8, abs=0.01)
    assert null.at_most(19) == pytest.approx(4.5e-4, rel=0.02)


@pytest.mark.parametrize(("components", "related"), [
    ((Component("path", 3), Component("path", 4)),
     lambda a, b: (a < 3) == (b < 3) and abs(a - b) == 1),
    ((Component("clique", 3), Component("clique", 4)), lambda a, b: (a < 3) == (b < 3)),
    ((Component("clique", 2),) * 3, lambda a, b: a // 2 == b // 2 and a < 6 and b < 6),
    ((Component("path", 7, directed=True),), lambda a, b: b == a + 1),
], ids=["adjacent-rank-paths", "same-suit-cliques", "identical-pairs", "successors"])
def test_neighbour_null_equals_brute_force_over_all_permutations_of_seven(components, related):
    null = neighbour_count_null(7, components)
    assert _as_counts(null, 5040) == _brute_force_neighbours(7, related)


def test_successor_pairs_follow_the_closed_form_for_permutations_with_k_successions():
    # C(n-1, k) * a(n-k), where a(m) counts permutations of m with no succession (A000255).
    no_succession = [1, 1]
    for m in range(2, 53):
        no_succession.append((m - 1) * no_succession[m - 1] + (m - 2) * no_succession[m - 2])
    null = neighbour_count_null(52, (Component("path", 52, directed=True),))
    for k in range(5):
        exact = comb(51, k) * no_succession[52 - k] / factorial(52)
        assert null.pmf(k) == pytest.approx(exact, rel=1e-12)


def test_same_suit_adjacent_rank_neighbours_have_mean_96_over_52_and_variance_1_78():
    null = neighbour_count_null(52, (Component("path", 13),) * 4)
    assert null.mean() == pytest.approx(96 / 52)
    assert null.variance() == pytest.approx(1.78, abs=0.01)
    # The reference's 3.6e-4 is an approximation; the exact tail is 4.5e-4.
    assert null.at_least(8) == pytest.approx(4.5e-4, rel=0.01)


def test_same_suit_neighbours_have_mean_12_and_standard_deviation_3_03():
    null = neighbour_count_null(52, (Component("clique", 13),) * 4)
    assert null.mean() == pytest.approx(12)
    assert null.variance() ** 0.5 == pytest.approx(3.03, abs=0.005)


def test_pinochle_identical_neighbours_have_mean_1_variance_0_98_and_tail_0_017():
    null = neighbour_count_null(48, (Component("clique", 2),) * 24)
    assert null.mean() == pytest.approx(1.0)
    assert null.variance() == pytest.approx(0.98, abs=0.005)
    assert null.at_least(4) == pytest.approx(0.017, rel=0.05)


def test_successor_pairs_are_close_to_poisson_one():
    null = neighbour_count_null(52, (Component("path", 52, directed=True),))
    assert null.mean() == pytest.approx(51 / 52)
    assert null.pmf(0) == pytest.approx(0.3679, abs=0.01)


def test_a_graph_that_is_not_what_it_claims_is_refused():
    with pytest.raises(ValueError, match="shape"):
        neighbour_count_null(10, (Component("star", 4),))
