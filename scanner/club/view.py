"""What the director's page shows, folded from the club store as it fills.

A thread follows the store in commit order and keeps, for each table, a summary of its
current sitting: game, phase, hand, the deal's verdict so far (the same tracker the table
runs), redeals, director calls and the dealing machine's faults. Deals that arrive are
compared board by board across tables (scanner.club.boards) and looked up by hash across
the club's whole history (Law 6D2).

Two ways in, one fold. The quick one: a table's shipper says at commit (NOTIFY) which log it
shipped, and the thread reads that log's rows past the last sequence number folded from it,
by the primary key. A log's rows become visible in sequence order (each batch is the next
run of it, committed whole), so nothing is skipped, and the event is on the page as soon as
its commit is. The sure one, for whatever no notification named (the view starting, the
listener reconnecting): rows in commit order, where ``tx`` is the transaction that wrote a
row and only transactions older than every one still running (the snapshot's xmin) are
read, so a slow commit with a lower id is never skipped; the cursor is (tx, id). It lags
while other tables' transactions are open, which on a busy club is most of the time, hence
the quick way. Each log's last folded sequence number keeps an event from being folded twice.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterable
from typing import Any

import psycopg

from ..bridge.repeats import LAW as REPEAT_LAW
from ..bridge.repeats import PLAYED
from ..events import (
    Bid,
    BoardResult,
    BoardStarted,
    CountersTaken,
    DeckWanted,
    Event,
    HandStarted,
    HandThrownIn,
    MachineFault,
    Marker,
    Pass,
    Redeal,
    TrumpNamed,
    event_from_dict,
)
from ..tracker import DealTracker
from ..verdicts import DIRECTOR, NO_RESULT
from .access import AccessError, connect_admin
from .admin import open_store
from .boards import BoardCopy, session_report
from .schema import StoreError
from .shipper import NOTIFY_CHANNEL

POLL_INTERVAL_S = 0.1
# After a notification, wait this long for more, so a burst of tables is read in one pass.
COALESCE_S = 0.02
SURE_EVERY_S = 1.0
BATCH = 5000
KEPT = 5  # director calls and faults shown per table
RECENT_SESSIONS = 3  # sessions whose boards the page lists

_PHASES: dict[type[Event], str] = {
    HandStarted: "dealing", Marker: "auction", Bid: "auction", Pass: "auction",
    TrumpNamed: "meld and play", CountersTaken: "scored", HandThrownIn: "thrown in",
    Redeal: "redeal", DeckWanted: "waiting for a deck",
}


class TableView:
    """One table's current sitting, as the director sees it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.revoked = False
        self.events = 0
        self.last = ""
        self._reset("")

    def _reset(self, session: str) -> None:
        self.session = session
        self.game = ""
        self.phase = "idle"
        self.hand = 0
        self.dealer = ""
        self.board = ""
        self.redeals = 0
        self.last_redeal = ""
        self.calls: list[dict[str, Any]] = []
        self.faults: list[dict[str, Any]] = []
        self.last_event = ""
        self._tracker: DealTracker | None = None
        self._verdict: dict[str, Any] | None = None

    def fold(self, session: str, event: Event, logged_at: str) -> None:
        self.events += 1
        self.last = max(self.last, logged_at)
        if session != self.session:
            self._reset(session)
        self.last_event = _describe(event)
        self.phase = _PHASES.get(type(event), self.phase)
        if isinstance(event, HandStarted):
            self.game, self.dealer, self.hand = event.game, event.dealer.value, self.hand + 1
            self._tracker = DealTracker.for_hand(event)
            self._verdict = None
        elif self._tracker is not None:
            self._tracker.feed(event)
            self._note_verdict()
        if isinstance(event, Redeal):
            self.redeals += 1
            self.last_redeal = event.reason
        elif isinstance(event, MachineFault):
            self.faults = [*self.faults, {"kind": event.kind, "detail": event.detail,
                                          "at": logged_at}][-KEPT:]
        elif isinstance(event, BoardStarted):
            self.game = self.game or "bridge"
            self.board = f"board {event.board} ({event.stage}, copy {event.copy})"
            self.phase = "dealing boards" if event.stage == "deal" else "verifying boards"
        elif isinstance(event, BoardResult) and (event.rule or event.history):
            self._call(f"board {event.board}: {event.status}", event.rule,
                       event.detail or event.history, event.remedy, logged_at)

    def _note_verdict(self) -> None:
        assert self._tracker is not None
        verdict = self._tracker.verdict()
        as_dict = verdict.to_dict()
        if as_dict == self._verdict:
            return
        self._verdict = as_dict
        if verdict.status in (DIRECTOR, NO_RESULT):
            self._call(f"hand {self.hand}: {verdict.status}", verdict.rule, verdict.reason,
                       verdict.remedy, self.last)

    def _call(self, what: str, rule: str, reason: str, remedy: str, at: str) -> None:
        self.calls = [*self.calls, {"what": what, "rule": rule, "reason": reason,
                                    "remedy": remedy, "at": at}][-KEPT:]

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.name, "revoked": self.revoked, "events": self.events,
                "last": self.last or None, "session": self.session, "game": self.game,
                "phase": self.phase, "hand": self.hand, "dealer": self.dealer,
                "board": self.board, "verdict": self._verdict, "redeals": self.redeals,
                "last_redeal": self.last_redeal, "calls": self.calls, "faults": self.faults,
                "last_event": self.last_event}


