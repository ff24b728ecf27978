"""The deal history (Law 6D2: no result stands for a deal already played in another session).

Deals live in the same SQLite file as the event log, one row per sighting: the deal's canonical
hash, which session saw it, how (``generated``, ``dealt``, ``verified``, ``checked``, or
``fouled``: a copy verification found not to match its record), the board number if any, and
when. Lookups go through an index on the hash, so asking "seen before?"
costs the same with ten deals or a million.

    log = EventLog("club.sqlite")
    history = DealHistory(log)
    if history.seen_in_other_session(hands, "tuesday"):
        ...                                    # a repeat: Law 6D2
    history.record(hands, "tuesday", "dealt", board=7)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .cards import Card, Seat, format_hand
from .log import EventLog, utc_now

SOURCES = ("generated", "dealt", "verified", "checked", "fouled")


@dataclass(frozen=True)
class Sighting:
    """One time a deal was recorded."""

    session: str
    source: str
    board: int | None
    recorded_at: str
    game: str


def canonical_deal(hands: Mapping[Seat, Iterable[Card]]) -> str:
    """``N:AKQ.… E:… S:… W:…``: the same four hands always give the same text."""
    if set(hands) != set(Seat):
        raise ValueError(f"a deal needs a hand for each of N, E, S, W; got "
                         f"{sorted(seat.value for seat in hands)}")
    parts = []
    for seat in Seat:
        cards = list(hands[seat])
        if not all(isinstance(card, Card) for card in cards):
            raise ValueError(f"hand {seat} holds something that is not a read card: "
                             f"{[c for c in cards if not isinstance(c, Card)]!r}")
        parts.append(f"{seat.value}:{format_hand(cards)}")
    return " ".join(parts)


def deal_hash(hands: Mapping[Seat, Iterable[Card]]) -> str:
    return hashlib.sha256(canonical_deal(hands).encode()).hexdigest()


class DealHistory:
    """Deals seen, kept in an EventLog's file."""

    def __init__(self, log: EventLog) -> None:
        self._log = log
        self._conn = log.connection

    def record(self, hands: Mapping[Seat, Iterable[Card]], session: str, source: str,
               board: int | None = None, game: str = "bridge") -> None:
        """Record a sighting of the deal, durably. Recording the same sighting again is a no-op."""
        if source not in SOURCES:
            raise ValueError(f"unknown deal source {source!r}; expected one of {SOURCES}")
        if not session:
            raise ValueError("a deal is recorded under a session name; got an empty one")
        deal = canonical_deal(hands)
        digest = hashlib.sha256(deal.encode()).hexdigest()
        with self._log.transaction() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO deals (hash, game, deal, session, source, board, "
                "recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (digest, game, deal, session, source, board, utc_now()))

    def sightings(self, hands: Mapping[Seat, Iterable[Card]]) -> list[Sighting]:
        """Every recorded sighting of the deal, oldest first."""
        return self._query(deal_hash(hands), None)

    def seen_in_other_session(self, hands: Mapping[Seat, Iterable[Card]],
                              session: str | None) -> list[Sighting]:
        """Sightings of the deal in sessions other than ``session``, oldest first."""
        return self._query(deal_hash(hands), session)

    def _query(self, digest: str, exclude_session: str | None) -> list[Sighting]:
        rows = self._conn.execute(
            "SELECT session, source, board, recorded_at, game FROM deals WHERE hash = ? "
            "AND session IS NOT ? ORDER BY recorded_at, id", (digest, exclude_session))
        return [Sighting(*row) for row in rows]
