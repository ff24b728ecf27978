"""A draw past the reading shoe is judged from all its frames, and nothing is guessed."""

from __future__ import annotations

from scanner.cards import parse_card
from scanner.handdeal.passes import PassTracker, judge
from scanner.vision.reading import Reading

AS, KD = parse_card("AS"), parse_card("KD")
EMPTY = Reading("none", None, 1.0)


def up(card, confidence=1.0):
    return Reading("up", card, confidence)


def test_a_draw_is_the_card_named_while_the_window_was_occupied():
    tracker = PassTracker()
    seen = [tracker.feed(i, r) for i, r in enumerate([EMPTY, up(AS), up(None, 0.3), up(AS),
                                                      EMPTY])]
    assert seen[:4] == [None, None, None, None]
    assert (seen[4].card, seen[4].face, seen[4].double_draw) == (AS, "up", False)
    assert (seen[4].first_frame, seen[4].last_frame) == (1, 3)


def test_two_cards_named_in_one_draw_are_a_double_draw():
    draw = judge([(0, up(AS)), (1, up(AS)), (2, up(KD))])
    assert draw.double_draw and draw.card == AS and draw.others == (KD,)


def test_a_draw_that_names_no_card_is_unreadable_not_guessed():
    draw = judge([(0, up(None, 0.4)), (1, up(None, 0.2))])
    assert (draw.face, draw.card, draw.confidence) == ("up", None, 0.4)


def test_a_draw_showing_only_a_back_is_face_down():
    draw = judge([(0, Reading("down", None, 0.9))])
    assert (draw.face, draw.card) == ("down", None)


def test_the_source_ending_on_a_card_still_gives_that_draw():
    tracker = PassTracker()
    tracker.feed(0, up(KD))
    assert tracker.in_window
    assert tracker.flush().card == KD
    assert tracker.flush() is None
