"""Two corner indices are two witnesses: their beliefs are taken together when both lean to
the card they favour together; a card either hardly leans to is never named so; and the
calibration counts as wrong every card the reader would name wrongly, jokers included,
unless the middle of the card would veto it."""

from __future__ import annotations

import numpy as np

from scanner.cards import Card, Rank, Suit, parse_card
from scanner.vision.middle import Middle
from scanner.vision.reading import (
    CardScores,
    Together,
    checks_middle,
    decide,
    score_corners,
    together,
)
from scanner.vision.training.train_corners import Scored

RANKS = tuple(Rank)
SUITS = tuple(Suit)
AGREE, SINGLE, OTHER = 0.9, 0.95, 0.3
NOTHING = Middle(None, shapes=0, pips=0)
HEARTS = Middle(Suit.H, shapes=10, pips=10)


def beliefs(*corners: dict[str, float]) -> tuple[np.ndarray, np.ndarray, list[CardScores]]:
    """Rank and suit beliefs of two corners, each given as {card: probability}, with what
    each corner names and its score."""
    ranks = np.zeros((2, len(RANKS)), np.float32)
    suits = np.zeros((2, len(SUITS)), np.float32)
    for row, belief in enumerate(corners):
        for name, p in belief.items():
            card = parse_card(name)
            ranks[row, RANKS.index(card.rank)] += p
            suits[row, SUITS.index(card.suit)] += p
    ranks /= ranks.sum(axis=1, keepdims=True)
    suits /= suits.sum(axis=1, keepdims=True)
    scores = []
    for r, s in zip(ranks, suits, strict=True):
        best_rank, best_suit = int(r.argmax()), int(s.argmax())
        scores.append(CardScores(Card(RANKS[best_rank], SUITS[best_suit]),
                                 float(r[best_rank] * s[best_suit])))
    return ranks, suits, scores


def test_two_corners_each_unsure_of_the_same_card_are_sure_of_it_together():
    ranks, suits, (a, b) = beliefs({"8D": 0.8, "3D": 0.2}, {"8D": 0.8, "8H": 0.2})
    joint = together(ranks, suits)
    assert joint.card == parse_card("8D")
    assert max(a.score, b.score) < AGREE <= joint.score
    assert decide(a, b, joint, AGREE, SINGLE, OTHER) == (parse_card("8D"), joint.score)


def test_corners_doubting_the_same_other_card_stay_unsure_together():
    ranks, suits, (a, b) = beliefs({"8D": 0.7, "3D": 0.3}, {"8D": 0.7, "3D": 0.3})
    joint = together(ranks, suits)
    assert joint.score < AGREE
    assert decide(a, b, joint, AGREE, SINGLE, OTHER)[0] is None


def test_a_corner_torn_between_two_suits_is_settled_by_the_other_corner_sure_of_one():
    ranks, suits, (a, b) = beliefs({"QC": 0.55, "QS": 0.45}, {"QS": 0.998, "QC": 0.002})
    joint = together(ranks, suits)
    assert a.card == parse_card("QC") and b.card == parse_card("QS")
    assert decide(a, b, joint, AGREE, SINGLE, OTHER)[0] == parse_card("QS")


def test_a_corner_that_hardly_leans_to_the_other_corners_card_is_not_outvoted():
    ranks, suits, (a, b) = beliefs({"KC": 0.86, "KS": 0.14}, {"KS": 0.95, "KC": 0.05})
    joint = together(ranks, suits)
    assert joint.lean < 0.4
    assert decide(a, b, joint, min(joint.score, AGREE), SINGLE, OTHER)[0] is None


def test_corners_that_hardly_lean_to_a_card_are_not_taken_together():
    spread = {"JS": 0.35, "JC": 0.2, "QS": 0.2, "KH": 0.25}
    ranks, suits, (a, b) = beliefs(spread, spread | {"KH": 0.1, "TD": 0.15})
    joint = together(ranks, suits)
    assert a.card == b.card and joint.lean < 0.4
    assert decide(a, b, joint, min(joint.score, AGREE), SINGLE, OTHER)[0] is None


