"""Hand records out to the scoring programs a club already uses.

The boards of a session are the deals the dealing machine recorded (``dealt``), else the set
file's (``generated``), as the club store holds them. They go out as:

- PBN 2.1 in its strict export form (scanner.bridge.formats.pbn), which ACBLscore, EBUScore
  and BridgeWebs import;
- the Bridgemate Data Connector's ``PutHandrecords`` request: a ``ScoringProgramRequest``
  (Command 13) whose ``SerializedData`` is a JSON array of ``HandrecordDTO``, as documented
  in the public repository bridgesystems/Bridgemate-Data-Connector-Scoring-Program-Client
  (ScoringProgramRequest.cs, SharedDTO/HandrecordDTO.cs). Written to a file, or posted to the
  data connector's ``/dc-scoringprogram`` endpoint. Only a local test double of that endpoint
  has been tried, never a real Bridgemate server.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterable
from typing import Any

import psycopg

from ..bridge.board import Board
from ..cards import SEATS, Suit
from .boards import RECORD_SOURCES, board_from_deal

PUT_HANDRECORDS = 13
API_CALL = "dc-scoringprogram"
RESPONSE_ERROR = 4  # DataConnectorResponseData.Error
SESSION_GUID = re.compile(r"^[0-9A-F]{32}$")
SECTION_LETTERS = re.compile(r"^([A-Z])\1{0,2}$")
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUIT_NAMES = {Suit.C: "Clubs", Suit.D: "Diamonds", Suit.H: "Hearts", Suit.S: "Spades"}
DENOMINATIONS = ("Clubs", "Diamonds", "Hearts", "Spades", "NoTrump")
POST_TIMEOUT_S = 30


class HandrecordError(Exception):
    """The hand records cannot be made or delivered; the message says why."""


def session_boards(conn: psycopg.Connection, session: str) -> tuple[list[Board], list[int]]:
    """(the session's boards from their records, board numbers seen with no record)."""
    rows = conn.execute(
        "SELECT board, source, deal FROM tablescan.deals WHERE session = %s "
        "AND board IS NOT NULL ORDER BY board", (session,)).fetchall()
    records: dict[int, tuple[int, str]] = {}
    seen: set[int] = set()
    for number, source, deal in rows:
        seen.add(number)
        if source in RECORD_SOURCES:
            rank = RECORD_SOURCES.index(source)
            if number not in records or rank < records[number][0]:
                records[number] = (rank, deal)
    boards = [board_from_deal(n, deal) for n, (_, deal) in sorted(records.items())]
    return boards, sorted(seen - set(records))


def handrecord_dtos(boards: Iterable[Board], session_guid: str, *, scoring_group: int = 1,
                    section: str = "A") -> list[dict[str, Any]]:
    """One ``HandrecordDTO`` per board: each seat's suits as rank letters, a void as ""."""
    if not SESSION_GUID.match(session_guid):
        raise HandrecordError(f"--session-guid {session_guid!r}: the Data Connector wants 32 "
                              "capital hex digits (a GUID without braces or dashes)")
    if not SECTION_LETTERS.match(section):
        raise HandrecordError(f"--section {section!r}: expected A-Z, AA-ZZ or AAA-ZZZ")
    if scoring_group <= 0:
        raise HandrecordError("--scoring-group must be greater than zero")
    dtos = []
    for board in boards:
        dto: dict[str, Any] = {"SessionGuid": session_guid,
                               "ScoringGroupNumber": scoring_group,
                               "SectionLetters": section, "BoardNumber": board.number}
        for seat in SEATS:
            hand = board.hand(seat)
            if hand is None:
                raise HandrecordError(f"board {board.number}: hand {seat} is unknown")
            for suit in (Suit.C, Suit.D, Suit.H, Suit.S):
                cards = sorted((c for c in hand if c.suit is suit), key=lambda c: c.rank.index)
                dto[SEAT_NAMES[seat.value] + SUIT_NAMES[suit]] = "".join(
                    c.rank.value for c in cards)
        # No double-dummy analysis here: said so, with the counts left at zero.
        dto["HasHandEvaluationData"] = False
        for seat in SEATS:
            for denomination in DENOMINATIONS:
                dto[f"DoubleDummy{SEAT_NAMES[seat.value]}{denomination}"] = 0
        dto["ValidationMessages"] = None
        dtos.append(dto)
    return dtos


def put_handrecords_request(dtos: list[dict[str, Any]], session_guid: str, *, club_id: str = "",
                            licence_key: str = "") -> dict[str, Any]:
    """The ``ScoringProgramRequest`` for PutHandrecords; its data is JSON inside JSON."""
    return {"Command": PUT_HANDRECORDS, "ClubId": club_id, "LicenceKey": licence_key,
            "SessionGuid": session_guid,
            "SerializedData": json.dumps(dtos, separators=(",", ":"))}


def post_request(base_url: str, request: dict[str, Any]) -> dict[str, Any]:
    """POST the request to ``BASE/dc-scoringprogram``; the response, or HandrecordError."""
    url = base_url.rstrip("/") + "/" + API_CALL
    body = json.dumps(request).encode()
    http = urllib.request.Request(url, data=body, method="POST",
                                  headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(http, timeout=POST_TIMEOUT_S) as answer:
            response = json.loads(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        raise HandrecordError(f"{url}: the data connector answered HTTP {exc.code}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise HandrecordError(f"{url}: cannot reach the data connector ({exc})") from None
    except ValueError:
        raise HandrecordError(f"{url}: the answer is not JSON") from None
    if not isinstance(response, dict):
        raise HandrecordError(f"{url}: the answer is not a ScoringProgramResponse")
    if response.get("DataType") == RESPONSE_ERROR or response.get("ErrorType"):
        raise HandrecordError(f"{url}: the data connector refused the hand records: "
                              f"{response.get('SerializedData')!s}")
    return response
