"""The event log: one SQLite file in WAL mode, every event durable before anything acts on it.

``append`` returns only once the event's commit is durable. By default (``durability="power"``)
the file runs with ``synchronous=FULL``: in WAL mode each commit syncs the write-ahead log to disk
and survives a power cut, not only a crashed process. ``durability="process"``
(``synchronous=NORMAL``) is an explicit, weaker choice that spares that sync: a returned commit is
in the operating system's hands and survives the host being killed (kill -9), but a power cut or
an OS crash may lose the commits since the last checkpoint (bench/core_log.py and
bench/shoe_overhead.py measure both). An optional idempotency ``key`` makes a retransmitted event
a no-op that returns the sequence number it was first logged under, so nothing is logged twice.

The file carries its schema version (``PRAGMA user_version``) and an application id. Before
anything writes, a read-only look (``inspect_log_file``) runs ``PRAGMA quick_check`` and reads
those two: a corrupt file, a file from a newer tablescan, one that is not a tablescan log, and
a log that cannot be written (read-only file, folder or disk) are refused with a LogError
saying which, and are never modified; not even a ``-wal`` or ``-shm`` file appears beside them.
A full disk while appending is ``LogFullError``: nothing of that append is kept, everything
logged before is, and the next append succeeds once there is space again. An event that fails
validation raises before anything is written.

A connection belongs to the thread that opened the log; other threads open their own.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

from .events import Event, EventError, event_from_dict

SCHEMA_VERSION = 1
# "TBSC": tells a tablescan log from any other SQLite file.
APPLICATION_ID = 0x54425343
# What an acknowledged append survives, and the SQLite setting that promises it.
DURABILITY: dict[str, str] = {"power": "FULL", "process": "NORMAL"}
DEFAULT_DURABILITY = "power"
SYNCHRONOUS = DURABILITY[DEFAULT_DURABILITY]
BUSY_TIMEOUT_MS = 5000

_SCHEMA = (
    """CREATE TABLE sessions (
        name TEXT PRIMARY KEY,
        started_at TEXT NOT NULL
    )""",
    """CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        session TEXT NOT NULL REFERENCES sessions(name),
        key TEXT UNIQUE,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        logged_at TEXT NOT NULL
    )""",
    # The deal history (scanner.history) shares the file, so it shares the schema version.
    """CREATE TABLE deals (
        id INTEGER PRIMARY KEY,
        hash TEXT NOT NULL,
        game TEXT NOT NULL,
        deal TEXT NOT NULL,
        session TEXT NOT NULL,
        source TEXT NOT NULL,
        board INTEGER,
        recorded_at TEXT NOT NULL
    )""",
    "CREATE INDEX deals_by_hash ON deals(hash)",
    "CREATE UNIQUE INDEX deals_once ON deals(hash, session, source, IFNULL(board, -1))",
)


_TABLES = {"sessions", "events", "deals"}


class LogError(Exception):
    """The log cannot be used as asked; the message says which file and why."""


class LogVersionError(LogError):
    """The file was written by a newer tablescan; it is left untouched."""


class LogConflict(LogError):
    """The sitting gained events after the version a write was checked against; nothing was
    written. ``gained`` lists their (seq, idempotency key) in log order."""

    def __init__(self, message: str, gained: list[tuple[int, str | None]]) -> None:
        super().__init__(message)
        self.gained = gained


class LogCorruptError(LogError):
    """The file is damaged; it is left untouched and the message says how to recover."""


class LogReadOnlyError(LogError):
    """The log, its folder or its disk cannot be written."""


class LogFullError(LogError):
    """The disk is full: the append was not logged; what was logged before is kept."""


RECOVERY = ("leave it as it is, and copy what can still be read into a new log: "
            "sqlite3 OLD .recover | sqlite3 NEW (then pass --db NEW)")


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def new_session_name() -> str:
    """A session name that sorts by start time and never collides."""
    return f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-{uuid.uuid4().hex[:8]}"


def inspect_log_file(path: Path) -> int:
    """Read-only look at an existing file: its schema version, or a LogError saying why it
    cannot be used (not SQLite, not ours, corrupt, newer, incomplete).

    Without a ``-wal`` file beside it the file is opened ``immutable``: SQLite then creates
    no ``-shm`` file and takes no lock, so a refused file gains nothing beside it.
    """
    uri = f"{path.resolve().as_uri()}?mode=ro"
    if not _wal_of(path).exists():
        uri += "&immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise LogError(f"{path}: cannot open: {exc}") from None
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        if _code(exc) == "SQLITE_CORRUPT":
            raise LogCorruptError(f"{path}: the log is damaged ({exc}); {RECOVERY}") from None
        raise LogError(f"{path}: not a tablescan event log ({exc})") from None
    finally:
        conn.close()
    if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables):
        raise LogError(f"{path}: not a tablescan event log (a SQLite file of another kind)")
    if problems != ["ok"]:
        found = " ".join("; ".join(problems).split())
        raise LogCorruptError(f"{path}: the log is damaged ({found[:200]}); {RECOVERY}")
    if version > SCHEMA_VERSION:
        raise LogVersionError(
            f"{path}: written by a newer tablescan (schema version {version}; this one reads "
            f"up to {SCHEMA_VERSION}); refusing to open it, and leaving it untouched")
    missing = sorted(_TABLES - tables)
    if version == SCHEMA_VERSION and missing:
        raise LogCorruptError(f"{path}: a tablescan log without its table(s) "
                              f"{', '.join(missing)}; {RECOVERY}")
    return version


def check_writable(path: Path) -> None:
    """LogReadOnlyError unless the log and its folder (where SQLite keeps ``-wal`` and
    ``-shm``) can be written."""
    folder = path.parent
    for target in ([path] if path.exists() else []) + [folder]:
        try:
            writable = os.access(target, os.W_OK)
        except OSError:
            writable = False
        if not writable:
            what = "the log" if target == path else f"its folder {folder}"
            raise LogReadOnlyError(f"{path}: read-only: {what} cannot be written (a read-only "
                                   "file, folder or disk); tablescan writes every event it "
                                   "shows, so give a log it can write with --db")


def _wal_of(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def _code(exc: sqlite3.Error) -> str:
    return getattr(exc, "sqlite_errorname", "") or ""


def log_error(path: Path, exc: sqlite3.Error) -> LogError:
    """The LogError that says in words what a SQLite error means for the log at ``path``."""
    code = _code(exc)
    if code.startswith("SQLITE_FULL") or "disk is full" in str(exc):
        return LogFullError(f"{path}: disk full: this event was not logged (everything logged "
                            "before is kept); free some space and try again")
    if code.startswith("SQLITE_READONLY"):
        return LogReadOnlyError(f"{path}: read-only: the log cannot be written ({exc})")
    if code.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return LogCorruptError(f"{path}: the log is damaged ({exc}); {RECOVERY}")
    return LogError(f"{path}: {exc}")


class EventLog:
    """An append-only, durable, replayable log of events in one SQLite file.

    ``session`` names the sitting the appended events belong to; by default each EventLog
    starts a fresh one at its first write. ``durability`` is ``"power"`` (the default) or
    ``"process"``; see the module's docstring.
    """

    def __init__(self, path: str | Path, session: str | None = None, *,
                 durability: str = DEFAULT_DURABILITY) -> None:
        self.path = Path(path)
        if durability not in DURABILITY:
            raise LogError(f"durability must be one of {', '.join(DURABILITY)}, "
                           f"not {durability!r}")
        self.durability = durability
        if self.path.is_dir():
            raise LogError(f"{self.path}: is a folder; give the name of the log file")
        if not self.path.parent.is_dir():
            raise LogError(f"{self.path}: cannot open: the folder {self.path.parent} does "
                           "not exist")
        if self.path.exists() and self.path.stat().st_size > 0:
            inspect_log_file(self.path)
        check_writable(self.path)
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise LogError(f"{self.path}: cannot open: {exc}") from None
        try:
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute(f"PRAGMA synchronous = {DURABILITY[durability]}")
            self._create_schema()
        except sqlite3.Error as exc:
            self._conn.close()
            raise log_error(self.path, exc) from None
        except LogError:
            self._conn.close()
            raise
        self._session = session

    def _create_schema(self) -> None:
        with self.transaction():
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                # Another process upgraded the file between our look and our open.
                raise LogVersionError(f"{self.path}: schema version {version} is newer than "
                                      f"{SCHEMA_VERSION}; refusing to use it")
            if version == SCHEMA_VERSION:
                return
            for statement in _SCHEMA:
                self._conn.execute(statement)
            self._conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def transaction(self) -> _Transaction:
        """``with log.transaction():`` one write transaction (BEGIN IMMEDIATE … COMMIT).

        A SQLite error inside it is rolled back and raised as a LogError saying what it
        means (disk full, read-only, damaged)."""
        return _Transaction(self._conn, self.path)

    @property
    def connection(self) -> sqlite3.Connection:
        """The log's connection, for modules that keep their tables in the same file."""
        return self._conn

    @property
    def session(self) -> str:
        """The session appended events belong to, named on first use if none was given."""
        if self._session is None:
            self._session = new_session_name()
        return self._session

    def _ensure_session(self) -> str:
        # Inside the caller's transaction, so a rolled-back append leaves no orphan session.
        name = self.session
        self._conn.execute("INSERT OR IGNORE INTO sessions (name, started_at) VALUES (?, ?)",
                           (name, utc_now()))
        return name

    def append(self, event: Event, key: str | None = None) -> int:
        """Log ``event`` durably and return its sequence number.

        With a ``key`` already in the log, nothing is written and the first sequence number is
        returned; the same key with a different event is an error, not a silent overwrite.
        """
        return self.append_many([event], [key])[0]

    def append_many(self, events: Sequence[Event], keys: Sequence[str | None] | None = None,
                    *, expected_version: int | None = None) -> list[int]:
        """Log several events in one durable commit (one sync for all); their seqs in order.

        All or nothing: every event is validated before anything is written, and a key
        conflict rolls the whole batch back. With ``expected_version``, the events are written
        only if the sitting has no event after that seq, checked in the same transaction that
        writes them, so two writers that each checked an action against the same state cannot
        both log it: the second gets LogConflict.
        """
        keys = [None] * len(events) if keys is None else list(keys)
        if len(keys) != len(events):
            raise LogError(f"{len(events)} events but {len(keys)} keys")
        bodies = [_validated_body(event) for event in events]
        for key in keys:
            if key is not None and not isinstance(key, str):
                raise LogError(f"idempotency key must be text, not {key!r}")
        now = utc_now()
        with self.transaction() as conn:
            if expected_version is not None:
                self._check_unchanged(conn, expected_version)
            return [self._insert(conn, event.type, body, key, now)
                    for event, body, key in zip(events, bodies, keys, strict=True)]

    def _check_unchanged(self, conn: sqlite3.Connection, version: int) -> None:
        gained = conn.execute("SELECT seq, key FROM events WHERE seq > ? AND session = ? "
                              "ORDER BY seq", (version, self.session)).fetchall()
        if gained:
            raise LogConflict(f"{self.path}: sitting {self.session} gained event "
                              f"{gained[-1][0]} after version {version}",
                              [(int(seq), key) for seq, key in gained])

    def _insert(self, conn: sqlite3.Connection, kind: str, body: str, key: str | None,
                now: str) -> int:
        if key is not None:
            row = conn.execute("SELECT seq, body FROM events WHERE key = ?", (key,)).fetchone()
            if row is not None:
                if row[1] != body:
                    raise LogError(f"key {key!r} is already logged (seq {row[0]}) with a "
                                   f"different event: {row[1]}")
                return int(row[0])
        cursor = conn.execute(
            "INSERT INTO events (session, key, type, body, logged_at) VALUES (?, ?, ?, ?, ?)",
            (self._ensure_session(), key, kind, body, now))
        return int(cursor.lastrowid or 0)

    def replay(self, from_seq: int = 0, session: str | None = None,
               ) -> Iterator[tuple[int, Event]]:
        """Yield ``(seq, event)`` in log order for every event with ``seq >= from_seq``."""
        sql = "SELECT seq, body FROM events WHERE seq >= ?"
        params: tuple[object, ...] = (from_seq,)
        if session is not None:
            sql += " AND session = ?"
            params += (session,)
        for seq, body in self._conn.execute(sql + " ORDER BY seq", params):
            yield seq, self._decoded(seq, body)

    def _decoded(self, seq: int, body: str) -> Event:
        """The event stored under ``seq``; a row that does not decode is named, not raised
        from deep inside the fold."""
        try:
            return event_from_dict(json.loads(body))
        except (ValueError, RecursionError, EventError) as exc:
            raise LogCorruptError(
                f"{self.path}: event {seq} cannot be read ({exc}); the events before it are "
                "fine. Start a new sitting (--new-session) to go on with this log, or "
                f"{RECOVERY}") from None

    def seq_of(self, key: str) -> int | None:
        """The sequence number logged under an idempotency key, or None."""
        row = self._conn.execute("SELECT seq FROM events WHERE key = ?", (key,)).fetchone()
        return None if row is None else int(row[0])

    def event_at(self, seq: int) -> Event | None:
        """The event logged under ``seq``, or None."""
        row = self._conn.execute("SELECT body FROM events WHERE seq = ?", (seq,)).fetchone()
        return None if row is None else self._decoded(seq, row[0])

    def last_seq_with_key_prefix(self, prefix: str) -> int | None:
        """The newest sequence number whose idempotency key starts with ``prefix``, or None.

        This is how a source finds, from the log alone, the last thing it logged (say the
        ``hand-started`` of the deal it was dealing when it stopped).
        """
        # A range on the key's index: exact and case-sensitive, unlike LIKE. U+10FFFF (a
        # noncharacter) sorts after every character a key can go on with.
        row = self._conn.execute("SELECT MAX(seq) FROM events WHERE key >= ? AND key < ?",
                                 (prefix, prefix + "\U0010ffff")).fetchone()
        return None if row[0] is None else int(row[0])

    def last_seq(self) -> int:
        row = self._conn.execute("SELECT MAX(seq) FROM events").fetchone()
        return int(row[0] or 0)

    def sessions(self) -> list[str]:
        """Session names in the order they started."""
        return [row[0] for row in self._conn.execute(
            "SELECT name FROM sessions ORDER BY started_at, name")]

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self._path = path

    def __enter__(self) -> sqlite3.Connection:
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise log_error(self._path, exc) from None
        return self._conn

    def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        if exc_type is None:
            try:
                self._conn.execute("COMMIT")
                return
            except sqlite3.Error as commit_error:
                exc = commit_error
        self._rollback()
        if isinstance(exc, sqlite3.Error):
            raise log_error(self._path, exc) from None

    def _rollback(self) -> None:
        # SQLite may already have rolled back on its own (a full disk does that); a second
        # ROLLBACK would only say "no transaction is active" and hide the real error.
        if self._conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")


def _validated_body(event: Event) -> str:
    """The event's JSON, after proving it decodes back to the same event."""
    if not isinstance(event, Event) or not event.type:
        raise EventError(f"not an event: {event!r}")
    body = json.dumps(event.to_dict(), ensure_ascii=False, separators=(",", ":"))
    if event_from_dict(json.loads(body)) != event:
        raise EventError(f"{event.type}: event does not survive a round trip: {event!r}")
    return body
