"""`tablescan auction --dealer N CALL …`: run a pinochle auction, calls in turn order."""

from __future__ import annotations

import argparse
import json

from ..app import arguments
from ..cards import CardError, parse_seat
from ..cli import UsageError
from ..pinochle.auction import REFUSALS, RULE, Auction, AuctionError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "auction", help="check a pinochle auction call by call",
        description="Take calls in turn order from the dealer's left, each a whole number or "
                    "'pass', and print {finished, declarer, contract, next, history}. "
                    "An illegal call exits 2 naming the call and the rule.")
    parser.add_argument("--dealer", required=True, help="the dealer's seat: N, E, S or W")
    parser.add_argument("calls", nargs="*", metavar="CALL")
    parser.set_defaults(func=run)


def parse_call(position: int, token: str) -> int | None:
    """``pass`` or a whole number; UsageError naming the call otherwise."""
    text = token.strip().lower()
    if text == "pass":
        return None
    try:
        return arguments.whole_number(text)
    except argparse.ArgumentTypeError:
        raise UsageError(f"call {position} ({token!r}): not a whole number or 'pass' "
                         f"({RULE}: \"{REFUSALS['not-whole']}\")") from None


def run(args: argparse.Namespace) -> int:
    try:
        dealer = parse_seat(args.dealer)
    except CardError as exc:
        raise UsageError(f"--dealer: {exc}") from None
    auction = Auction(dealer)
    for position, token in enumerate(args.calls, start=1):
        amount = parse_call(position, token)
        seat = auction.next_seat or auction.dealer
        try:
            auction = auction.call(seat, amount)
        except AuctionError as exc:
            raise UsageError(str(exc)) from None
    print(json.dumps(auction.to_dict()))
    return 0
