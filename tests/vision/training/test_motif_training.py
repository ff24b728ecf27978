"""How the motif net is taught and calibrated: which backs it learns from, what a photo of
backs looks like, and where its threshold lies (``train_motifs``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.vision.training import train_motifs
from scanner.vision.training.real_cards import UNSEEN_SVG_DECKS
from scanner.vision.training.train_motifs import (
    CALIBRATION_BACKS,
    CARDS_ON_THE_BACK,
    TOLERATED_VETO,
    back_images,
    backs_on_a_table,
    veto_threshold,
)


@pytest.fixture
def svg(tmp_path: Path) -> Path:
    """A folder of rasterised decks, each with a back: learnt-from, calibration, unseen,
    and one that draws cards on its back."""
    for deck in ("gnome-anglo", "standard", CALIBRATION_BACKS[0], UNSEEN_SVG_DECKS[0],
                 CARDS_ON_THE_BACK[0]):
        (tmp_path / deck).mkdir()
        cv2.imwrite(str(tmp_path / deck / "back.png"), np.full((42, 30, 3), 200, np.uint8))
    return tmp_path


def test_backs_are_learnt_from_apart_from_the_calibration_and_unseen_ones(svg):
    assert [i.design for i in back_images(svg, calibration=False)] == ["gnome-anglo",
                                                                        "standard"]
    assert [i.design for i in back_images(svg, calibration=True)] == [CALIBRATION_BACKS[0]]


def test_a_back_that_draws_whole_cards_is_neither_learnt_nor_calibrated_on(svg):
    designs = {i.design for c in (True, False) for i in back_images(svg, calibration=c)}
    assert CARDS_ON_THE_BACK[0] not in designs and UNSEEN_SVG_DECKS[0] not in designs


def test_backs_on_a_table_cover_it_and_come_out_the_same_for_one_seed():
    back = (np.full((420, 300, 3), (40, 40, 200), np.uint8), np.full((420, 300), 255, np.uint8))
    one = backs_on_a_table([back, back], np.random.default_rng(5))
    assert np.array_equal(one, backs_on_a_table([back, back], np.random.default_rng(5)))
    height, width = one.shape[:2]
    assert 900 <= width <= 1600 and height == int(width * 0.75)
    red = (one[..., 2] > 150) & (one[..., 0] < 100)
    assert red.mean() > 0.05  # the backs lie on it, not off it


def test_the_tolerated_share_of_true_indices_may_be_called_a_motif_and_no_more():
    tolerated = int(TOLERATED_VETO * 10_000)
    p_index = np.r_[np.linspace(0.0, 0.6, 10_000 - tolerated), np.full(tolerated, 0.999)]
    threshold = veto_threshold(p_index)
    assert 0.6 < threshold < 0.999  # the tolerated few are called motifs, the rest not
    one_more = np.r_[np.linspace(0.0, 0.6, 10_000 - tolerated - 1),
                     np.full(tolerated + 1, 0.999)]
    assert veto_threshold(one_more) > 0.999


def test_the_threshold_is_over_even_odds_however_sure_the_net_is_of_indices():
    assert veto_threshold(np.zeros(1000)) > 0.5


def test_the_threshold_is_short_of_certainty():
    assert veto_threshold(np.ones(1000)) < 1.0


def test_the_net_tells_two_kinds_of_window_apart():
    torch = pytest.importorskip("torch")
    from torch import nn

    net = train_motifs._net(nn)
    w, h = train_motifs.NET_INPUT
    assert net(torch.zeros(4, 3, h, w)).shape == (4, 2)


@pytest.mark.parametrize("flag", ["--scenes", "--epochs"])
def test_no_photos_of_backs_or_no_pass_over_them_is_refused(svg, tmp_path, capsys, flag):
    with pytest.raises(SystemExit):
        train_motifs.main(["--dataset", str(tmp_path), "--svg", str(svg), flag, "0",
                           "--out", str(tmp_path / "motif_net.onnx")])
    assert "must be at least 1" in capsys.readouterr().err
    assert not (tmp_path / "motif_net.onnx").exists()


def test_a_folder_without_rasterised_backs_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        train_motifs.main(["--dataset", str(tmp_path), "--svg", str(tmp_path)])
    assert "no rasterised backs" in capsys.readouterr().err
