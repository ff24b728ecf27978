"""How the pip net is taught and calibrated: which shapes of a real card count as its pips,
how each pip is also learnt upside down, and where the threshold lies (``train_pips``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scanner.cards import parse_card
from scanner.vision.pip_net import NO_PIP, OUTPUTS, PIP_SUITS, TURNED
from scanner.vision.training import train_pips
from scanner.vision.training.train_pips import _consistent, learning_set, pip_threshold

SPADE, HEART, DIAMOND, CLUB = range(4)


def test_a_real_cards_shapes_are_its_pips_only_when_its_rank_shows_as_many():
    assert _consistent(parse_card("7H"), 7)
    assert not _consistent(parse_card("7H"), 6)  # one pip lost, or a stray shape taken
    assert _consistent(parse_card("AS"), 1)
    assert not _consistent(parse_card("KS"), 1)  # a court card's picture is no pip field


def test_each_pip_is_learnt_both_ways_up_and_a_diamond_is_the_same_either_way():
    look = np.zeros((30, 24), np.uint8)
    look[:10] = 255  # heavier at the top, so a turned look differs
    _, y = learning_set([((look,), HEART), ((look,), DIAMOND), ((look,), NO_PIP)], [])
    turned_heart = len(PIP_SUITS) + TURNED.index(PIP_SUITS[HEART])
    assert sorted(y.tolist()) == sorted([HEART, DIAMOND, NO_PIP, turned_heart, DIAMOND, NO_PIP])


def test_a_real_pip_whose_way_up_is_unknown_is_not_learnt_from():
    look = np.zeros((30, 24), np.uint8)
    x, y = learning_set([], [((look,), CLUB), ((look, look[::-1, ::-1]), CLUB)])
    assert len(x) == len(y) == 2  # the first, upright and turned; the second not at all


def test_the_threshold_lies_half_way_from_the_surest_wrong_suit_to_certainty():
    probs = np.array([[0.99, 0.0, 0.0, 0.0, 0.01],  # a spade, rightly
                      [0.0, 0.96, 0.0, 0.0, 0.04],  # a club named a heart at 0.96
                      [0.0, 0.0, 0.2, 0.0, 0.8]])  # no pip, a little like a diamond
    truth = np.array([SPADE, CLUB, 4])
    assert pip_threshold(probs, truth) == pytest.approx(0.98)


def test_the_threshold_is_over_even_odds_and_short_of_certainty():
    right = np.array([[1.0, 0.0, 0.0, 0.0, 0.0]])
    assert 0.5 < pip_threshold(right, np.array([SPADE])) < 0.501
    wrong = np.array([[1.0, 0.0, 0.0, 0.0, 0.0]])
    assert pip_threshold(wrong, np.array([HEART])) < 1.0


def test_the_net_gives_each_pip_every_output():
    torch = pytest.importorskip("torch")
    from torch import nn

    net = train_pips._net(nn)
    side = train_pips.PIP_SIDE
    assert net(torch.zeros(3, 1, side, side)).shape == (3, OUTPUTS)


@pytest.mark.parametrize("flag", ["--epochs", "--workers"])
def test_no_pass_or_no_worker_is_refused(tmp_path: Path, capsys, flag):
    (tmp_path / "train").mkdir()
    with pytest.raises(SystemExit):
        train_pips.main(["--dataset", str(tmp_path), "--svg", str(tmp_path), flag, "0",
                         "--out", str(tmp_path / "pip_net.onnx")])
    assert "must be at least 1" in capsys.readouterr().err
    assert not (tmp_path / "pip_net.onnx").exists()


def test_a_dataset_without_its_train_split_is_refused(tmp_path: Path, capsys):
    with pytest.raises(SystemExit):
        train_pips.main(["--dataset", str(tmp_path), "--svg", str(tmp_path)])
    assert "is no folder" in capsys.readouterr().err
