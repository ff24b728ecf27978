"""Properties of the deal tracker over many deals: legal deals are ok; each single fault is caught.

A "shuffle" here is a pseudo-random permutation from a drawn seed, never a Hypothesis-built
permutation: Hypothesis shrinks permutations towards the sorted deck, which is exactly the
unshuffled deck Law 6D2 forbids.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from core_dealing import MARKER, deal, shuffled, with_marker
from hypothesis import given, settings
from hypothesis import strategies as st

from scanner.cards import Card, Rank, Seat, Suit
from scanner.events import CardDelivered, Event
from scanner.tracker import check_deal
from scanner.verdicts import (
    CORRECTION_POLICY,
    DIRECTOR,
    NEW_SHUFFLE_REDEAL,
    OK,
    REDEAL_SAME_DEALER,
)

STATUS = {
    ("pinochle", False): REDEAL_SAME_DEALER,
    ("pinochle", True): CORRECTION_POLICY,
    ("bridge", False): NEW_SHUFFLE_REDEAL,
    ("bridge", True): DIRECTOR,
}
PACKETS = {"pinochle": [1, 2, 3, 4, 6], "bridge": [1]}

seeds = st.integers(min_value=0, max_value=2**32 - 1)
seats = st.sampled_from(list(Seat))
games = st.sampled_from(["pinochle", "bridge"])


def _deal_setup(game: str, seed: int, dealer: Seat, packet_pick: int):
    packets = PACKETS[game]
    packet = packets[packet_pick % len(packets)]
    return deal(game, shuffled(game, seed), dealer, packet)


@settings(max_examples=300, deadline=None)
@given(game=games, seed=seeds, dealer=seats, packet_pick=st.integers(0, 4),
       marker=st.booleans())
def test_every_legal_shuffle_dealt_by_the_rule_is_ok(game, seed, dealer, packet_pick, marker):
    header, events = _deal_setup(game, seed, dealer, packet_pick)
    if marker:
        events = with_marker(game, events)
    result = check_deal(header, events)
    assert result.verdict.status == OK, result.verdict
    assert result.findings == []
    assert result.complete


@settings(max_examples=150, deadline=None)
@given(seed=seeds, order_seed=seeds)
def test_every_bridge_order_without_two_in_a_row_is_ok(seed, order_seed):
    rng = random.Random(order_seed)
    order: list[Seat] = []
    while len(order) < 52:
        round_ = list(Seat)
        rng.shuffle(round_)
        if order and round_[0] is order[-1]:
            round_.reverse()
        order += round_
    events = [CardDelivered(card, seat) for card, seat in zip(shuffled("bridge", seed), order,
                                                              strict=True)]
    header = deal("bridge", [])[0]
    result = check_deal(header, events)
    assert result.verdict.status == OK
    assert all(f.status == OK for f in result.findings)


# Each fault: (game, events, rng, agreed packet) -> (faulty events, position of the fault),
# and the phrases of which the finding naming it must contain one.
Fault = Callable[[str, list[Event], random.Random, int], tuple[list[Event], int]]


def drop(game, events, rng, packet):
    # Not the last card: a drop can only be found after the marker if a card follows it.
    at = rng.randrange(len(events) - 1)
    return events[:at] + events[at + 1:], at


def duplicate(game, events, rng, packet):
    at = rng.randrange(1, len(events))
    copy = events[rng.randrange(at)]
    return [*events[:at], CardDelivered(copy.card, events[at].to), *events[at:]], at


def foreign(game, events, rng, packet):
    at = rng.randrange(len(events))
    if game == "pinochle" and rng.random() < 0.5:
        intruder = CardDelivered(Card(rng.choice([Rank.R2, Rank.R7, Rank.R8]),
                                      rng.choice(list(Suit))), events[at].to)
    else:
        intruder = CardDelivered(None, events[at].to, foreign="joker")
    return [*events[:at], intruder, *events[at + 1:]], at


def wrong_seat(game, events, rng, packet):
    at = rng.randrange(len(events))
    other = rng.choice([s for s in Seat if s is not events[at].to])
    return [*events[:at], CardDelivered(events[at].card, other), *events[at + 1:]], at


def packet_change(game, events, rng, packet):
    # From a random card on, the dealer switches to packets one card larger.
    at = rng.randrange(len(events) - 8)
    size = packet + 1
    order = events[at].to.clockwise_from()
    rest = [CardDelivered(e.card, order[(i // size) % 4]) for i, e in enumerate(events[at:])]
    return events[:at] + rest, at


def exposure(game, events, rng, packet):
    at = rng.randrange(len(events))
    shown = CardDelivered(events[at].card, events[at].to, exposed=True)
    return [*events[:at], shown, *events[at + 1:]], at


FAULTS: dict[str, tuple[Fault, tuple[str, ...]]] = {
    "drop": (drop, ("never dealt",)),
    "duplicate": (duplicate, ("times; the deck holds",)),
    "foreign card": (foreign, ("not part of the", "a joker")),
    "wrong seat": (wrong_seat, ("each hand must hold",)),
    "packet change": (packet_change, ("agreed packet is", "cards in a row")),
    "exposure": (exposure, ("dealt face up",)),
}


@settings(max_examples=400, deadline=None)
@given(game=games, seed=seeds, dealer=seats, packet_pick=st.integers(0, 4),
       fault=st.sampled_from(sorted(FAULTS)), after_marker=st.booleans(), fault_seed=seeds)
def test_every_single_fault_gets_the_right_status(game, seed, dealer, packet_pick, fault,
                                                   after_marker, fault_seed):
    header, events = _deal_setup(game, seed, dealer, packet_pick)
    make, phrases = FAULTS[fault]
    broken, at = make(game, events, random.Random(fault_seed), header.packet)
    broken = with_marker(game, broken, at if after_marker else None)
    result = check_deal(header, broken)
    expected = STATUS[game, after_marker]
    assert result.verdict.status == expected, (fault, result.findings)
    naming = [f for f in result.findings if any(p in f.reason for p in phrases)]
    assert naming, (fault, result.findings)
    if after_marker:
        assert any(f.status == expected and f"after {MARKER[game]}" in f.reason
                   for f in naming), (fault, naming)
