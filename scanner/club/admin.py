"""The administrator's side of the store: create or migrate it, issue and revoke table tokens,
and say how far each table has shipped."""

from __future__ import annotations

import secrets
from typing import Any

import psycopg
from psycopg import sql

from .access import TableToken, connect_admin
from .schema import (
    SCHEMA_VERSION,
    SESSION_KEY,
    StoreError,
    check_version,
    group_role,
    migrate,
    store_version,
)


def init_store(url: str) -> tuple[int, int]:
    """Create the store, or migrate it to this tablescan's schema; (before, after) versions."""
    with connect_admin(url) as conn:
        return migrate(conn, url)


def open_store(url: str) -> psycopg.Connection:
    """An administrator's connection to a store at exactly this schema version."""
    conn = connect_admin(url, autocommit=True)
    try:
        version = store_version(conn, url)
        check_version(version, url)
        if version < SCHEMA_VERSION:
            raise StoreError(f"{url}: schema version {version}, this tablescan needs "
                             f"{SCHEMA_VERSION}: run `tablescan club init --store {url}`")
    except BaseException:
        conn.close()
        raise
    return conn


def issue_token(conn: psycopg.Connection, table: str) -> TableToken:
    """A new token for ``table``: a new role the first time, a new password after that.

    A table's previous token stops working, and its open connections are ended, so the new
    token is the only way in.
    """
    secret = secrets.token_urlsafe(32)
    with conn.transaction():
        store_id = _store_id(conn)
        row = conn.execute("SELECT role FROM tablescan.tables WHERE name = %s FOR UPDATE",
                           (table,)).fetchone()
        role = row[0] if row else f"tablescan_{store_id}_t{secrets.token_hex(4)}"
        # Hashed here (libpq's SCRAM), so the secret never reaches the server or its logs.
        verifier = conn.pgconn.encrypt_password(secret.encode(), role.encode(),
                                                b"scram-sha-256").decode()
        if row is None:
            try:
                conn.execute("INSERT INTO tablescan.tables (name, role) VALUES (%s, %s)",
                             (table, role))
            except psycopg.errors.CheckViolation:
                raise StoreError(f"table name {table!r}: use 1 to 40 letters, digits, '.', "
                                 "'_' or '-', starting with a letter or digit") from None
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} IN ROLE {}").format(
                sql.Identifier(role), sql.Literal(verifier),
                sql.Identifier(group_role(store_id))))
        else:
            conn.execute("UPDATE tablescan.tables SET revoked_at = NULL, issued_at = now() "
                         "WHERE name = %s", (table,))
            conn.execute(sql.SQL("ALTER ROLE {} LOGIN PASSWORD {}").format(
                sql.Identifier(role), sql.Literal(verifier)))
    _end_sessions(conn, role)
    return TableToken(role, secret)


def revoke_token(conn: psycopg.Connection, table: str) -> None:
    """The table's token stops working at once: no new login, open connections ended, and
    row-level security refuses anything its role still tries to write."""
    with conn.transaction():
        row = conn.execute("UPDATE tablescan.tables SET revoked_at = now() WHERE name = %s "
                           "RETURNING role", (table,)).fetchone()
        if row is None:
            raise StoreError(f"no table named {table!r} in the store")
        conn.execute(sql.SQL("ALTER ROLE {} NOLOGIN PASSWORD NULL").format(
            sql.Identifier(row[0])))
    _end_sessions(conn, row[0])


def _end_sessions(conn: psycopg.Connection, role: str) -> None:
    conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s",
                 (role,))


def _store_id(conn: psycopg.Connection) -> str:
    return conn.execute("SELECT value FROM tablescan.meta WHERE key = 'store_id'").fetchone()[0]


def status(conn: psycopg.Connection) -> dict[str, Any]:
    """``{"tables": [{"table", "events", "last", "revoked"}]}``: events counts what the store
    holds from that table; last is the newest event's time at the table."""
    rows = conn.execute(
        """SELECT t.name, count(e.seq), max(e.logged_at), t.revoked_at IS NOT NULL
           FROM tablescan.tables t LEFT JOIN tablescan.events e ON e.table_name = t.name
           GROUP BY t.name, t.revoked_at ORDER BY t.name""").fetchall()
    return {"tables": [{"table": name, "events": count,
                        "last": last.isoformat(timespec="milliseconds") if last else None,
                        "revoked": revoked}
                       for name, count, last, revoked in rows]}


def open_session(conn: psycopg.Connection, name: str) -> None:
    """The director opens the club's session ``name``: every table that joins from now on
    writes under it unless it says otherwise (and then it is refused)."""
    if not name.strip() or len(name) > 200:
        raise StoreError(f"session name {name!r}: give 1 to 200 characters")
    conn.execute("INSERT INTO tablescan.meta (key, value) VALUES (%s, %s) "
                 "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (SESSION_KEY, name))


def current_session(conn: psycopg.Connection) -> str | None:
    row = conn.execute("SELECT value FROM tablescan.meta WHERE key = %s",
                       (SESSION_KEY,)).fetchone()
    return row[0] if row else None
