"""The read station: faces of every style read right, backs read down, an empty window reads
none, and anything unclear is an abstention, never a guess."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.cards import ALL_CARDS, Suit, parse_card
from scanner.vision.index import NEUTRAL, WARM, ink_allows
from scanner.vision.reading import Reading, read_card_image, read_card_images
from scanner.vision.station import card_shaped, locate_station_card, read_station
from scanner.vision.synthetic import render

# One card of every rank, spread over the four suits.
SPREAD = [card for card in ALL_CARDS if card.rank.index % 4 == card.suit.index]
SPREAD += [parse_card(t) for t in ("AH", "KC", "QS", "JD", "TC", "9H", "8S", "2D")]
DEFAULT_STYLES = [s for s in render.STYLES if s not in render.PROFILE_ONLY_STYLES]


def station(card, style, seed, **perturb):
    return render.render_station_frame(card, style, seed=seed, perturb=perturb)


@pytest.mark.parametrize("style", DEFAULT_STYLES)
def test_rendered_cards_of_every_style_read_right(style):
    letters = render.STYLES[style].letters  # the shoe is told its deck's letter set
    wrong = []
    for i, card in enumerate(SPREAD):
        reading = read_station(station(card, style, 100 + i, rotation=0.5, scale=0.5),
                               letters=letters)
        if (reading.face, reading.card) != ("up", card):
            wrong.append((str(card), reading))
    assert not wrong


def test_a_card_upside_down_reads_the_same():
    for card in (parse_card("6D"), parse_card("9C"), parse_card("KH")):
        flat = render.render_card(card, "standard", seed=1)
        assert read_card_image(flat).card == card
        assert read_card_image(flat[::-1, ::-1]).card == card


@pytest.mark.parametrize("back", list(render.BACKS))
def test_backs_read_as_down_and_never_as_a_face(back):
    rng = np.random.default_rng(7)
    for i, style in enumerate(render.STYLES):
        frame = render.render_station_frame(None, style, seed=200 + i, back=back,
                                            perturb=render.random_levels(rng, 0.5))
        reading = read_station(frame)
        assert reading.card is None
        assert reading.face == "down", (style, reading)


def test_many_cards_read_at_once_read_as_each_alone():
    cards = [render.render_card(card, "casino", seed=i) for i, card in enumerate(SPREAD[:5])]
    cards.insert(2, render.render_card(None, "casino", seed=0, back="dots-green"))
    together = read_card_images(cards, letters="english")
    alone = [read_card_image(card, letters="english") for card in cards]
    assert [(r.face, r.card) for r in together] == [(r.face, r.card) for r in alone]
    assert [r.card for r in together] == [*SPREAD[:2], None, *SPREAD[2:5]]


def test_no_cards_read_as_no_readings():
    assert read_card_images([]) == []


def test_an_unknown_letter_set_is_refused():
    flat = render.render_card(parse_card("8S"), "standard", seed=0)
    with pytest.raises(ValueError, match="letter set"):
        read_card_image(flat, letters="klingon")


def _card_at_station(card: str, glare_at: tuple[float, float] | None = None):
    """A card placed at a known outline in a dark window, with a bright glare spot there."""
    flat = render.render_card(parse_card(card), "standard", seed=0)
    h, w = flat.shape[:2]
    quad = np.array([[180, 40], [180 + w * 0.8, 46], [174 + w * 0.8, 46 + h * 0.8],
                     [174, 40 + h * 0.8]], np.float32)
    frame = render.place_card(np.full((480, 640, 3), 20, np.uint8), flat,
                              render.card_alpha("standard"), quad)
    if glare_at is not None:
        ys, xs = np.mgrid[:480, :640]
        spot = 230 * np.exp(-((xs - glare_at[0]) ** 2 + (ys - glare_at[1]) ** 2) / (2 * 50 ** 2))
        frame = np.clip(frame + spot[..., None], 0, 255).astype(np.uint8)
    return frame, quad


def test_the_station_finds_a_card_to_a_pixel_despite_its_rounded_corners():
    frame, quad = _card_at_station("KS")
    assert np.abs(locate_station_card(frame) - quad).max() < 1.0


def test_glare_on_the_window_beside_the_card_does_not_move_its_outline():
    # The lamp's spot lies half on the card, half on the window; thresholding the frame
    # joins the lit window to the card and bulges its outline well past the edge.
    frame, quad = _card_at_station("4S", glare_at=(470, 260))
    assert np.abs(locate_station_card(frame) - quad).max() < 2.0


def test_a_card_beside_glare_reads_right():
    frame, _ = _card_at_station("4S", glare_at=(470, 260))
    assert read_station(frame, letters="english").card == parse_card("4S")


def test_only_an_outline_of_a_cards_shape_may_name_a_face():
    w, h = 300, 420
    card = np.array([[170, 30], [170 + w, 30], [170 + w, 30 + h], [170, 30 + h]], np.float32)
    assert card_shaped(card)
    bent = card.copy()
    bent[2] -= (80, 10)  # glare pulled one corner in: the index would be rectified askew
    assert not card_shaped(bent)


def test_an_empty_station_reads_none():
    for seed in range(5):
        frame = render.render_station_frame(None, "standard", seed=seed, empty=True,
                                            perturb={"noise": 1.0, "lighting": 1.0})
        assert read_station(frame) == Reading("none", None, 1.0)


def test_a_black_frame_reads_none():
    assert read_station(np.zeros((480, 640, 3), np.uint8)).face == "none"


@pytest.mark.parametrize("style", ["standard", "club", "riviera"])
def test_a_joker_reads_as_no_card(style):
    for seed in range(3):
        reading = read_station(station(None, style, seed))
        assert reading.card is None


def test_an_ambiguous_letter_abstains_until_the_letter_set_is_known():
    # V is the jack in a French deck and the queen in a Dutch one.
    french_jack = station(parse_card("JH"), "paris", 3)
    assert read_station(french_jack).card is None
    assert read_station(french_jack, letters="french").card == parse_card("JH")
    dutch_queen = station(parse_card("QS"), "amsterdam", 3)
    assert read_station(dutch_queen, letters="dutch").card == parse_card("QS")


def test_an_erased_index_abstains_instead_of_guessing():
    flat = render.render_card(parse_card("8S"), "standard", seed=0)
    paper = flat[flat.shape[0] // 2, 5].copy()
    for x0, y0, x1, y1 in render.index_boxes("standard"):
        flat[y0:y1, x0:x1] = paper
    reading = read_card_image(flat)
    assert reading == Reading("up", None, reading.confidence)
    assert reading.confidence < 0.5


def test_one_corner_under_glare_still_reads_from_the_other():
    flat = render.render_card(parse_card("4H"), "casino", seed=0)
    x0, y0, x1, y1 = render.index_boxes("casino")[0]
    flat[y0:y1, x0:x1] = 255
    assert read_card_image(flat).card == parse_card("4H")


def test_corners_that_disagree_abstain():
    top = render.render_card(parse_card("5C"), "standard", seed=0)
    other = render.render_card(parse_card("6C"), "standard", seed=0)
    h = top.shape[0]
    top[h // 2:] = other[h // 2:]
    assert read_card_image(top).card is None


def test_confidence_is_between_zero_and_one_and_high_for_a_clean_card():
    reading = read_station(station(parse_card("TD"), "standard", 1))
    assert reading.card == parse_card("TD")
    assert 0.5 <= reading.confidence <= 1.0


def test_reading_serialises_like_the_cli_contract():
    assert Reading("up", parse_card("QH"), 0.98765).to_dict() == {
        "face": "up", "card": "QH", "confidence": 0.9877}
    assert Reading("down", None, 0.9).to_dict()["card"] is None


def test_suit_ink_rules_out_a_suit_printed_in_another_colour():
    assert not ink_allows(Suit.S, WARM)
    assert not ink_allows(Suit.H, NEUTRAL)
    assert ink_allows(Suit.C, NEUTRAL) and ink_allows(Suit.D, WARM)


def test_a_bgra_frame_reads_as_its_colour_frame_does():
    frame = station(parse_card("QH"), "standard", 1)
    assert read_station(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)).card == parse_card("QH")


def test_a_grey_frame_is_refused_since_it_cannot_show_a_red_suit_from_a_black_one():
    grey = cv2.cvtColor(station(parse_card("8D"), "standard", 1), cv2.COLOR_BGR2GRAY)
    with pytest.raises(ValueError, match="need colour"):
        read_station(grey)
