"""The one event vocabulary that every source speaks and the event log stores.

Camera, shoe, recorded file and simulator all produce these; the tracker and the
game state fold them. Each event round-trips through a plain JSON object whose
``type`` names the event, so the log stays readable with ``sqlite3`` alone.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, get_type_hints

from .cards import Card, CardError, Seat, Suit, parse_card, parse_seat


class EventError(ValueError):
    """An event object that is malformed; the message names the field."""


# A hand dealt face down under a table camera with nothing to read the faces: its cards are
# counted where they land, not named (logged right after its hand-started).
FACES_NOT_READ = "faces-not-read"
MARKERS = ("auction-started", "bidding-ended", FACES_NOT_READ)
FACES = ("up", "down", "none")
SIDES = ("NS", "EW")
BOARD_STAGES = ("deal", "verify")


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = _encode(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A new hand (or board) begins: which game, who deals, and the agreed packet size.

    ``packet`` 0 means the table agreed nothing special, so the game's own default applies
    (three for pinochle, one for bridge): a source that leaves it out must not get bridge's
    one-at-a-time rule at a pinochle table.
    """

    type: ClassVar[str] = "hand-started"
    game: str
    dealer: Seat
    packet: int = 0
    session: str = ""


@dataclass(frozen=True, slots=True)
class CardRead(Event):
    """A card seen by a reader. ``card`` is None when unreadable: never a guess."""

    type: ClassVar[str] = "card-read"
    card: Card | None
    face: str = "up"
    confidence: float = 1.0
    source: str = ""


@dataclass(frozen=True, slots=True)
class CardDelivered(Event):
    """A card went to a seat (or a shoe pocket). ``exposed`` marks a card seen face up.

    ``foreign`` names an object that is no card of any deck (``"joker"``, an advert card);
    ``card`` is None then, and the deal is wrong rather than unread.
    """

    type: ClassVar[str] = "card-delivered"
    card: Card | None
    to: Seat
    exposed: bool = False
    foreign: str = ""


@dataclass(frozen=True, slots=True)
class CardExposed(Event):
    """A card was seen face up outside of a delivery (dropped, flashed, turned over)."""

    type: ClassVar[str] = "card-exposed"
    card: Card | None
    seat: Seat | None = None


@dataclass(frozen=True, slots=True)
class Marker(Event):
    """A point in the hand the rules care about: ``auction-started`` or ``bidding-ended``;
    or ``faces-not-read``, a hand whose cards are counted, not read."""

    type: ClassVar[str] = "marker"
    name: str


@dataclass(frozen=True, slots=True)
class Bid(Event):
    type: ClassVar[str] = "bid"
    seat: Seat
    amount: int


@dataclass(frozen=True, slots=True)
class Pass(Event):
    type: ClassVar[str] = "pass"
    seat: Seat


@dataclass(frozen=True, slots=True)
class TrumpNamed(Event):
    type: ClassVar[str] = "trump-named"
    seat: Seat
    suit: Suit


@dataclass(frozen=True, slots=True)
class CountersTaken(Event):
    """What one side took in play: counter points and the number of tricks."""

    type: ClassVar[str] = "counters-taken"
    side: str
    points: int
    tricks: int


@dataclass(frozen=True, slots=True)
class Conceded(Event):
    """The declaring side throws the hand in after seeing meld."""

    type: ClassVar[str] = "conceded"
    seat: Seat


@dataclass(frozen=True, slots=True)
class HandThrownIn(Event):
    type: ClassVar[str] = "hand-thrown-in"
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Redeal(Event):
    """The cards are gathered and dealt again; ``same_dealer`` follows the verdict's remedy."""

    type: ClassVar[str] = "redeal"
    reason: str = ""
    same_dealer: bool = True


@dataclass(frozen=True, slots=True)
class Undo(Event):
    """Cancels the latest not-yet-undone action. An undo is recorded, never a deletion."""

    type: ClassVar[str] = "undo"
    reason: str = ""


@dataclass(frozen=True, slots=True)
class MachineFault(Event):
    """A fault reported by the dealing shoe: jam, double feed, hopper empty, door, reset."""

    type: ClassVar[str] = "machine-fault"
    kind: str
    detail: str = ""
    state: str = ""


@dataclass(frozen=True, slots=True)
class BoardStarted(Event):
    """A board of a pre-dealt duplicate set reaches the shoe: a copy to deal (``stage`` deal)
    or a board read back to verify (``stage`` verify). ``position`` of ``total`` is the
    board's place in the run, for the progress the page shows."""

    type: ClassVar[str] = "board-started"
    board: int
    stage: str = "deal"
    copy: int = 1
    position: int = 1
    total: int = 1


