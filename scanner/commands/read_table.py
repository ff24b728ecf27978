"""`tablescan read-table IMAGE…`: every card lying on the table in each photo.

Prints ``{"file", "cards": [{"face", "card", "confidence", "outline": [[x, y], …4],
"seen"}]}`` per image, one per line; outlines are in the photo's pixels after EXIF
orientation. ``seen`` is ``card`` for a card found whole, ``corner`` for one overlapped so
that only its index shows (a fanned hand), whose outline is then that corner's.
"""

from __future__ import annotations

import argparse

from ..cards import DECK_FOR_GAME
from ..vision.table import read_table
from .read_card import add_deck_options, profile_from, run_image_batch


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "read-table", help="find and read every card lying on a table in a photo",
        description="Print {file, cards: [{face: up|down, card, confidence, outline, seen}]} "
                    "per image. card is null for a back or where the reader abstains. A bad "
                    "file gets {file, error}; exit 2 only if no image could be read.")
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    parser.add_argument("--deck", choices=sorted(DECK_FOR_GAME), default="bridge",
                        help="the deck on the table: a card shows at most as many times as "
                             "the deck holds it (pinochle: twice); default bridge")
    add_deck_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    profile = profile_from(args)
    copies = max(DECK_FOR_GAME[args.deck].multiset.values())
    return run_image_batch(args.images, lambda image: {
        "cards": [d.to_dict() for d in read_table(image, profile, args.letters,
                                                  copies=copies)]})
