"""The card renderer: styles, backs and perturbations are real, distinct and reproducible."""

from __future__ import annotations

import numpy as np
import pytest

from scanner.cards import ALL_CARDS, parse_card
from scanner.vision.synthetic import render
from scanner.vision.synthetic.perturb import ALL_PERTURBATIONS


def test_at_least_six_styles_of_which_two_are_held_out_of_tuning():
    assert len(render.STYLES) >= 6
    assert len(render.HELDOUT_STYLES) >= 2
    assert not set(render.HELDOUT_STYLES) & set(render.TUNING_STYLES)
    assert all(render.STYLES[name].evaluation_only for name in render.HELDOUT_STYLES)


def test_styles_differ_in_letters_ten_glyph_colours_and_size():
    styles = render.STYLES.values()
    assert {s.letters for s in styles} >= {"english", "french", "german", "dutch"}
    assert {s.ten for s in styles} >= {"10", "T"}
    assert {s.size for s in styles} == {render.BRIDGE_SIZE, render.POKER_SIZE}
    assert any(s.colours[parse_card("2D").suit] != s.colours[parse_card("2H").suit]
               for s in styles), "no four-colour deck"
    assert len({s.pip_shape for s in styles}) >= 3
    assert len({s.border for s in styles}) >= 3


@pytest.mark.parametrize("style", list(render.STYLES))
def test_a_card_has_its_real_aspect_ratio(style):
    img = render.render_card(parse_card("QH"), style, seed=1)
    size = render.STYLES[style].size
    assert img.dtype == np.uint8 and img.ndim == 3
    assert img.shape[0] / img.shape[1] == pytest.approx(size.height_mm / size.width_mm, rel=0.02)


def test_rendering_is_deterministic_from_the_seed():
    a = render.render_station_frame(parse_card("7C"), "casino", seed=5,
                                    perturb={"noise": 1.0, "glare": 1.0})
    b = render.render_station_frame(parse_card("7C"), "casino", seed=5,
                                    perturb={"noise": 1.0, "glare": 1.0})
    c = render.render_station_frame(parse_card("7C"), "casino", seed=6,
                                    perturb={"noise": 1.0, "glare": 1.0})
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_every_card_of_a_style_is_drawn_differently():
    faces = {render.render_card(card, "standard", seed=0).tobytes() for card in ALL_CARDS}
    assert len(faces) == 52


def test_several_backs_each_differ_from_every_face():
    assert len(render.BACKS) >= 4
    backs = [render.render_card(None, "standard", seed=0, back=b) for b in render.BACKS]
    assert len({b.tobytes() for b in backs}) == len(backs)


@pytest.mark.parametrize("name", ALL_PERTURBATIONS)
def test_each_perturbation_changes_the_frame(name):
    card = parse_card("9S")
    plain = render.render_station_frame(card, "standard", seed=3)
    perturbed = render.render_station_frame(card, "standard", seed=3, perturb={name: 1.0})
    assert plain.shape == perturbed.shape == (480, 640, 3)
    assert np.abs(plain.astype(int) - perturbed.astype(int)).mean() > 0.2


def test_unknown_style_or_perturbation_is_named():
    with pytest.raises(ValueError, match="marseille"):
        render.render_card(parse_card("AS"), "marseille", seed=0)
    with pytest.raises(ValueError, match="smudge"):
        render.render_station_frame(parse_card("AS"), "standard", seed=0, perturb={"smudge": 1})
