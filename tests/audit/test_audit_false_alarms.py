"""The audit stays quiet at its stated rate on randomly dealt decks and sets.

2,000 uniformly shuffled decks (and 2,000 random 16-board sets) from fixed seeds. At the
default rate 1e-3 about two alarms are expected, so more than eight (Poisson tail 2e-4)
would mean the stated rate is wrong. At a loose 5% rate the count must stay within three
standard deviations of 100, and each test's p-values must not fall below 0.05 more often
than 5% of the time: a miscalibrated null would fail there.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from audit_helpers import dealt, random_deal, random_deck

from scanner.audit import NEW_PACK, NO_PRIOR, Prior, audit_boards, audit_orders
from scanner.audit.shuffles import NEW_DECK_ORDER
from scanner.cards import PINOCHLE_48

RUNS = 2000
LOOSE = 0.05
MOST_ALARMS_AT_1E_3 = 8
MOST_ALARMS_AT_LOOSE = RUNS * LOOSE + 3 * (RUNS * LOOSE * (1 - LOOSE)) ** 0.5
MOST_SMALL_P_PER_TEST = LOOSE + 3 * (LOOSE * (1 - LOOSE) / RUNS) ** 0.5


def _check(reports_at: dict[float, list]) -> None:
    strict, loose = reports_at[1e-3], reports_at[LOOSE]
    assert all(r.false_alarm_rate == 1e-3 for r in strict)
    assert sum(r.alarm for r in strict) <= MOST_ALARMS_AT_1E_3
    assert sum(r.alarm for r in loose) <= MOST_ALARMS_AT_LOOSE
    small: Counter[str] = Counter()
    for report in loose:
        small.update(t.name for t in report.tests if t.p_value <= LOOSE)
    for name, count in small.items():
        assert count / RUNS <= MOST_SMALL_P_PER_TEST, name


@pytest.mark.parametrize("prior", [NEW_PACK, NO_PRIOR,
                                   Prior("stated", NEW_DECK_ORDER, "new deck order")],
                         ids=lambda p: p.kind)
def test_random_bridge_decks_alarm_no_more_than_the_stated_rate(prior):
    rng = random.Random(8000)
    decks = [dealt(random_deck(rng)) for _ in range(RUNS)]
    _check({rate: [audit_orders([d], prior, rate) for d in decks] for rate in (1e-3, LOOSE)})


def test_random_pinochle_decks_alarm_no_more_than_the_stated_rate():
    rng = random.Random(8100)
    decks = [dealt(random_deck(rng, PINOCHLE_48), PINOCHLE_48) for _ in range(RUNS)]
    _check({rate: [audit_orders([d], NEW_PACK, rate) for d in decks] for rate in (1e-3, LOOSE)})


def test_random_sixteen_board_sets_alarm_no_more_than_the_stated_rate():
    rng = random.Random(8200)
    numbers = list(range(1, 17))
    sets = [[random_deal(rng) for _ in numbers] for _ in range(RUNS)]
    _check({rate: [audit_boards(s, numbers, rate) for s in sets] for rate in (1e-3, LOOSE)})
