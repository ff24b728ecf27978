"""DeckCheck: the reads of one deck must form exactly the deck."""

from __future__ import annotations

from scanner.cards import BRIDGE_52, PINOCHLE_48, parse_card
from scanner.vision.deckcheck import DeckCheck, DeckStatus
from scanner.vision.reading import Reading


def up(token: str) -> Reading:
    return Reading("up", parse_card(token), 0.99)


def test_a_card_read_twice_in_one_deck_is_a_duplicate_read_and_not_counted():
    check = DeckCheck(BRIDGE_52)
    assert check.add(up("QH")) is DeckStatus.OK
    assert check.add(up("QH")) is DeckStatus.DUPLICATE
    assert DeckStatus.DUPLICATE.value == "duplicate-read"
    assert check.count == 1


def test_pinochle_holds_two_copies_and_a_third_is_a_duplicate():
    check = DeckCheck(PINOCHLE_48)
    assert check.add(up("AS")) is DeckStatus.OK
    assert check.add(up("AS")) is DeckStatus.OK
    assert check.add(up("AS")) is DeckStatus.DUPLICATE


def test_a_card_the_deck_does_not_hold_is_foreign():
    assert DeckCheck(PINOCHLE_48).add(up("2C")) is DeckStatus.FOREIGN


def test_an_abstention_is_unread_and_asks_for_a_reread():
    check = DeckCheck(BRIDGE_52)
    assert check.add(Reading("up", None, 0.2)) is DeckStatus.UNREAD
    assert check.add(Reading("down", None, 0.9)) is DeckStatus.UNREAD
    assert check.count == 0


def test_the_read_that_completes_the_deck_says_so():
    check = DeckCheck(PINOCHLE_48)
    cards = PINOCHLE_48.cards()
    statuses = [check.add(card) for card in cards]
    assert statuses[:-1] == [DeckStatus.OK] * 47
    assert statuses[-1] is DeckStatus.DECK_COMPLETE
    assert check.complete and check.missing() == []


def test_missing_lists_what_is_left_in_deck_order():
    check = DeckCheck(BRIDGE_52)
    for card in BRIDGE_52.cards()[:50]:
        check.add(card)
    assert [str(c) for c in check.missing()] == ["3C", "2C"]
