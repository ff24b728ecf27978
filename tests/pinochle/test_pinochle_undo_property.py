"""Undo, over any sequence of operator actions: it returns the table to just before the action."""

from hypothesis import given, settings
from hypothesis import strategies as st
from pinochle_hands import deal_events, shuffled_hands

from scanner.cards import Seat, Suit
from scanner.events import (
    Bid,
    CardExposed,
    Conceded,
    CountersTaken,
    HandStarted,
    HandThrownIn,
    Pass,
    Redeal,
    TrumpNamed,
    Undo,
)
from scanner.pinochle.table import GameError, TableState, apply

seats = st.sampled_from(list(Seat))
actions = st.one_of(
    st.builds(Bid, seats, st.integers(18, 40)),
    st.builds(Pass, seats),
    st.builds(TrumpNamed, seats, st.sampled_from(list(Suit))),
    st.builds(CountersTaken, st.sampled_from(["NS", "EW"]), st.integers(0, 25),
              st.integers(0, 12)),
    st.builds(Conceded, seats),
    st.builds(HandThrownIn, st.just("agreed")),
    st.builds(Redeal, st.just("misdeal"), st.booleans()),
    st.builds(CardExposed, st.none(), seats),
    st.builds(HandStarted, st.just("pinochle"), seats, st.just(3)),
    st.builds(Undo),
)


def start() -> TableState:
    state = TableState()
    for event in deal_events(shuffled_hands(11), Seat.N):
        state = apply(state, event)
    return state


START = start()


@settings(max_examples=80, deadline=None)
@given(st.lists(actions, max_size=30))
def test_undo_right_after_an_accepted_action_restores_the_table(tried):
    state = START
    for action in tried:
        try:
            after = apply(state, action)
        except GameError:
            continue
        if not isinstance(action, Undo):
            assert apply(after, Undo()).to_dict() == state.to_dict()
        state = after


@settings(max_examples=80, deadline=None)
@given(st.lists(actions, max_size=30))
def test_a_refused_action_changes_nothing(tried):
    state = START
    for action in tried:
        before = state.to_dict()
        try:
            state = apply(state, action)
        except GameError:
            assert state.to_dict() == before
