"""A request's JSON body, read the one way every page reads it."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from .errors import BadRequest


def json_object() -> dict[str, Any]:
    """The body as a JSON object of real text; anything else is a 400 naming what is wrong.

    Deep nesting and lone surrogates (``"\\ud800"``) are valid JSON to Python's parser, yet
    the first overflows its recursion and the second is not text that can be compared or
    stored: both are refused here rather than failing later as a 500.
    """
    if not request.is_json:
        raise BadRequest("the request body must be a JSON object (Content-Type: application/json)")
    try:
        body = json.loads(request.get_data(cache=True))
    except RecursionError:
        raise BadRequest("the request body nests too deeply to be an action") from None
    except ValueError:
        raise BadRequest("the request body must be a JSON object: it is not valid JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    try:
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadRequest("the request body holds a lone surrogate (such as \\ud800): "
                         "not text") from None
    return body
