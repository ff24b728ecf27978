"""`tablescan serve`: the live table page, under the waitress WSGI server.

waitress is a production WSGI server in pure Python: no C build, the same on the Linux box
or the Windows laptop beside the table, and it streams Server-Sent Events chunk by chunk
(each open page holds one of its threads, hence the generous thread count).
"""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path

from ..cli import UsageError
from ..live import LiveTable
from ..log import EventLog, LogError
from ..paths import default_db_path
from ..pinochle.live_game import PinochleGame

SERVER_THREADS = 32


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve the live table page (default http://127.0.0.1:5000)",
        description="Serve the live table page. Spectators read; the operator enters the PIN.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on; 0.0.0.0 lets phones at the table connect")
    parser.add_argument("--port", type=int, default=5000, help="port (0 picks a free one)")
    parser.add_argument("--db", type=Path, help="event log (default: the user's data folder)")
    parser.add_argument("--session", help="sitting to resume (default: the latest, or a new one)")
    parser.add_argument("--new-session", action="store_true", help="start a new sitting")
    parser.add_argument("--pin", help="operator PIN (default: a random one, printed on stderr)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from waitress import create_server

    from webui import create_app

    db = args.db or default_db_path()
    session = _session_to_use(db, args.session, args.new_session)
    pin = args.pin or f"{secrets.randbelow(10**6):06d}"
    if not pin.isdigit() or not 4 <= len(pin) <= 12:
        raise UsageError(f"--pin must be 4 to 12 digits, not {pin!r}")
    try:
        table = LiveTable(lambda: EventLog(db, session=session), PinochleGame())
    except LogError as exc:
        raise UsageError(str(exc)) from None
    app = create_app(table, pin=pin, title="tablescan — pinochle")
    server = create_server(app, host=args.host, port=args.port, threads=SERVER_THREADS)
    url = f"http://{args.host}:{server.effective_port}/"
    print(f"tablescan: serving {url} (log {db}, sitting {table.session})", file=sys.stderr)
    print(f"tablescan: operator PIN {pin}", file=sys.stderr)
    try:
        server.run()
    finally:
        table.close()
    return 0


def _session_to_use(db: Path, named: str | None, new: bool) -> str | None:
    """Resume the named sitting, or the latest one, so a restart carries on where it stopped."""
    if named or new or not db.exists():
        return named
    try:
        with EventLog(db) as log:
            sessions = log.sessions()
    except LogError as exc:
        raise UsageError(str(exc)) from None
    return sessions[-1] if sessions else None
