"""Verification on any set, not only the fixture: one fault, one exact diagnosis."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from scanner.bridge.board import Board
from scanner.bridge.dealset import generate
from scanner.bridge.verify import ObservedFile, verify_set
from scanner.cards import SEATS

SETS = st.builds(lambda seed: generate(range(1, 9), seed=seed), st.text(max_size=8))


def check(record: list[Board], observed: list[Board]):
    return verify_set(record, ObservedFile({b.number: b for b in observed}))


@settings(max_examples=30, deadline=None)
@given(record=SETS, board=st.integers(0, 7), seats=st.integers(1, 3))
def test_any_rotation_is_named_by_its_seats(record: list[Board], board: int, seats: int) -> None:
    hands = record[board].hands
    turned = replace(record[board], hands=tuple(hands[(i - seats) % 4] for i in range(4)))
    observed = [turned if b.number == board + 1 else b for b in record]
    results = check(record, observed)
    assert [(r.status, r.rotation) for r in results if r.status != "match"] == [("rotated", seats)]


@settings(max_examples=30, deadline=None)
@given(record=SETS, board=st.integers(0, 7), card=st.integers(0, 12), giver=st.integers(0, 3),
       taker=st.integers(1, 3))
def test_any_single_card_in_the_wrong_pocket_is_named_exactly(
        record: list[Board], board: int, card: int, giver: int, taker: int) -> None:
    hands = [list(h) for h in record[board].hands]
    to = (giver + taker) % 4
    moved = hands[giver].pop(card)
    hands[to].append(moved)
    observed = [replace(b, hands=tuple(tuple(h) for h in hands)) if b.number == board + 1 else b
                for b in record]
    [result] = [r for r in check(record, observed) if r.status != "match"]
    assert result.status == "differs"
    assert [d["text"] for d in result.differences] == [
        f"14–12: {SEATS[to]} holds 14 cards, {SEATS[giver]} holds 12",
        f"card {moved} is in {SEATS[to]} but belongs to {SEATS[giver]}"]
