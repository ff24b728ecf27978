"""Cards of a real four-index deck laid out in grids, touching edge to edge (MIT-licensed
photos: ``tests/fixtures/real-grids/PROVENANCE.md``). Where cards touch, no outline is
found and their whole faces are searched for indices, middle pips and all."""

from pathlib import Path

import cv2
import pytest

from scanner.cards import parse_card
from scanner.vision.table import read_table

FIXTURES = Path(__file__).parents[1] / "fixtures" / "real-grids"


@pytest.mark.parametrize(("photo", "shown", "wrong_before"), [
    # A middle club pip, with an index pip as its suit, was named a 4 of clubs at 0.995.
    ("clubs-touching.jpg", "2C 3C 5C 6C 7C TC JC QC", "4C"),
    # An upside-down 9 over a middle diamond was named a 6 of hearts at 0.992.
    ("diamonds-grid-tilted.jpg", "3D 4D 5D 6D 8D 9D TD JD KD AD 4S 5S 6S", "6H"),
])
def test_a_grid_of_cards_touching_has_no_middle_pip_named_a_card(photo, shown, wrong_before):
    cards = [d.card for d in read_table(cv2.imread(str(FIXTURES / photo)))
             if d.card is not None]
    assert parse_card(wrong_before) not in cards
    assert set(cards) <= {parse_card(c) for c in shown.split()}, "a card named not shown"
    assert len(cards) == len(set(cards)), "a card named twice"
    assert len(cards) >= len(shown.split()) - 1
