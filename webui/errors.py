"""Every refusal is JSON with a reason, so the page can show it inline and a script can read it."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException


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

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        return jsonify({"error": exc.description or exc.name}), exc.code
