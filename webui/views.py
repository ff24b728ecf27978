"""Views: translate HTTP into calls on the live table, and its state into JSON, HTML or SSE."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, session

from scanner.live import ActionRefused, MalformedAction

from . import security
from .errors import BadRequest

bp = Blueprint("table", __name__)


def _table() -> Any:
    return current_app.extensions["tablescan.table"]


def _json_object() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    return body


@bp.get("/")
def page() -> str:
    return render_template(
        "table.html",
        title=current_app.config["TABLESCAN_TITLE"],
        csrf=security.csrf_token(),
        operator=security.is_operator(),
    )


@bp.get("/state")
def state() -> Response:
    version, snapshot = _table().snapshot()
    return jsonify({"version": version, "state": snapshot, "operator": security.is_operator()})


@bp.get("/events")
def events() -> Response:
    last_id = request.headers.get("Last-Event-ID") or request.args.get("since")
    try:
        since = int(last_id) if last_id is not None else -1
    except ValueError:
        raise BadRequest(f"Last-Event-ID must be a whole number, not {last_id!r}") from None
    stream = _state_stream(_table(), since, current_app.config["TABLESCAN_SSE_HEARTBEAT"])
    return Response(
        stream,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _state_stream(table: Any, since: int, heartbeat: float) -> Iterator[str]:
    """Send the state whenever the log moves past ``since``; a reconnect catches up at once."""
    yield "retry: 1000\n\n"
    version = since
    while True:
        current, snapshot = table.snapshot()
        if current != version:
            version = current
            yield f"id: {version}\nevent: state\ndata: {json.dumps(snapshot)}\n\n"
            continue
        if table.wait_for_change(version, timeout=heartbeat) == version:
            yield ": keep-alive\n\n"


@bp.post("/login")
def login() -> Response:
    pin = _json_object().get("pin")
    if not isinstance(pin, str):
        raise BadRequest("'pin' must be text")
    security.log_in(pin)
    return jsonify({"operator": True, "csrf": security.csrf_token()})


@bp.post("/logout")
def logout() -> Response:
    session.clear()
    return jsonify({"operator": False, "csrf": security.csrf_token()})


@bp.post("/act/<action>")
@security.operator_required
def act(action: str) -> Response:
    params = _json_object()
    try:
        version, snapshot = _table().act(action, params)
    except MalformedAction as exc:
        raise BadRequest(str(exc)) from None
    except ActionRefused as exc:
        raise BadRequest(exc.reason, rule=exc.rule, status=409) from None
    return jsonify({"version": version, "state": snapshot})


@bp.get("/camera/<name>.jpg")
def camera(name: str) -> Response:
    """The camera's latest thumbnail, for aiming it; 404 when there is none (yet)."""
    cameras = current_app.extensions.get("tablescan.cameras")
    jpeg = cameras.latest(name) if cameras is not None else None
    if jpeg is None:
        return Response(status=404)
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/healthz")
def healthz() -> Response:
    version, _ = _table().snapshot()
    return jsonify({"ok": True, "version": version})
