"""A glyph's similarities per label become a ranking of what it means: each meaning scores
its closest label, in the deck's letter set, best first."""

import numpy as np

from scanner.cards import Rank, Suit
from scanner.vision.glyphs import default_model

MODEL = default_model()


def similarities(**by_label: float) -> np.ndarray:
    sims = np.full(len(MODEL.labels), -0.5, np.float32)
    for label, sim in by_label.items():
        sims[MODEL.labels.index(label.replace("_", ":"))] = sim
    return sims


def test_a_meaning_scores_its_closest_label():
    ranked = MODEL.rank_meanings(similarities(r_K=0.3, r_R=0.9, r_H=0.5), None)
    assert ranked[0] == (Rank.K, np.float32(0.9))


def test_a_letter_of_another_set_is_no_candidate():
    ranked = MODEL.rank_meanings(similarities(r_R=0.9, r_K=0.3), "english")
    assert ranked[0] == (Rank.K, np.float32(0.3))


def test_an_excluded_meaning_is_no_candidate():
    ranked = MODEL.rank_meanings(similarities(p_S=0.9, p_C=0.6), None, frozenset({Suit.S}))
    assert ranked[0] == (Suit.C, np.float32(0.6))


def test_tied_meanings_rank_in_the_order_of_their_labels():
    ranked = MODEL.rank_meanings(similarities(p_C=0.7, p_S=0.7), None)
    club_first = MODEL.labels.index("p:C") < MODEL.labels.index("p:S")
    assert [meaning for meaning, _ in ranked[:2]] == ([Suit.C, Suit.S] if club_first
                                                       else [Suit.S, Suit.C])


def test_each_row_is_decided_as_it_would_be_alone():
    rows = np.stack([similarities(p_H=0.95), similarities(p_S=0.9, p_C=0.89),
                     similarities(r_A=0.97)])
    assert MODEL.decide_each(rows, "pip") == [MODEL.decide(row, "pip") for row in rows]
