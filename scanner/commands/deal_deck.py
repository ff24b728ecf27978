"""`tablescan deal-deck --shoe URL --camera SRC --game bridge|pinochle --dealer N [--db FILE]
[--session NAME]`.

Deals one deck through the shoe: bridge one card at a time clockwise from the dealer's left,
pinochle in packets. Prints ``{"status": "complete"|"stopped", "pockets": {...}, "reason",
"retransmits", "prompt", ...}``. A stopped deal resumes at the exact card when run again with the
same ``--db``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from ..app import arguments, options
from ..app.club_options import add_club_arguments, check_club_arguments, join_club
from ..cards import CardError, parse_seat
from ..cli import UsageError

GAMES = ("bridge", "pinochle")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "deal-deck", help="deal one deck through the dealing shoe, reading every card",
        description=__doc__.splitlines()[0])
    options.add_shoe(parser)
    parser.add_argument("--game", required=True, choices=GAMES)
    parser.add_argument("--dealer", required=True, help="the dealer's seat: N, E, S or W")
    parser.add_argument("--packet", type=arguments.bounded(1, 52), default=None,
                        help="cards per packet (default: bridge 1, pinochle 3)")
    parser.add_argument("--db", type=Path, default=None,
                        help="event log (SQLite); the same file resumes a stopped deal")
    parser.add_argument("--session",
                        help="sitting to log the deal into, e.g. the one `serve` printed "
                             "(default: a new sitting, which a `serve` without --session "
                             "on the same log follows)")
    options.add_durability(parser)
    parser.add_argument("--new", action="store_true",
                        help="start a new deal even if the log holds an unfinished one")
    add_club_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here so that `tablescan --help` and the other commands never pay for (or
    # depend on) the camera and vision stack.
    from ..events import HandStarted
    from ..log import EventLog, LogError
    from ..shoe.cameras import CameraError, open_station_camera
    from ..shoe.deal_plan import LiveDeal
    from ..shoe.dealing import deal_deck, deck_check_for
    from ..shoe.driver import Shoe
    from ..shoe.errors import ShoeFault

    check_club_arguments(args)
    try:
        dealer = parse_seat(args.dealer)
        plan = LiveDeal.for_game(args.game, dealer, args.packet)
    except (CardError, ValueError) as exc:
        raise UsageError(f"--dealer/--packet: {exc}") from None
    db = args.db or Path(tempfile.mkdtemp(prefix="tablescan-shoe-")) / "deal.db"
    if args.db is None:
        print(f"deal-deck: logging to {db} (pass --db to keep and resume)", file=sys.stderr)
    try:
        log = EventLog(db, session=args.session, durability=args.durability)
    except LogError as exc:
        raise UsageError(f"--db: {exc}") from None
    try:
        club = join_club(args, db)
        camera = open_station_camera(args.camera)
    except CameraError as exc:
        log.close()
        club.close()
        raise UsageError(f"--camera: {exc}") from None
    except UsageError:
        log.close()
        raise
    shoe = Shoe(args.shoe)
    try:
        shoe.connect()
    except ShoeFault as exc:
        camera.close()
        club.close()
        log.close()
        raise UsageError(f"--shoe {args.shoe}: {exc.message}") from None
    hand = HandStarted(args.game, dealer, plan.packet, session=log.session)
    try:
        result = deal_deck(shoe, camera, plan, log, hand=hand,
                           deck_check_factory=lambda: deck_check_for(plan.deck),
                           resume=not args.new)
    finally:
        shoe.close()
        camera.close()
        log.close()
        club.close()
    print(json.dumps(result.to_dict()))
    if result.status == "stopped":
        print(f"deal-deck: stopped: {result.prompt}", file=sys.stderr)
    return 0
