"""The table page: a Flask app factory. Views only translate HTTP into calls on a live table.

The live table (``scanner.live.LiveTable``) owns the event log, the game state and every rule;
this package owns HTTP: who may act (operator PIN), CSRF, request limits, the page, and the
Server-Sent Events stream that pushes each change to every open page.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from . import views
from .pages import new_app
from .throttle import PinThrottle


def create_app(table: Any, *, pin: str, title: str = "tablescan", cameras: Any = None,
               zones: Any = None, throttle: PinThrottle | None = None, **config: Any) -> Flask:
    """Build the app around one live table; ``pin`` is the operator PIN. ``cameras`` (a
    ``scanner.handdeal.thumbnails.Thumbnails``) serves each camera's latest thumbnail and
    still; ``zones`` (a ``scanner.handdeal.calibration.ZoneCalibration``) is the table
    camera's seat zones, which the operator marks on its still."""
    app = new_app(title, pin, throttle, config)
    app.extensions["tablescan.table"] = table
    app.extensions["tablescan.cameras"] = cameras
    app.extensions["tablescan.zones"] = zones
    app.register_blueprint(views.bp)
    return app
