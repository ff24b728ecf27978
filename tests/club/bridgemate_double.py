"""A local test double of the Bridgemate Data Connector's http endpoint, for PutHandrecords.

It checks what the public repository bridgesystems/Bridgemate-Data-Connector-Scoring-Program-
Client documents (ScoringProgramRequest.cs, ScoringProgramDataConnectorCommands.cs,
SharedDTO/HandrecordDTO.cs and its Validate method, ScoringProgramResponse.cs): a POST of a
JSON ScoringProgramRequest to /dc-scoringprogram, Command 13, SerializedData a JSON array of
HandrecordDTO with exactly the documented fields, and answers as a ScoringProgramResponse.
It is not a Bridgemate server, and no real one was tried.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SEATS = ("North", "East", "South", "West")
SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
DENOMINATIONS = ("Clubs", "Diamonds", "Hearts", "Spades", "NoTrump")
DTO_FIELDS = (
    ["SessionGuid", "ScoringGroupNumber", "SectionLetters", "BoardNumber"]
    + [seat + suit for seat in SEATS for suit in SUITS]
    + ["HasHandEvaluationData"]
    + [f"DoubleDummy{seat}{d}" for seat in SEATS for d in DENOMINATIONS]
    + ["ValidationMessages"])
REQUEST_FIELDS = {"Command", "ClubId", "LicenceKey", "SessionGuid", "SerializedData"}
PUT_HANDRECORDS = 13
OK, ERROR = 1, 4
RANKS = "AKQJT98765432"


def validate_handrecord(dto: dict[str, Any], session_guid: str) -> list[str]:
    """The documented checks of HandrecordDTO.Validate, plus the exact field set."""
    problems = []
    if sorted(dto) != sorted(DTO_FIELDS):
        problems.append(f"fields differ: extra {sorted(set(dto) - set(DTO_FIELDS))}, "
                        f"missing {sorted(set(DTO_FIELDS) - set(dto))}")
        return problems
    if not re.fullmatch(r"[0-9A-F]{32}", str(dto["SessionGuid"])):
        problems.append("SessionGuid must be 32 capital hex digits")
    if dto["SessionGuid"] != session_guid:
        problems.append("SessionGuid differs from the request's")
    if not isinstance(dto["ScoringGroupNumber"], int) or dto["ScoringGroupNumber"] <= 0:
        problems.append("ScoringGroupNumber must be greater than zero")
    if not re.fullmatch(r"([A-Z])\1{0,2}", str(dto["SectionLetters"])):
        problems.append("invalid SectionLetters")
    if not isinstance(dto["BoardNumber"], int) or dto["BoardNumber"] <= 0:
        problems.append("BoardNumber must be greater than zero")
    for suit in SUITS:
        holdings = [dto[seat + suit] for seat in SEATS]
        if any(not isinstance(h, str) or any(c not in RANKS for c in h) for h in holdings):
            problems.append(f"invalid {suit}")
            continue
        cards = "".join(holdings)
        if sorted(cards) != sorted(RANKS):
            problems.append(f"{suit} do not add up to one of each rank: {cards!r}")
    if not isinstance(dto["HasHandEvaluationData"], bool):
        problems.append("HasHandEvaluationData must be true or false")
    return problems


class BridgemateDouble:
    """``url`` to post to; ``requests`` received; ``refuse_with`` to answer an error."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.refuse_with = ""
        double = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                if self.path != "/dc-scoringprogram":
                    self.send_error(404)
                    return
                double.requests.append(body)
                self._answer(double.check(body))

            def _answer(self, problems: list[str]) -> None:
                response = {"RequestCommand": PUT_HANDRECORDS, "LastQueueItemId": 0,
                            "DataType": ERROR if problems else OK,
                            "ErrorType": 1 if problems else 0,
                            "SessionGuid": "",
                            "SerializedData": json.dumps("; ".join(problems) or "OK")}
                data = json.dumps(response).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def check(self, request: dict[str, Any]) -> list[str]:
        if self.refuse_with:
            return [self.refuse_with]
        if set(request) != REQUEST_FIELDS:
            return [f"request fields {sorted(request)}"]
        if request["Command"] != PUT_HANDRECORDS:
            return [f"Command {request['Command']} is not PutHandrecords"]
        if not request["ClubId"] or not request["LicenceKey"]:
            return ["ClubId and LicenceKey are required on the http interface"]
        dtos = json.loads(request["SerializedData"])
        if not isinstance(dtos, list) or not dtos:
            return ["SerializedData must be a non-empty array of HandrecordDTO"]
        return [p for dto in dtos for p in validate_handrecord(dto, request["SessionGuid"])]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
