"""The table state: one fold of the event log, from the deal to the score sheet."""

import random
from collections import Counter

import pytest
from pinochle_hands import WORKED_EXAMPLE, cards, deal_events

from scanner.cards import PINOCHLE_48, Seat, Suit
from scanner.events import (
    Bid,
    CardDelivered,
    CardExposed,
    Conceded,
    CountersTaken,
    HandStarted,
    HandThrownIn,
    Marker,
    Pass,
    Redeal,
    TrumpNamed,
    Undo,
)
from scanner.live import ActionRefused, LiveTable
from scanner.log import EventLog
from scanner.pinochle.live_game import PinochleGame
from scanner.pinochle.meld import evaluate
from scanner.pinochle.table import GameError, TableState, apply, fold

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def fixed_hands():
    """North holds the reference's worked example; the rest of the deck, shuffled, goes E, S, W.

    Shuffled with a fixed seed, because the deal tracker rightly refuses a sorted deck.
    """
    rnd = random.Random(7)
    north = cards(WORKED_EXAMPLE)
    rnd.shuffle(north)
    rest = list((Counter(PINOCHLE_48.cards()) - Counter(north)).elements())
    rnd.shuffle(rest)
    return {N: north, E: rest[0:12], S: rest[12:24], W: rest[24:36]}


HANDS = fixed_hands()


def run(events, state=None):
    """Apply events strictly: any refusal fails the test where it happens."""
    state = state or TableState()
    for event in events:
        state = apply(state, event)
    return state


def dealt(dealer=N):
    return deal_events(HANDS, dealer)


def stuck_dealer_auction(dealer=N):
    """The first three pass: the dealer is stuck at 20."""
    order = dealer.left.clockwise_from()
    return [Pass(order[0]), Pass(order[1]), Pass(order[2])]


def to_meld(dealer=N, trump=Suit.D):
    return [*dealt(dealer), *stuck_dealer_auction(dealer), TrumpNamed(dealer, trump)]


def full_hand(dealer=N, ns=(15, 8), ew=(10, 4)):
    return [*to_meld(dealer), CountersTaken("NS", *ns), CountersTaken("EW", *ew)]


def refusal(state, event):
    with pytest.raises(GameError) as excinfo:
        apply(state, event)
    return excinfo.value


# -- dealer rotation

def test_the_first_dealer_is_whoever_the_first_hand_names():
    assert run(dealt(W)).dealer is W


def test_the_deal_passes_clockwise_after_a_scored_hand():
    state = run(full_hand(N))
    assert state.next_dealer is E
    assert run(deal_events(HANDS, E), state).dealer is E


def test_a_hand_dealt_by_the_wrong_seat_is_refused_naming_who_deals():
    error = refusal(run(full_hand(N)), HandStarted("pinochle", S, 3))
    assert "E deals this hand" in str(error)
    assert error.rule == "Setup & Deal: Seating and first dealer"


def test_the_deal_passes_clockwise_after_a_thrown_in_hand():
    state = run([*dealt(N), HandThrownIn("agreed")])
    assert state.next_dealer is E
    assert state.sheet[-1].outcome == "thrown in"


def test_a_misdeal_redeal_keeps_the_same_dealer():
    state = run([*dealt(N)[:10], CardExposed(None, E), Redeal("exposed card")])
    assert state.next_dealer is N
    assert refusal(state, HandStarted("pinochle", E, 3)).rule == "Setup & Deal: The deal"
    redealt = run(dealt(N), state)
    assert (redealt.hand.number, redealt.hand.deal, redealt.dealer) == (1, 2, N)


def test_a_redeal_may_go_straight_to_the_cards():
    state = run([*dealt(N)[:10], CardExposed(None, E), Redeal("exposed card"), *dealt(N)[1:]])
    assert state.hand.deal == 2
    assert state.next_dealer is E


