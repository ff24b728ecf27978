"""Every refusal is JSON with a reason, so the page can show it inline and a script can read it."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from scanner.log import LogError


class BadRequest(Exception):
    """A malformed request: the reason names the field. Answered 400; nothing changes."""

    status = 400

    def __init__(self, reason: str, *, rule: str | None = None, status: int = 400,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.status = status
        self.headers = dict(headers or {})


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(BadRequest)
    def _bad_request(exc: BadRequest):
        body = {"error": exc.reason}
        if exc.rule:
            body["rule"] = exc.rule
        return jsonify(body), exc.status, exc.headers

    @app.errorhandler(LogError)
    def _log_unwritable(exc: LogError):
        # The log refused the action (disk full, damaged): nothing was logged, and saying
        # why beats a bare 500. 503: the same action may succeed once the cause is gone.
        return jsonify({"error": str(exc)}), 503

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        return jsonify({"error": exc.description or exc.name}), exc.code
