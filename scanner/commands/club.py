"""`tablescan club init|token|status|serve --store URL`: the club's PostgreSQL store.

init creates or migrates the store; token prints a new token for a table (or revokes one);
status prints one JSON line with each table's events in the store; serve runs the director's
page. The URL names the store; the administrator's credentials come the usual PostgreSQL
ways (a Unix socket, ~/.pgpass, PGPASSWORD), never from the command line.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..cli import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "club", help="the club's store: init, token, status, serve (the director's page)",
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

    status = actions.add_parser("status", help="one JSON line: each table's events in the store")
    _store_argument(status)
    status.set_defaults(func=run_status)

    serve = actions.add_parser("serve", help="the director's page (default 127.0.0.1:5050)")
    _store_argument(serve)
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=5050, help="port (0 picks a free one)")
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


def run_status(args: argparse.Namespace) -> int:
    from ..club.admin import open_store, status

    try:
        with open_store(args.store) as conn:
            print(json.dumps(status(conn)))
    except _store_errors() as exc:
        raise UsageError(str(exc)) from None
    return 0


def run_serve(args: argparse.Namespace) -> int:
    from ..club.serve import serve_director

    return serve_director(args)
