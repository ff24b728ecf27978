"""A back is one card's size: an outline read as a back but twice the cards beside it may
be two face-up cards lying edge to edge, and is searched for their indices."""

from __future__ import annotations

import numpy as np

from scanner.cards import parse_card
from scanner.vision import table
from scanner.vision.indices import IndexHit
from scanner.vision.reading import Reading
from scanner.vision.table import backs_twice_their_neighbours, read_table


def card_at(x: float, y: float, width: float = 60.0, height: float = 84.0) -> np.ndarray:
    return np.array([[x, y], [x + width, y], [x + width, y + height], [x, y + height]],
                    np.float32)


FACE = Reading("up", parse_card("9H"), 1.0)
BACK = Reading("down", None, 0.99)
# Three cards read whole in a row, and beside them an outline twice as wide (two cards
# edge to edge, as one).
ROW = [card_at(0, 0), card_at(80, 0), card_at(160, 0)]
PAIR = card_at(240, 0, width=120)
DOWN = np.array([0.0, 1.0])


def test_a_back_twice_the_cards_beside_it_may_hold_two_cards():
    assert backs_twice_their_neighbours([FACE, FACE, FACE, BACK], [*ROW, PAIR]) == [3]


def test_a_back_the_size_of_the_cards_beside_it_is_a_back():
    assert backs_twice_their_neighbours([FACE, FACE, FACE, BACK], [*ROW, card_at(240, 0)]) == []


def test_a_face_twice_the_cards_beside_it_is_left_to_the_reader():
    assert backs_twice_their_neighbours([FACE, FACE, FACE, FACE], [*ROW, PAIR]) == []


def test_a_back_is_compared_with_its_nearest_neighbours_not_far_ones():
    # An oblique photo: cards far off are small, those beside the back its size.
    far = [card_at(x, 500, 30, 42) for x in (0, 40, 80, 120)]
    near = [card_at(x, 0, 120, 168) for x in (0, 140, 280)]
    readings = [FACE] * 7 + [BACK]
    assert backs_twice_their_neighbours(readings, [*far, *near, card_at(420, 0, 120, 168)]) == []


def test_without_three_cards_read_whole_no_back_is_doubted():
    assert backs_twice_their_neighbours([FACE, FACE, BACK], [*ROW[:2], PAIR]) == []


def read_with(monkeypatch, hits: list[IndexHit]) -> list[table.Detection]:
    """read_table over a photo whose locator finds ``ROW`` and ``PAIR``, whose reader reads
    the row and takes the pair for a back, and whose index finder finds ``hits``."""
    searched = {}
    monkeypatch.setattr(table, "locate_cards", lambda frame: [*ROW, PAIR])
    monkeypatch.setattr(table, "read_card_images",
                        lambda cards, **kw: [FACE, FACE, FACE, BACK])

    def find(frame, letters, copies, *, reader, known, unread, enlarge):
        searched["known"], searched["unread"] = len(known), len(unread)
        return hits
    monkeypatch.setattr(table, "find_index_corners", find)
    found = read_table(np.full((100, 400, 3), 90, np.uint8))
    assert searched == {"known": 3, "unread": 1}
    return found


def test_an_index_inside_a_large_back_makes_it_faces_and_names_the_card(monkeypatch):
    jack = IndexHit(parse_card("JH"), 0.99, card_at(245, 5, 12, 20), DOWN)
    found = read_with(monkeypatch, [jack])
    assert (found[3].face, found[3].card) == ("up", None)
    assert found[4].card == parse_card("JH") and found[4].seen == "corner"


def test_a_large_back_with_no_index_inside_stays_a_back(monkeypatch):
    elsewhere = IndexHit(parse_card("JH"), 0.99, card_at(20, 300, 12, 20), DOWN)
    found = read_with(monkeypatch, [elsewhere])
    assert (found[3].face, found[3].card) == ("down", None)
