"""The corner net's training script: what it draws, and that it never draws a held-out
style. (Training itself needs the ``train`` extra and minutes; CI only reads the shipped
net.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.cards import Card, parse_card
from scanner.vision.corner_net import (
    NET_INPUT,
    NET_PATH,
    RANK_LABELS,
    SUIT_LABELS,
    CornerReader,
    split_probabilities,
)
from scanner.vision.index import CANONICAL_SIZE
from scanner.vision.indices import (
    CORNER_LOOKS,
    RANK_AT,
    SUIT_AT,
    corner_names,
    second_look_names,
)
from scanner.vision.synthetic import render
from scanner.vision.training import real_cards, train_corners
from scanner.vision.training.train_corners import (
    GLYPH_SOURCES,
    RECIPES,
    SECOND_LOOK_FROM,
    SECOND_LOOK_LOW_FROM,
    SHADOW_LIGHT,
    FoundWindow,
    RealData,
    _cast_shadow,
    _corner_second_thresholds,
    _design,
    add_second_opinion,
    as_found,
    training_set,
)


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


def a_card() -> np.ndarray:
    """A canonical card: white paper with a dark block where its index is."""
    card = np.full((*CANONICAL_SIZE[::-1], 3), 245, np.uint8)
    card[10:60, 8:30] = 20
    return card


def test_a_cast_shadow_darkens_one_side_of_a_soft_edge_and_leaves_the_other():
    window = np.full((112, 72, 3), 200, np.uint8)
    shaded = _cast_shadow(window, np.random.default_rng(3)).astype(int)
    assert shaded.max() == 200
    assert shaded.min() <= 200 * SHADOW_LIGHT[1] + 1
    assert shaded.min() >= 200 * SHADOW_LIGHT[0] - 1


def test_the_second_opinion_recipe_shades_a_quarter_of_found_windows_the_shipped_none():
    """Both recipes cut the same window from the same draw; only the second opinion's may
    then lay a shadow over it, so the shipped recipe's calibration windows are the same
    whichever net is calibrated on them."""
    card = a_card()
    shaded = 0
    for seed in range(400):
        plain = as_found(card, card, np.random.default_rng(seed),
                          RECIPES["main"].shadow_share)
        other = as_found(card, card, np.random.default_rng(seed),
                          RECIPES["second-opinion"].shadow_share)
        shaded += not np.array_equal(plain, other)
    assert 60 <= shaded <= 140


def test_the_card_underneath_shows_only_left_of_this_cards_edge_clear_of_its_index():
    """The card before this one in a fan shows in a strip along the window's left side, as
    often as asked. This card's index, from 10 px left of the rank's centre on and from
    above the rank to below the suit, is cut as without it; so are the windows of a recipe
    that never asks for it."""
    card, under = a_card(), np.full((*CANONICAL_SIZE[::-1], 3), (40, 40, 200), np.uint8)
    index = np.s_[int(RANK_AT[1]) - 16:int(SUIT_AT[1]) + 16, int(RANK_AT[0]) - 10:]
    shown = 0
    for seed in range(200):
        plain = as_found(card, under, np.random.default_rng(seed))
        fan = as_found(card, under, np.random.default_rng(seed), under_share=0.5)
        assert np.array_equal(plain[index], fan[index])
        shown += not np.array_equal(plain, fan)
    assert 70 <= shown <= 130


def a_small_dataset(root: Path) -> RealData:
    """Rendered faces laid out as the CC0 dataset's ``train`` split is, enough of them that
    some fall in its calibration eighth."""
    for i, (word, rank) in enumerate(real_cards._RANK_NAMES.items()):
        for suit_word, suit in real_cards._SUIT_NAMES.items():
            folder = root / "train" / f"{word} of {suit_word}"
            folder.mkdir(parents=True)
            face = render.render_face(Card(rank, suit), "standard", seed=i)
            for k in range(2):
                cv2.imwrite(str(folder / f"{k:03}.jpg"), cv2.resize(face, (224, 224)))
    return RealData(root, None)


def test_a_second_opinion_is_named_and_only_the_second_look_at_a_corner_recalibrated(
        tmp_path: Path):
    for name in ("net", "other"):
        shutil.copy(NET_PATH, tmp_path / f"{name}.onnx")
        shutil.copy(NET_PATH.with_suffix(".json"), tmp_path / f"{name}.json")
    before = json.loads((tmp_path / "net.json").read_text())
    add_second_opinion(tmp_path / "net.onnx", tmp_path / "other.onnx",
                       a_small_dataset(tmp_path / "dataset"))
    after = json.loads((tmp_path / "net.json").read_text())
    assert after.pop("second_opinion") == "other.onnx"
    assert 0.5 <= after.pop("corner_second") <= 1.0
    assert 0.5 <= after.pop("corner_second_low") <= 1.0
    before.pop("second_opinion", None)
    before.pop("corner_second")
    before.pop("corner_second_low", None)
    assert after == before
    assert CornerReader(tmp_path / "net.onnx").second_opinion is not None


def test_a_second_opinion_not_lying_beside_the_net_is_refused(tmp_path: Path):
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(NET_PATH, tmp_path / "net.onnx")
    shutil.copy(NET_PATH, tmp_path / "elsewhere" / "other.onnx")
    with pytest.raises(ValueError, match="must lie beside"):
        add_second_opinion(tmp_path / "net.onnx", tmp_path / "elsewhere" / "other.onnx",
                           RealData(None, None))


def test_a_net_is_refused_as_its_own_second_opinion(tmp_path: Path):
    shutil.copy(NET_PATH, tmp_path / "net.onnx")
    with pytest.raises(ValueError, match="cannot be its own second opinion"):
        add_second_opinion(tmp_path / "net.onnx", tmp_path / "net.onnx", RealData(None, None))


class NamesBySevens:
    """A corner net that reads a flat window as a 7: of hearts, wrongly, where its grey level
    is 5 or under, that level being how sure it is (logits against 0); of clubs, right and
    all but certain, at any other."""

    def logits(self, windows):
        out = np.zeros((len(windows), len(RANK_LABELS) + len(SUIT_LABELS)), np.float32)
        for i, window in enumerate(windows):
            level = float(window[0, 0, 0])
            sure, suit = (level, "H") if level <= 5 else (12.0, "C")
            out[i, RANK_LABELS.index("r:7")] = sure
            out[i, len(RANK_LABELS) + SUIT_LABELS.index(suit)] = sure
        return out


def a_flat_window(level: int) -> np.ndarray:
    return np.full((112, 72, 3), level, np.uint8)


def test_a_second_look_far_short_of_sure_is_calibrated_to_name_none_wrongly():
    """Among 2,000 calibration windows one wrong name is tolerated (0.05%): at a second look
    just short of sure it is let through, far short of sure it is not."""
    net, seven_of_clubs = NamesBySevens(), parse_card("7C")
    just_short, far_short = a_flat_window(5), a_flat_window(4)
    [(_, just_short_score), (_, far_short_score)] = second_look_names(*split_probabilities(
        net.logits([just_short] * len(CORNER_LOOKS) + [far_short] * len(CORNER_LOOKS)), 1.0),
        None)
    assert SECOND_LOOK_FROM <= just_short_score < 0.99
    assert SECOND_LOOK_LOW_FROM <= far_short_score < SECOND_LOOK_FROM
    found = ([FoundWindow(just_short, seven_of_clubs), FoundWindow(far_short, seven_of_clubs)]
             + [FoundWindow(a_flat_window(9), seven_of_clubs)] * 1998)
    first = corner_names(*split_probabilities(net.logits([f.window for f in found]), 1.0), None)
    thresholds = _corner_second_thresholds(net, 1.0, [found], [first], 0.99)
    assert thresholds["corner_second"] < just_short_score
    assert thresholds["corner_second_low"] > far_short_score
