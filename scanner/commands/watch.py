"""`tablescan watch --station SRC --game pinochle|bridge --dealer N [--table SRC --zones FILE]`.

Follows a deal made by hand: the reading shoe's camera reads each card as the dealer draws it,
and the game's dealing pattern (or, with a table camera, the zone it lands in) says whose it
is. The events go to the event log as the dealing shoe's do and the deal tracker rules on
them. At the end of the sources it prints one JSON line as ``check-deal`` does (status, rule,
reason, evidence, remedy, hands) with the counts per seat and the meld read; a draw it cannot
take (unreadable, a back, a double draw, a card dealt twice) stops it with a prompt. Exit 2 on
unusable input: a camera that cannot be opened, stops or freezes mid-deal, or zones that do
not fit the table camera's frames. What was logged stays logged.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from ..app import arguments
from ..app.club_options import add_club_arguments, check_club_arguments, join_club
from ..cards import CardError, Suit, parse_seat
from ..cli import UsageError

if TYPE_CHECKING:
    from ..cards import Seat
    from ..handdeal.zones import SeatZones
    from ..vision.sources import FrameSource

GAMES = ("pinochle", "bridge")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "watch", help="follow a deal made by hand through a reading shoe's camera",
        description=__doc__.splitlines()[0])
    parser.add_argument("--station", help="the reading shoe's camera: a device index, video "
                        "file, stream URL or folder of frames")
    parser.add_argument("--table", help="a camera over the table (same kinds of source)")
    parser.add_argument("--zones", type=Path,
                        help="the table camera's seat zones (JSON, from `tablescan zones`)")
    parser.add_argument("--markers", action="store_true",
                        help="find the seat zones from ArUco markers 0-3 laid at N, E, S, W")
    parser.add_argument("--game", required=True, choices=GAMES)
    parser.add_argument("--dealer", required=True, help="the dealer's seat: N, E, S or W")
    parser.add_argument("--packet", type=arguments.bounded(1, 52), default=None,
                        help="cards per packet (default: pinochle 3, bridge 1)")
    parser.add_argument("--db", type=Path, default=None, help="event log (SQLite)")
    parser.add_argument("--session",
                        help="sitting to log the hand into, e.g. the one `serve` printed "
                             "(default: a new sitting, which a `serve` without --session "
                             "on the same log follows)")
    parser.add_argument("--meld", action="store_true",
                        help="the table camera goes on into the meld: once every card is "
                             "dealt, bidding is over and faces laid down are meld")
    parser.add_argument("--trump", help="pinochle: score meld in this suit (S, H, D, C)")
    parser.add_argument("--resume", action="store_true",
                        help="take up the last hand in --db where it stopped (a stop put "
                             "right, a camera back), with the same game and dealer")
    add_club_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here so that `tablescan --help` never pays for the vision stack.
    from ..events import HandStarted
    from ..handdeal.arrivals import ZoneWatch
    from ..handdeal.deal import HandDeal
    from ..handdeal.watch import CameraLost, watch_deal
    from ..handdeal.zones import ZoneError, load_zones
    from ..log import EventLog, LogError
    from ..shoe.deal_plan import LiveDeal
    from ..vision.sources import SourceError, open_source

    check_club_arguments(args)
    if args.station is None and args.table is None:
        raise UsageError("give --station (the reading shoe's camera), --table, or both")
    if args.table is not None and (args.zones is None) == (not args.markers):
        raise UsageError("--table needs its seat zones: --zones FILE or --markers")
    try:
        dealer = parse_seat(args.dealer)
        plan = LiveDeal.for_game(args.game, dealer, args.packet)
        trump = Suit(args.trump.upper()) if args.trump else None
    except (CardError, ValueError) as exc:
        raise UsageError(f"--dealer/--packet/--trump: {exc}") from None
    try:
        station = open_source(args.station) if args.station is not None else None
        table = open_source(args.table) if args.table is not None else None
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    zone_watch = None
    if table is not None:
        try:
            zones = load_zones(args.zones) if args.zones else _zones_from_markers(table)
        except (ZoneError, SourceError) as exc:
            raise UsageError(f"--zones: {exc}") from None
        # Meld may show a card as often as the deck holds it (pinochle: twice).
        zone_watch = ZoneWatch(zones, copies=max(n for _, n in plan.deck.counts))
    if args.resume and args.db is None:
        raise UsageError("--resume takes up a hand from its log: give --db")
    db = args.db or Path(tempfile.mkdtemp(prefix="tablescan-watch-")) / "deal.db"
    if args.db is None:
        print(f"watch: logging to {db} (pass --db to keep it)", file=sys.stderr)
    try:
        resume_from, session = (_hand_to_resume(db, args.game, dealer, plan.packet)
                                if args.resume else (None, args.session))
        log = EventLog(db, session=session)
    except LogError as exc:
        raise UsageError(f"--db: {exc}") from None
    try:
        club = join_club(args, db)
    except UsageError:
        log.close()
        raise
    hand = HandStarted(args.game, dealer, plan.packet, session=log.session)
    deal = HandDeal(log, hand, table_camera=table is not None,
                    reading_shoe=station is not None, trump=trump)
    try:
        result = watch_deal(deal, station, table, zone_watch, meld=args.meld,
                            resume_from=resume_from)
    except (CameraLost, ZoneError) as exc:
        if isinstance(exc, CameraLost) and deal.deal_key:
            deal.camera_lost(str(exc))  # so a page following the log shows it too
        kept = (f"; {deal.logged + 1} event(s) kept in {db}: run again with --resume to go on"
                if deal.deal_key else "")
        raise UsageError(f"{exc}{kept}") from None
    finally:
        log.close()
        club.close()
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    if result["stopped"]:
        print(f"watch: stopped: {result['prompt']}", file=sys.stderr)
    else:
        print(f"watch: {result['status']}: {result['reason']}", file=sys.stderr)
    return 0


def _hand_to_resume(db: Path, game: str, dealer: Seat, packet: int) -> tuple[int, str]:
    """The last hand watched into ``db`` and its sitting; UsageError unless it is this game
    and dealer."""
    from ..events import HandStarted
    from ..handdeal.deal import HAND_KEY_PREFIX
    from ..log import EventLog

    if not db.exists():
        raise UsageError(f"--resume: {db} does not exist")
    with EventLog(db) as log:
        seq = log.last_seq_with_key_prefix(HAND_KEY_PREFIX)
        hand = log.event_at(seq) if seq is not None else None
    if not isinstance(hand, HandStarted) or seq is None:
        raise UsageError(f"--resume: {db} holds no hand watched by `tablescan watch`")
    if (hand.game, hand.dealer, hand.packet) != (game, dealer, packet):
        raise UsageError(f"--resume: the last hand in {db} is {hand.game} dealt by "
                         f"{hand.dealer} in packets of {hand.packet}, not this one")
    return seq, hand.session


def _zones_from_markers(table: FrameSource) -> SeatZones:
    """The seat zones from the markers in the table camera's first frame."""
    from ..handdeal.zones import ZoneError, zones_from_markers

    for frame in table.frames():
        return zones_from_markers(frame.image)
    raise ZoneError(f"camera {table.name!r} gives no frame to find the seat markers in")
