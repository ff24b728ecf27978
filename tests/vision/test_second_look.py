"""A card the reader abstained on is looked at again: its corner windows are cut at a grid
of small shifts, as far as an outline found under motion blur is off, and each corner's
beliefs are averaged over the looks before the corners are taken together again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np

from scanner.cards import Card, Rank, Suit, parse_card
from scanner.vision.corner_net import (
    NET_PATH,
    SECOND_LOOK_SHIFTS,
    VIEWS,
    WINDOW,
    CornerReader,
    corner_windows,
    default_reader,
    second_look_windows,
    shifted_corner_windows,
)
from scanner.vision.index import CANONICAL_SIZE
from scanner.vision.reading import read_card_image, second_look
from scanner.vision.station import rectify
from scanner.vision.synthetic import render
from scanner.vision.synthetic.perturb import perturb_motion

RANKS = tuple(Rank)
SUITS = tuple(Suit)


def numbered_card() -> np.ndarray:
    """A canonical-sized card whose every pixel tells its own position."""
    ys, xs = np.mgrid[0:360, 0:240]
    return np.dstack([xs % 256, ys % 256, (xs + ys) % 256]).astype(np.uint8)


def belief(name: str, p: float) -> tuple[np.ndarray, np.ndarray]:
    """One corner's rank and suit beliefs: ``p`` on the card, the rest spread evenly."""
    card = parse_card(name)
    ranks = np.full(len(RANKS), (1 - p) / (len(RANKS) - 1), np.float32)
    suits = np.full(len(SUITS), (1 - p) / (len(SUITS) - 1), np.float32)
    ranks[RANKS.index(card.rank)], suits[SUITS.index(card.suit)] = p, p
    return ranks, suits


def looks(*pairs: tuple[tuple[str, float], tuple[str, float]]
          ) -> tuple[np.ndarray, np.ndarray]:
    """Look × corner × belief arrays, from each look's two corners as (card, probability)."""
    corners = [[belief(*corner) for corner in pair] for pair in pairs]
    return (np.array([[r for r, _ in look] for look in corners]),
            np.array([[s for _, s in look] for look in corners]))


def test_the_unshifted_look_is_the_first_look():
    card = numbered_card()
    for shifted, first in zip(shifted_corner_windows(card, (0, 0)), corner_windows(card),
                              strict=True):
        assert np.array_equal(shifted, first)


def test_a_shift_moves_both_windows_into_the_card_alike():
    card = numbered_card()
    top_left, bottom_right = shifted_corner_windows(card, (3, -3))
    w, h = WINDOW
    assert top_left.shape[:2] == bottom_right.shape[:2] == (h, w)
    assert np.array_equal(top_left[3:, :], card[:h - 3, 3:w + 3])
    turned = card[360 - h + 3:, 240 - w - 3:240 - 3][::-1, ::-1]
    assert np.array_equal(bottom_right[3:, :], turned)


def test_the_second_look_cuts_each_shift_as_shifted_windows_would():
    card = numbered_card()
    windows = second_look_windows(card)
    expected = [w for shift in SECOND_LOOK_SHIFTS for w in shifted_corner_windows(card, shift)]
    assert len(windows) == len(expected)
    assert all(np.array_equal(a, b) for a, b in zip(windows, expected, strict=True))


def test_the_second_look_covers_a_grid_around_the_first():
    assert (0, 0) in SECOND_LOOK_SHIFTS
    assert len(set(SECOND_LOOK_SHIFTS)) == 9


def test_the_second_look_names_the_card_most_looks_see():
    ranks, suits = looks(*[(("8D", 0.9), ("8D", 0.8))] * 7, (("5D", 0.9), ("8D", 0.8)),
                         (("8H", 0.6), ("5D", 0.7)))
    card, score = second_look(ranks, suits)
    assert card == Card(Rank.R8, Suit.D)
    assert score > 0.9


def test_the_second_look_names_nothing_the_corners_do_not_both_lean_to():
    ranks, suits = looks(*[(("JS", 0.95), ("QH", 0.95))] * 9)
    assert second_look(ranks, suits)[0] is None


def shaken_card_found_short(card: str, style: str, seed: int) -> np.ndarray:
    """A card 180 px tall in a photo, shaken hard, rectified from an outline found 2% of
    its height inside each edge."""
    flat = render.render_card(parse_card(card), style, seed=seed)
    h = 180
    w = round(flat.shape[1] * h / flat.shape[0])
    photo = np.full((h + 40, w + 40, 3), 90, np.uint8)
    photo[20:20 + h, 20:20 + w] = cv2.resize(flat, (w, h), interpolation=cv2.INTER_AREA)
    shaken = perturb_motion(photo, np.random.default_rng(seed), 1.0)
    inset = 0.02 * h
    outline = np.float32([[20 + inset, 20 + inset], [20 + w - inset, 20 + inset],
                          [20 + w - inset, 20 + h - inset], [20 + inset, 20 + h - inset]])
    return rectify(shaken, outline, CANONICAL_SIZE)


def reader_trusting_first_looks_only_at(folder: Path, score: float, second: bool
                                        ) -> CornerReader:
    """The shipped net, its first look made to abstain below ``score``, its calibrated
    second look kept or left out."""
    shutil.copy(NET_PATH, folder / "net.onnx")
    calibration = json.loads(NET_PATH.with_suffix(".json").read_text())
    for view in VIEWS:
        calibration[view].update(agree=score, single=score)
        if not second:
            calibration[view].pop("second")
    (folder / "net.json").write_text(json.dumps(calibration))
    return CornerReader(folder / "net.onnx")


def test_a_shaken_card_the_first_look_abstains_on_is_named_on_a_second_look(tmp_path):
    """The first look is made to abstain on a card found a little short under motion blur;
    the second look, averaging its shifted windows, names it at its own calibrated score."""
    img = shaken_card_found_short("KH", "standard", seed=112)
    (tmp_path / "with").mkdir()
    (tmp_path / "without").mkdir()
    unsure = 1 - 1e-9
    without = reader_trusting_first_looks_only_at(tmp_path / "without", unsure, second=False)
    assert read_card_image(img, reader=without).card is None
    reader = reader_trusting_first_looks_only_at(tmp_path / "with", unsure, second=True)
    reading = read_card_image(img, reader=reader)
    assert reading.card == parse_card("KH")
    assert reading.confidence >= default_reader().calibration.thresholds["card"].second
