"""Law 6D2 across the whole history: boards whose deal was already seen in another session.

The deal history itself (canonical hash, sessions, sightings) is scanner.history; this module
only asks it about boards and records boards in it.
"""

from __future__ import annotations

from ..cards import SEATS
from ..history import DealHistory, Sighting
from .board import Board
from .verify import MATCH

# A sighting of these kinds means the deal reached a table; generated alone means it was drawn.
# A fouled copy is not counted: it is to be made right before it is played.
PLAYED = ("dealt", "verified", "checked")
LAW = "Law 6D2"


def hands_by_seat(board: Board) -> dict:
    return dict(zip(SEATS, board.complete_hands(), strict=True))


def repeat_flag(history: DealHistory, board: Board, session: str) -> dict | None:
    """The flag for a board already seen in another session, or None.

    Played elsewhere → ``no-result`` (Law 6D2: no result may stand). Only generated
    elsewhere → ``seen-before``: not yet a repeat, but the director should know that a set
    is being reused (a spare set of first-session boards handed out again).
    """
    sightings = history.seen_in_other_session(hands_by_seat(board), session)
    if not sightings:
        return None
    played = any(s.source in PLAYED for s in sightings)
    return {
        "status": "no-result" if played else "seen-before",
        "law": LAW,
        "reason": ("this deal was played in another session" if played
                   else "this deal was generated in another session"),
        "remedy": ("no result may stand: replace the board before play" if played
                   else "do not play this set twice: generate a new set"),
        "sightings": [_sighting(s) for s in sightings],
    }


def _sighting(s: Sighting) -> dict:
    return {"session": s.session, "source": s.source, "board": s.board,
            "recorded_at": s.recorded_at}


def record(history: DealHistory, board: Board, session: str, source: str) -> None:
    history.record(hands_by_seat(board), session, source, board=board.number)


def record_verification(history: DealHistory, record_board: Board, observed: Board | None,
                        session: str, status: str) -> None:
    """What a verification saw, kept in the history: a matching copy as the record's deal
    (``verified``), a copy that is not a match as it was found (``fouled``), so the club can
    name the board, the table and the difference (Law 87A). A copy with a hand unread is
    not kept: there is no deal to compare."""
    if status == MATCH:
        record(history, record_board, session, "verified")
    elif observed is not None and None not in observed.hands:
        history.record(dict(zip(SEATS, observed.hands, strict=True)), session, "fouled",
                       board=record_board.number)
