"""`tablescan serve`: the live table page (webui.serving says how it is served, and why)."""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from pathlib import Path

from ..app import arguments
from ..app.club_options import add_club_arguments, check_club_arguments, join_club
from ..cards import CardError, Seat, parse_seat
from ..cli import UsageError
from ..live import LiveTable
from ..log import EventLog, LogError
from ..paths import default_db_path
from ..pinochle.live_game import DEFAULT_NAMES, DEMO_MODES, PinochleGame

GAMES = ("pinochle", "bridge")
DEALINGS = ("shoe", "hand")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve the live table page (default http://127.0.0.1:5000)",
        description="Serve the live table page. Spectators read; the operator enters the PIN.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on; 0.0.0.0 lets phones at the table connect")
    parser.add_argument("--port", type=arguments.port, default=5000,
                        help="port, 1 to 65535 (0 picks a free one)")
    parser.add_argument("--db", type=Path, help="event log (default: the user's data folder)")
    parser.add_argument("--session", type=arguments.text,
                        help="sitting to show and log into (default: the latest, or a new one; "
                             "then the page follows any writer that opens a newer sitting); "
                             "with --new-session, the name of the new sitting")
    parser.add_argument("--new-session", action="store_true", help="start a new sitting")
    parser.add_argument("--pin", type=arguments.pin,
                        help="operator PIN, 4 to 12 digits (default: a random one of 10 "
                             "digits, printed on stderr)")
    parser.add_argument("--game", choices=GAMES, default="pinochle",
                        help="pinochle: the home table (default); bridge: a set of boards "
                             "pre-dealt and verified at the shoe")
    parser.add_argument("--name", action="append", default=[], metavar="SEAT=NAME",
                        help="a player's name, e.g. --name N=Ann (repeat for each seat)")
    parser.add_argument(
        "--demo", nargs="?", const="auto", choices=DEMO_MODES,
        help="deal hands through a simulated shoe and the virtual camera: 'auto' (default) "
             "with scripted players, 'deal' to play the dealt hands from the page")
    add_club_arguments(parser)
    parser.add_argument(
        "--dealing", choices=DEALINGS, default="shoe",
        help="shoe: the dealing shoe deals (default); hand: the table deals by hand, and the "
             "page follows its cameras (--station, --table; with --demo: rendered films)")
    parser.add_argument("--station", help="--dealing hand: the reading shoe's camera: a device "
                        "index, video file, stream URL or folder of frames")
    parser.add_argument("--table", help="--dealing hand: a camera over the table (same kinds "
                        "of source), with or without the reading shoe")
    parser.add_argument("--zones", type=Path, help="--dealing hand: the table camera's seat "
                        "zones (JSON): read if it is there, else calibrated on the page and "
                        "saved there")
    parser.add_argument("--dealer", default="N",
                        help="--dealing hand: who deals the first hand (N, E, S or W)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from webui.security import new_pin

    from ..bridge.live_set import BridgeSetGame

    check_club_arguments(args)
    if args.dealing != "hand" and (args.station or args.table or args.zones):
        raise UsageError("--station, --table and --zones are cameras of a table dealt by "
                         "hand: add --dealing hand")
    db = args.db or default_db_path()
    # A demo's simulated shoe starts empty, so a demo never resumes an old sitting mid-deal.
    session = _session_to_use(db, args.session, args.new_session or bool(args.demo))
    pin = args.pin or new_pin()
    if args.dealing == "hand":
        game = _hand_deal_game(args)
    elif args.game == "bridge":
        game = BridgeSetGame()
    else:
        game = PinochleGame(names=_names(args.name))
    # Unless told which sitting to show, the page follows a writer that opens a new one
    # (`deal-deck` without --session, say); a demo writes its own sitting and keeps to it.
    pinned = bool(args.session or args.demo or args.dealing == "hand")
    try:
        table = LiveTable(lambda: EventLog(db, session=session), game,
                          open_sitting=None if pinned else lambda name: EventLog(db, session=name))
    except LogError as exc:
        raise UsageError(str(exc)) from None
    # Closed however serving ends, a refused club token included.
    with closing(table), closing(join_club(args, db)):
        _serve(args, table, db, game, pin)
    return 0


def _serve(args: argparse.Namespace, table: LiveTable, db: Path, game: object, pin: str) -> None:
    from webui import create_app
    from webui.serving import TableServer

    from ..app.bridge_demo import BridgeDemo
    from ..app.hand_cameras import HandCameras
    from ..app.hand_demo import HandDemo
    from ..app.pinochle_demo import PinochleDemo
    from ..handdeal.calibration import ZoneCalibration
    from ..handdeal.thumbnails import CAMERAS, Thumbnails

    thumbnails = Thumbnails(CAMERAS) if args.dealing == "hand" else None
    calibration = None
    if args.dealing == "hand" and args.table is not None:
        calibration = ZoneCalibration(args.zones, args.table)
    app = create_app(table, pin=pin, title=f"tablescan — {args.game}", cameras=thumbnails,
                     zones=calibration)
    try:
        server = TableServer(app, table, args.host, args.port)
    except (OSError, OverflowError, ValueError) as exc:
        raise UsageError(f"--host {args.host} --port {args.port}: cannot listen there "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    print(f"tablescan: serving {server.url} (log {db}, sitting {table.session})",
          file=sys.stderr)
    print(f"tablescan: operator PIN {pin}", file=sys.stderr)
    demo: HandDemo | HandCameras | BridgeDemo | PinochleDemo | None = None
    if thumbnails is not None and args.demo:
        demo = HandDemo(table.session, db, thumbnails).start()
    elif thumbnails is not None:
        demo = HandCameras(table.session, db, args.game, parse_seat(args.dealer),
                           args.station, args.table, calibration, thumbnails,
                           names=_names(args.name)).start()
    elif args.demo and args.game == "bridge":
        demo = BridgeDemo(table, db).start()
    elif args.demo:
        demo = PinochleDemo(table, game, db, mode=args.demo).start()
    try:
        server.run()
    finally:
        if demo is not None:
            demo.stop()


def _hand_deal_game(args: argparse.Namespace) -> object:
    """The page of a table dealt by hand: the demo's rendered deals (pinochle), or the
    deals its cameras see (a reading shoe, a camera over the table, or both)."""
    from ..handdeal.game import HandDealGame
    from ..handdeal.thumbnails import CAMERAS

    if args.demo:
        if args.game != "pinochle" or args.station or args.table:
            raise UsageError("--demo --dealing hand films pinochle deals of its own: give "
                             "no --game bridge, --station or --table with it")
        return HandDealGame(names=_names(args.name), cameras=CAMERAS)
    if args.station is None and args.table is None:
        raise UsageError("--dealing hand: give the reading shoe's camera (--station), the "
                         "table's (--table), or both; or --demo")
    if args.table is not None and args.zones is None:
        raise UsageError("--table: give --zones FILE, where its seat zones are (or will be "
                         "saved when you mark them on the page)")
    try:
        parse_seat(args.dealer)
    except CardError as exc:
        raise UsageError(f"--dealer: {exc}") from None
    from ..vision.sources import SourceError, open_source

    for option, spec in (("--station", args.station), ("--table", args.table)):
        try:
            if spec is not None:
                open_source(spec)  # a file or folder that is not there is refused now
        except SourceError as exc:
            raise UsageError(f"{option}: {exc}") from None
    cameras = tuple(name for name, spec in zip(CAMERAS, (args.station, args.table),
                                               strict=True) if spec is not None)
    return HandDealGame(names=_names(args.name), cameras=cameras)


def _names(pairs: list[str]) -> dict[Seat, str]:
    names = dict(DEFAULT_NAMES)
    for pair in pairs:
        seat, sep, name = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--name {pair!r}: expected SEAT=NAME, e.g. N=Ann")
        try:
            names[parse_seat(seat)] = name.strip()[:40]
        except CardError as exc:
            raise UsageError(f"--name {pair!r}: {exc}") from None
    return names


def _session_to_use(db: Path, named: str | None, new: bool) -> str | None:
    """Resume the named sitting, or the latest one, so a restart carries on where it stopped.

    A named sitting must be in the log: a typo would otherwise open a new, empty one.
    """
    if new or not db.exists():
        return named
    try:
        with EventLog(db) as log:
            sessions = log.sessions()
    except LogError as exc:
        raise UsageError(str(exc)) from None
    if named is None:
        return sessions[-1] if sessions else None
    if named not in sessions:
        recent = ", ".join(sessions[-3:]) or "none yet"
        raise UsageError(f"--session {named}: no such sitting in {db} (latest: {recent}); "
                         "pass --new-session to start one by that name")
    return named