def test_a_new_hand_is_refused_while_this_one_is_open():
    assert "still in the auction phase" in str(
        refusal(run([*dealt(N), Pass(E)]), HandStarted("pinochle", E, 3)))


# -- the deal gates the auction

def test_no_bidding_before_each_player_has_twelve_cards():
    error = refusal(run(dealt(N)[:40]), Pass(E))
    assert error.rule == "Setup & Deal: The deal"
    assert "each hand must hold 12" in str(error)


def test_no_bidding_on_a_deal_with_an_exposed_card():
    events = dealt(N)
    events[5] = CardDelivered(events[5].card, events[5].to, exposed=True)
    error = refusal(run(events), Pass(E))
    assert "redeal with the same dealer" in str(error)


def test_the_auction_may_open_with_a_marker():
    assert run([*dealt(N), Marker("auction-started")]).hand.phase == "auction"


# -- auction, trump and meld

def test_an_illegal_call_is_refused_with_the_auction_rule_and_nothing_changes():
    state = run([*dealt(N), Bid(E, 25)])
    error = refusal(state, Bid(S, 25))
    assert error.rule == "Setup & Deal: Auction"
    assert "not higher" in str(error)
    assert state.hand.auction.high.amount == 25


def test_the_auction_ends_in_the_trump_phase_with_declarer_and_contract():
    state = run([*dealt(N), Bid(E, 21), Pass(S), Pass(W), Pass(N)])
    assert (state.hand.phase, state.hand.declarer, state.hand.contract) == ("trump", E, 21)


def test_only_the_declarer_names_trump():
    state = run([*dealt(N), *stuck_dealer_auction(N)])
    assert "the declarer, N, names trump" in str(refusal(state, TrumpNamed(E, Suit.S)))


def test_trump_is_final_once_announced():
    state = run(to_meld(N, Suit.D))
    error = refusal(state, TrumpNamed(N, Suit.S))
    assert error.rule == "Setup & Deal: Declaring trump"
    assert state.hand.trump is Suit.D


def test_naming_trump_shows_every_players_meld_and_the_team_totals():
    hand = run(to_meld(N, Suit.D)).hand
    assert hand.meld[N].total == 47
    expected = {seat: evaluate(HANDS[seat], Suit.D).total for seat in Seat}
    assert hand.team_meld == {"NS": expected[N] + expected[S], "EW": expected[E] + expected[W]}


def test_counters_needed_are_shown_once_meld_is_known():
    hand = run([*dealt(N), Bid(E, 21), Pass(S), Pass(W), Pass(N), TrumpNamed(E, Suit.C)]).hand
    assert hand.to_dict()["counters_needed"] == max(0, 21 - hand.team_meld["EW"])


# -- the score

def test_both_sides_counters_score_the_hand_onto_the_sheet():
    state = run(full_hand(N, ns=(15, 8), ew=(10, 4)))
    row = state.sheet[-1]
    team = run(to_meld(N)).hand.team_meld
    assert row.outcome == "made"
    assert row.points == {"NS": team["NS"] + 15, "EW": team["EW"] + 10}
    assert state.totals == row.totals


def test_a_sides_counters_are_recorded_once():
    state = run([*to_meld(N), CountersTaken("NS", 15, 8)])
    assert "already recorded" in str(refusal(state, CountersTaken("NS", 15, 8)))


def test_counters_that_do_not_add_up_are_refused():
    state = run([*to_meld(N), CountersTaken("NS", 15, 8)])
    assert "add up to 24" in str(refusal(state, CountersTaken("EW", 9, 4)))


def test_only_the_declaring_side_may_concede():
    state = run(to_meld(N))
    assert "only the declaring side" in str(refusal(state, Conceded(E)))
    conceded = run([Conceded(S)], state)
    assert conceded.sheet[-1].outcome == "conceded"
    assert conceded.totals["NS"] == -20


