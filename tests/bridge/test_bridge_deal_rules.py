"""Bridge, Laws 6–7: one test per sentence of the seed that concerns the deal."""

from __future__ import annotations

import pytest
from core_dealing import deal, deck, shuffled, with_marker

from scanner.bridge.deal_rules import BRIDGE_ORDER, NEW_DECK_ORDER
from scanner.cards import Card, Rank, Seat, Suit
from scanner.events import Bid, CardDelivered, HandStarted, Marker
from scanner.history import DealHistory
from scanner.log import EventLog
from scanner.tracker import DealTracker, check_deal
from scanner.verdicts import DIRECTOR, NEEDS_REREAD, NEW_SHUFFLE_REDEAL, NO_RESULT, OK

GAME = "bridge"
HEADER = HandStarted(game=GAME, dealer=Seat.N, packet=1)


def good_deal(seed=11):
    return deal(GAME, shuffled(GAME, seed))[1]


def dealt_in_rotation(cards, seats):
    return [CardDelivered(card, seats[i % len(seats)]) for i, card in enumerate(cards)]


def rule(events):
    return check_deal(HEADER, events)


def finding(result, rule_cited):
    return next(f for f in result.findings if f.rule == rule_cited)


# -- Law 6A, 6D2: the shuffle

@pytest.mark.parametrize("order", [BRIDGE_ORDER, NEW_DECK_ORDER], ids=["bridge", "new-deck"])
@pytest.mark.parametrize("direction", [1, -1], ids=["face-down", "face-up"])
def test_a_new_pack_in_factory_order_dealt_without_shuffle_gets_no_result(order, direction):
    result = rule(deal(GAME, list(order)[::direction])[1])
    assert result.verdict.status == NO_RESULT
    assert result.verdict.rule == "Law 6D2"
    assert "new-pack order" in result.verdict.reason


def test_a_cut_factory_pack_is_still_unshuffled():
    cards = list(NEW_DECK_ORDER)
    assert rule(deal(GAME, cards[20:] + cards[:20])[1]).verdict.status == NO_RESULT


def test_a_deck_sorted_by_suit_gets_no_result():
    cards = sorted(shuffled(GAME, 5), key=lambda c: c.suit.index)
    result = rule(deal(GAME, cards)[1])
    assert result.verdict.status == NO_RESULT
    assert "sorted by suit" in result.verdict.reason


def test_a_deck_sorted_by_rank_gets_no_result():
    cards = sorted(shuffled(GAME, 5), key=lambda c: c.rank.index)
    result = rule(deal(GAME, cards)[1])
    assert result.verdict.status == NO_RESULT
    assert "sorted by rank" in result.verdict.reason


def test_unshuffled_is_judged_from_the_dealing_order_not_the_hands():
    # The same four hands as a new pack dealt in rotation, but delivered in a shuffled order:
    # nothing says the pack was not shuffled.
    events = deal(GAME, list(BRIDGE_ORDER))[1]
    order = shuffled(GAME, 9)
    rank = {card: i for i, card in enumerate(order)}
    by_hand = {seat: sorted((e.card for e in events if e.to is seat), key=rank.get)
               for seat in Seat}
    reshuffled = [CardDelivered(by_hand[seat][i], seat)
                  for i in range(13) for seat in Seat.N.left.clockwise_from()]
    assert rule(reshuffled).verdict.status == OK


# -- Law 6B: the deal

def test_the_cards_must_be_dealt_face_down():
    events = good_deal()
    events[3] = CardDelivered(events[3].card, events[3].to, exposed=True)
    result = rule(events)
    assert result.verdict.status == NEW_SHUFFLE_REDEAL
    assert result.verdict.rule == "Law 6D1"
    assert result.verdict.evidence == [3]