def _named_log(payload: str) -> tuple[str, str] | None:
    """(table, log id) from a shipper's notification, or None if it names none."""
    table, _, log_id = payload.partition(" ")
    try:
        return table, str(uuid.UUID(log_id))
    except ValueError:
        return None


def _describe(event: Event) -> str:
    fields = {k: v for k, v in event.to_dict().items() if k != "type" and v not in ("", None)}
    return f"{event.type} " + " ".join(f"{k}={v}" for k, v in fields.items())


class ClubView:
    """The club as the director's page shows it; follows the store in a thread."""

    def __init__(self, url: str, poll_interval: float = POLL_INTERVAL_S) -> None:
        self.url = url
        self._conn = open_store(url)
        self._poll_interval = poll_interval
        self._tables: dict[str, TableView] = {}
        self._event_cursor: tuple[str, int] = ("0", 0)
        self._log_cursor: dict[tuple[str, str], int] = {}  # (table, log id) → last seq folded
        self._deal_cursor = "0"
        self._boards: dict[str, list[dict[str, Any]]] = {}
        self._session_order: list[str] = []
        self._repeats: dict[str, dict[str, Any]] = {}
        self._version = 0
        self._snapshot: tuple[int, dict[str, Any]] | None = None
        self._changed = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error = ""
        self.refresh()

    def start(self) -> ClubView:
        self._thread = threading.Thread(target=self._follow, name="tablescan-club-view",
                                        daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._conn.close()

    def _follow(self) -> None:
        listener: psycopg.Connection | None = None
        shipped: set[str] = set()
        next_sure = 0.0
        while not self._stop.is_set():
            try:
                if self._conn.closed:
                    self._conn = open_store(self.url)
                if listener is None or listener.closed:
                    listener = connect_admin(self.url, autocommit=True)
                    listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
                self.refresh_logs(shipped)
                # The sure way re-reads every row the quick way folded: on a busy club, once
                # a second (it also brings deals and revocations); when quiet, at each pause.
                if not shipped or time.monotonic() >= next_sure:
                    while self.refresh():
                        pass
                    next_sure = time.monotonic() + SURE_EVERY_S
                self._set_error("")
                # Wait for a table to say it shipped, or for the interval: rows held back by
                # a transaction still running then are read on the next pass.
                shipped = {n.payload for n in listener.notifies(timeout=self._poll_interval,
                                                                stop_after=1)}
                if shipped:
                    self._stop.wait(COALESCE_S)
                    shipped.update(n.payload for n in listener.notifies(timeout=0))
            except (psycopg.Error, AccessError, StoreError) as exc:
                # The store restarting, or the network: say so on the page and try again.
                # The logs named so far are read the sure way once the store answers.
                shipped = set()
                self._set_error(str(exc).strip().splitlines()[0] if str(exc).strip()
                                else type(exc).__name__)
                self._conn.close()
                if listener is not None:
                    listener.close()
                self._stop.wait(self._poll_interval)
        if listener is not None:
            listener.close()

    def _set_error(self, text: str) -> None:
        with self._changed:
            if text != self.error:
                self.error = text
                self._changed_now()

    def _changed_now(self) -> None:
        self._version += 1
        self._snapshot = None
        self._changed.notify_all()

    # -- reading the store -----------------------------------------------------------------

    def refresh_logs(self, payloads: Iterable[str]) -> None:
        """The quick way in: fold the new rows of the logs shippers named (``TABLE LOG-ID``).
        A payload that names no log (any table role may notify) is passed over."""
        logs = sorted({log for log in map(_named_log, payloads) if log is not None})
        if not logs:
            return
        rows = self._conn.execute(
            "SELECT e.table_name, e.log_id::text, e.seq, e.session, e.body, e.logged_at "
            "FROM unnest(%s::text[], %s::uuid[], %s::bigint[]) AS s(table_name, log_id, after) "
            "CROSS JOIN LATERAL (SELECT * FROM tablescan.events e WHERE e.table_name = "
            "s.table_name AND e.log_id = s.log_id AND e.seq > s.after ORDER BY e.seq "
            "LIMIT %s) AS e",
            ([t for t, _ in logs], [log for _, log in logs],
             [self._log_cursor.get(log, 0) for log in logs], BATCH)).fetchall()
        with self._changed:
            if self._fold_events(rows):
                self._changed_now()

    def _fold_events(self, rows: Iterable[tuple]) -> int:
        """Fold (table, log id, seq, session, body, logged_at) rows, each event once; how many
        were new."""
        folded = 0
        for table, log_id, seq, session, body, logged_at in rows:
            if seq <= self._log_cursor.get((table, log_id), 0):
                continue
            self._log_cursor[(table, log_id)] = seq
            view = self._tables.setdefault(table, TableView(table))
            view.fold(session, event_from_dict(body),
                      logged_at.isoformat(timespec="milliseconds"))
            folded += 1
        return folded

    def refresh(self) -> bool:
        """The sure way in: fold what the store gained, in commit order; True if it read
        anything (call again until False)."""
        changed = self._refresh_tables()
        rows = self._conn.execute(
            "SELECT tx::text, id, table_name, log_id::text, seq, session, body, logged_at "
            "FROM tablescan.events "
            "WHERE (tx, id) > (%s::xid8, %s) AND tx < pg_snapshot_xmin(pg_current_snapshot()) "
            "ORDER BY tx, id LIMIT %s", (*self._event_cursor, BATCH)).fetchall()
        deals = self._conn.execute(
            "SELECT tx::text, table_name, source, board, deal, hash, session "
            "FROM tablescan.deals WHERE tx > %s::xid8 "
            "AND tx < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY tx",
            (self._deal_cursor,)).fetchall()
        if not rows and not deals and not changed:
            return False
        with self._changed:
            # Rows the quick way already folded are read again here, and passed over.
            folded = self._fold_events(row[2:] for row in rows)
            if rows:
                self._event_cursor = (rows[-1][0], rows[-1][1])
            if deals:
                self._deal_cursor = deals[-1][0]
                self._fold_deals(deals)
            if folded or deals or changed:
                self._changed_now()
        return True

    def _refresh_tables(self) -> bool:
        changed = False
        for name, revoked in self._conn.execute(
                "SELECT name, revoked_at IS NOT NULL FROM tablescan.tables"):
            view = self._tables.get(name)
            if view is None or view.revoked != revoked:
                with self._changed:
                    view = self._tables.setdefault(name, TableView(name))
                    view.revoked = revoked
                changed = True
        return changed

    def _fold_deals(self, deals: list[tuple]) -> None:
        sessions = {row[6] for row in deals if row[3] is not None}
        for session in sorted(sessions):
            sightings = [BoardCopy(table, source, board, deal) for table, source, board, deal in
                         self._conn.execute(
                             "SELECT table_name, source, board, deal FROM tablescan.deals "
                             "WHERE session = %s AND board IS NOT NULL "
                             "ORDER BY recorded_at, deal_id", (session,))]
            self._boards[session] = session_report(session, sightings)
            if session in self._session_order:
                self._session_order.remove(session)
            self._session_order.append(session)
        self._fold_repeats({row[5] for row in deals})

    def _fold_repeats(self, hashes: Iterable[str]) -> None:
        """Law 6D2: each new deal looked up by hash across every session and table."""
        rows = self._conn.execute(
            "SELECT hash, session, table_name, source, board, recorded_at FROM tablescan.deals "
            "WHERE hash = ANY(%s) ORDER BY recorded_at", (list(hashes),)).fetchall()
        by_hash: dict[str, list[dict[str, Any]]] = {}
        for digest, session, table, source, board, recorded_at in rows:
            by_hash.setdefault(digest, []).append({
                "session": session, "table": table, "source": source, "board": board,
                "recorded_at": recorded_at.isoformat(timespec="seconds")})
        for digest, seen in by_hash.items():
            sessions = {s["session"] for s in seen}
            played = {s["session"] for s in seen if s["source"] in PLAYED}
            if len(sessions) < 2:
                continue
            repeat = len(played) >= 2
            self._repeats[digest] = {
                "hash": digest, "law": REPEAT_LAW,
                "status": "no-result" if repeat else "seen-before",
                "reason": ("this deal was played in more than one session" if repeat
                           else "this deal was generated in one session and seen in another"),
                "remedy": ("no result may stand on the later playing: call the director"
                           if repeat else "do not play this set twice: generate a new set"),
                "sightings": seen}

    # -- what the page reads ---------------------------------------------------------------

    def snapshot(self) -> tuple[int, dict[str, Any]]:
        with self._changed:
            if self._snapshot is None:
                recent = self._session_order[-RECENT_SESSIONS:]
                boards = [b for s in reversed(recent) for b in self._boards[s]]
                self._snapshot = (self._version, {
                    "tables": [self._tables[n].to_dict() for n in sorted(self._tables)],
                    "boards": boards,
                    "fouled": [b for s in self._session_order for b in self._boards[s]
                               if b["differs"]],
                    "repeats": sorted(self._repeats.values(),
                                      key=lambda r: r["sightings"][-1]["recorded_at"]),
                    "store_error": self.error,
                })
            return self._snapshot

    def wait_for_change(self, version: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self._version != version, timeout=timeout)
            return self._version

