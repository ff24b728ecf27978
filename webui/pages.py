"""What the table page and the club director's page share: the Flask app with its limits and
cookie rules, the page itself, and logging in and out with the PIN.

Each page has one role that may act (the table's operator, the club's director); everyone
else reads. The templates extend ``base.html``, which names that role on the body, so each
page's script and style know who is looking.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template

from . import security
from .body import json_object
from .errors import BadRequest, register_error_handlers
from .throttle import PinThrottle

MAX_REQUEST_BYTES = 16 * 1024


def new_app(title: str, pin: str, throttle: PinThrottle | None,
            config: dict[str, Any]) -> Flask:
    """A page's app: secret session cookie, request limits, the PIN rules, error pages."""
    app = Flask("webui")
    app.config.update(
        SECRET_KEY=secrets.token_bytes(32),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        MAX_FORM_MEMORY_SIZE=MAX_REQUEST_BYTES,
        TABLESCAN_TITLE=title,
    )
    app.config.update(config)
    security.init_app(app, pin, throttle)
    register_error_handlers(app)
    return app


def add_page_routes(bp: Blueprint, *, page: str, role: str) -> None:
    """``GET /`` (``page``.html, with ``page``.js and .css) and ``POST /login``, ``/logout``
    for the one ``role`` that may act; their answers say ``{role: true|false, "csrf": …}``."""

    def show() -> str:
        return render_template(f"{page}.html", title=current_app.config["TABLESCAN_TITLE"],
                               csrf=security.csrf_token(), page=page, role=role,
                               acting=security.is_operator())

    def login() -> Response:
        pin = json_object().get("pin")
        if not isinstance(pin, str):
            raise BadRequest("'pin' must be text")
        security.log_in(pin)
        return jsonify({role: True, "csrf": security.csrf_token()})

    def logout() -> Response:
        security.log_out()
        return jsonify({role: False, "csrf": security.csrf_token()})

    bp.add_url_rule("/", "page", show, methods=["GET"])
    bp.add_url_rule("/login", "login", login, methods=["POST"])
    bp.add_url_rule("/logout", "logout", logout, methods=["POST"])
