"""The middle of a card is a second witness to its corner indices: its pips settle a doubt
the blurred indices leave, and veto a suit they misread, and never name a card the corners
do not already hold likely."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.cards import Card, Rank, Suit, parse_card
from scanner.vision.corner_net import WINDOW, Thresholds
from scanner.vision.index import CANONICAL_SIZE, canonical
from scanner.vision.middle import PIPS_OF_RANK, Middle, look_at_middle
from scanner.vision.pips import centre_pips
from scanner.vision.reading import (
    MIDDLE_ALWAYS,
    CardScores,
    checks_middle,
    read_card_images,
    weigh_the_middle,
)
from scanner.vision.synthetic import render
from scanner.vision.synthetic.perturb import perturb_motion

STATION = Thresholds(agree=0.6, single=0.9, other=0.3)
RANKS = tuple(Rank)
SUITS = tuple(Suit)


def corners(rank: str, suits_a: dict[str, float], suits_b: dict[str, float]):
    """Two corners both sure of ``rank``, with these suit beliefs: their scores and beliefs."""
    ranks = np.zeros((2, len(RANKS)), np.float32)
    ranks[:, RANKS.index(Rank(rank))] = 0.97
    suits = np.zeros((2, len(SUITS)), np.float32)
    for row, belief in enumerate((suits_a, suits_b)):
        for suit, p in belief.items():
            suits[row, SUITS.index(Suit(suit))] = p
    scores = [CardScores(Card(Rank(rank), SUITS[int(row.argmax())]), 0.97 * float(row.max()))
              for row in suits]
    return scores, ranks, suits


def face(card: str) -> np.ndarray:
    return canonical(render.render_card(parse_card(card), "casino", seed=3))


def assert_vetoed(middle: Middle, named: str, rank: str, suit: str) -> None:
    """Corners that both lean to ``named`` (of ``rank``, in ``suit``) are overruled by the
    middle: nothing is named, and the confidence falls below a name's."""
    (a, b), ranks, suits = corners(rank, {suit: 0.9}, {suit: 0.85})
    card, confidence = weigh_the_middle(middle, parse_card(named), 0.9, a, b,
                                        ranks, suits, STATION)
    assert card is None
    assert confidence < 0.5


def test_the_middle_of_a_number_card_shows_its_suit_and_its_count_of_pips():
    for card in ("5S", "7C", "9H", "3D", "TS"):
        middle = look_at_middle(face(card))
        assert middle.suit == parse_card(card).suit
        assert middle.fits(parse_card(card).rank)


