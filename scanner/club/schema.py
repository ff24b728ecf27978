"""The club store's schema and its migrations, applied in order under one lock.

The store records its schema version in ``tablescan.meta``. A store whose version is newer
than this tablescan knows is refused after a read-only look and never modified; an older one is
migrated step by step in one transaction, so a failed step leaves it as it was.

Who may write what is the database's job (PostgreSQL roles and row-level security): each table
logs in as its own role, a member of the store's ``…_tables`` group, and a policy lets a row in
only when its ``table_name`` is the table that role belongs to. A table's role can read and
append its own rows and nothing else: no update, no delete, no other table's rows.
"""

from __future__ import annotations

import secrets

import psycopg
from psycopg import sql

SCHEMA = "tablescan"
SCHEMA_VERSION = 1
# One lock number for "someone is migrating this store" (pg_advisory_xact_lock).
MIGRATION_LOCK = 0x54425343
# The session the director opened for the club (`tablescan club session --open`): a row of
# tablescan.meta, which every table's role may read, so a joining table learns it.
SESSION_KEY = "session"


class StoreError(Exception):
    """The store cannot be used as asked; the message says which store and why."""


class StoreVersionError(StoreError):
    """The store was made by a newer tablescan; it is left untouched."""


# Each step takes the store's group role as {tables}. Version 1 is the whole first schema.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE SCHEMA tablescan",
        "REVOKE ALL ON SCHEMA tablescan FROM PUBLIC",
        "CREATE TABLE tablescan.meta (key text PRIMARY KEY, value text NOT NULL)",
        """CREATE TABLE tablescan.tables (
            name text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{{0,39}}$'),
            role name NOT NULL UNIQUE,
            issued_at timestamptz NOT NULL DEFAULT now(),
            revoked_at timestamptz)""",
        # session_user, not current_user: inside a SECURITY DEFINER function current_user is
        # the function's owner. Revoked tables have no name, so their rows never pass a policy.
        """CREATE FUNCTION tablescan.my_table() RETURNS text
            LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
            AS $$ SELECT name FROM tablescan.tables
                  WHERE role = session_user AND revoked_at IS NULL $$""",
        "REVOKE ALL ON FUNCTION tablescan.my_table() FROM PUBLIC",
        # (log_id, seq) is the event's identity: the log it was written in and its place
        # there. A resent event hits the primary key and is dropped: applied exactly once.
        # tx is the writing transaction, so a reader can follow the store in commit order.
        """CREATE TABLE tablescan.events (
            id bigint GENERATED ALWAYS AS IDENTITY,
            tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
            table_name text NOT NULL,
            log_id uuid NOT NULL,
            seq bigint NOT NULL CHECK (seq > 0),
            session text NOT NULL,
            key text,
            type text NOT NULL,
            body jsonb NOT NULL,
            logged_at timestamptz NOT NULL,
            received_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (table_name, log_id, seq))""",
        "CREATE INDEX events_in_commit_order ON tablescan.events (tx, id)",
        """CREATE TABLE tablescan.deals (
            tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
            table_name text NOT NULL,
            log_id uuid NOT NULL,
            deal_id bigint NOT NULL CHECK (deal_id > 0),
            hash text NOT NULL,
            game text NOT NULL,
            deal text NOT NULL,
            session text NOT NULL,
            source text NOT NULL,
            board integer,
            recorded_at timestamptz NOT NULL,
            received_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (table_name, log_id, deal_id))""",
        # Law 6D2 looks a deal up by its hash; the board comparison by session and board.
        "CREATE INDEX deals_by_hash ON tablescan.deals (hash)",
        "CREATE INDEX deals_by_board ON tablescan.deals (session, board)",
        "CREATE INDEX deals_in_commit_order ON tablescan.deals (tx)",
        "ALTER TABLE tablescan.events ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE tablescan.deals ENABLE ROW LEVEL SECURITY",
        # (SELECT …) makes the table's name an init plan, worked out once per statement
        # rather than once per row. The policy is also why table_name needs no foreign key:
        # only a name from tablescan.tables ever passes it, and tables are revoked, never
        # deleted.
        """CREATE POLICY own_table ON tablescan.events TO {tables}
            USING (table_name = (SELECT tablescan.my_table()))
            WITH CHECK (table_name = (SELECT tablescan.my_table()))""",
        """CREATE POLICY own_table ON tablescan.deals TO {tables}
            USING (table_name = (SELECT tablescan.my_table()))
            WITH CHECK (table_name = (SELECT tablescan.my_table()))""",
        "GRANT USAGE ON SCHEMA tablescan TO {tables}",
        "GRANT SELECT ON tablescan.meta TO {tables}",
        "GRANT SELECT, INSERT ON tablescan.events, tablescan.deals TO {tables}",
        "GRANT EXECUTE ON FUNCTION tablescan.my_table() TO {tables}",
    ),
}
assert sorted(MIGRATIONS) == list(range(1, SCHEMA_VERSION + 1))