def doubting(card: str, *beliefs_in_card: float
             ) -> tuple[np.ndarray, np.ndarray, list[CardScores]]:
    """Two corners' rank and suit beliefs that give ``card`` each its belief and the rest
    to no card of this deck (a joker, a blank, a letter of another set), with what each
    corner names and its score."""
    ranks = np.zeros((2, len(RANKS)), np.float32)
    suits = np.zeros((2, len(SUITS)), np.float32)
    ranks[:, RANKS.index(parse_card(card).rank)] = beliefs_in_card
    suits[:, SUITS.index(parse_card(card).suit)] = 1.0
    return ranks, suits, score_corners(ranks, suits)


def test_corners_each_surer_of_no_card_than_of_a_card_are_not_sure_of_it_together():
    ranks, suits, (a, b) = doubting("TD", 0.48, 0.54)
    joint = together(ranks, suits)
    assert joint.card == parse_card("TD") and joint.score > 0.999 and joint.lean >= 0.4
    assert decide(a, b, joint, AGREE, SINGLE, OTHER)[0] is None


def test_corners_leaning_to_a_card_more_than_to_no_card_are_taken_together():
    ranks, suits, (a, b) = doubting("TD", 0.7, 0.8)
    joint = together(ranks, suits)
    assert decide(a, b, joint, AGREE, SINGLE, OTHER) == (parse_card("TD"), joint.score)


def test_one_sure_corner_names_the_card_while_the_other_is_unsure_of_anything():
    ranks, suits, (a, b) = beliefs({"QH": 1.0}, {"2C": 0.3, "5S": 0.3, "9D": 0.4})
    assert decide(a, b, together(ranks, suits), AGREE, SINGLE, OTHER)[0] == parse_card("QH")


def test_a_read_short_of_both_corners_sure_is_weighed_against_the_middle():
    sure, unsure = CardScores(parse_card("TH"), 0.99), CardScores(parse_card("TH"), 0.9)
    assert checks_middle(sure, unsure, parse_card("TH"))
    assert not checks_middle(sure, sure, parse_card("TH"))
    assert checks_middle(sure, sure, None)


def test_calibration_counts_any_card_named_on_a_joker_as_wrong():
    corner = CardScores(parse_card("JS"), 0.96)
    joker = Scored(corner, corner, Together(parse_card("JS"), 0.99, 0.96, 0.92), middle=NOTHING,
                   truth=None)
    assert joker.wrong(parse_card("JS"), "card")
    assert not joker.wrong(None, "card")


def test_calibration_does_not_count_a_wrong_read_the_middle_vetoes():
    a, b = CardScores(parse_card("TD"), 0.97), CardScores(parse_card("TD"), 0.89)
    faded_heart = Scored(a, b, Together(parse_card("TD"), 0.9995, 0.89, 0.78), middle=HEARTS,
                         truth=parse_card("TH"))
    assert not faded_heart.wrong(parse_card("TD"), "card")
    sure = CardScores(parse_card("TD"), 0.99)
    unchecked = Scored(sure, sure, Together(parse_card("TD"), 0.9999, 0.99, 0.98), middle=HEARTS,
                       truth=parse_card("TH"))
    assert unchecked.wrong(parse_card("TD"), "card")


def test_calibration_counts_a_sure_spade_the_middle_vetoes_as_wrong_only_at_the_station():
    sure = CardScores(parse_card("7S"), 1.0)
    club = Scored(sure, sure, Together(parse_card("7S"), 1.0, 1.0, 1.0),
                  middle=Middle(Suit.C, 7, 7), truth=parse_card("7C"))
    assert not club.wrong(parse_card("7S"), "card")
    assert club.wrong(parse_card("7S"), "station")
