"""Scoring one hand and the game: saving meld, made or set, concession, game at 150.

The rules are common partnership pinochle's ("Scoring the play", modern count):
- a side's meld counts only if that side takes at least one trick (saving meld);
- the declaring side makes its contract when saved meld + counters reach the bid, and
  then scores what it made; otherwise it is set and loses the bid (scores can go negative);
- the other side always scores what it made;
- conceding after meld loses the bid, and the opponents score their meld;
- the first side to the game target wins; if both reach it on one hand, the declarers win.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .options import TableOptions

SIDES = ("NS", "EW")


def other_side(side: str) -> str:
    return "EW" if side == "NS" else "NS"


class ScoreError(ValueError):
    """Counters that cannot be a hand's play; the message names the side and field."""


@dataclass(frozen=True)
class Taken:
    """What one side took in play."""

    points: int
    tricks: int


def check_taken(side: str, taken: Taken, options: TableOptions) -> None:
    """Refuse counters that one side cannot take in one hand."""
    total = options.counters.total
    if not 0 <= taken.tricks <= options.tricks_per_hand:
        raise ScoreError(f"{side} tricks: {taken.tricks} is outside 0..{options.tricks_per_hand}")
    if not 0 <= taken.points <= total:
        raise ScoreError(f"{side} points: {taken.points} is outside 0..{total}")
    if taken.tricks == 0 and taken.points:
        raise ScoreError(f"{side} took {taken.points} points in 0 tricks: counters come in tricks")


def check_play(taken: Mapping[str, Taken], options: TableOptions) -> None:
    """Both sides' counters must account for every counter and every trick exactly once."""
    for side in SIDES:
        check_taken(side, taken[side], options)
    points = sum(t.points for t in taken.values())
    tricks = sum(t.tricks for t in taken.values())
    if points != options.counters.total:
        raise ScoreError(f"counters add up to {points}, but a hand has "
                         f"{options.counters.total} ({options.counters.name} count)")
    if tricks != options.tricks_per_hand:
        raise ScoreError(f"tricks add up to {tricks}, but a hand has {options.tricks_per_hand}")


def counters_needed(bid: int, declaring_meld: int) -> int:
    """Counters the declaring side must take (with at least one trick) to make the bid."""
    return max(0, bid - declaring_meld)


@dataclass(frozen=True)
class HandScore:
    """The outcome of one scored hand for both sides."""

    declaring_side: str
    bid: int
    outcome: str  # "made", "set" or "conceded"
    meld: Mapping[str, int]
    saved: Mapping[str, bool]
    counters: Mapping[str, int]
    points: Mapping[str, int]  # what each side adds to its score this hand

    def to_dict(self) -> dict[str, Any]:
        return {"declaring_side": self.declaring_side, "bid": self.bid, "outcome": self.outcome,
                "meld": dict(self.meld), "saved": dict(self.saved),
                "counters": dict(self.counters), "points": dict(self.points)}


def score_play(declaring_side: str, bid: int, meld: Mapping[str, int],
               taken: Mapping[str, Taken], options: TableOptions) -> HandScore:
    """Score a hand that was played out."""
    check_play(taken, options)
    saved = {side: taken[side].tricks > 0 for side in SIDES}
    made = {side: (meld[side] if saved[side] else 0) + taken[side].points for side in SIDES}
    outcome = "made" if made[declaring_side] >= bid else "set"
    points = dict(made)
    if outcome == "set":
        points[declaring_side] = -bid
    return HandScore(declaring_side, bid, outcome, dict(meld), saved,
                     {side: taken[side].points for side in SIDES}, points)


def score_concession(declaring_side: str, bid: int, meld: Mapping[str, int]) -> HandScore:
    """The declaring side threw the hand in after meld: it loses the bid, opponents take meld."""
    opponents = other_side(declaring_side)
    return HandScore(declaring_side, bid, "conceded", dict(meld),
                     {declaring_side: False, opponents: True}, {side: 0 for side in SIDES},
                     {declaring_side: -bid, opponents: meld[opponents]})


def game_winner(totals: Mapping[str, int], declaring_side: str | None,
                options: TableOptions) -> str | None:
    """The side that has won the game after a hand, if any: both there means the declarers."""
    reached = [side for side in SIDES if totals[side] >= options.game_target]
    if len(reached) == 2:
        return declaring_side
    return reached[0] if reached else None
