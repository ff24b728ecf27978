"""`tablescan club serve`: the director's page over the club store, under waitress."""

from __future__ import annotations

import argparse
import secrets
import sys

from ..cli import UsageError
from .access import AccessError
from .schema import StoreError
from .view import ClubView

# Each open page holds a thread while it waits for the next change (a long poll).
SERVER_THREADS = 48


def serve_director(args: argparse.Namespace) -> int:
    from waitress import create_server

    from webui.director import create_director_app

    pin = args.pin or f"{secrets.randbelow(10**6):06d}"
    if not pin.isdigit() or not 4 <= len(pin) <= 12:
        raise UsageError(f"--pin must be 4 to 12 digits, not {pin!r}")
    try:
        view = ClubView(args.store).start()
    except (AccessError, StoreError) as exc:
        raise UsageError(str(exc)) from None
    try:
        app = create_director_app(view, pin=pin, store_url=args.store)
        server = create_server(app, host=args.host, port=args.port, threads=SERVER_THREADS)
        print(f"tablescan: director's page http://{args.host}:{server.effective_port}/ "
              f"(store {args.store})", file=sys.stderr, flush=True)
        print(f"tablescan: director PIN {pin}", file=sys.stderr, flush=True)
        server.run()
    finally:
        view.close()
    return 0