def test_concession_is_a_table_option():
    from scanner.pinochle.options import TableOptions

    state = run(to_meld(N), TableState(TableOptions(concession=False)))
    assert "does not allow concession" in str(refusal(state, Conceded(N)))


def test_a_side_reaching_150_wins_and_the_next_hand_starts_a_new_game():
    state = TableState()
    dealer = N
    while state.winner is None:
        state = run(full_hand(dealer, ns=(25, 12), ew=(0, 0)), state)
        dealer = dealer.left
    assert state.winner == "NS"
    assert state.totals["NS"] >= 150
    fresh = run(deal_events(HANDS, dealer), state)
    assert (fresh.game, fresh.totals) == (2, {"NS": 0, "EW": 0})


# -- undo

def test_undo_cancels_the_latest_call():
    state = run([*dealt(N), Bid(E, 25), Bid(S, 26), Undo()])
    assert state.hand.auction.high.amount == 25
    assert state.hand.auction.next_seat is S


def test_successive_undos_go_further_back():
    state = run([*dealt(N), Bid(E, 25), Bid(S, 26), Undo(), Undo()])
    assert (state.hand.phase, state.hand.auction) == ("deal", None)
    assert sum(len(c) for c in state.hand.cards.values()) == 48


def test_undo_of_trump_lets_the_declarer_name_it_again():
    state = run([*to_meld(N, Suit.D), Undo(), TrumpNamed(N, Suit.H)])
    assert state.hand.trump is Suit.H


def test_undo_of_counters_takes_the_row_off_the_sheet():
    state = run([*full_hand(N), Undo()])
    assert state.sheet == ()
    assert state.hand.phase == "play"


def test_undo_of_an_exposure_keeps_the_cards_dealt_after_it():
    events = dealt(N)
    state = run([*events[:6], CardExposed(None, E), *events[6:], Undo()])
    assert sum(len(c) for c in state.hand.cards.values()) == 48
    assert state.hand.exposures == ()


def test_undo_of_a_new_hand_returns_to_the_finished_one():
    finished = run(full_hand(N))
    assert run([*deal_events(HANDS, E), Undo()], finished).to_dict() == finished.to_dict()


def test_undo_with_nothing_done_is_refused():
    assert "nothing to undo" in str(refusal(TableState(), Undo()))


# -- the fold over a log

def test_a_refused_event_in_a_log_is_kept_aside_and_the_replay_goes_on():
    state = fold([*dealt(N), Bid(S, 20), Pass(E)])
    assert len(state.refused) == 1
    assert "bid 20 by S" in state.refused[0]
    assert state.hand.auction.calls[0].seat is E


def live_table(path):
    return LiveTable(lambda: EventLog(path, session="evening"), PinochleGame())


def test_replaying_the_log_rebuilds_the_table_exactly(tmp_path):
    path = tmp_path / "table.sqlite"
    table = live_table(path)
    try:
        for dealer in (N, E):
            table.record(full_hand(dealer))
        table.record([*deal_events(HANDS, S), Bid(W, 22), Bid(N, 23)])
        live = table.state.to_dict()  # folded one event at a time, as they came
    finally:
        table.close()
    with EventLog(path, session="evening") as log:
        rebuilt = fold(event for _, event in log.replay(session="evening")).to_dict()
    assert rebuilt == live
    assert (rebuilt["dealer"], rebuilt["hand"]["number"]) == ("S", 3)
    assert rebuilt["hand"]["auction"]["history"][-1] == {"seat": "N", "call": 23}
    assert len(rebuilt["sheet"]) == 2


def test_a_refused_command_is_not_logged(tmp_path):
    table = live_table(tmp_path / "table.sqlite")
    try:
        before = table.record(dealt(N))
        with pytest.raises(ActionRefused):
            table.act("trump", {"suit": "S"})  # no declarer yet: the auction has not run
        assert table.snapshot()[0] == before
    finally:
        table.close()
    with EventLog(tmp_path / "table.sqlite") as log:
        assert log.last_seq() == before
