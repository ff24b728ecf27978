"""A card's middle pips are named by the pip net (``pip_net``), which learnt real designs'
pips: a suit only from its calibrated threshold, and nothing for a shape that is no pip."""

from __future__ import annotations

import numpy as np
import pytest

from scanner.cards import Suit, parse_card
from scanner.vision.index import canonical
from scanner.vision.middle import look_at_middle
from scanner.vision.pip_net import NO_PIP, OUTPUTS, PipReader, default_pip_reader
from scanner.vision.pips import centre_pips, pip_matches
from scanner.vision.station import read_station
from scanner.vision.synthetic import render


def test_each_pip_gets_a_probability_per_suit_and_for_anything_else():
    reader = default_pip_reader()
    assert 0.5 < reader.threshold < 1
    looks = [np.full((30, 26), 255, np.uint8), np.zeros((12, 40), np.uint8)]
    assert reader.probabilities(looks).shape == (2, OUTPUTS)
    p = reader.suit_probabilities([looks[:1], looks])
    assert p.shape == (2, 5) and np.allclose(p.sum(axis=1), 1.0, atol=1e-5)
    assert reader.suit_probabilities([]).shape == (0, 5)


def test_a_pip_on_the_middle_row_is_read_either_way_up():
    """The middle pip of a 3 stands upright or upside down as the card lies: a heart upside
    down is a heart, not a spade less its stem."""
    heart = next(p for p in centre_pips(canonical(render.render_card(parse_card("3H"),
                                                                     "casino", seed=3)))
                 if abs(p.centre[1] - 0.5) < 0.05)
    reader = default_pip_reader()
    upright, turned = heart.looks
    for looks in ((upright, turned), (turned, upright)):
        assert reader.matches([looks])[0].meaning == Suit.H
    assert reader.matches([(turned,)])[0].meaning != Suit.H


def test_a_suit_ruled_out_is_never_named():
    card = canonical(render.render_card(parse_card("7C"), "casino", seed=3))
    reader = default_pip_reader()
    assert {m.meaning for m in pip_matches(card, reader)} == {Suit.C}
    assert Suit.C not in {m.meaning for m in pip_matches(card, reader, frozenset({Suit.C}))}


@pytest.mark.parametrize(("style", "card"), [
    ("club", "7C"), ("club", "9D"), ("club", "4S"), ("club", "6H"), ("club", "AC"),
    ("riviera", "7C"), ("riviera", "9D"), ("riviera", "6H"), ("riviera", "3D"),
    ("riviera", "5C")])
def test_the_pips_of_a_held_out_design_show_their_suit(style, card):
    """club and riviera are never tuned on; riviera's angular pips were named by no glyph
    template (a diamond came closest to a blurred club's)."""
    middle = look_at_middle(canonical(render.render_card(parse_card(card), style, seed=11)))
    assert middle.suit_for(parse_card(card).rank) == parse_card(card).suit


@pytest.mark.parametrize("card", ["2S", "5S", "8S", "TS"])
def test_riviera_spades_are_named_spades_or_nothing(card):
    """riviera's angular spades, never tuned on, are read as spades near the threshold:
    the middle shows a spade or no suit, never another."""
    middle = look_at_middle(canonical(render.render_card(parse_card(card), "riviera", seed=11)))
    assert middle.suit in (None, Suit.S)


def test_a_suit_is_named_only_from_the_threshold_up(monkeypatch):
    reader = PipReader()
    t = reader.threshold
    probs = np.zeros((2, OUTPUTS), np.float32)
    probs[:, 0] = (t - 1e-4, t + (1 - t) / 2)  # a spade, just short of sure and past it
    probs[:, NO_PIP] = 1 - probs[:, 0]
    monkeypatch.setattr(reader, "probabilities", lambda looks: probs[:len(looks)])
    look = np.zeros((20, 20), np.uint8)
    short, sure = reader.matches([(look,), (look,)])
    assert short.meaning is None and short.confidence < 0.5
    assert sure.meaning == Suit.S and sure.confidence >= t


# Read-station frames of held-out styles, worn and badly lit, on which both corners were
# unsure and the templates named no middle pip, so the card was not named: (style, card,
# frame seed, perturbations), from the station bench's extra held-out seeds.
WORN = [
    ("riviera", "7C", 434334236, {"tilt": 0.83, "scale": 0.31, "wear": 0.81, "lighting": 0.42,
                                  "jpeg": 0.92}),
    ("riviera", "7C", 56047497, {"tilt": 0.94, "scale": 0.57, "wear": 0.52, "lighting": 1.0,
                                 "noise": 0.66}),
    ("club", "JC", 563386830, {"rotation": 0.5, "scale": 0.95, "wear": 0.97, "lighting": 0.36,
                               "defocus": 0.53, "motion": 0.52, "jpeg": 0.65}),
    ("riviera", "2H", 998991399, {"tilt": 0.76, "wear": 1.0, "lighting": 0.56, "glare": 0.76,
                                  "jpeg": 0.94}),
]


@pytest.mark.parametrize(("style", "card", "seed", "levels"), WORN)
def test_a_worn_card_of_a_held_out_design_is_settled_by_its_middle(style, card, seed, levels):
    frame = render.render_station_frame(parse_card(card), style, seed=seed, perturb=levels)
    assert read_station(frame, letters=render.STYLES[style].letters).card == parse_card(card)
