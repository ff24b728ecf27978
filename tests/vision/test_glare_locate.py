"""Cards partly hidden by glare: found from the sides the glare leaves in sight, never guessed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.cards import parse_card
from scanner.vision.glare import find_glare
from scanner.vision.synthetic.scene import cards_to_place, compose_scene, outline_matches
from scanner.vision.table import locate_cards

CARDS = [parse_card(t) for t in "AS KH QD JC TS 9H 8D 7C".split()]


def glare_at(image: np.ndarray, centre: np.ndarray, radius: float) -> np.ndarray:
    """A lamp's reflection: a soft bright disc added to the photo, clipped where it saturates."""
    spot = np.zeros(image.shape[:2], np.float32)
    cv2.circle(spot, (round(float(centre[0])), round(float(centre[1]))), round(radius), 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), 15) * 0.9
    return (image.astype(np.float32) + 255 * spot[..., None]).clip(0, 255).astype(np.uint8)


def table_of(cards, background: str, seed: int):
    items = cards_to_place(cards, "standard", seed=seed, backs=[None] * len(cards))
    return compose_scene(items, seed=seed, background=background)


def glare_on_corner(outline: np.ndarray) -> tuple[np.ndarray, float]:
    height = float(np.linalg.norm(outline[0] - outline[3]))
    return outline[0] + (outline[2] - outline[0]) * 0.08, 0.3 * height


def glare_on_end(outline: np.ndarray) -> tuple[np.ndarray, float]:
    height = float(np.linalg.norm(outline[0] - outline[3]))
    return (outline[0] + outline[1]) / 2 + (outline[3] - outline[0]) * 0.12, 0.42 * height


def assert_found_whole_under_glare(background: str, seed: int, index: int, place) -> None:
    """The card at ``index`` is found, with its outline, under glare placed on it by
    ``place``, and every other card of the table still once."""
    scene = table_of(CARDS, background, seed)
    card = scene.cards[index].outline
    outlines = locate_cards(glare_at(scene.image, *place(card)))
    assert [o for o in outlines if outline_matches(o, card)] != []
    assert len(outlines) == len(CARDS)


@pytest.mark.parametrize(("background", "seed", "index"), [("plain", 11, 1), ("wood", 12, 3),
                                                           ("cloth", 12, 5)])
def test_a_card_with_a_corner_blanked_by_glare_is_found_from_the_sides_in_sight(
        background, seed, index):
    assert_found_whole_under_glare(background, seed, index, glare_on_corner)


@pytest.mark.parametrize(("background", "seed", "index"), [("plain", 11, 0), ("plain", 12, 2),
                                                           ("cloth", 12, 6)])
def test_a_card_whose_end_is_lost_in_glare_is_completed_as_the_tables_cards_are_proportioned(
        background, seed, index):
    assert_found_whole_under_glare(background, seed, index, glare_on_end)


def test_a_lone_card_whose_end_is_lost_in_glare_is_not_guessed():
    scene = table_of(CARDS[:1], "plain", 11)
    assert locate_cards(glare_at(scene.image, *glare_on_end(scene.cards[0].outline))) == []


@pytest.mark.parametrize("background", ["plain", "wood", "cloth", "cluttered"])
def test_glare_on_an_empty_table_is_no_card(background):
    scene = table_of([], background, 5)
    photo = glare_at(glare_at(scene.image, np.array([400.0, 300.0]), 90), np.array([900.0, 450.0]),
                     60)
    assert locate_cards(photo) == []


def test_clipped_stock_inside_cards_already_found_is_no_glare():
    scene = table_of(CARDS, "wood", 13)
    image = scene.image.copy()
    outline = scene.cards[2].outline
    cv2.fillPoly(image, [np.round(outline * 0.5 + outline.mean(axis=0) * 0.5).astype(np.int32)],
                 (255, 255, 255))
    assert find_glare(image) is not None
    assert find_glare(image, [outline]) is None
