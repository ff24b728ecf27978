"""Who may do what in the club store: a table writes only its own events, a revoked or wrong
token is refused before the table serves, and a store from a newer tablescan is left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from club_support import Store

from scanner.club.access import TokenRefused, connect_table, parse_token
from scanner.club.admin import init_store
from scanner.club.schema import StoreVersionError
from scanner.club.shipper import open_table_link

REPO = Path(__file__).resolve().parents[2]


def tablescan(*argv: str) -> subprocess.CompletedProcess:
    """The command line in its own process, as a table starts it."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "scanner", *argv], capture_output=True,
                          text=True, timeout=60, env=env)




def other_tables_row(conn: psycopg.Connection, table: str) -> None:
    conn.execute("INSERT INTO tablescan.events (table_name, log_id, seq, session, type, body, "
                 "logged_at) VALUES (%s, gen_random_uuid(), 1, 's', 'undo', '{}', now())",
                 (table,))


def test_a_table_token_cannot_write_or_read_another_tables_events(store: Store) -> None:
    mine, _ = open_table_link(store.table_url(), parse_token(store.token("T1")))
    theirs, _ = open_table_link(store.table_url(), parse_token(store.token("T2")))
    with theirs:
        other_tables_row(theirs, "T2")
        theirs.commit()
    with mine:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            other_tables_row(mine, "T2")
        mine.rollback()
        assert mine.execute("SELECT count(*) FROM tablescan.events").fetchone()[0] == 0
        # Its own rows it may add, never change or remove.
        other_tables_row(mine, "T1")
        mine.commit()
        for statement in ("UPDATE tablescan.events SET type = 'redeal'",
                          "DELETE FROM tablescan.events", "DELETE FROM tablescan.tables"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                mine.execute(statement)
            mine.rollback()
    with store.admin() as admin:
        rows = admin.execute("SELECT table_name, type FROM tablescan.events "
                             "ORDER BY table_name").fetchall()
    assert rows == [("T1", "undo"), ("T2", "undo")]


def test_a_revoked_token_is_refused_and_its_open_connection_ended(store: Store, cli) -> None:
    token = parse_token(store.token("T1"))
    conn, _ = open_table_link(store.table_url(), token)
    assert cli("club", "token", "--store", store.admin_url, "--revoke", "T1"
                     ).returncode == 0
    with pytest.raises(psycopg.OperationalError):
        other_tables_row(conn, "T1")
    conn.close()
    with pytest.raises(TokenRefused):
        connect_table(store.table_url(), token)


def test_a_new_token_replaces_the_old_one(store: Store) -> None:
    old = parse_token(store.token("T1"))
    new = parse_token(store.token("T1"))
    assert old.role == new.role and old.secret != new.secret
    with pytest.raises(TokenRefused):
        connect_table(store.table_url(), old)
    connect_table(store.table_url(), new).close()


@pytest.mark.parametrize("how", ["revoked", "wrong"])
def test_serve_with_a_refused_token_exits_2_without_serving(
        store: Store, tmp_path: Path, how: str, cli) -> None:
    token = store.token("T1")
    if how == "revoked":
        cli("club", "token", "--store", store.admin_url, "--revoke", "T1")
    else:
        token = token[:-4] + "AAAA"
    run = tablescan if how == "revoked" else cli
    result = run("serve", "--db", str(tmp_path / "t.sqlite"), "--port", "0",
                       "--club", store.table_url(), "--table-token", token)
    assert result.returncode == 2, result.stderr
    assert "refused this table's token" in result.stderr
    assert "serving" not in result.stderr


def test_deal_deck_checks_the_token_before_touching_the_shoe(store: Store, tmp_path: Path,
                                                             cli) -> None:
    result = cli("deal-deck", "--shoe", "socket://127.0.0.1:9", "--camera", "0",
                       "--game", "bridge", "--dealer", "N", "--db", str(tmp_path / "d.sqlite"),
                       "--club", store.table_url(), "--table-token",
                       "tablescan_00000000_t00000000." + "x" * 40)
    assert result.returncode == 2, result.stderr
    assert "refused this table's token" in result.stderr


def test_a_table_url_carrying_a_password_is_refused(store: Store, tmp_path: Path, cli
                                                   ) -> None:
    url = store.table_url().replace("//", "//someone:hunter2@")
    result = cli("serve", "--db", str(tmp_path / "t.sqlite"), "--port", "0",
                       "--club", url, "--table-token", store.token("T1"))
    assert result.returncode == 2
    assert "must not carry a password" in result.stderr
    assert "hunter2" not in result.stderr


def test_club_and_token_go_together(tmp_path: Path, cli) -> None:
    result = cli("serve", "--db", str(tmp_path / "t.sqlite"), "--port", "0",
                       "--club", "postgresql://127.0.0.1/club")
    assert result.returncode == 2
    assert "--club and --table-token go together" in result.stderr


def store_snapshot(store: Store) -> list:
    with store.admin() as conn:
        return [conn.execute("SELECT * FROM tablescan.meta ORDER BY key").fetchall(),
                conn.execute("SELECT table_name FROM information_schema.tables WHERE "
                             "table_schema = 'tablescan' ORDER BY 1").fetchall(),
                conn.execute("SELECT count(*) FROM tablescan.events").fetchone()]


def test_a_store_with_a_newer_schema_is_refused_and_left_untouched(
        store: Store, tmp_path: Path, cli) -> None:
    token = store.token("T1")
    with store.admin() as conn:
        conn.execute("UPDATE tablescan.meta SET value = '99' WHERE key = 'schema_version'")
    before = store_snapshot(store)
    with pytest.raises(StoreVersionError, match="newer tablescan"):
        init_store(store.admin_url)
    result = cli("club", "init", "--store", store.admin_url)
    assert result.returncode == 2 and "schema version 99" in result.stderr
    result = cli("serve", "--db", str(tmp_path / "t.sqlite"), "--port", "0",
                       "--club", store.table_url(), "--table-token", token)
    assert result.returncode == 2 and "newer tablescan" in result.stderr
    assert cli("club", "status", "--store", store.admin_url).returncode == 2
    assert store_snapshot(store) == before


def test_club_init_twice_is_harmless_and_status_counts_each_tables_events(
        store: Store, cli) -> None:
    assert cli("club", "init", "--store", store.admin_url).returncode == 0
    store.token("T2")
    mine, _ = open_table_link(store.table_url(), parse_token(store.token("T1")))
    with mine:
        other_tables_row(mine, "T1")
        mine.commit()
    result = cli("club", "status", "--store", store.admin_url)
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert [(t["table"], t["events"]) for t in status["tables"]] == [("T1", 1), ("T2", 0)]
    assert status["tables"][0]["last"] and status["tables"][1]["last"] is None
