"""The club store as the tests see it: a database in the throwaway cluster, the
administrator's view of it, and a table's log in the same shape for comparing."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import psycopg

from scanner.app.pg_cluster import Cluster
from scanner.club.access import parse_token
from scanner.club.admin import issue_token
from scanner.club.shipper import Shipper


@dataclass
class Store:
    cluster: Cluster
    db: str

    @property
    def admin_url(self) -> str:
        return self.cluster.admin_url(self.db)

    def table_url(self, port: int | None = None) -> str:
        return self.cluster.table_url(self.db, port)

    def admin(self) -> psycopg.Connection:
        return psycopg.connect(self.admin_url, autocommit=True)

    def token(self, table: str) -> str:
        with self.admin() as conn:
            return str(issue_token(conn, table))

    def events(self) -> set[tuple]:
        """Every event in the store as (table, log_id, seq, session, key, type, body)."""
        with self.admin() as conn:
            rows = conn.execute("SELECT table_name, log_id::text, seq, session, key, type, "
                                "body FROM tablescan.events").fetchall()
        return {(*row[:6], json.dumps(row[6], sort_keys=True)) for row in rows}


def log_events(table: str, path: Path) -> set[tuple]:
    """The events of one table's SQLite log, in the form Store.events gives them."""
    conn = sqlite3.connect(path)
    try:
        log_id = conn.execute("SELECT log_id FROM club_link").fetchone()[0]
        rows = conn.execute("SELECT seq, session, key, type, body FROM events").fetchall()
    finally:
        conn.close()
    return {(table, log_id, seq, session, key, kind, json.dumps(json.loads(body), sort_keys=True))
            for seq, session, key, kind, body in rows}


def ship(store: Store, table: str, db: Path, token: str | None = None) -> None:
    """Ship a table's log to the store now (a new token for the table unless given one)."""
    Shipper(db, store.table_url(), parse_token(token or store.token(table))).ship_pending()
