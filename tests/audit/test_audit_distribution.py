"""Tails, folds, sums and critical values of a discrete null, and how the false-alarm rate
is shared out between the tests that run."""

from __future__ import annotations

import pytest
from audit_helpers import dealt

from scanner.audit import NEW_PACK, Prior, audit_orders
from scanner.audit.distribution import Distribution
from scanner.audit.report import TestResult, bonferroni
from scanner.audit.shuffles import NEW_DECK_ORDER
from scanner.cards import PINOCHLE_48

DIE = Distribution((1 / 6,) * 6, offset=1)


def test_tails_include_the_observed_value_and_saturate_outside_the_support():
    assert DIE.at_most(2) == pytest.approx(2 / 6)
    assert DIE.at_least(5) == pytest.approx(2 / 6)
    assert DIE.at_most(0) == 0 and DIE.at_least(7) == 0
    assert DIE.at_most(9) == pytest.approx(1) and DIE.at_least(-3) == pytest.approx(1)


def test_two_sided_p_value_doubles_the_smaller_tail_and_caps_at_one():
    assert DIE.two_sided(1) == pytest.approx(2 / 6)
    assert DIE.two_sided(3) == 1.0


def test_folding_merges_each_value_with_its_mirror():
    folded = DIE.fold(7)
    assert folded.support == range(1, 4)
    assert folded.probs == pytest.approx((2 / 6, 2 / 6, 2 / 6))


def test_the_sum_of_two_dice_is_the_triangle():
    two = DIE.sum_of(2)
    assert two.support == range(2, 13)
    assert two.pmf(7) == pytest.approx(6 / 36)
    assert DIE.sum_of(5).mean() == pytest.approx(17.5)


def test_critical_values_are_the_last_values_whose_tail_stays_within_the_level():
    two = DIE.sum_of(2)
    assert two.lower_critical(3 / 36) == 3
    assert two.lower_critical(0.01) is None
    assert two.upper_critical(1 / 36) == 12
    assert two.alarm_region("two-sided", 6 / 36) == {"at_most": 3, "at_least": 11}


def _result(name: str, weight: float) -> TestResult:
    return TestResult(name, 1, "lower", DIE, "a die", weight=weight)


def test_bonferroni_shares_the_rate_by_weight_and_the_shares_add_up_to_it():
    levelled = bonferroni([_result("strong", 2.0), _result("a", 1.0), _result("b", 1.0)], 0.01)
    assert [r.level for r in levelled] == pytest.approx([0.005, 0.0025, 0.0025])


def test_a_rate_outside_zero_and_one_is_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        bonferroni([_result("a", 1.0)], 0.0)


def test_the_new_pack_test_gets_twice_the_share_of_a_neighbour_test():
    report = audit_orders([dealt(NEW_DECK_ORDER)], NEW_PACK, 0.001)
    levels = {t.name: t.level for t in report.tests}
    assert levels["new-pack-suit-rising-sequences"] == pytest.approx(
        2 * levels["same-suit-neighbours"])


def test_a_stated_prior_for_pinochle_is_noted_as_unused():
    prior = Prior("stated", tuple(PINOCHLE_48.cards()), "gathered")
    report = audit_orders([dealt(PINOCHLE_48.cards(), PINOCHLE_48)], prior)
    assert "not used" in report.notes[0]
    assert "rising-sequences" not in {t.name for t in report.tests}
