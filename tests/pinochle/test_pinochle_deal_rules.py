"""Pinochle, "Setup & Deal": one test per sentence of the seed that concerns the deal."""

from __future__ import annotations

import pytest
from core_dealing import deal, shuffled, with_marker

from scanner.cards import Seat, Suit, parse_card
from scanner.events import CardDelivered, CardExposed, HandStarted, Marker
from scanner.tracker import DealTracker, check_deal
from scanner.verdicts import CORRECTION_POLICY, NEEDS_REREAD, OK, REDEAL_SAME_DEALER, REMEDIES

GAME = "pinochle"
THE_DEAL = "Setup & Deal: The deal"
SHUFFLE_AND_CUT = "Setup & Deal: Shuffle and cut"


def rule(events, dealer=Seat.N, packet=3):
    header = HandStarted(game=GAME, dealer=dealer, packet=packet)
    return check_deal(header, events)


def good_deal(seed=7, dealer=Seat.N, packet=3):
    return deal(GAME, shuffled(GAME, seed), dealer, packet)[1]


def rules_cited(result):
    return {f.rule for f in result.findings}


# -- Shuffle and cut

def test_the_dealer_shuffles_the_complete_deck():
    header, events = deal(GAME, sorted(shuffled(GAME, 1), key=lambda c: c.index))
    result = check_deal(header, with_marker(GAME, events))
    assert result.verdict.status == REDEAL_SAME_DEALER
    assert result.verdict.rule == SHUFFLE_AND_CUT
    assert "sorted by suit" in result.verdict.reason


def test_a_deck_sorted_by_rank_is_not_shuffled():
    by_rank = sorted(shuffled(GAME, 1), key=lambda c: (c.rank.index, c.suit.index))
    header, events = deal(GAME, by_rank)
    assert check_deal(header, events).verdict.reason.startswith("dealt from a deck sorted by rank")


def test_the_dealer_distributes_the_cards_clockwise():
    events = good_deal()
    anticlockwise = {Seat.E: Seat.W, Seat.W: Seat.E, Seat.N: Seat.N, Seat.S: Seat.S}
    events = [CardDelivered(e.card, anticlockwise[e.to]) for e in events]
    result = rule(events)
    assert result.verdict.status == REDEAL_SAME_DEALER
    rotation = [f for f in result.findings if "(clockwise)" in f.reason]
    assert rotation and rotation[0].rule == SHUFFLE_AND_CUT
    assert rotation[0].status == REDEAL_SAME_DEALER


def test_no_player_may_inspect_the_undealt_cards():
    events = good_deal()
    events.insert(10, CardExposed(parse_card("AS")))
    result = rule(events)
    assert result.verdict.status == REDEAL_SAME_DEALER
    assert result.verdict.evidence == [10]


def test_the_first_packet_goes_to_the_dealers_left():
    events = good_deal(dealer=Seat.N)
    result = rule(events, dealer=Seat.E)
    assert result.verdict.status == REDEAL_SAME_DEALER
    assert "dealer's left (S)" in result.findings[0].reason
    assert result.findings[0].evidence == [0]


# -- The deal

def test_deal_every_card_so_that_each_player_receives_twelve():
    result = rule(with_marker(GAME, good_deal()))
    assert result.verdict.status == OK
    assert result.verdict.rule == THE_DEAL
    assert all(len(cards) == 12 for cards in result.hands.values())
    assert result.complete


def test_a_player_with_the_wrong_number_of_cards_means_a_redeal():
    events = good_deal()
    last_to_w = max(i for i, e in enumerate(events) if e.to is Seat.W)
    events[last_to_w] = CardDelivered(events[last_to_w].card, Seat.S)
    result = rule(events)
    assert result.verdict.status == REDEAL_SAME_DEALER
    count = next(f for f in result.findings if "each hand must hold 12" in f.reason)
    assert "long: S" in count.reason and "short: W" in count.reason
    assert count.remedy == REMEDIES[REDEAL_SAME_DEALER]


def test_three_cards_at_a_time_in_four_rounds_is_the_default():
    tracker = DealTracker.for_hand(HandStarted(game=GAME, dealer=Seat.S, packet=0))
    assert tracker.packet == 3
    for event in good_deal(dealer=Seat.S):
        tracker.feed(event)
    assert tracker.finish().verdict.status == OK


@pytest.mark.parametrize("packet", [1, 2, 4, 6])
def test_packets_of_another_agreed_size_are_acceptable(packet):
    assert rule(good_deal(packet=packet), packet=packet).verdict.status == OK


def test_packets_must_be_used_consistently():
    events = good_deal(packet=3)
    events = events[:12] + _deal_in_packets(events[12:], 4)
    result = rule(events, packet=3)
    assert result.verdict.status == REDEAL_SAME_DEALER
    packet = next(f for f in result.findings if "agreed packet is 3" in f.reason)
    assert packet.rule == THE_DEAL
    assert packet.evidence[:4] == [12, 13, 14, 15]


