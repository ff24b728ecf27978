"""The audit alarms on what the Laws forbid: a deck dealt without a shuffle, a new pack
given four riffles or fewer, and a set like the director's diamond boards. Decks are
simulated from fixed seeds; the riffle is the GSR model."""

from __future__ import annotations

import random

import pytest
from audit_helpers import dealt, diamond_anecdote_set, random_deal

from scanner.audit import NEW_PACK, NO_PRIOR, Prior, audit_boards, audit_orders
from scanner.audit.shuffles import (
    NEW_DECK_ORDER,
    cut,
    deal_round_robin,
    gathered_from_tricks,
    riffles,
)
from scanner.cards import BRIDGE_52, PINOCHLE_48

STATED_NEW_DECK = Prior("stated", NEW_DECK_ORDER, "new deck order")
DECKS_PER_POINT = 150


def _power(prior: Prior, times: int, seed: int, *, with_cut: bool = False) -> float:
    rng = random.Random(seed)
    alarms = 0
    for _ in range(DECKS_PER_POINT):
        deck = riffles(NEW_DECK_ORDER, times, rng)
        if with_cut:
            deck = cut(deck, rng)
        alarms += audit_orders([dealt(deck)], prior).alarm
    return alarms / DECKS_PER_POINT


def test_law_6d2_a_new_pack_dealt_without_a_shuffle_alarms_and_cites_the_law():
    report = audit_orders([dealt(NEW_DECK_ORDER)], NEW_PACK)
    assert report.alarm
    assert "Law 6D2" in report.verdict.rule
    assert "no result" in report.verdict.remedy
    assert "new-pack-suit-rising-sequences" in report.verdict.evidence


def test_law_6d2_a_sorted_deck_alarms_even_with_no_prior_order_known():
    report = audit_orders([dealt(BRIDGE_52.cards())], NO_PRIOR)
    assert report.alarm
    assert {t.name for t in report.tests if t.alarm} >= {"same-suit-neighbours"}


def test_law_6d2_the_prior_order_dealt_backwards_alarms_on_rising_sequences():
    report = audit_orders([dealt(NEW_DECK_ORDER[::-1])], STATED_NEW_DECK)
    rising = next(t for t in report.tests if t.name == "rising-sequences")
    assert rising.alarm
    assert rising.detail["prior_direction"] == "reversed"


@pytest.mark.parametrize("times", [1, 2, 3, 4])
def test_a_new_pack_given_four_riffles_or_fewer_alarms_with_suit_order_unknown(times):
    assert _power(NEW_PACK, times, seed=100 + times) >= 0.97


@pytest.mark.parametrize("times", [1, 2, 3, 4])
def test_a_new_pack_given_four_riffles_or_fewer_alarms_against_its_stated_order(times):
    assert _power(STATED_NEW_DECK, times, seed=200 + times) >= 0.97


def test_four_riffles_and_a_cut_still_alarm_against_the_stated_order():
    assert _power(STATED_NEW_DECK, 4, seed=300, with_cut=True) >= 0.95


def test_seven_riffles_look_random_so_alarms_are_rare():
    assert _power(NEW_PACK, 7, seed=400) <= 0.05


def test_a_deck_gathered_from_tricks_and_not_shuffled_alarms_on_same_suit_neighbours():
    rng = random.Random(500)
    alarms = 0
    for _ in range(50):
        deck = gathered_from_tricks(random_deal(rng), rng)
        report = audit_orders([dealt(deck)], NO_PRIOR)
        alarms += any(t.alarm for t in report.tests if t.name == "same-suit-neighbours")
    assert alarms >= 40  # measured 44 of 50: 28 same-suit neighbours on average, null 12


def test_pinochle_a_sorted_pack_alarms_on_identical_neighbours_and_cites_the_setup_rule():
    report = audit_orders([dealt(PINOCHLE_48.cards(), PINOCHLE_48)], NEW_PACK)
    assert report.alarm
    assert {t.name for t in report.tests} == {"same-suit-neighbours",
                                              "identical-card-neighbours"}
    assert report.verdict.rule.startswith("Setup & Deal")


def test_pinochle_a_sorted_pack_given_one_riffle_alarms():
    rng = random.Random(600)
    alarms = sum(audit_orders([dealt(riffles(PINOCHLE_48.cards(), 1, rng), PINOCHLE_48)],
                              NEW_PACK).alarm for _ in range(50))
    assert alarms >= 48


def test_director_anecdote_thirteen_of_sixteen_boards_with_a_diamond_fit_alarms():
    boards = diamond_anecdote_set(random.Random(700))
    report = audit_boards(boards, list(range(1, 17)))
    fits = next(t for t in report.tests if t.name == "session-big-fits")
    assert fits.statistic >= 13
    assert fits.alarm
    assert report.alarm
    assert "Law 6A" in report.verdict.rule


def test_hands_dealt_one_at_a_time_from_sorted_packs_alarm_as_too_flat():
    boards = [deal_round_robin(BRIDGE_52.cards()) for _ in range(16)]
    report = audit_boards(boards, list(range(1, 17)))
    freakness = next(t for t in report.tests if t.name == "session-freakness")
    assert freakness.statistic == 0
    assert freakness.alarm
