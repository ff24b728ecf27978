"""`tablescan club init|token|session|status|export|serve --store URL`: the club's store.

init creates or migrates the store; token prints a new token for a table (or revokes one);
session opens the club's session, which every table joining with --club then writes under
(so its boards are compared across tables), or prints it; status prints one JSON line with
each table's events in the store; export writes a session's hand records (PBN export format,
or the Bridgemate Data Connector's PutHandrecords JSON to a file or its URL); serve runs the
director's page. The URL names the store; the
administrator's credentials come the usual PostgreSQL ways (a Unix socket, ~/.pgpass,
PGPASSWORD), never from the command line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..app import arguments
from ..cli import UsageError
from ..output_file import check_output, write_bytes_atomically


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "club",
        help="the club's store: init, token, session, status, export, serve (director's page)",
        description=__doc__.split("\n\n", 1)[1])
    actions = parser.add_subparsers(dest="club_command", required=True, metavar="ACTION")

    init = actions.add_parser("init", help="create or migrate the store")
    _store_argument(init)
    init.set_defaults(func=run_init)

    token = actions.add_parser("token", help="print a new token for a table, or revoke one")
    _store_argument(token)
    which = token.add_mutually_exclusive_group(required=True)
    which.add_argument("--table", metavar="NAME", help="the table to issue a new token for")
    which.add_argument("--revoke", metavar="NAME", help="the table whose token to revoke")
    token.set_defaults(func=run_token)

    session = actions.add_parser(
        "session", help="the club's session, which every joining table writes under")
    _store_argument(session)
    session.add_argument("--open", metavar="NAME", type=arguments.text,
                         help="open a new session for the club (default: print the current one)")
    session.set_defaults(func=run_session)

    status = actions.add_parser("status", help="one JSON line: each table's events in the store")
    _store_argument(status)
    status.set_defaults(func=run_status)

    export = actions.add_parser(
        "export", help="a session's hand records: PBN export format or Bridgemate JSON")
    _store_argument(export)
    export.add_argument("--session", required=True, help="the session whose boards to export")
    out = export.add_mutually_exclusive_group(required=True)
    out.add_argument("--pbn", metavar="FILE", type=Path, help="write PBN 2.1 export format")
    out.add_argument("--bridgemate", metavar="FILE", type=Path,
                     help="write the Bridgemate Data Connector PutHandrecords request (JSON)")
    out.add_argument("--bridgemate-url", metavar="URL",
                     help="post PutHandrecords to the data connector at URL "
                          "(e.g. http://localhost:5079)")
    export.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    export.add_argument("--event", default="?", help="PBN Event tag")
    export.add_argument("--site", default="?", help="PBN Site tag (the club)")
    export.add_argument("--date", default="????.??.??", help="PBN Date tag, YYYY.MM.DD")
    export.add_argument("--session-guid", metavar="GUID",
                        help="Bridgemate: the session's GUID in the scoring program "
                             "(32 capital hex digits)")
    export.add_argument("--scoring-group", type=arguments.bounded(1, 99), default=1,
                        help="Bridgemate (default 1)")
    export.add_argument("--section", default="A", help="Bridgemate section letters (default A)")
    export.add_argument("--club-id", default="", help="Bridgemate http interface: club id")
    export.add_argument("--licence-key", default=os.environ.get("TABLESCAN_BRIDGEMATE_KEY", ""),
                        help="Bridgemate http interface: licence key "
                             "(or $TABLESCAN_BRIDGEMATE_KEY)")
    export.set_defaults(func=run_export)

    serve = actions.add_parser("serve", help="the director's page (default 127.0.0.1:5050)")
    _store_argument(serve)
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=arguments.port, default=5050,
                       help="port, 1 to 65535 (0 picks a free one)")
    serve.add_argument("--pin", help="director PIN (default: a random one, printed on stderr)")
    serve.set_defaults(func=run_serve)


def _store_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", required=True, metavar="URL",
                        help="postgresql://[USER@]HOST[:PORT]/DATABASE (no password)")


def _store_errors() -> tuple[type[Exception], ...]:
    # Imported late, so `tablescan --help` and the table's commands never load psycopg.
    from ..club.access import AccessError
    from ..club.schema import StoreError

    return AccessError, StoreError


def run_init(args: argparse.Namespace) -> int:
    from ..club.admin import init_store

    try:
        before, after = init_store(args.store)
    except _store_errors() as exc:
        raise UsageError(str(exc)) from None
    word = ("created" if before == 0 else "already at" if before == after
            else f"migrated from version {before} to")
    print(f"club init: store {word} schema version {after}", file=sys.stderr)
    return 0


def run_token(args: argparse.Namespace) -> int:
    from ..club.admin import issue_token, open_store, revoke_token

    try:
        with open_store(args.store) as conn:
            if args.revoke:
                revoke_token(conn, args.revoke)
                print(f"club token: {args.revoke}'s token revoked", file=sys.stderr)
                return 0
            token = issue_token(conn, args.table)
    except _store_errors() as exc:
        raise UsageError(str(exc)) from None
    print(token)
    print(f"club token: a new token for table {args.table}; any earlier one no longer works",
          file=sys.stderr)
    return 0


def run_session(args: argparse.Namespace) -> int:
    from ..club.admin import current_session, open_session, open_store

    try:
        with open_store(args.store) as conn:
            if args.open is not None:
                open_session(conn, args.open)
                print(f"club session: {args.open} is open; tables that join now write under "
                      "it", file=sys.stderr)
            print(json.dumps({"session": current_session(conn)}))
    except _store_errors() as exc:
        raise UsageError(str(exc)) from None
    return 0


def run_status(args: argparse.Namespace) -> int:
    from ..club.admin import open_store, status

    try:
        with open_store(args.store) as conn:
            print(json.dumps(status(conn)))
    except _store_errors() as exc:
        raise UsageError(str(exc)) from None
    return 0


def run_export(args: argparse.Namespace) -> int:
    from ..bridge.formats.pbn import export_text
    from ..club.admin import open_store
    from ..club.handrecords import (
        HandrecordError,
        handrecord_dtos,
        post_request,
        put_handrecords_request,
        session_boards,
    )

    target = args.pbn or args.bridgemate
    if target is not None:
        check_output(target, overwrite=args.force)
    if args.pbn is None and not args.session_guid:
        raise UsageError("--session-guid: the Bridgemate hand records belong to the scoring "
                         "program's session; give its GUID")
    try:
        with open_store(args.store) as conn:
            boards, unrecorded = session_boards(conn, args.session)
    except _store_errors() as exc:
        raise UsageError(str(exc)) from None
    if unrecorded:
        print(f"club export: board(s) {unrecorded} of session {args.session} have no dealt "
              "record and are left out", file=sys.stderr)
    if not boards:
        raise UsageError(f"session {args.session!r}: no board with a dealt record in the store")
    try:
        if args.pbn is not None:
            data = export_text(boards, event=args.event, site=args.site, date=args.date)
            write_bytes_atomically(args.pbn, data.encode("utf-8"), overwrite=args.force)
        else:
            dtos = handrecord_dtos(boards, args.session_guid, scoring_group=args.scoring_group,
                                   section=args.section)
            request = put_handrecords_request(dtos, args.session_guid, club_id=args.club_id,
                                              licence_key=args.licence_key)
            if args.bridgemate is not None:
                write_bytes_atomically(args.bridgemate,
                                       json.dumps(request, indent=1).encode("utf-8"),
                                       overwrite=args.force)
            else:
                post_request(args.bridgemate_url, request)
    except (HandrecordError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    where = target or args.bridgemate_url
    print(json.dumps({"session": args.session, "boards": [b.number for b in boards],
                      "out": str(where)}))
    print(f"club export: {len(boards)} board(s) to {where}", file=sys.stderr)
    return 0


def run_serve(args: argparse.Namespace) -> int:
    """The director's page over the club store, served as the table page is (webui.serving:
    the pages' streams never take the director's request threads)."""
    from webui.director import create_director_app
    from webui.security import new_pin, pin_problem
    from webui.serving import TableServer

    from ..club.view import ClubView

    pin = args.pin or new_pin()
    if pin_problem(pin):
        raise UsageError(f"--pin: {pin_problem(pin)}, not {pin!r}")
    try:
        view = ClubView(args.store).start()
    except _store_errors() as exc:
        raise UsageError(str(exc)) from None
    try:
        app = create_director_app(view, pin=pin, store_url=args.store)
        try:
            server = TableServer(app, view, args.host, args.port)
        except (OSError, OverflowError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            raise UsageError(f"cannot serve on {args.host}:{args.port}: {reason}") from None
        print(f"tablescan: director's page {server.url} (store {args.store})",
              file=sys.stderr, flush=True)
        print(f"tablescan: director PIN {pin}", file=sys.stderr, flush=True)
        server.run()
    finally:
        view.close()
    return 0
