"""Views: translate HTTP into calls on the live table, and its state into JSON or HTML."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from scanner.handdeal.zones import ZoneError
from scanner.live import ActionRefused, MalformedAction

from . import security
from .body import json_object
from .errors import BadRequest
from .pages import add_page_routes

bp = Blueprint("table", __name__)
add_page_routes(bp, page="table", role="operator")


def _table() -> Any:
    return current_app.extensions["tablescan.table"]


@bp.get("/state")
def state() -> Response:
    version, snapshot = _table().snapshot()
    return jsonify({"version": version, "state": snapshot, "operator": security.is_operator()})


@bp.post("/pin")
@security.operator_required
def change_pin() -> Response:
    body = json_object()
    current, new = body.get("pin"), body.get("new_pin")
    if not isinstance(current, str) or not isinstance(new, str):
        raise BadRequest("'pin' (the current PIN) and 'new_pin' must be text")
    security.change_pin(current, new)
    return jsonify({"operator": True, "csrf": security.csrf_token()})


@bp.post("/act/<action>")
@security.operator_required
def act(action: str) -> Response:
    params = json_object()
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
    return _fresh_jpeg(cameras.latest(name) if cameras is not None else None)


@bp.get("/camera/<name>/still.jpg")
@security.operator_required
def still(name: str) -> Response:
    """The camera's latest whole frame, to mark the seat zones on; 404 before its first."""
    cameras = current_app.extensions.get("tablescan.cameras")
    return _fresh_jpeg(cameras.still(name) if cameras is not None else None)


def _fresh_jpeg(jpeg: bytes | None) -> Response:
    """A camera's picture, never cached (it changes every frame); 404 when there is none."""
    if jpeg is None:
        return Response(status=404)
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def _calibration() -> Any:
    calibration = current_app.extensions.get("tablescan.zones")
    if calibration is None:
        raise BadRequest("this table has no camera over it to calibrate", status=404)
    return calibration


@bp.get("/zones")
def zones() -> Response:
    return jsonify(_calibration().to_dict())


@bp.post("/zones")
@security.operator_required
def calibrate_zones() -> Response:
    body = json_object()
    calibration = _calibration()
    try:
        calibration.calibrate(body, replace=body.get("replace") is True)
    except ZoneError as exc:
        raise BadRequest(str(exc)) from None
    return jsonify(calibration.to_dict())


@bp.get("/healthz")
def healthz() -> Response:
    version, _ = _table().snapshot()
    return jsonify({"ok": True, "version": version})
