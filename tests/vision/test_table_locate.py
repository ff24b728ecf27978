"""Locating cards on a table photo: every card found, at any rotation, on any table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.cards import parse_card
from scanner.vision import table
from scanner.vision.synthetic.scene import (
    BACKGROUNDS,
    card_corners,
    cards_to_place,
    compose_scene,
    outline_matches,
    paste_card,
)
from scanner.vision.table import locate_cards, portrait, read_table, rectify

CARDS = [parse_card(t) for t in "AS KH QD JC TS 9H 8D 7C".split()]
BACKS = [None, None, "lattice-red", None, None, "dots-green", None, None]


def scene_of(background: str, seed: int, **kwargs):
    items = cards_to_place(CARDS, "standard", seed=seed, backs=BACKS)
    return compose_scene(items, seed=seed, background=background, **kwargs)


def unmatched(scene, outlines):
    return [t for t in scene.cards if not any(outline_matches(o, t.outline) for o in outlines)]


@pytest.mark.parametrize("background", sorted(BACKGROUNDS))
def test_every_separate_card_is_found_on_each_background(background):
    scene = scene_of(background, seed=11)
    outlines = locate_cards(scene.image)
    assert unmatched(scene, outlines) == []
    assert len(outlines) == len(scene.cards)


def test_a_borderless_back_is_found_on_a_plain_table():
    items = cards_to_place(CARDS[:3], "standard", seed=16, backs=["checker-navy", None, None])
    scene = compose_scene(items, seed=16, background="plain")
    assert unmatched(scene, locate_cards(scene.image)) == []


def test_a_borderless_back_is_found_beside_strong_wood_grain():
    items = cards_to_place(CARDS, "standard", seed=11,
                           backs=[None, None, None, None, None, "checker-navy", None, None])
    scene = compose_scene(items, seed=11, background="wood")
    assert unmatched(scene, locate_cards(scene.image)) == []


def test_outline_corners_lie_within_a_pixel_of_the_cards_corners():
    scene = scene_of("wood", seed=18)
    outlines = locate_cards(scene.image)
    for truth in scene.cards:
        [outline] = [o for o in outlines if outline_matches(o, truth.outline)]
        best = min((np.roll(outline, k, axis=0) for k in range(4)),
                   key=lambda o: np.abs(o - truth.outline).max())
        assert np.linalg.norm(best - truth.outline, axis=1).max() < 1.0


def test_read_table_hands_the_reader_every_card_of_the_frame_in_one_call(monkeypatch):
    calls = []
    real = table.read_card_images
    monkeypatch.setattr(table, "read_card_images",
                        lambda cards, **kw: calls.append(len(cards)) or real(cards, **kw))
    scene = scene_of("cloth", seed=19)
    detections = read_table(scene.image, letters="english")
    assert calls == [len(scene.cards)] and len(detections) == len(scene.cards)


def test_cards_are_found_under_camera_tilt():
    scene = scene_of("cloth", seed=12, tilt=0.4)
    assert unmatched(scene, locate_cards(scene.image)) == []


@pytest.mark.parametrize("background", sorted(BACKGROUNDS))
def test_an_empty_table_has_no_cards(background):
    scene = compose_scene([], seed=13, background=background)
    assert locate_cards(scene.image) == []


def test_outlines_are_in_full_resolution_pixels_of_a_large_photo():
    scene = scene_of("wood", seed=14, size=(4000, 3000), card_height=(550, 700))
    assert unmatched(scene, locate_cards(scene.image)) == []


def test_a_close_up_card_filling_most_of_the_photo_is_found():
    [item] = cards_to_place(CARDS[:1], "standard", seed=17)
    photo = np.full((560, 400, 3), (50, 70, 110), np.uint8)
    corners = card_corners((200, 280), 500, item.image.shape[1] / item.image.shape[0], 3.0)
    paste_card(photo, item.image, item.mask, corners)
    [outline] = locate_cards(photo)
    assert outline_matches(outline, corners)


def side_by_side(cards: str, style: str, table: tuple[int, int, int], angle: float):
    """Two cards 4 px apart along ``angle`` on a plain table: the photo and their corners."""
    items = cards_to_place([parse_card(c) for c in cards.split()], style, seed=21)
    aspect = items[0].image.shape[1] / items[0].image.shape[0]
    photo = np.full((720, 1280, 3), table, np.uint8)
    theta = np.radians(angle)
    step = np.array([np.cos(theta), np.sin(theta)]) * (200 * aspect + 4)
    corners = [card_corners((600 + dx, 360 + dy), 200, aspect, angle)
               for dx, dy in (0 * step, step)]
    for item, quad in zip(items, corners, strict=True):
        paste_card(photo, item.image, item.mask, quad)
    return photo, corners


def assert_found_as_two(photo: np.ndarray, corners: list[np.ndarray]) -> None:
    outlines = locate_cards(photo)
    assert len(outlines) == 2
    assert all(any(outline_matches(o, quad) for o in outlines) for quad in corners)


@pytest.mark.parametrize("angle", [0.0, 33.0])
def test_two_cards_side_by_side_are_two_cards_not_one_card_shaped_pair(angle):
    # Two bridge cards a few pixels apart make a rectangle of about a card's proportions.
    assert_found_as_two(*side_by_side("9H 4S", "standard", (60, 60, 60), angle))


@pytest.mark.parametrize("angle", [33.0, 60.0])
def test_a_court_card_beside_another_is_two_cards_though_its_frame_is_card_shaped(angle):
    # The queen's framed picture is a card-shaped outline inside her: the two cards'
    # own outlines, not the frame, must be found to fill the pair's outline.
    assert_found_as_two(*side_by_side("9H QC", "paris", (50, 40, 130), angle))


def test_a_borderless_checked_back_whose_colours_average_to_the_cloth_is_found():
    # Navy and grey check averages to the table's own grey under any blur, so neither its
    # outline nor its motif makes an edge; only its fine contrast sets it apart.
    [item] = cards_to_place([parse_card("2C")], "standard", seed=30, backs=["checker-navy"])
    aspect = item.image.shape[1] / item.image.shape[0]
    noise = np.random.default_rng(0).normal(0, 3, (720, 1280, 3))
    photo = np.clip(128 + noise, 0, 255).astype(np.uint8)
    corners = card_corners((640, 360), 200, aspect, 20.0)
    paste_card(photo, item.image, item.mask, corners)
    [outline] = locate_cards(photo)
    assert outline_matches(outline, corners)


def test_a_poker_card_foreshortened_to_nearly_square_is_found():
    [item] = cards_to_place(CARDS[:1], "casino", seed=22)  # poker size, 63 × 89 mm
    photo = np.full((720, 1280, 3), (120, 60, 20), np.uint8)
    upright = card_corners((640, 360), 220, item.image.shape[1] / item.image.shape[0], 20.0)
    # A camera tilted along the card's length shortens it: its sides now 0.9 to 1, not 0.71.
    centre = upright.mean(axis=0)
    axis = (upright[3] - upright[0]) / np.linalg.norm(upright[3] - upright[0])
    squashed = upright - np.outer((upright - centre) @ axis, axis) * 0.21
    paste_card(photo, item.image, item.mask, squashed.astype(np.float32))
    [outline] = locate_cards(photo)
    assert outline_matches(outline, squashed)


def test_rectified_card_is_portrait_with_the_cards_proportions():
    scene = scene_of("plain", seed=15)
    outline = portrait(locate_cards(scene.image)[0])
    card = rectify(scene.image, outline)
    height, width = card.shape[:2]
    assert height > width
    assert width / height == pytest.approx(57 / 89, abs=0.01)


def test_a_square_score_pad_is_not_a_card():
    image = np.full((720, 1280, 3), (60, 90, 140), np.uint8)
    image[200:400, 500:700] = 245  # white, four-sided, but square
    assert locate_cards(image) == []


def test_a_bgra_photo_reads_as_its_colour_photo_does():
    scene = scene_of("plain", seed=11)
    colour = [(d.face, d.card) for d in read_table(scene.image, letters="english")]
    bgra = read_table(cv2.cvtColor(scene.image, cv2.COLOR_BGR2BGRA), letters="english")
    assert [(d.face, d.card) for d in bgra] == colour


def test_a_grey_photo_is_refused_since_it_cannot_show_a_red_suit_from_a_black_one():
    grey = cv2.cvtColor(scene_of("plain", seed=11).image, cv2.COLOR_BGR2GRAY)
    with pytest.raises(ValueError, match="need colour"):
        read_table(grey)
