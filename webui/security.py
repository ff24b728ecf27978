"""Operator PIN, operator sessions and CSRF.

Spectators read; only a session that has entered the PIN may change anything. Every visitor
gets a CSRF token in the (HttpOnly, SameSite=Strict) session cookie; every POST must echo it in
the ``X-CSRF-Token`` header, which a cross-site form cannot set.

The cookie only names an operator session; the server keeps the list of open ones, so logging
out ends a session for good (a copy of the cookie made before no longer acts), and a new PIN
ends every session opened under the old one. Wrong PINs go through the throttle.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Flask, current_app, request, session

from .errors import BadRequest
from .throttle import PinThrottle

CSRF_HEADER = "X-CSRF-Token"
PIN_DIGITS = range(4, 13)
# Ten digits: at the throttle's overall limit, finding it takes thousands of years (README).
DEFAULT_PIN_DIGITS = 10


def new_pin() -> str:
    """A random PIN of DEFAULT_PIN_DIGITS digits."""
    return "".join(secrets.choice("0123456789") for _ in range(DEFAULT_PIN_DIGITS))


def pin_problem(pin: str) -> str | None:
    """Why ``pin`` cannot be a PIN, or None: 4 to 12 ASCII digits."""
    if not (pin.isascii() and pin.isdigit() and len(pin) in PIN_DIGITS):
        return f"a PIN is {PIN_DIGITS.start} to {PIN_DIGITS.stop - 1} digits 0-9"
    return None


class OperatorSessions:
    """The operator sessions the server has opened and not yet ended, and the current PIN."""

    def __init__(self, pin: str) -> None:
        self._pin = pin
        self._open: set[str] = set()
        self._lock = threading.Lock()

    def pin_matches(self, pin: str) -> bool:
        with self._lock:
            expected = self._pin
        return hmac.compare_digest(pin.encode(), expected.encode())

    def open(self) -> str:
        sid = secrets.token_urlsafe(32)
        with self._lock:
            self._open.add(sid)
        return sid

    def is_open(self, sid: object) -> bool:
        with self._lock:
            return isinstance(sid, str) and sid in self._open

    def close(self, sid: object) -> None:
        with self._lock:
            self._open.discard(sid)  # type: ignore[arg-type]

    def change_pin(self, pin: str) -> None:
        """Set a new PIN and end every session opened before it."""
        with self._lock:
            self._pin = pin
            self._open.clear()


def init_app(app: Flask, pin: str, throttle: PinThrottle | None) -> None:
    app.extensions["tablescan.operators"] = OperatorSessions(pin)
    app.extensions["tablescan.throttle"] = throttle or PinThrottle()
    app.before_request(_check_csrf)


def _operators() -> OperatorSessions:
    return current_app.extensions["tablescan.operators"]


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
    return _operators().is_open(session.get("operator"))


def _check_pin(pin: str) -> None:
    """Pass a right PIN; refuse a wrong one (403), or any try while this client must wait (429)."""
    throttle: PinThrottle = current_app.extensions["tablescan.throttle"]
    client = request.remote_addr or "unknown"
    wait = throttle.wait(client)
    if wait > 0:
        raise BadRequest(f"too many wrong PINs: try again in {wait:.0f} s", status=429,
                         headers={"Retry-After": str(max(1, round(wait)))})
    if not _operators().pin_matches(pin):
        throttle.failed(client)
        raise BadRequest("wrong PIN", status=403)
    throttle.succeeded(client)


def log_in(pin: str) -> None:
    _check_pin(pin)
    _operators().close(session.get("operator"))
    session.clear()
    session["operator"] = _operators().open()
    csrf_token()


def log_out() -> None:
    _operators().close(session.get("operator"))
    session.clear()


def change_pin(current: str, new: str) -> None:
    """Set a new PIN (the current one must be given too); every older session ends."""
    _check_pin(current)
    problem = pin_problem(new)
    if problem:
        raise BadRequest(f"'new_pin': {problem}")
    _operators().change_pin(new)
    session.clear()
    session["operator"] = _operators().open()
    csrf_token()


def operator_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_operator():
            raise BadRequest("only the operator may change the table: enter the PIN", status=403)
        return view(*args, **kwargs)

    return wrapper
