"""A card back's motif, or print, is no index: a window the motif net is sure was cut from
a back's repeating motif or from printed text names no card (``motifs``, ``indices``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.vision.motifs import default_motif_reader
from scanner.vision.synthetic import render
from scanner.vision.table import read_table
from scanner.vision.training.train_motifs import backs_on_a_table


def test_the_shipped_net_gives_each_window_a_probability():
    reader = default_motif_reader()
    assert 0.5 < reader.threshold < 1
    p = reader.probabilities([np.full((112, 72, 3), 255, np.uint8)] * 3)
    assert p.shape == (3,) and ((p >= 0) & (p <= 1)).all()
    assert reader.probabilities([]).shape == (0,)


# A casino back: a red field under a light diamond lattice, as the real backs were that a
# photo of a poker table, cut closer, had named as hearts and diamonds. Rendered, it is
# drawn in a colour and at periods of its own; (period in mm, seed) of photos of two such
# backs lying close up, which the reader without its motif net names a card in.
CASINO = dataclasses.replace(render.BACKS["lattice-red"], ink=(245, 245, 250),
                             ground=(70, 40, 210))
CLOSE_UPS = [(2.5, 2), (2.5, 5), (5.0, 2), (5.0, 5)]


def casino_backs_close_up(period: float, seed: int) -> np.ndarray:
    style = render.TUNING_STYLES[0]
    back = render.render_back(dataclasses.replace(CASINO, period_mm=period), style, seed=11)
    photo = backs_on_a_table([(back, render.card_alpha(style))] * 2,
                             np.random.default_rng(seed))
    _, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 75])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


@pytest.mark.parametrize(("period", "seed"), CLOSE_UPS)
def test_a_casino_back_close_up_names_no_card(period, seed):
    assert [d.card for d in read_table(casino_backs_close_up(period, seed))
            if d.card is not None] == []


@pytest.mark.usefixtures("no_motif_net")
def test_without_the_motif_net_casino_backs_close_up_are_named_as_cards():
    named = [d.card for period, seed in CLOSE_UPS
             for d in read_table(casino_backs_close_up(period, seed)) if d.card is not None]
    assert len(named) >= len(CLOSE_UPS)


# Photos of printed score sheets lying on a table (``tests/fixtures/printed-text``), on
# which the reader named cards before the motif net learnt print.
SHEETS = sorted((Path(__file__).parents[1] / "fixtures" / "printed-text").glob("*.jpg"))


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.stem)
def test_a_printed_score_sheet_names_no_card(sheet):
    assert [d.card for d in read_table(cv2.imread(str(sheet))) if d.card is not None] == []


@pytest.mark.usefixtures("no_motif_net")
def test_without_the_motif_net_printed_score_sheets_are_named_as_cards():
    named = [d.card for sheet in SHEETS for d in read_table(cv2.imread(str(sheet)))
             if d.card is not None]
    assert len(named) >= len(SHEETS)
