"""The corner net's training script: what it draws, and that it never draws a held-out
style. (Training itself needs the ``train`` extra and minutes; CI only reads the shipped
net.)"""

from __future__ import annotations

import numpy as np

from scanner.vision.corner_net import NET_INPUT, RANK_LABELS, SUIT_LABELS
from scanner.vision.synthetic import render
from scanner.vision.training import train_corners
from scanner.vision.training.train_corners import GLYPH_SOURCES, _design, training_set


def test_every_glyph_label_of_the_net_has_a_card_that_prints_it():
    assert sorted(GLYPH_SOURCES) == sorted(RANK_LABELS[:-1])


def test_training_designs_use_only_the_parts_of_the_styles_given():
    rng = np.random.default_rng(0)
    allowed = {render.STYLES[s].font for s in ("standard", "casino")}
    held_out = {render.STYLES[s].font for s in (*render.HELDOUT_STYLES,
                                                 *render.PROFILE_ONLY_STYLES)}
    fonts = {_design(rng, ("standard", "casino")).font for _ in range(50)}
    assert fonts <= allowed
    assert not fonts & held_out


def test_the_training_set_is_corner_windows_with_a_rank_and_a_suit_label_each():
    x, ranks, suits = training_set(("standard",), 8, seed=1, workers=1)
    w, h = NET_INPUT
    assert x.shape == (16, 3, h, w)
    assert ranks.shape == suits.shape == (16,)
    assert ranks.max() < len(RANK_LABELS) and suits.max() < len(SUIT_LABELS)


def test_the_training_set_is_the_same_for_the_same_seed():
    a = training_set(("casino",), 4, seed=2, workers=1)
    b = training_set(("casino",), 4, seed=2, workers=1)
    assert all(np.array_equal(p, q) for p, q in zip(a, b, strict=True))


def test_one_training_look_in_ten_comes_through_the_read_station(monkeypatch):
    drawn = []
    real = train_corners._station_looks

    def counted(rng, styles):
        for look in real(rng, styles):
            drawn.append(look)
            yield look

    monkeypatch.setattr(train_corners, "_station_looks", counted)
    training_set(("standard",), 40, seed=1, workers=1)
    assert len(drawn) == 4
