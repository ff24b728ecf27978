"""Read a deal log (JSON Lines, in the format below) into a ``hand-started`` event and the
events after it.

The first line is the header ``{"game": "pinochle"|"bridge", "dealer": "N", "packet": 3}``.
Each later line is a card, ``{"card": "AS"|null, "to": "E", "exposed": false}``, a marker,
``{"event": "bidding-ended"}``, or any event of the vocabulary written with its ``type``.
``"card": null`` is a card that could not be read; ``"card": "joker"`` is a joker.
Blank lines are skipped. Every error names the line and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TextIO

from .cards import CardError, parse_card, parse_seat
from .events import MARKERS, CardDelivered, Event, EventError, HandStarted, Marker, event_from_dict
from .tracker import rules_for_game

# Objects that turn up in a pack but are no card of any deck. A deal log names them as cards.
FOREIGN_OBJECTS = {"joker": "joker", "jk": "joker", "🃏": "joker"}

# A card line is some 40 characters; a line far longer is not a deal log.
MAX_LINE_CHARS = 1 << 16

_HEADER_FIELDS = {"game", "dealer", "packet"}
_CARD_FIELDS = {"card", "to", "exposed"}


class DealFileError(ValueError):
    """A deal log that cannot be read; the message names the line and the field."""


@dataclass(frozen=True)
class DealLog:
    """A deal log as events. ``lines[i]`` is the file line of ``events[i]``."""

    header: HandStarted
    events: list[Event]
    lines: list[int]


def read_deal_log(path: str | Path) -> DealLog:
    """Read a deal-log file; DealFileError names the file, line and field of any problem.

    Lines are read one at a time and none may be longer than MAX_LINE_CHARS, so a device
    such as /dev/zero or a file with no line ends is refused instead of read without end.
    """
    path = Path(path)
    if path.is_dir():
        raise DealFileError(f"{path}: is a folder, not a deal log")
    try:
        with path.open(encoding="utf-8", newline=None) as stream:
            return parse_deal_log(_bounded_lines(stream))
    except FileNotFoundError:
        raise DealFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DealFileError(f"{path}: cannot read: {exc}") from None
    except DealFileError as exc:
        raise DealFileError(f"{path}: {exc}") from None


def _bounded_lines(stream: TextIO) -> Iterator[str]:
    number = 0
    while True:
        line = stream.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_CHARS:
            raise DealFileError(f"line {number}: longer than {MAX_LINE_CHARS} characters; a "
                                "deal log holds one short JSON object per line")
        yield line.rstrip("\n")


def parse_deal_log(lines: Iterable[str]) -> DealLog:
    """Parse deal-log lines (without line ends); DealFileError names the line and the field."""
    header: HandStarted | None = None
    events: list[Event] = []
    numbers: list[int] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        obj = _json_object(line, number)
        if header is None:
            header = _header(obj, number)
        else:
            events.append(_event(obj, number))
            numbers.append(number)
    if header is None:
        raise DealFileError("line 1: missing header {\"game\", \"dealer\", \"packet\"}")
    return DealLog(header, events, numbers)


def _json_object(line: str, number: int) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DealFileError(f"line {number}: not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise DealFileError(f"line {number}: JSON nested too deeply; a deal log line is one "
                            "flat object") from None
    if not isinstance(obj, dict):
        raise DealFileError(f"line {number}: expected a JSON object, not {type(obj).__name__}")
    return obj


def _header(obj: dict[str, Any], number: int) -> HandStarted:
    _refuse_unknown(obj, _HEADER_FIELDS, number)
    for name in ("game", "dealer"):
        if name not in obj:
            raise DealFileError(f"line {number}: header: missing field {name!r}")
    game = obj["game"]
    try:
        rules = rules_for_game(game)
    except (ValueError, TypeError):
        raise DealFileError(f"line {number}: field 'game': unknown game {game!r}; "
                            "expected 'pinochle' or 'bridge'") from None
    dealer = _seat(obj["dealer"], number, "dealer")
    packet = obj.get("packet", rules.default_packet)
    if isinstance(packet, bool) or not isinstance(packet, int):
        raise DealFileError(f"line {number}: field 'packet' must be a whole number, "
                            f"not {packet!r}")
    if packet not in rules.packet_sizes:
        raise DealFileError(f"line {number}: field 'packet': {packet} is not a packet size "
                            f"{game} allows ({', '.join(map(str, rules.packet_sizes))})")
    return HandStarted(game=game, dealer=dealer, packet=packet)


def _event(obj: dict[str, Any], number: int) -> Event:
    if "type" in obj:
        try:
            event = event_from_dict(obj)
        except (EventError, CardError) as exc:
            raise DealFileError(f"line {number}: {exc}") from None
        if isinstance(event, HandStarted):
            raise DealFileError(f"line {number}: field 'type': a deal log holds one hand; "
                                "its header (line 1) already started it")
        return event
    if "event" in obj:
        _refuse_unknown(obj, {"event"}, number)
        name = obj["event"]
        if name not in MARKERS:
            raise DealFileError(f"line {number}: field 'event': unknown marker {name!r}; "
                                f"expected one of {', '.join(MARKERS)}")
        return Marker(name)
    _refuse_unknown(obj, _CARD_FIELDS, number)
    for name in ("card", "to"):
        if name not in obj:
            raise DealFileError(f"line {number}: missing field {name!r} (a card line is "
                                '{"card": "AS"|null, "to": "E"}; a marker is {"event": …})')
    exposed = obj.get("exposed", False)
    if not isinstance(exposed, bool):
        raise DealFileError(f"line {number}: field 'exposed' must be true or false, "
                            f"not {exposed!r}")
    seat = _seat(obj["to"], number, "to")
    token = obj["card"]
    if token is None:
        return CardDelivered(None, seat, exposed)
    if not isinstance(token, str):
        raise DealFileError(f"line {number}: field 'card' must be a card such as \"AS\" "
                            f"or null, not {_short(token)}")
    foreign = FOREIGN_OBJECTS.get(token.strip().lower())
    if foreign is not None:
        return CardDelivered(None, seat, exposed, foreign=foreign)
    try:
        return CardDelivered(parse_card(token), seat, exposed)
    except CardError as exc:
        raise DealFileError(f"line {number}: field 'card': {exc}") from None


def _seat(token: Any, number: int, name: str) -> Any:
    if not isinstance(token, str):
        raise DealFileError(f"line {number}: field {name!r} must be a seat N, E, S or W, "
                            f"not {_short(token)}")
    try:
        return _seat_of(token)
    except CardError as exc:
        raise DealFileError(f"line {number}: field {name!r}: {exc}") from None


# A deal log names the same four seats over and over: parse each spelling once.
_seat_of = lru_cache(maxsize=64)(parse_seat)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _refuse_unknown(obj: dict[str, Any], known: set[str], number: int) -> None:
    unknown = set(obj) - known
    if unknown:
        raise DealFileError(f"line {number}: unknown field(s) {sorted(unknown)}; "
                            f"expected {sorted(known)}")