def test_one_card_at_a_time_never_two_in_a_row_to_the_same_hand():
    cards = shuffled(GAME, 2)
    seats = Seat.N.left.clockwise_from()
    events = [CardDelivered(card, seats[(i // 2) % 4]) for i, card in enumerate(cards)]
    result = rule(events)
    assert result.verdict.status == NEW_SHUFFLE_REDEAL
    assert result.verdict.rule == "Law 6B"
    assert result.verdict.evidence[:2] == [0, 1]
    assert "E received 2 cards in a row" in result.verdict.reason


def test_dealing_in_threes_is_out():
    cards = shuffled(GAME, 2)
    seats = Seat.N.left.clockwise_from()
    events = [CardDelivered(card, seats[(i // 3) % 4]) for i, card in enumerate(cards)]
    assert finding(rule(events), "Law 6B").status == NEW_SHUFFLE_REDEAL


def test_dealing_back_and_forth_is_out():
    there_and_back = [Seat.E, Seat.S, Seat.W, Seat.N, Seat.N, Seat.W, Seat.S, Seat.E]
    events = dealt_in_rotation(shuffled(GAME, 4), there_and_back)
    result = rule(events)
    assert result.verdict.status == NEW_SHUFFLE_REDEAL
    assert "N received 2 cards in a row" in result.verdict.reason


def test_any_order_that_never_gives_two_in_a_row_is_allowed():
    events = dealt_in_rotation(shuffled(GAME, 4), [Seat.N, Seat.S, Seat.E, Seat.W])
    result = rule(events)
    assert result.verdict.status == OK
    assert result.complete


def test_clockwise_rotation_is_recommended_so_anticlockwise_is_a_note():
    events = dealt_in_rotation(shuffled(GAME, 4), [Seat.E, Seat.N, Seat.W, Seat.S])
    result = rule(events)
    assert result.verdict.status == OK
    assert "note" in result.verdict.reason
    notes = [f for f in result.findings if "(clockwise)" in f.reason]
    assert notes and all(f.status == OK and f.rule == "Law 6B" for f in notes)


def test_four_hands_of_thirteen_cards_each():
    result = rule(good_deal())
    assert result.verdict.status == OK
    assert [len(result.hands[s]) for s in Seat] == [13, 13, 13, 13]


# -- Law 6D1: new shuffle and redeal, or the director

def test_a_wrong_deal_found_before_the_auction_begins_is_reshuffled_and_redealt():
    events = good_deal()
    events[40] = CardDelivered(events[2].card, events[40].to)
    result = rule(with_marker(GAME, events))
    assert result.verdict.status == NEW_SHUFFLE_REDEAL
    assert result.verdict.remedy == "new shuffle and redeal (Law 6D1)"
    twice = finding(result, "Law 6D1")
    assert twice.evidence == [2, 40]


def test_a_wrong_deal_found_after_the_auction_begins_goes_to_the_director():
    events = good_deal()
    late = events.pop(30)
    result = rule([*events, Marker("auction-started"), late])
    assert result.verdict.status == DIRECTOR
    assert result.verdict.evidence == [52]


def test_a_call_means_the_auction_has_begun():
    events = good_deal()
    late = events.pop()
    result = rule([*events, Bid(Seat.N, 1), late])
    assert result.verdict.status == DIRECTOR


def test_a_card_that_could_have_been_seen_after_the_auction_began_goes_to_the_director():
    events = good_deal()
    last = events.pop()
    result = rule([*events, Marker("auction-started"),
                   CardDelivered(last.card, last.to, exposed=True)])
    assert result.verdict.status == DIRECTOR
    assert any("dealt face up" in f.reason and f.status == DIRECTOR for f in result.findings)


def test_a_joker_in_the_pack_is_a_wrong_deal():
    events = good_deal()
    events[7] = CardDelivered(None, events[7].to, foreign="joker")
    assert rule(events).verdict.status == NEW_SHUFFLE_REDEAL


# -- Law 7B1: exactly thirteen

def test_a_miscount_names_the_long_and_the_short_hand():
    events = good_deal()
    last_to_s = max(i for i, e in enumerate(events) if e.to is Seat.S)
    events[last_to_s] = CardDelivered(events[last_to_s].card, Seat.W)
    result = rule(events)
    count = finding(result, "Law 7B1")
    assert count.status == NEW_SHUFFLE_REDEAL
    assert "S has 12, W has 14" in count.reason
    assert "long: W; short: S" in count.reason
    fourteenth_to_w = max(i for i, e in enumerate(events) if e.to is Seat.W)
    assert count.evidence == [fourteenth_to_w]


def test_a_fourteenth_card_is_flagged_as_it_arrives():
    tracker = DealTracker.for_hand(HEADER)
    events = good_deal()
    for event in events:
        tracker.feed(event)
    assert tracker.verdict().status == OK
    tracker.feed(CardDelivered(Card(Rank.A, Suit.S), Seat.E))
    assert tracker.verdict().status == NEW_SHUFFLE_REDEAL
    assert any("E received card 14" in f.reason for f in tracker.findings())


# -- Law 6D2: a deal played in another session

@pytest.fixture
def history(tmp_path):
    with EventLog(tmp_path / "club.sqlite") as log:
        yield DealHistory(log)


def test_a_deal_played_in_a_different_session_gets_no_result(history):
    events = good_deal()
    assert check_deal(HEADER, events, history, "monday").verdict.status == OK
    result = check_deal(HEADER, events, history, "tuesday")
    assert result.verdict.status == NO_RESULT
    assert result.verdict.rule == "Law 6D2"
    assert "'monday'" in result.verdict.reason


def test_the_same_deal_again_in_the_same_session_is_not_a_repeat(history):
    events = good_deal()
    check_deal(HEADER, events, history, "monday")
    assert check_deal(HEADER, events, history, "monday").verdict.status == OK


def test_a_different_deal_is_not_a_repeat(history):
    check_deal(HEADER, good_deal(1), history, "monday")
    assert check_deal(HEADER, good_deal(2), history, "tuesday").verdict.status == OK


def test_an_unread_card_stops_the_ruling_until_it_is_read():
    events = good_deal()
    events[12] = CardDelivered(None, events[12].to)
    result = rule(events)
    assert result.verdict.status == NEEDS_REREAD
    assert result.verdict.evidence == [12]
    assert "re-read" in result.verdict.remedy


def test_an_unread_card_does_not_hide_a_second_copy():
    events = good_deal()
    events[12] = CardDelivered(None, events[12].to)
    events[13] = CardDelivered(events[0].card, events[13].to)
    assert rule(events).verdict.status == NEW_SHUFFLE_REDEAL


def test_a_sorted_reference_deck_is_the_whole_deck():
    assert set(BRIDGE_ORDER) == set(deck(GAME)) == set(NEW_DECK_ORDER)
    assert len(BRIDGE_ORDER) == len(NEW_DECK_ORDER) == 52


def test_an_unread_card_does_not_hide_a_new_pack():
    events = deal(GAME, list(BRIDGE_ORDER))[1]
    events[10] = CardDelivered(None, events[10].to)
    result = rule(events)
    assert result.verdict.status == NO_RESULT
    assert any(f.status == NEEDS_REREAD for f in result.findings)
