"""A table's log → the club store: at least once on the wire, exactly once in the store.

The table writes its SQLite log first and never waits for the store. A shipper thread reads
what the log has committed and copies it to the store in batches. Each row is identified by
the log's identity (a UUID kept in the log file) and its sequence number there, which is the
store's primary key: a batch resent after a lost acknowledgement is dropped row by row, so it
is applied once. Where to start is asked of the store itself on every (re)connection, so a
table that was killed, restarted or cut off carries on where the store stopped, with no
shipping state of its own to lose.

The deal history (scanner.history) rides along the same way, keyed by its row id, so the
club can look deals up by hash (Law 6D2) and compare boards across tables.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
import threading
import uuid
from pathlib import Path
from typing import TextIO

import psycopg

from ..log import LogError, inspect_log_file
from .access import TableToken, TokenRefused, connect_table
from .schema import SCHEMA_VERSION, StoreError, check_version

BATCH = 2000
NOTIFY_CHANNEL = "tablescan_shipped"
POLL_INTERVAL_S = 0.05
RETRY_FIRST_S = 0.2
RETRY_MAX_S = 2.0
BUSY_TIMEOUT_MS = 5000

# A batch goes in by COPY to a temporary table (the fastest way PostgreSQL takes rows in), then
# one INSERT … SELECT whose conflicts on the primary key are the rows the store already has.
_BATCH_TABLES = (
    "CREATE TEMP TABLE IF NOT EXISTS ship_events (seq bigint, session text, key text, "
    "type text, body text, logged_at text) ON COMMIT DELETE ROWS",
    "CREATE TEMP TABLE IF NOT EXISTS ship_deals (id bigint, hash text, game text, deal text, "
    "session text, source text, board integer, recorded_at text) ON COMMIT DELETE ROWS",
)
_INSERT_EVENTS = (
    "INSERT INTO tablescan.events (table_name, log_id, seq, session, key, type, body, logged_at)"
    " SELECT %s, %s, seq, session, key, type, body::jsonb, logged_at::timestamptz"
    " FROM ship_events ON CONFLICT DO NOTHING")
_INSERT_DEALS = (
    "INSERT INTO tablescan.deals (table_name, log_id, deal_id, hash, game, deal, session, "
    "source, board, recorded_at)"
    " SELECT %s, %s, id, hash, game, deal, session, source, board, recorded_at::timestamptz"
    " FROM ship_deals ON CONFLICT DO NOTHING")


def log_identity(path: Path) -> str:
    """The log file's UUID, made on first use and kept in the file (table ``club_link``).

    Two logs of one table (a serve log, a deal-deck scratch log) then never collide in the
    store even when their sequence numbers and session names do.
    """
    if not path.exists():
        # Connecting would make an empty SQLite file that is no tablescan log.
        raise LogError(f"{path}: no event log to ship")
    inspect_log_file(path)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # A plain read first: once the id exists, starting a table costs no write and no sync.
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'club_link'").fetchone():
            row = conn.execute("SELECT log_id FROM club_link").fetchone()
            if row is not None:
                return row[0]
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE IF NOT EXISTS club_link (log_id TEXT NOT NULL)")
        row = conn.execute("SELECT log_id FROM club_link").fetchone()
        if row is None:
            row = (str(uuid.uuid4()),)
            conn.execute("INSERT INTO club_link (log_id) VALUES (?)", row)
        conn.execute("COMMIT")
        return row[0]
    finally:
        conn.close()


def open_table_link(url: str, token: TableToken) -> tuple[psycopg.Connection, str]:
    """A checked connection as the table: (connection, the table's name in the store).

    TokenRefused if the token is wrong or revoked; StoreError if the store's schema is not
    this tablescan's; psycopg.OperationalError if the store cannot be reached now.
    """
    conn = connect_table(url, token)
    try:
        version_row = conn.execute(
            "SELECT value FROM tablescan.meta WHERE key = 'schema_version'").fetchone()
        version = int(version_row[0]) if version_row else 0
        check_version(version, url)
        if version < SCHEMA_VERSION:
            raise StoreError(f"{url}: schema version {version}, this tablescan needs "
                             f"{SCHEMA_VERSION}: the director runs `tablescan club init`")
        table = conn.execute("SELECT tablescan.my_table()").fetchone()[0]
        conn.commit()
        if table is None:
            raise TokenRefused(f"{url}: this table's token was revoked: ask the director "
                               "for a new one")
    except psycopg.errors.UndefinedTable:
        conn.close()
        raise StoreError(f"{url}: not a tablescan club store (run `tablescan club init`)"
                         ) from None
    except BaseException:
        conn.close()
        raise
    return conn, table


class Shipper:
    """Copies one log file's events and deals to the store, in a thread, until stopped."""

    def __init__(self, log_path: str | Path, url: str, token: TableToken, *,
                 poll_interval: float = POLL_INTERVAL_S, batch: int = BATCH,
                 report: TextIO | None = None) -> None:
        self.log_path = Path(log_path)
        self.url = url
        self.token = token
        self.log_id = log_identity(self.log_path)
        self.poll_interval = poll_interval
        self.batch = batch
        self._report = report if report is not None else sys.stderr
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._pg: psycopg.Connection | None = None
        self._table = ""
        self._cursors = {"events": 0, "deals": 0}
        self._lock = threading.Lock()
        self._drained: threading.Event | None = None
        self.error = ""  # the last reason shipping could not go on, for people to read
        self.refused = False

    # -- the thread ------------------------------------------------------------------------

    def start(self) -> Shipper:
        self._thread = threading.Thread(target=self._run, name="tablescan-ship", daemon=True)
        self._thread.start()
        return self

    def nudge(self) -> None:
        """Something was logged: ship it now rather than at the next poll."""
        self._wake.set()

    def stop(self, drain_timeout: float = 3.0) -> bool:
        """Ship what is pending (for at most ``drain_timeout`` seconds), then stop; True if
        the store had everything. Whatever is left goes with the next run on this log."""
        done = threading.Event()
        if self._thread is not None and self._thread.is_alive():
            self._drained = done
            self._wake.set()
            done.wait(drain_timeout)
            self._stop.set()
            self._wake.set()
            self._thread.join(timeout=drain_timeout + 1)
        self._close_pg()
        return done.is_set()

    def _run(self) -> None:
        delay = RETRY_FIRST_S
        sqlite_conn = self._open_log()
        try:
            while not self._stop.is_set():
                try:
                    shipped = self._ship_some(sqlite_conn)
                    delay = RETRY_FIRST_S
                    if self.error:
                        self._say("club store reached again; catching up")
                        self.error = ""
                except TokenRefused as exc:
                    self.refused = True
                    self._fail(str(exc))
                    return
                except (psycopg.Error, StoreError) as exc:
                    self._close_pg()
                    if not self.error:
                        self._say(f"club store unreachable, still logging locally: "
                                  f"{_first_line(exc)}")
                    self.error = _first_line(exc)
                    self._stop.wait(delay)
                    delay = min(delay * 2, RETRY_MAX_S)
                    continue
                if shipped:
                    continue
                if self._drained is not None:
                    self._drained.set()
                self._wake.wait(self.poll_interval)
                self._wake.clear()
        finally:
            sqlite_conn.close()
            self._close_pg()

    # -- one pass ----------------------------------------------------------------------------

    def ship_pending(self) -> int:
        """Ship everything the log holds now, in the caller's thread; the count sent."""
        sqlite_conn = self._open_log()
        try:
            total = 0
            while shipped := self._ship_some(sqlite_conn):
                total += shipped
            return total
        finally:
            sqlite_conn.close()

    def _ship_some(self, sqlite_conn: sqlite3.Connection) -> int:
        """One batch of events and one of deals; how many rows were sent."""
        with self._lock:
            if self._pg is None:
                self._connect()
            pg = self._pg
            assert pg is not None
            events = sqlite_conn.execute(
                "SELECT seq, session, key, type, body, logged_at FROM events WHERE seq > ? "
                "ORDER BY seq LIMIT ?", (self._cursors["events"], self.batch)).fetchall()
            deals = sqlite_conn.execute(
                "SELECT id, hash, game, deal, session, source, board, recorded_at FROM deals "
                "WHERE id > ? ORDER BY id LIMIT ?",
                (self._cursors["deals"], self.batch)).fetchall()
            if not events and not deals:
                return 0
            with pg.transaction():
                for rows, batch, insert in ((events, "ship_events", _INSERT_EVENTS),
                                            (deals, "ship_deals", _INSERT_DEALS)):
                    if rows:
                        with pg.cursor().copy(f"COPY {batch} FROM STDIN") as copy:
                            for row in rows:
                                copy.write_row(row)
                        pg.execute(insert, (self._table, self.log_id))
                # Delivered at commit: the director's page reads this log's new rows now
                # (scanner.club.view) instead of at its poll.
                pg.execute("SELECT pg_notify(%s, %s)",
                           (NOTIFY_CHANNEL, f"{self._table} {self.log_id}"))
            # Only after the store's commit: a commit lost on the way is found again by
            # asking the store where it stands on reconnection.
            if events:
                self._cursors["events"] = events[-1][0]
            if deals:
                self._cursors["deals"] = deals[-1][0]
            return len(events) + len(deals)

    def _connect(self) -> None:
        conn, table = open_table_link(self.url, self.token)
        try:
            self._cursors["events"] = conn.execute(
                "SELECT coalesce(max(seq), 0) FROM tablescan.events "
                "WHERE table_name = %s AND log_id = %s", (table, self.log_id)).fetchone()[0]
            self._cursors["deals"] = conn.execute(
                "SELECT coalesce(max(deal_id), 0) FROM tablescan.deals "
                "WHERE table_name = %s AND log_id = %s", (table, self.log_id)).fetchone()[0]
            for statement in _BATCH_TABLES:
                conn.execute(statement)
            conn.commit()
        except BaseException:
            conn.close()
            raise
        self._pg, self._table = conn, table

    def _open_log(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.log_path, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return conn

    def _close_pg(self) -> None:
        pg, self._pg = self._pg, None
        if pg is not None:
            with contextlib.suppress(psycopg.Error):
                pg.close()

    def _fail(self, reason: str) -> None:
        self.error = reason
        self._say(f"club shipping stopped: {reason}; the table keeps logging locally")

    def _say(self, text: str) -> None:
        print(f"tablescan: {text}", file=self._report, flush=True)

    @property
    def table(self) -> str:
        return self._table


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
