"""The auction, exactly as the table's rule text says (Setup & Deal: Auction).

The player to the dealer's left bids first and bidding goes clockwise. A bid is a whole
number, at least the minimum (20) and higher than the current bid. A pass is final for
the hand. The auction ends when three players have passed; the last bidder declares and
the final bid is the contract. If the first three pass, the dealer is stuck at 20.

An ``Auction`` is an immutable value: a call returns a new auction or raises
``AuctionError`` naming the call and the rule, so a refused call changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..cards import Seat

RULE = "Setup & Deal: Auction"

# Why a call is refused: code -> the sentence of the rule text it breaks.
REFUSALS: dict[str, str] = {
    "after-end": "Bidding continues until three players have passed.",
    "after-passing": "A player who passes may not reenter the auction during that hand.",
    "out-of-turn": "The player to the dealer's left bids first, and bidding continues clockwise.",
    "not-whole": ("On a turn, a player must either bid a whole number higher than the current "
                  "bid or pass."),
    "below-minimum": "The minimum opening bid is {minimum}.",
    "not-higher": ("On a turn, a player must either bid a whole number higher than the current "
                   "bid or pass."),
}


class AuctionError(ValueError):
    """A call the rules refuse. ``code`` is a key of REFUSALS; the message quotes the rule."""

    def __init__(self, call: str, code: str, detail: str, rule_text: str) -> None:
        self.call = call
        self.code = code
        self.rule = RULE
        self.detail = detail
        self.rule_text = rule_text
        super().__init__(f"{call}: {detail} ({RULE}: \"{rule_text}\")")


class Call(NamedTuple):
    """One call: a bid (``amount``) or a pass (``amount`` is None)."""

    seat: Seat
    amount: int | None
    forced: bool = False

    def describe(self) -> str:
        return f"{self.seat} {'pass' if self.amount is None else self.amount}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat.value,
                               "call": "pass" if self.amount is None else self.amount}
        if self.forced:
            out["forced"] = True
        return out


@dataclass(frozen=True)
class Auction:
    dealer: Seat
    calls: tuple[Call, ...] = ()
    minimum: int = 20
    stick: int = 20

    @property
    def passed(self) -> frozenset[Seat]:
        return frozenset(c.seat for c in self.calls if c.amount is None)

    @property
    def high(self) -> Call | None:
        """The current bid and who made it."""
        return next((c for c in reversed(self.calls) if c.amount is not None), None)

    @property
    def finished(self) -> bool:
        return len(self.passed) >= 3 and self.high is not None

    @property
    def declarer(self) -> Seat | None:
        return self.high.seat if self.finished and self.high else None

    @property
    def contract(self) -> int | None:
        return self.high.amount if self.finished and self.high else None

    @property
    def next_seat(self) -> Seat | None:
        """Whose turn it is: clockwise from the last caller, skipping players who passed."""
        if self.finished:
            return None
        if not self.calls:
            return self.dealer.left
        passed = self.passed
        seat = self.calls[-1].seat.left
        while seat in passed:
            seat = seat.left
        return seat

    def call(self, seat: Seat, amount: int | None) -> Auction:
        """Bid ``amount`` (or pass when None) for ``seat``; raise AuctionError if refused."""
        made = sum(1 for c in self.calls if not c.forced)
        text = f"call {made + 1} ({seat} {'pass' if amount is None else amount})"
        self._check(text, seat, amount)
        calls = (*self.calls, Call(seat, amount))
        if amount is None and len(calls) == 3 and all(c.amount is None for c in calls):
            # Stick the dealer: the first three passed, so the dealer must take it at 20.
            calls = (*calls, Call(self.dealer, self.stick, forced=True))
        return Auction(self.dealer, calls, self.minimum, self.stick)

    def bid(self, seat: Seat, amount: int) -> Auction:
        return self.call(seat, amount)

    def pass_(self, seat: Seat) -> Auction:
        return self.call(seat, None)

    def _check(self, text: str, seat: Seat, amount: int | None) -> None:
        def refuse(code: str, detail: str) -> AuctionError:
            return AuctionError(text, code, detail,
                                REFUSALS[code].format(minimum=self.minimum))

        if self.finished:
            raise refuse("after-end", f"the auction is over ({self.declarer} declared at "
                                      f"{self.contract})")
        if seat in self.passed:
            raise refuse("after-passing", f"{seat} has already passed")
        if seat != self.next_seat:
            raise refuse("out-of-turn", f"it is {self.next_seat}'s turn, not {seat}'s")
        if amount is None:
            return
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise refuse("not-whole", f"{amount!r} is not a whole number")
        high = self.high
        if high is None and amount < self.minimum:
            raise refuse("below-minimum", f"{amount} is below the minimum bid of {self.minimum}")
        if high is not None and amount <= (high.amount or 0):
            raise refuse("not-higher",
                         f"{amount} is not higher than the current bid {high.amount} "
                         f"by {high.seat}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "finished": self.finished,
            "declarer": self.declarer.value if self.declarer else None,
            "contract": self.contract,
            "next": self.next_seat.value if self.next_seat else None,
            "history": [c.to_dict() for c in self.calls],
        }
