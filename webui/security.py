"""Operator PIN, session cookie and CSRF.

Spectators read; only a session that has entered the PIN may change anything. Every visitor
gets a CSRF token in the (HttpOnly, SameSite=Strict) session cookie; every POST must echo it in
the ``X-CSRF-Token`` header, which a cross-site form cannot set.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Flask, current_app, request, session

from .errors import BadRequest

CSRF_HEADER = "X-CSRF-Token"


def init_app(app: Flask) -> None:
    app.before_request(_check_csrf)


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def _check_csrf() -> None:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    sent = request.headers.get(CSRF_HEADER, "")
    expected = session.get("csrf", "")
    if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
        raise BadRequest("missing or wrong CSRF token: reload the page", status=403)


def is_operator() -> bool:
    return bool(session.get("operator"))


def check_pin(pin: str) -> bool:
    expected: str = current_app.extensions["tablescan.pin"]
    return hmac.compare_digest(pin.encode(), expected.encode())


def log_in(pin: str) -> None:
    if not check_pin(pin):
        raise BadRequest("wrong PIN", status=403)
    session.clear()
    session["operator"] = True
    csrf_token()


def operator_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_operator():
            raise BadRequest("only the operator may change the table: enter the PIN", status=403)
        return view(*args, **kwargs)

    return wrapper