def shaken(card: Card, style: str, shake: float, rng: np.random.Generator) -> np.ndarray:
    """A card 190 px tall in a phone photo, motion-blurred, rectified up to the reader's
    size."""
    flat = render.render_card(card, style, seed=1)
    small = cv2.resize(flat, (round(flat.shape[1] * 190 / flat.shape[0]), 190),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(perturb_motion(small, rng, shake), CANONICAL_SIZE,
                      interpolation=cv2.INTER_LINEAR)


@pytest.mark.parametrize(("card", "style", "shake"), [("4S", "casino", 0.5),
                                                      ("9H", "riviera", 0.6)])
def test_the_middle_of_a_card_shaken_in_a_table_photo_still_shows_its_suit(card, style, shake):
    middle = look_at_middle(shaken(parse_card(card), style, shake, np.random.default_rng(1)))
    assert middle.suit == parse_card(card).suit
    assert middle.fits(parse_card(card).rank)


def test_the_middles_of_shaken_cards_of_every_design_show_their_suit_or_none():
    """Nearly every number card's middle, blurred as a table photo blurs it, shows its suit;
    none shows another."""
    rng = np.random.default_rng(7)
    right = 0
    for i in range(70):
        card = Card(tuple(PIPS_OF_RANK)[i % 10], SUITS[i % 4])
        style = tuple(render.STYLES)[i % 7]
        seen = look_at_middle(shaken(card, style, float(rng.uniform(0.3, 0.8)), rng)).suit
        assert seen in (card.suit, None), f"{card} of {style} shows {seen}"
        right += seen == card.suit
    assert right >= 63


def test_a_court_card_middle_does_not_fit_a_field_of_pips():
    assert not Middle(Suit.C, shapes=8, pips=8).fits(Rank.J)
    assert Middle(Suit.C, shapes=3, pips=1).fits(Rank.J)


def assert_settled(card: str, suits_a: dict[str, float], suits_b: dict[str, float]) -> None:
    """Corners that abstained on ``card``'s rank with these suit beliefs are settled as
    ``card`` by its own middle, at a name's confidence."""
    (a, b), ranks, suits = corners(card[0], suits_a, suits_b)
    named, confidence = weigh_the_middle(look_at_middle(face(card)), None, 0.49, a, b,
                                         ranks, suits, STATION)
    assert named == parse_card(card)
    assert confidence >= 0.5


def test_a_spade_or_club_the_indices_leave_open_is_settled_by_the_middle():
    assert_settled("5S", {"S": 0.55, "C": 0.45}, {"C": 0.6, "S": 0.4})


def test_agreeing_corners_short_of_the_score_are_confirmed_by_a_middle_that_shows_them():
    assert_settled("7C", {"C": 0.45, "S": 0.3}, {"C": 0.5, "S": 0.4})


def test_the_middle_vetoes_a_suit_the_corners_misread():
    assert_vetoed(look_at_middle(face("7C")), "7S", "7", "S")


def test_the_middle_never_overrules_corners_sure_of_another_suit():
    (a, b), ranks, suits = corners("5", {"H": 0.99}, {"H": 0.98})
    a = b = CardScores(parse_card("5H"), 0.4)  # short of the score: the corners abstained
    assert weigh_the_middle(look_at_middle(face("5S")), None, 0.4, a, b,
                            ranks, suits, STATION)[0] is None


def test_the_middle_settles_no_suit_when_the_corners_disagree_on_the_rank():
    (a, b), ranks, suits = corners("5", {"S": 0.55, "C": 0.45}, {"C": 0.6, "S": 0.4})
    ranks[1] = 0.0
    ranks[1, RANKS.index(Rank("3"))] = 0.97
    a, b = CardScores(parse_card("5S"), 0.45), CardScores(parse_card("3C"), 0.58)
    assert weigh_the_middle(look_at_middle(face("5S")), None, 0.53, a, b,
                            ranks, suits, STATION)[0] is None


def test_a_number_card_is_settled_against_a_corner_its_middle_rules_out():
    # One index reads 8H, the other blurred into a jack; a jack's picture holds no field
    # of eight hearts.
    (a, b), ranks, suits = corners("8", {"H": 0.95}, {"H": 0.9})
    ranks[1] = 0.0
    ranks[1, RANKS.index(Rank("J"))] = 0.7
    b = CardScores(parse_card("JH"), 0.63)
    card, confidence = weigh_the_middle(look_at_middle(face("8H")), None, 0.92, a, b,
                                        ranks, suits, STATION)
    assert card == parse_card("8H")
    assert confidence >= 0.5


def test_a_corner_the_middle_does_not_show_is_not_settled_on():
    (a, b), ranks, suits = corners("8", {"H": 0.95}, {"H": 0.9})
    b = CardScores(parse_card("JH"), 0.63)
    assert weigh_the_middle(look_at_middle(face("7H")), None, 0.92, a, b,
                            ranks, suits, STATION)[0] is None


def test_a_middle_without_pips_settles_nothing():
    blank = np.full((360, 240, 3), 245, np.uint8)
    (a, b), ranks, suits = corners("5", {"S": 0.55, "C": 0.45}, {"C": 0.6, "S": 0.4})
    assert look_at_middle(blank) == Middle(None, 0, 0)
    assert weigh_the_middle(look_at_middle(blank), None, 0.53, a, b,
                            ranks, suits, STATION)[0] is None


def test_one_corner_and_a_middle_that_shows_its_pips_settle_a_worn_other_corner():
    (a, b), ranks, suits = corners("5", {"D": 0.85}, {"D": 0.2})
    a = CardScores(parse_card("5D"), 0.75)
    b = CardScores(parse_card("3D"), 0.05)  # the worn corner names nothing surely
    assert weigh_the_middle(look_at_middle(face("5D")), None, 0.75, a, b,
                            ranks, suits, STATION)[0] == parse_card("5D")


def test_a_middle_with_another_count_of_pips_settles_nothing():
    (a, b), ranks, suits = corners("5", {"D": 0.85}, {"D": 0.2})
    a = CardScores(parse_card("5D"), 0.75)
    b = CardScores(parse_card("3D"), 0.05)
    assert weigh_the_middle(look_at_middle(face("6D")), None, 0.75, a, b,
                            ranks, suits, STATION)[0] is None


def test_both_corners_naming_the_card_its_middle_shows_settle_it_short_of_one_sure_corner():
    # A held-out 8D under a lamp: one index read 0.81, the other half lost to the glare
    # (0.35 an 8, 0.24 a jack); too unsure of the rank alone for the station's thresholds.
    (a, b), ranks, suits = corners("8", {"D": 0.99}, {"D": 0.99})
    ranks[0, RANKS.index(Rank("8"))] = 0.81
    ranks[1, RANKS.index(Rank("8"))] = 0.35
    ranks[1, RANKS.index(Rank("J"))] = 0.24
    a, b = CardScores(parse_card("8D"), 0.81), CardScores(parse_card("8D"), 0.35)
    strict = Thresholds(agree=0.99, single=0.9995, other=0.3)
    named, confidence = weigh_the_middle(look_at_middle(face("8D")), None, 0.49, a, b,
                                         ranks, suits, strict)
    assert named == parse_card("8D")
    assert confidence >= 0.5


def test_both_corners_naming_a_card_settle_nothing_when_neither_leans_to_it_surely():
    (a, b), ranks, suits = corners("8", {"D": 0.99}, {"D": 0.99})
    ranks *= 0.45 / 0.97  # unsure of the rank too
    a, b = CardScores(parse_card("8D"), 0.45), CardScores(parse_card("8D"), 0.35)
    assert weigh_the_middle(look_at_middle(face("8D")), None, 0.45, a, b,
                            ranks, suits, STATION)[0] is None


def test_both_corners_naming_a_card_settle_nothing_when_its_middle_shows_another_count():
    (a, b), ranks, suits = corners("5", {"D": 0.99}, {"D": 0.99})
    a, b = CardScores(parse_card("5D"), 0.89), CardScores(parse_card("5D"), 0.38)
    assert weigh_the_middle(look_at_middle(face("6D")), None, 0.49, a, b,
                            ranks, suits, STATION)[0] is None


def glare_over(card: np.ndarray, centre: tuple[float, float], gain: float) -> np.ndarray:
    """A canonical card under a lamp's round glare spot, placed at ``centre`` (fractions of
    the card's width and height) and adding ``gain`` there, shaped as the renderer's glare
    (``perturb_glare``), which places its spot at random."""
    h, w = card.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = 0.12 * w
    spot = gain * np.exp(-((xx - centre[0] * w) ** 2 + (yy - centre[1] * h) ** 2) / (2 * r * r))
    return cv2.add(card.astype(np.float32), cv2.merge([spot] * 3), dtype=cv2.CV_8U)


@pytest.mark.parametrize("card", ["9H", "5D", "TD"])
def test_a_pip_under_a_lamps_glare_is_still_counted(card):
    clear = face(card)
    under_glare = glare_over(clear, centre_pips(clear)[0].centre, 120)
    middle = look_at_middle(under_glare)
    assert middle.shapes == PIPS_OF_RANK[parse_card(card).rank]
    assert middle.suit == parse_card(card).suit


def test_a_narrow_diamond_is_counted_as_a_pip():
    # Diamonds 17 px wide and 31 tall, as a narrow design's look once thresholded.
    card = np.full((CANONICAL_SIZE[1], CANONICAL_SIZE[0], 3), 245, np.uint8)
    for x, y in ((80, 80), (160, 80), (120, 180), (80, 280), (160, 280)):
        diamond = np.array([(x, y - 15), (x + 8, y), (x, y + 15), (x - 8, y)], np.int32)
        cv2.fillPoly(card, [diamond], (30, 60, 220))
    assert look_at_middle(card).shapes == 5


def test_a_court_card_is_vetoed_by_a_middle_holding_a_field_of_pips():
    # Both indices of an 8 blurred into a jack; no jack's picture holds eight hearts.
    assert_vetoed(look_at_middle(face("8H")), "JH", "J", "H")


def test_a_court_card_middle_shows_the_suit_of_its_lone_pip():
    assert look_at_middle(face("JS")).lone_suit == Suit.S
    assert look_at_middle(face("KH")).lone_suit == Suit.H


def test_corners_split_between_two_suits_of_a_court_card_are_settled_by_its_pip():
    assert_settled("JS", {"S": 0.9, "C": 0.1}, {"C": 0.8, "S": 0.2})


def test_corners_split_between_two_suits_of_an_ace_are_settled_by_its_lone_pip():
    # A held-out AC: one index read 0.73 club and 0.26 spade; the ace's pip 0.90 club.
    (a, b), ranks, suits = corners("A", {"C": 0.73, "S": 0.26}, {"C": 0.97, "S": 0.03})
    middle = Middle(None, shapes=1, pips=1, lone_suit=Suit.C)
    assert weigh_the_middle(middle, None, 0.49, a, b, ranks, suits, STATION)[0] == \
        parse_card("AC")


def test_an_ace_is_vetoed_by_its_lone_pip_of_another_suit():
    assert_vetoed(Middle(None, shapes=1, pips=1, lone_suit=Suit.C), "AS", "A", "S")


def test_a_court_card_is_vetoed_by_its_lone_pip_of_another_suit():
    assert_vetoed(Middle(None, shapes=3, pips=1, lone_suit=Suit.C), "QS", "Q", "S")


def test_the_clubs_of_a_court_card_picture_are_found_as_one_pip():
    assert look_at_middle(face("JC")).lone_suit == Suit.C
    assert look_at_middle(face("QC")).lone_suit == Suit.C


def test_every_spade_or_club_read_from_a_table_photo_is_checked_against_its_middle():
    sure = CardScores(parse_card("7S"), 1.0)
    assert checks_middle(sure, sure, parse_card("7S"), MIDDLE_ALWAYS["card"])
    assert checks_middle(sure, sure, parse_card("7C"), MIDDLE_ALWAYS["card"])


def test_a_red_card_both_corners_are_sure_of_is_not_checked_against_its_middle():
    sure = CardScores(parse_card("7H"), 1.0)
    assert not checks_middle(sure, sure, parse_card("7H"), MIDDLE_ALWAYS["card"])


def test_the_read_station_checks_no_sure_read_against_its_middle():
    sure = CardScores(parse_card("7S"), 1.0)
    assert not checks_middle(sure, sure, parse_card("7S"), MIDDLE_ALWAYS["station"])


@pytest.mark.parametrize("club", ["7C", "KC", "AC"])
def test_a_club_whose_indices_both_read_surely_as_a_spade_is_not_named_from_a_table_photo(club):
    """Motion blur can turn both of a club's indices into a spade's, each read at 1.0; the
    card's middle still shows clubs (a court card's, its lone pip)."""
    card = face(club)
    spade = face(club[0] + "S")
    w, h = WINDOW
    card[:h, :w], card[-h:, -w:] = spade[:h, :w], spade[-h:, -w:]
    [reading] = read_card_images([card])
    assert reading.card is None
    assert reading.confidence < 0.5
