"""`tablescan club serve`: the director's page over the club store, served as the table page
is (webui.serving: the pages' streams never take the director's request threads)."""

from __future__ import annotations

import argparse
import sys

from ..cli import UsageError
from .access import AccessError
from .schema import StoreError
from .view import ClubView


def serve_director(args: argparse.Namespace) -> int:
    from webui.director import create_director_app
    from webui.security import new_pin, pin_problem
    from webui.serving import TableServer

    pin = args.pin or new_pin()
    if pin_problem(pin):
        raise UsageError(f"--pin: {pin_problem(pin)}, not {pin!r}")
    try:
        view = ClubView(args.store).start()
    except (AccessError, StoreError) as exc:
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