def group_role(store_id: str) -> str:
    """The role every table of the store is a member of (roles are per cluster, not per
    database, hence the store's id in the name)."""
    return f"tablescan_{store_id}_tables"


def store_version(conn: psycopg.Connection, where: str) -> int:
    """The store's schema version: 0 for an empty database, StoreError if it is not ours."""
    has_schema = conn.execute("SELECT to_regnamespace(%s) IS NOT NULL", (SCHEMA,)).fetchone()[0]
    if not has_schema:
        return 0
    if conn.execute("SELECT to_regclass('tablescan.meta') IS NULL").fetchone()[0]:
        raise StoreError(f"{where}: has a 'tablescan' schema that is not a tablescan club store")
    row = conn.execute("SELECT value FROM tablescan.meta WHERE key = 'schema_version'").fetchone()
    if row is None or not row[0].isdigit():
        raise StoreError(f"{where}: the store's schema version is missing or unreadable")
    return int(row[0])


def check_version(version: int, where: str) -> None:
    if version > SCHEMA_VERSION:
        raise StoreVersionError(
            f"{where}: made by a newer tablescan (schema version {version}; this one knows up "
            f"to {SCHEMA_VERSION}); refusing to use it, and leaving it untouched")


def migrate(conn: psycopg.Connection, where: str) -> tuple[int, int]:
    """Bring the store to SCHEMA_VERSION; return (version before, version after).

    The first look is read-only, so a newer store is refused without a write. Migrations run in
    one transaction behind an advisory lock, so two `club init` at once apply each step once.
    """
    with conn.transaction():
        conn.execute("SET TRANSACTION READ ONLY")
        before = store_version(conn, where)
    check_version(before, where)
    if before == SCHEMA_VERSION:
        return before, before
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        before = store_version(conn, where)
        check_version(before, where)
        if before == 0:
            store_id = secrets.token_hex(4)
            conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(
                sql.Identifier(group_role(store_id))))
        else:
            store_id = conn.execute(
                "SELECT value FROM tablescan.meta WHERE key = 'store_id'").fetchone()[0]
        tables = sql.Identifier(group_role(store_id))
        for version in range(before + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[version]:
                conn.execute(sql.SQL(statement).format(tables=tables))
        # Tables batch their rows in temporary tables (scanner.club.shipper); said here, not
        # left to PUBLIC's default, which a careful administrator may have revoked.
        database = conn.execute("SELECT current_database()").fetchone()[0]
        conn.execute(sql.SQL("GRANT CONNECT, TEMPORARY ON DATABASE {} TO {}").format(
            sql.Identifier(database), tables))
        conn.execute("INSERT INTO tablescan.meta VALUES ('store_id', %s) "
                     "ON CONFLICT (key) DO NOTHING", (store_id,))
        conn.execute("INSERT INTO tablescan.meta VALUES ('schema_version', %s) "
                     "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                     (str(SCHEMA_VERSION),))
    return before, SCHEMA_VERSION
