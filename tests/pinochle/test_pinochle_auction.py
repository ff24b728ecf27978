"""The auction, as the seed rule text (Setup & Deal: Auction) states it."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scanner.cards import Seat
from scanner.pinochle.auction import Auction, AuctionError

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def run(dealer, *calls):
    """Calls in turn order: a number bids, None passes."""
    auction = Auction(dealer)
    for amount in calls:
        auction = auction.call(auction.next_seat, amount)
    return auction


def refused(auction, seat, amount):
    with pytest.raises(AuctionError) as excinfo:
        auction.call(seat, amount)
    return excinfo.value


def test_the_player_to_the_dealers_left_bids_first():
    assert Auction(N).next_seat is E
    assert Auction(W).next_seat is N


def test_bidding_continues_clockwise():
    assert run(N, 20).next_seat is S
    assert run(N, 20, 21).next_seat is W


def test_a_player_who_passed_is_skipped():
    assert run(N, 20, None, 21, 22).next_seat is E


def test_the_auction_ends_when_three_players_have_passed():
    auction = run(N, 20, None, 21, None, None)
    assert auction.finished
    assert auction.next_seat is None


def test_the_last_active_bidder_declares_at_the_final_bid():
    auction = run(N, 20, 21, None, 25, None, None)
    assert (auction.declarer, auction.contract) == (N, 25)


def test_a_bid_need_only_be_one_higher():
    assert run(N, 20, 21).high.amount == 21


def test_bids_may_jump():
    assert run(N, 20, 35).high.amount == 35


def test_stick_the_dealer_first_three_pass_dealer_takes_it_at_20():
    auction = run(N, None, None, None)
    assert auction.finished
    assert (auction.declarer, auction.contract) == (N, 20)
    assert auction.calls[-1].forced


def test_stick_the_dealer_reports_a_forced_call_in_the_history():
    assert run(E, None, None, None).to_dict()["history"][-1] == {
        "seat": "E", "call": 20, "forced": True}


def test_once_someone_bids_the_dealer_is_not_stuck():
    auction = run(N, None, None, 20)
    assert not auction.finished
    assert auction.next_seat is N


def test_the_dealer_may_pass_after_a_bid():
    auction = run(N, None, None, 20, None)
    assert (auction.declarer, auction.contract) == (W, 20)


def test_a_bid_below_the_minimum_is_refused():
    error = refused(Auction(N), E, 19)
    assert error.code == "below-minimum"
    assert "The minimum opening bid is 20." in str(error)


def test_a_bid_that_is_not_higher_is_refused():
    assert refused(run(N, 25), S, 25).code == "not-higher"
    assert refused(run(N, 25), S, 24).code == "not-higher"


def test_a_bid_that_is_not_a_whole_number_is_refused():
    assert refused(Auction(N), E, 20.5).code == "not-whole"
    assert refused(Auction(N), E, True).code == "not-whole"


def test_a_call_out_of_turn_is_refused():
    error = refused(Auction(N), S, 20)
    assert error.code == "out-of-turn"
    assert "E's turn" in str(error)


def test_a_pass_is_final_for_the_hand():
    auction = run(N, None, 20, 21, 22)
    assert refused(auction, E, 23).code == "after-passing"


def test_no_call_after_the_auction_has_ended():
    assert refused(run(N, 20, None, None, None), S, 21).code == "after-end"
    assert refused(run(N, None, None, None), N, 21).code == "after-end"


def test_a_refused_call_names_the_call_and_the_rule():
    message = str(refused(run(N, 25), S, 24))
    assert message.startswith("call 2 (S 24)")
    assert "Setup & Deal: Auction" in message


def test_a_refused_call_leaves_the_auction_unchanged():
    auction = run(N, 25)
    before = auction.to_dict()
    refused(auction, S, 24)
    assert auction.to_dict() == before


@given(st.integers(0, 3).flatmap(lambda d: st.tuples(
    st.just(Seat(["N", "E", "S", "W"][d])),
    st.lists(st.one_of(st.none(), st.integers(0, 40)), max_size=40))))
def test_any_sequence_of_accepted_calls_ends_legally(case):
    """Whatever is tried, accepted bids strictly rise and the declarer made the last bid."""
    dealer, attempts = case
    auction = Auction(dealer)
    for amount in attempts:
        if auction.finished:
            break
        try:
            auction = auction.call(auction.next_seat, amount)
        except AuctionError:
            continue
    bids = [c.amount for c in auction.calls if c.amount is not None]
    assert bids == sorted(set(bids))
    assert all(b >= 20 for b in bids)
    assert len(auction.passed) <= 3
    if auction.finished:
        assert auction.contract == bids[-1]
        assert auction.declarer not in auction.passed
