"""`tablescan meld --trump S C1 … C12`: one player's meld for a trump suit, as JSON."""

from __future__ import annotations

import argparse
import json

from ..cards import Suit
from ..cli import UsageError
from ..pinochle.meld import MeldError, evaluate, parse_pinochle_hand
from ..pinochle.options import MELD_SCALES, OPTIONAL_MELDS, TableOptions

HAND_SIZE = 12
_SUITS = {**{s.value: s for s in Suit}, **{s.symbol: s for s in Suit}}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "meld", help="score one pinochle hand's meld for a trump suit",
        description="Print {trump, total, melds: [{name, points, cards}]} for twelve cards "
                    "(AS, 10h, T♥…) with the given trump. Melds follow the modern scale and "
                    "the common card-sharing rule; optional melds are off unless named.")
    parser.add_argument("--trump", required=True, help="trump suit: S, H, D or C")
    parser.add_argument("--scale", choices=sorted(MELD_SCALES), default="modern",
                        help="meld values: modern (default) or old (x10)")
    parser.add_argument("--optional", action="append", default=[],
                        choices=sorted(OPTIONAL_MELDS), help="turn on an optional meld")
    parser.add_argument("cards", nargs="+", metavar="CARD")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    trump = _SUITS.get(args.trump.strip().upper())
    if trump is None:
        raise UsageError(f"--trump: unknown suit {args.trump!r}: expected S, H, D or C")
    if len(args.cards) != HAND_SIZE:
        raise UsageError(f"CARD: a pinochle hand is {HAND_SIZE} cards, got {len(args.cards)}")
    try:
        cards = parse_pinochle_hand(args.cards)
    except MeldError as exc:
        raise UsageError(f"CARD: {exc}") from None
    options = TableOptions(meld_scale=MELD_SCALES[args.scale],
                           optional_melds=frozenset(args.optional))
    print(json.dumps(evaluate(cards, trump, options).to_dict(), ensure_ascii=False))
    return 0