def _deal_in_packets(events, size):
    seats = Seat.N.left.clockwise_from()
    return [CardDelivered(e.card, seats[(i // size) % 4]) for i, e in enumerate(events)]


def test_a_packet_size_that_cannot_be_used_consistently_is_refused():
    with pytest.raises(ValueError, match="packet 5 is not allowed in pinochle"):
        DealTracker.for_hand(HandStarted(game=GAME, dealer=Seat.N, packet=5))


def test_there_is_no_undealt_card():
    events = good_deal()[:-1]
    result = rule(events)
    assert result.verdict.status == REDEAL_SAME_DEALER
    assert any("1 card(s) never dealt" in f.reason for f in result.findings)


def test_an_exposed_card_during_the_deal_means_a_redeal_with_the_same_dealer():
    events = good_deal()
    events[5] = CardDelivered(events[5].card, events[5].to, exposed=True)
    result = rule(events)
    assert result.verdict.status == REDEAL_SAME_DEALER
    assert result.verdict.rule == THE_DEAL
    assert result.verdict.evidence == [5]
    assert result.verdict.remedy == "gather the cards and redeal with the same dealer"


@pytest.mark.parametrize("intruder", [parse_card("2C"), parse_card("8H")])
def test_a_foreign_card_makes_the_deck_incomplete(intruder):
    events = good_deal()
    events[20] = CardDelivered(intruder, events[20].to)
    result = rule(events)
    assert result.verdict.status == REDEAL_SAME_DEALER
    foreign = next(f for f in result.findings if "not part of the pinochle-48 deck" in f.reason)
    assert foreign.evidence == [20]


def test_a_joker_makes_the_deck_incomplete():
    events = good_deal()
    events[20] = CardDelivered(None, events[20].to, foreign="joker")
    result = rule(events)
    assert result.verdict.status == REDEAL_SAME_DEALER
    assert any(f.reason.startswith("a joker to") and f.evidence == [20] for f in result.findings)


def test_a_third_copy_makes_the_deck_incomplete():
    events = good_deal()
    copy = events[0].card
    events[30] = CardDelivered(copy, events[30].to)
    result = rule(events)
    third = next(f for f in result.findings if "dealt 3 times" in f.reason)
    assert third.status == REDEAL_SAME_DEALER
    assert len(third.evidence) == 3 and {0, 30} <= set(third.evidence)


def test_a_problem_discovered_after_bidding_ends_goes_to_the_correction_policy():
    events = good_deal()
    late = events.pop(17)
    result = rule([*events, Marker("bidding-ended"), late])
    assert result.verdict.status == CORRECTION_POLICY
    assert result.verdict.remedy == (
        "stop the hand; casual play: redeal unless it can be repaired without revealing "
        "hidden information")
    assert result.verdict.evidence == [48]
    assert "after bidding-ended" in result.verdict.reason


def test_naming_trump_means_bidding_has_ended():
    from scanner.events import TrumpNamed

    events = good_deal()
    late = events.pop()
    result = rule([*events, TrumpNamed(Seat.E, Suit.H), late])
    assert result.verdict.status == CORRECTION_POLICY


def test_an_unread_card_is_never_guessed():
    events = good_deal()
    events[9] = CardDelivered(None, events[9].to)
    result = rule(events)
    assert result.verdict.status == NEEDS_REREAD
    assert result.verdict.evidence == [9]
    assert not result.complete
    assert None in result.hands[events[9].to]
    assert not any("never dealt" in f.reason for f in result.findings)


def test_an_unread_card_does_not_hide_a_wrong_count():
    events = good_deal()
    events[9] = CardDelivered(None, events[9].to)
    result = rule(events[:-1])
    assert result.verdict.status == REDEAL_SAME_DEALER


def test_the_verdict_before_the_marker_is_given_as_cards_arrive():
    tracker = DealTracker.for_hand(HandStarted(game=GAME, dealer=Seat.N, packet=3))
    cards = shuffled(GAME, 3)
    for card in cards[:3]:
        tracker.feed(CardDelivered(card, Seat.E))
    assert tracker.verdict().status == OK
    tracker.feed(CardDelivered(cards[3], Seat.E))
    assert tracker.verdict().status == REDEAL_SAME_DEALER
    assert tracker.verdict().evidence == [0, 1, 2, 3]



def test_a_deal_is_ruled_once_however_often_it_is_asked():
    tracker = DealTracker.for_hand(HandStarted(game=GAME, dealer=Seat.N, packet=3))
    tracker.feed_all(good_deal()[:-1])
    assert tracker.finish() == tracker.finish()
