"""`tablescan learn --source SRC --deck bridge|pinochle OUT`: learn a deck design's index.

Show one sorted deck to the read station; the index glyphs are stored in a small profile
file that every reader accepts with ``--profile OUT``.
"""

from __future__ import annotations

import argparse
import json

from ..cards import DECK_FOR_GAME
from ..cli import UsageError
from ..output_file import check_output, written_atomically
from ..vision.profile import ProfileError, learn, learn_order
from ..vision.sources import SourceError, open_source
from ..vision.station import card_passes

ORDER_HELP = (
    "Show the deck face up in this order: suits spades, hearts, diamonds, clubs; within a "
    "suit bridge goes A K Q J 10 9 8 7 6 5 4 3 2, pinochle A A 10 10 K K Q Q J J 9 9 (both "
    "copies one after the other). In a video or live source, let the window be empty "
    "between two cards; in a folder, give one image per card in file-name order.")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "learn", help="learn a deck design from one sorted deck at the read station",
        description="Read one sorted deck at the read station and store its index glyphs in "
                    "a deck profile. " + ORDER_HELP,
        epilog="SRC: a device index (0), a video file, an rtsp:// or http:// URL, a folder "
               "of images, or virtual:STYLE[:DECK][:seed=N] (the renderer as a camera).")
    parser.add_argument("--source", required=True, metavar="SRC", help="where the frames come from")
    parser.add_argument("--deck", required=True, choices=sorted(DECK_FOR_GAME),
                        help="which deck is shown")
    parser.add_argument("out", metavar="OUT", help="the profile file to write (.npz)")
    parser.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    deck = DECK_FOR_GAME[args.deck]
    out = check_output(args.out, overwrite=args.force, inputs=[args.source])
    try:
        source = open_source(args.source)
        profile = learn(card_passes(source.frames(), source.one_card_per_frame), deck)
    except SourceError as exc:
        raise UsageError(f"--source: {exc}") from None
    except ProfileError as exc:
        raise UsageError(f"--source {args.source}: {exc}") from None
    with written_atomically(out, overwrite=args.force, inputs=[args.source]) as temp:
        profile.save(temp)
    print(json.dumps({"profile": str(out), "deck": deck.name, "cards": len(learn_order(deck)),
                      "templates": len(profile.model.features),
                      "learnt_from_the_others": [str(card) for card in profile.uncut]}))
    return 0
