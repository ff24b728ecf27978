"""Meld, as common four-handed partnership pinochle prices and shares it."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinochle_hands import WORKED_EXAMPLE, cards, melds, total

from scanner.cards import PINOCHLE_48, Card, Rank, Seat, Suit
from scanner.pinochle.meld import MeldError, best_trump, evaluate, hand_counts, team_totals
from scanner.pinochle.options import (
    MODERN_MELD,
    OLD_MELD,
    MeldScale,
    OptionError,
    TableOptions,
)


def test_worked_example_with_diamonds_trump_melds_47():
    assert melds(WORKED_EXAMPLE, "D") == [
        ("run", 15), ("spade marriage", 2), ("double pinochle", 30)]


def test_worked_example_with_hearts_trump_melds_34():
    assert sorted(melds(WORKED_EXAMPLE, "H")) == [
        ("diamond marriage", 2), ("double pinochle", 30), ("spade marriage", 2)]
    assert total(WORKED_EXAMPLE, "H") == 34


def test_each_meld_names_the_cards_it_uses():
    meld = evaluate(cards(WORKED_EXAMPLE), Suit.D).to_dict()
    assert meld["melds"][0]["cards"] == ["AD", "TD", "KD", "QD", "JD"]
    assert meld["melds"][2]["cards"] == ["QS", "QS", "JD", "JD"]


# -- class A: run, marriages, dix

def test_run_in_trump_is_15():
    assert melds("AH TH KH QH JH 9S 9S 9C 9C TC TC TD", "H") == [("run", 15)]


def test_a_run_in_a_plain_suit_is_only_a_marriage():
    assert melds("AH TH KH QH JH 9S 9S 9C 9C TC TC TD", "D") == [("heart marriage", 2)]


def test_run_uses_the_trump_king_and_queen_so_no_royal_marriage_beside_it():
    assert melds("AH TH KH QH JH KH 9C 9C TC TC TD TD", "H") == [("run", 15)]


def test_run_plus_spare_royal_marriage_is_19():
    hand = "AH TH KH QH JH KH QH 9C TC TC TD TD"
    assert melds(hand, "H") == [("run", 15), ("royal marriage", 4)]
    assert total(hand, "H") == 19


def test_double_run_is_150_flat_with_no_extra_marriages():
    hand = "AH AH TH TH KH KH QH QH JH JH TC TD"
    assert melds(hand, "H") == [("double run", 150)]


def test_royal_marriage_is_4_and_two_are_8():
    assert melds("KH QH 9C 9C TC TC TD TD AS AS TS 9S", "H") == [("royal marriage", 4)]
    assert melds("KH QH KH QH TC TC TD TD AS AS TS 9S", "H") == [("two royal marriages", 8)]


def test_plain_marriage_is_2_and_two_in_one_suit_are_4():
    assert melds("KC QC 9D 9D TD TD TH TH AS AS TS 9S", "H") == [("club marriage", 2)]
    assert melds("KC QC KC QC TD TD TH TH AS AS TS 9S", "H") == [("two club marriages", 4)]


def test_dix_is_1_each_and_counts_only_in_trump():
    assert melds("9H TC TC TD TD TH TH AS AS TS JS JC", "H") == [("dix", 1)]
    assert melds("9H 9H TC TC TD TD TH TH AS TS JS JC", "H") == [("two dix", 2)]
    assert melds("9H 9H TC TC TD TD TH TH AS TS JS JC", "S") == []


# -- class B: arounds

AROUND_HANDS = {
    "aces": ("AS AH AD AC", 10, 100),
    "kings": ("KS KH KD KC", 8, 80),
    "queens": ("QS QH QD QC", 6, 60),
    "jacks": ("JS JH JD JC", 4, 40),
}
FILLER = "9S 9S 9H 9H TD TD TC TC"


@pytest.mark.parametrize("rank", AROUND_HANDS)
def test_one_of_a_rank_in_every_suit_is_an_around(rank):
    four, single, _ = AROUND_HANDS[rank]
    found = dict(melds(f"{four} {FILLER}", "D"))
    assert found[f"{rank} around"] == single


@pytest.mark.parametrize("rank", AROUND_HANDS)
def test_a_double_around_replaces_the_single(rank):
    four, _, double = AROUND_HANDS[rank]
    found = dict(melds(f"{four} {four} TD TD TC TC", "D"))
    assert found[f"double {rank} around"] == double
    assert f"{rank} around" not in found


def test_an_around_needs_every_suit():
    assert melds("AS AH AD AD 9S 9S 9H 9H TD TD TC TC", "C") == []


# -- class C: pinochle

def test_pinochle_is_queen_of_spades_and_jack_of_diamonds_for_4():
    assert melds("QS JD 9H 9H TH TH TC TC AS AS TD TD", "C") == [("pinochle", 4)]


def test_double_pinochle_is_30_not_two_singles():
    assert melds("QS QS JD JD 9H 9H TH TH TC TC AS AS", "C") == [("double pinochle", 30)]


# -- sharing across classes

def test_king_of_spades_serves_in_kings_around_and_a_spade_marriage():
    found = dict(melds("KS QS KH KD KC 9H 9H TH TH TC TC AS", "D"))
    assert found == {"kings around": 8, "spade marriage": 2}


def test_queen_of_spades_serves_in_queens_around_and_pinochle():
    found = dict(melds("QS QH QD QC JD 9H 9H TH TH TC TC AS", "C"))
    assert found == {"queens around": 6, "pinochle": 4}


def test_one_queen_of_spades_serves_in_a_meld_of_each_class_at_once():
    found = dict(melds("QS KS QH QD QC JD 9H 9H TH TH TC TC", "C"))
    assert found == {"spade marriage": 2, "queens around": 6, "pinochle": 4}


def test_partners_cards_never_combine():
    north = evaluate(cards("QS TH TH TC TC AS AS TD TD AC JS JH"), Suit.C)
    south = evaluate(cards("JD TS TS AH AH AC KD JC JC JH KC KH"), Suit.C)
    assert north.total == 0
    assert south.total == 0
    assert team_totals({Seat.N: north, Seat.S: south})["NS"] == 0


def test_a_teams_meld_is_the_sum_of_its_players_melds():
    north = evaluate(cards(WORKED_EXAMPLE), Suit.D)
    south = evaluate(cards("KC QC 9D 9D TH TH TC TC AS AH TS 9S"), Suit.D)
    assert team_totals({Seat.N: north, Seat.S: south, Seat.E: north}) == {"NS": 51, "EW": 47}


# -- optional melds (off by default)

ROUNDHOUSE = "KS QS KH QH KD QD KC QC TS TS TC TC"
ROUNDHOUSE_WITH_RUN = "AH TH JH KS QS KH QH KD QD KC QC 9S"


def test_a_marriage_in_every_suit_scores_its_parts_when_roundhouse_is_off():
    assert total(ROUNDHOUSE, "H") == 24
    assert ("roundhouse", 24) not in melds(ROUNDHOUSE, "H")


def test_roundhouse_option_scores_one_meld_of_24():
    options = TableOptions(optional_melds=frozenset({"roundhouse"}))
    assert melds(ROUNDHOUSE, "H", options) == [("roundhouse", 24)]


def test_roundhouse_with_a_run_is_35():
    options = TableOptions(optional_melds=frozenset({"roundhouse"}))
    assert melds(ROUNDHOUSE_WITH_RUN, "H", options) == [("roundhouse with run", 35)]


def test_run_with_an_extra_king_is_19_only_with_the_option():
    hand = "AH TH KH QH JH KH 9C 9C TC TC TD TD"
    options = TableOptions(optional_melds=frozenset({"run-with-extra-royal"}))
    assert melds(hand, "H", options) == [("run with extra king", 19)]
    assert melds(hand, "H") == [("run", 15)]


def test_grand_pinochle_is_6_only_with_the_option():
    hand = "KS QS JD 9H 9H TH TH TC TC AC AC TD"
    options = TableOptions(optional_melds=frozenset({"grand-pinochle"}))
    assert dict(melds(hand, "C", options))["grand pinochle"] == 6
    assert dict(melds(hand, "C"))["pinochle"] == 4


def test_an_unknown_optional_meld_is_refused_by_name():
    with pytest.raises(OptionError, match="roundhouses"):
        TableOptions(optional_melds=frozenset({"roundhouses"}))


# -- the scale is a table of values

def test_old_scale_is_the_modern_scale_times_ten():
    assert total(WORKED_EXAMPLE, "D", TableOptions(meld_scale=OLD_MELD)) == 470


def test_another_scale_is_just_another_table():
    npa_like = MeldScale.from_table(
        "npa-double-deck", {**MODERN_MELD.values, "run": (25, 250), "pinochle": (15, 30)})
    assert total("AH TH KH QH JH QS JD 9C TC TC TD TD", "H",
                 TableOptions(meld_scale=npa_like)) == 40


def test_a_scale_missing_a_meld_is_refused_naming_it():
    values = dict(MODERN_MELD.values)
    del values["dix"]
    with pytest.raises(OptionError, match="dix"):
        MeldScale.from_table("broken", values)


# -- input

def test_a_card_outside_the_pinochle_deck_is_refused_naming_it():
    with pytest.raises(MeldError, match="8S"):
        hand_counts(cards("8S AS"))


def test_a_third_copy_is_refused_naming_the_card():
    with pytest.raises(MeldError, match="AS"):
        hand_counts(cards("AS AS AS"))


def test_best_trump_is_the_suit_with_most_meld():
    assert best_trump(cards(WORKED_EXAMPLE)).trump in (Suit.S, Suit.D)
    assert best_trump(cards(WORKED_EXAMPLE)).total == 47


# -- properties over random hands

CLASSES = {"A": {"run", "royal-marriage", "marriage", "dix"},
           "B": {"aces-around", "kings-around", "queens-around", "jacks-around"},
           "C": {"pinochle"}}
hands = st.permutations(PINOCHLE_48.cards()).map(lambda deck: deck[:12])


@given(hands, st.sampled_from(list(Suit)))
def test_no_card_serves_twice_in_one_class(hand, trump):
    held = Counter(hand)
    meld = evaluate(hand, trump)
    for kinds in CLASSES.values():
        used = Counter(card for item in meld.items if item.kind in kinds for card in item.cards)
        assert all(used[card] <= held[card] for card in used)


@given(hands, st.sampled_from(list(Suit)), st.randoms())
def test_meld_does_not_depend_on_card_order(hand, trump, rnd):
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert evaluate(shuffled, trump) == evaluate(hand, trump)


@given(hands, st.sampled_from(list(Suit)))
def test_total_is_the_sum_of_the_breakdown(hand, trump):
    meld = evaluate(hand, trump)
    assert meld.to_dict()["total"] == sum(m["points"] for m in meld.to_dict()["melds"])


def restated_total(hand, trump):
    """The reference's default rules restated card by card, independently of the evaluator."""
    held = Counter(hand)

    def n(rank, suit):
        return held[Card(rank, suit)]

    run_ranks = (Rank.A, Rank.T, Rank.K, Rank.Q, Rank.J)
    runs = min(n(r, trump) for r in run_ranks)
    points = {0: 0, 1: 15, 2: 150}[runs]
    for suit in Suit:
        pairs = min(n(Rank.K, suit), n(Rank.Q, suit))
        points += (pairs - runs) * 4 if suit == trump else pairs * 2
    points += n(Rank.R9, trump)
    for rank, single, double in ((Rank.A, 10, 100), (Rank.K, 8, 80), (Rank.Q, 6, 60),
                                 (Rank.J, 4, 40)):
        points += {0: 0, 1: single, 2: double}[min(n(rank, suit) for suit in Suit)]
    points += {0: 0, 1: 4, 2: 30}[min(n(Rank.Q, Suit.S), n(Rank.J, Suit.D))]
    return points


@given(hands, st.sampled_from(list(Suit)))
def test_meld_agrees_with_the_rules_restated_card_by_card(hand, trump):
    assert evaluate(hand, trump).total == restated_total(hand, trump)


def test_a_scale_value_that_is_not_a_whole_number_is_refused_naming_the_meld():
    with pytest.raises(OptionError, match="run"):
        MeldScale.from_table("broken", {**MODERN_MELD.values, "run": (15.5, 150)})