@dataclass(frozen=True, slots=True)
class BoardResult(Event):
    """What became of one board at the shoe: dealt, stopped, or its verification status.

    ``detail`` holds the evidence, one line per difference; ``history`` a Law 6D2 flag in
    words, empty when the deal was never seen in another session."""

    type: ClassVar[str] = "board-result"
    board: int
    status: str
    stage: str = "deal"
    copy: int = 1
    rule: str = ""
    detail: str = ""
    remedy: str = ""
    history: str = ""


@dataclass(frozen=True, slots=True)
class AuditResult(Event):
    """The shuffle audit of a set or a run of decks: alarm or not, at a stated false-alarm
    rate, with the verdict's rule, evidence and remedy when it alarms."""

    type: ClassVar[str] = "audit-result"
    alarm: bool
    false_alarm_rate: float
    tests: int = 0
    rule: str = ""
    evidence: str = ""
    remedy: str = ""


@dataclass(frozen=True, slots=True)
class DeckWanted(Event):
    """The shoe waits for its operator to load the hopper: a shuffled deck for a board's copy
    (``stage`` deal), or one hand of a board to read back (``stage`` verify, ``seat``)."""

    type: ClassVar[str] = "deck-wanted"
    board: int
    stage: str = "deal"
    copy: int = 1
    seat: Seat | None = None


@dataclass(frozen=True, slots=True)
class DeckLoaded(Event):
    """The operator says the hopper holds what the shoe asked for (the page's go-ahead)."""

    type: ClassVar[str] = "deck-loaded"
    board: int
    stage: str = "deal"
    copy: int = 1
    seat: Seat | None = None


@dataclass(frozen=True, slots=True)
class ReadChecked(Event):
    """The operator looked at a card the table camera read face up (or could not name) and
    says which card it is: the same card confirms the read, another corrects it.

    ``event`` is the read's place in its hand as the tracker counts it: 0 is the first event
    after the hand-started. The read itself stays in the log as the camera saw it."""

    type: ClassVar[str] = "read-checked"
    event: int
    card: Card


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (HandStarted, CardRead, CardDelivered, CardExposed, Marker, Bid, Pass,
                TrumpNamed, CountersTaken, Conceded, HandThrownIn, Redeal, Undo, MachineFault,
                BoardStarted, BoardResult, AuditResult, DeckWanted, DeckLoaded, ReadChecked)
}

_CHOICES: dict[tuple[type[Event], str], tuple[str, ...]] = {
    (Marker, "name"): MARKERS,
    (CardRead, "face"): FACES,
    (CountersTaken, "side"): SIDES,
    (HandStarted, "game"): ("pinochle", "bridge"),
    (BoardStarted, "stage"): BOARD_STAGES,
    (BoardResult, "stage"): BOARD_STAGES,
    (DeckWanted, "stage"): BOARD_STAGES,
    (DeckLoaded, "stage"): BOARD_STAGES,
}


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Seat | Suit):
        return value.value
    return value


def _decode(cls: type[Event], name: str, hint: Any, value: Any) -> Any:
    text = str(hint)
    optional = "None" in text
    if value is None:
        if optional:
            return None
        raise EventError(f"{cls.type}: field {name!r} must not be null")
    if "Card" in text:
        return parse_card(value)
    if "Seat" in text:
        return parse_seat(value)
    if "Suit" in text:
        try:
            return Suit(str(value).upper())
        except ValueError:
            raise EventError(f"{cls.type}: field {name!r}: unknown suit {value!r}") from None
    if hint is bool:
        if not isinstance(value, bool):
            raise EventError(f"{cls.type}: field {name!r} must be true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise EventError(f"{cls.type}: field {name!r} must be a whole number, not {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise EventError(f"{cls.type}: field {name!r} must be a number, not {value!r}")
        return float(value)
    if not isinstance(value, str):
        raise EventError(f"{cls.type}: field {name!r} must be text, not {value!r}")
    choices = _CHOICES.get((cls, name))
    if choices and value not in choices:
        raise EventError(f"{cls.type}: field {name!r} is {value!r}, expected one of {choices}")
    return value


@cache
def _type_hints(cls: type[Event]) -> dict[str, Any]:
    # get_type_hints re-evaluates every annotation on each call: most of the cost of decoding.
    return get_type_hints(cls)


def event_from_dict(obj: Any) -> Event:
    """Build an event from its JSON object; raise EventError naming the bad field."""
    if not isinstance(obj, dict):
        raise EventError(f"an event must be a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"unknown event type {kind!r}; known: {sorted(EVENT_TYPES)}")
    hints = _type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(obj) - set(fields) - {"type"}
    if unknown:
        raise EventError(f"{kind}: unknown field(s) {sorted(unknown)}")
    kwargs = {}
    for name, f in fields.items():
        if name not in obj:
            if f.default is dataclasses.MISSING:
                raise EventError(f"{kind}: missing field {name!r}")
            continue
        try:
            kwargs[name] = _decode(cls, name, hints[name], obj[name])
        except CardError as exc:
            raise EventError(f"{kind}: field {name!r}: {exc}") from None
    return cls(**kwargs)
