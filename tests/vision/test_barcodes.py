"""A dealing machine's barcode beside an index is never read as a ten."""

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from scanner.cards import parse_card
from scanner.vision import indices
from scanner.vision.barcodes import in_a_barcode
from scanner.vision.corner_net import RANK_LABELS, SUIT_LABELS, WINDOW
from scanner.vision.indices import RANK_AT, index_hits

PAPER, INK = (228, 232, 236), (30, 30, 30)


def window() -> np.ndarray:
    w, h = WINDOW
    return np.full((h, w, 3), PAPER, np.uint8)


def barcode(img: np.ndarray, centre: tuple[float, float], length: float, bars: int = 5,
            space: int = 5, width: int = 4) -> np.ndarray:
    """Upright bars side by side ``space`` apart, the first twice as thick, the second
    centred on ``centre``."""
    x, y = centre
    left = round(x - width / 2 - space - 2 * width)
    for i in range(bars):
        right = left + (2 * width if i == 0 else width)
        cv2.rectangle(img, (left, round(y - length / 2)), (right - 1, round(y + length / 2)),
                      INK, -1)
        left = right + space
    return img


def turned(img: np.ndarray, degrees: float) -> np.ndarray:
    m = cv2.getRotationMatrix2D(RANK_AT, degrees, 1.0)
    return cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderValue=PAPER)


def test_a_bar_of_a_barcode_where_the_rank_would_be_is_in_a_barcode():
    img = barcode(window(), RANK_AT, 30)
    assert in_a_barcode(img, RANK_AT)


def test_a_barcode_lying_turned_is_still_one():
    img = barcode(window(), RANK_AT, 30)
    for degrees in (30, 75, 140):
        assert in_a_barcode(turned(img, degrees), RANK_AT)


def ten_between_card_edges() -> np.ndarray:
    """A "10" over a pip, with the edges of the cards over it as long lines beside it."""
    img = window()
    cv2.putText(img, "10", (6, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.1, INK, 3)
    cv2.circle(img, (23, 74), 9, INK, -1)
    for x in (50, 58):
        cv2.line(img, (x, 0), (x, 111), INK, 2)
    return img


def test_the_one_of_a_ten_beside_card_edges_is_no_barcode():
    img = ten_between_card_edges()
    one_at = (14.0, 37.0)  # the stroke of the "1"
    assert in_a_barcode(img, one_at) is False
    assert in_a_barcode(img, RANK_AT) is False


def test_two_bars_are_no_barcode():
    img = barcode(window(), RANK_AT, 30, bars=2)
    assert not in_a_barcode(img, RANK_AT)


class NamesTenOfClubsEverywhere:
    """A corner reader sure that every window it is shown holds the ten of clubs."""

    calibration = SimpleNamespace(corner=0.9, corner_second=0.9,
                                  corner_second_low=None)
    second_opinion = None

    def probabilities(self, windows):
        ranks = np.zeros((len(windows), len(RANK_LABELS)), np.float32)
        suits = np.zeros((len(windows), len(SUIT_LABELS)), np.float32)
        ranks[:, RANK_LABELS.index("r:10")] = 1.0
        suits[:, SUIT_LABELS.index("C")] = 1.0
        return ranks, suits


def stock_with_a_barcode_over_a_pip_and_a_ten() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """White stock on a dark table at the finder's working size: a barcode with a pip below
    it, as where a card's barcode lies over another's corner; and a true "10" over its
    club. The barcode's middle and the ten's "1"."""
    img = np.full((1000, 1600, 3), 40, np.uint8)
    img[200:800, 300:1300] = PAPER
    barcode(img, (600, 420), 40, space=7, width=5)
    cv2.fillPoly(img, [np.array([[580, 470], [620, 470], [600, 500]], np.int32)], INK)
    cv2.putText(img, "10", (900, 440), cv2.FONT_HERSHEY_SIMPLEX, 1.6, INK, 4)
    cv2.circle(img, (925, 480), 12, INK, -1)
    return img, np.array([600.0, 420.0]), np.array([910.0, 420.0])


@pytest.mark.usefixtures("no_motif_net")
def test_a_barcode_over_a_pip_names_no_card_where_a_ten_is_named(monkeypatch):
    img, bars, ten = stock_with_a_barcode_over_a_pip_and_a_ten()
    reader = NamesTenOfClubsEverywhere()

    def near(hits, point):
        return [h for h in hits if np.linalg.norm(h.rank_centre() - point) < 40]

    hits = index_hits(img, reader=reader)
    assert near(hits, ten) and all(h.card == parse_card("TC") for h in hits)
    assert not near(hits, bars)
    # Without the check, the barcode is proposed and named: the finder pairs it with the pip.
    monkeypatch.setattr(indices, "in_a_barcode", lambda *args: False)
    assert near(index_hits(img, reader=reader), bars)
