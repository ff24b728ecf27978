"""The deal history (Law 6D2): deals seen, by session, found by their canonical hash."""

from __future__ import annotations

import random

import pytest

from scanner.cards import BRIDGE_52, Seat
from scanner.history import DealHistory, canonical_deal, deal_hash
from scanner.log import EventLog


def hands(seed):
    cards = BRIDGE_52.cards()
    random.Random(seed).shuffle(cards)
    return {seat: cards[i::4] for i, seat in enumerate(Seat)}


@pytest.fixture
def history(tmp_path):
    with EventLog(tmp_path / "club.sqlite") as log:
        yield DealHistory(log)


def test_a_deal_recorded_in_one_session_is_seen_from_another(history):
    history.record(hands(1), "monday", "dealt", board=3)
    [seen] = history.seen_in_other_session(hands(1), "tuesday")
    assert (seen.session, seen.source, seen.board, seen.game) == ("monday", "dealt", 3, "bridge")


def test_a_deal_is_not_a_repeat_within_its_own_session(history):
    history.record(hands(1), "monday", "generated", board=3)
    assert history.seen_in_other_session(hands(1), "monday") == []


def test_the_order_of_cards_within_a_hand_does_not_change_the_deal():
    shuffled_within = {seat: list(reversed(cards)) for seat, cards in hands(4).items()}
    assert deal_hash(shuffled_within) == deal_hash(hands(4))


def test_the_same_cards_in_other_seats_are_another_deal():
    rotated = dict(zip(Seat, [hands(4)[seat.right] for seat in Seat], strict=True))
    assert deal_hash(rotated) != deal_hash(hands(4))


def test_recording_the_same_sighting_twice_keeps_one(history):
    for _ in range(2):
        history.record(hands(2), "monday", "dealt", board=5)
        history.record(hands(2), "monday", "dealt")
    assert len(history.sightings(hands(2))) == 2


def test_sightings_survive_reopening_the_file(tmp_path):
    path = tmp_path / "club.sqlite"
    with EventLog(path) as log:
        DealHistory(log).record(hands(3), "monday", "verified", board=1)
    with EventLog(path) as log:
        assert [s.source for s in DealHistory(log).sightings(hands(3))] == ["verified"]


def test_lookup_goes_through_the_hash_index(history):
    plan = history._conn.execute(
        "EXPLAIN QUERY PLAN SELECT session FROM deals WHERE hash = ? AND session IS NOT ?",
        ("x", "y")).fetchall()
    assert any("deals_by_hash" in row[-1] or "deals_once" in row[-1] for row in plan)


def test_a_deal_needs_four_hands_of_read_cards():
    with pytest.raises(ValueError, match="N, E, S, W"):
        canonical_deal({Seat.N: []})
    broken = hands(1)
    broken[Seat.E] = [*broken[Seat.E][:-1], None]
    with pytest.raises(ValueError, match="hand E"):
        canonical_deal(broken)


def test_an_unknown_source_is_refused(history):
    with pytest.raises(ValueError, match="unknown deal source"):
        history.record(hands(1), "monday", "imagined")
