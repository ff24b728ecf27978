"""Photos of printed text lying on a table, which the bench reads to find print taken for
an index (``printed_text``)."""

from __future__ import annotations

import shutil
from xml.etree import ElementTree

import cv2
import numpy as np
import pytest

from scanner.vision.training.printed_text import _svg_sheet, text_on_a_table

pytestmark = pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                                reason="needs librsvg2-bin")


def test_printed_text_lies_on_a_table_and_comes_out_the_same_for_one_seed():
    one = text_on_a_table(np.random.default_rng(5))
    assert np.array_equal(one, text_on_a_table(np.random.default_rng(5)))
    height, width = one.shape[:2]
    assert 900 <= width <= 1600 and height == int(width * 0.75)
    ink = cv2.cvtColor(one, cv2.COLOR_BGR2GRAY) < 80
    assert ink.any()  # the sheet's print is in sight


def test_a_sheet_is_well_formed_svg_whatever_its_lines_hold():
    for seed in range(20):
        svg = ElementTree.fromstring(_svg_sheet(np.random.default_rng(seed)))
        assert svg.findall("{http://www.w3.org/2000/svg}text")
