"""The club director's page: a Flask app factory of its own beside the table page's.

Spectators read every table, the boards across tables and the deals repeated in the club's
history. Only the director, who enters the PIN (the same PIN, cookie and CSRF rules as at a
table: webui.security), may act: issue a table's token or revoke it. Views only translate
HTTP; the club view (scanner.club.view) folds the store, scanner.club.admin changes it.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from scanner.club.admin import issue_token, open_store, revoke_token
from scanner.club.schema import StoreError

from . import security
from .body import json_object
from .errors import BadRequest
from .pages import add_page_routes, new_app

LONG_POLL_S = 10.0
TABLE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")

bp = Blueprint("director", __name__)
add_page_routes(bp, page="director", role="director")


def create_director_app(view: Any, *, pin: str, store_url: str,
                        title: str = "tablescan — club director", **config: Any) -> Flask:
    """The page around one club view; ``store_url`` is where the director's actions go."""
    app = new_app(title, pin, None, config)
    app.extensions["tablescan.club"] = view
    app.extensions["tablescan.store"] = store_url
    app.register_blueprint(bp)
    return app


def _view() -> Any:
    return current_app.extensions["tablescan.club"]


def _table_name(body: dict[str, Any]) -> str:
    name = body.get("table")
    if not isinstance(name, str) or not TABLE_NAME.match(name):
        raise BadRequest("'table' must be 1 to 40 letters, digits, '.', '_' or '-'")
    return name


def _director_only() -> None:
    if not security.is_operator():
        raise BadRequest("only the director may act: enter the PIN", status=403)


@bp.get("/state")
def state() -> Response:
    """The club now; with ``since=V``, wait (a while) until it has moved past version V. The
    page itself follows /events, served beside this app (webui.stream)."""
    since = request.args.get("since")
    if since is not None:
        try:
            version = int(since)
        except ValueError:
            raise BadRequest(f"since must be a whole number, not {since!r}") from None
        _view().wait_for_change(version, timeout=LONG_POLL_S)
    version, snapshot = _view().snapshot()
    return jsonify({"version": version, "state": snapshot, "director": security.is_operator()})


@bp.post("/act/token")
def issue() -> Response:
    """A new token for a table (a new table, or a replacement: the old one stops working)."""
    _director_only()
    table = _table_name(json_object())
    with open_store(current_app.extensions["tablescan.store"]) as conn:
        token = issue_token(conn, table)
    return jsonify({"table": table, "token": str(token)})


@bp.post("/act/revoke")
def revoke() -> Response:
    _director_only()
    table = _table_name(json_object())
    with open_store(current_app.extensions["tablescan.store"]) as conn:
        try:
            revoke_token(conn, table)
        except StoreError as exc:
            raise BadRequest(str(exc), status=404) from None
    return jsonify({"table": table, "revoked": True})


@bp.get("/healthz")
def healthz() -> Response:
    version, snapshot = _view().snapshot()
    return jsonify({"ok": not snapshot["store_error"], "version": version})
