"""The hand deals the tests film: the right deal and one of each fault."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from scanner.cards import Seat
from scanner.handdeal import footage
from scanner.handdeal.footage import DealScript, Draw

SEED = 7
DEALER = Seat.N
EXPOSED = 10  # the draw that lands face up in the "exposed" film


def right_deal() -> DealScript:
    return footage.right_deal("pinochle", DEALER, SEED)


def with_meld(script: DealScript) -> DealScript:
    """South lays three of its cards down as meld, West two."""
    hands = footage.dealt_hands(script)
    return replace(script, meld={Seat.S: tuple(hands[Seat.S][:3]),
                                 Seat.W: tuple(hands[Seat.W][:2])})


def exposed(script: DealScript, index: int) -> DealScript:
    draw = script.draws[index]
    return footage.with_draw(script, index, replace(draw, face_up=True))


def misdealt(script: DealScript, index: int, to: Seat) -> DealScript:
    return footage.with_draw(script, index, replace(script.draws[index], to=to))


def double_draw(script: DealScript, index: int) -> DealScript:
    """Draw ``index`` takes the next card with it; both go to the same seat."""
    first, second = script.draws[index], script.draws[index + 1]
    draws = list(script.draws)
    draws[index:index + 2] = [Draw(first.cards + second.cards, first.to)]
    return replace(script, draws=tuple(draws))


# Scenarios the table camera need not film: what they show happens at the reading shoe.
SHOE_ONLY = frozenset({"double-draw", "missing", "bridge"})
# Scenarios filmed with the ArUco seat markers laid out, and watched with --markers.
MARKED = frozenset({"miscount"})
SCRIPTS: dict[str, Callable[[], DealScript]] = {
    "right": lambda: with_meld(right_deal()),
    "exposed": lambda: exposed(right_deal(), EXPOSED),
    # The 17th card (in South's second packet) goes to East: East holds 13, South 11.
    "miscount": lambda: misdealt(right_deal(), 16, Seat.E),
    "double-draw": lambda: double_draw(right_deal(), 16),
    "missing": lambda: footage.with_draw(right_deal(), 30, None),
    # Bridge, dealt by South: one card at a time, West first.
    "bridge": lambda: footage.right_deal("bridge", Seat.S, SEED),
}


