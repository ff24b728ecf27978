"""Cards known by a visible corner: each card named once, and two neighbours in a tight
fan named as two cards (``scanner.vision.indices``)."""

from __future__ import annotations

import numpy as np

from scanner.cards import parse_card
from scanner.vision.corner_net import WINDOW
from scanner.vision.indices import RANK_AT, IndexHit, _each_card_once, _pairs


def hit(name: str, score: float, rank_x: float, rank_y: float = 100.0,
        size: float = 72.0) -> IndexHit:
    """A hit whose upright window, ``size`` pixels wide, puts the rank at (rank_x, rank_y)."""
    w, h = WINDOW
    k = size / w
    box = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) * k
    box += (rank_x - RANK_AT[0] * k, rank_y - RANK_AT[1] * k)
    return IndexHit(parse_card(name), score, box.astype(np.float32), np.array([0.0, 1.0]))


def test_neighbours_a_third_of_a_window_apart_are_two_cards():
    kept = _each_card_once([hit("7C", 0.99, 100), hit("5C", 0.98, 124)], copies=1)
    assert {k.card for k in kept} == {parse_card("7C"), parse_card("5C")}


def test_one_rank_read_with_two_pips_is_one_card_the_surer():
    kept = _each_card_once([hit("7C", 0.95, 100), hit("7S", 0.99, 103)], copies=1)
    assert [k.card for k in kept] == [parse_card("7S")]


def test_a_card_is_named_once_unless_the_deck_holds_two():
    hits = [hit("KH", 0.99, 100), hit("KH", 0.97, 400)]
    assert len(_each_card_once(hits, copies=1)) == 1
    assert len(_each_card_once(hits, copies=2)) == 2


def blob(x: int, y: int, w: int, h: int, ink: int) -> list[int]:
    return [x - w // 2, y - h // 2, w, h, ink]


def test_two_pips_alike_are_not_a_rank_over_its_suit():
    """Two diamond pips of one card, one above the other, are as far apart as an index's
    rank and suit, but alike in width, height and ink: no index is proposed there."""
    stats = np.array([blob(100, 100, 27, 39, 507), blob(100, 160, 28, 39, 513)])
    assert _pairs(stats, stats[:, :2] + stats[:, 2:4] / 2) == []


def test_a_rank_over_a_smaller_pip_is_proposed_as_an_index():
    stats = np.array([blob(100, 100, 20, 40, 380), blob(100, 150, 24, 26, 330)])
    assert (0, 1) in _pairs(stats, stats[:, :2] + stats[:, 2:4] / 2)
