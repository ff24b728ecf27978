"""Every command that writes a log joins the club the same way: --club URL --table-token T."""

from __future__ import annotations

import json
from pathlib import Path

from club_support import Store


def test_generate_with_a_club_ships_its_deal_history(store: Store, tmp_path: Path, cli) -> None:
    result = cli("generate", "--boards", "1-4", str(tmp_path / "set.pbn"), "--seed", "club",
                 "--db", str(tmp_path / "t.sqlite"), "--session", "tuesday",
                 "--club", store.table_url(), "--table-token", store.token("T1"))
    assert result.returncode == 0, result.stderr
    with store.admin() as conn:
        rows = conn.execute("SELECT table_name, source, board, session FROM tablescan.deals "
                            "ORDER BY board").fetchall()
    assert rows == [("T1", "generated", n, "tuesday") for n in (1, 2, 3, 4)]


def test_a_refused_token_stops_a_one_shot_command_before_it_writes(
        store: Store, tmp_path: Path, cli) -> None:
    token = store.token("T1")
    cli("club", "token", "--store", store.admin_url, "--revoke", "T1")
    result = cli("generate", "--boards", "1-4", str(tmp_path / "set.pbn"),
                 "--db", str(tmp_path / "t.sqlite"), "--club", store.table_url(),
                 "--table-token", token)
    assert result.returncode == 2 and "refused this table's token" in result.stderr
    assert not (tmp_path / "set.pbn").exists() and not (tmp_path / "t.sqlite").exists()


def test_club_needs_a_log_to_ship(store: Store, tmp_path: Path, cli) -> None:
    result = cli("generate", "--boards", "1-4", str(tmp_path / "set.pbn"),
                 "--club", store.table_url(), "--table-token", store.token("T1"))
    assert result.returncode == 2 and "--db" in result.stderr


def test_a_table_that_names_no_session_writes_under_the_clubs_session(
        store: Store, tmp_path: Path, cli) -> None:
    opened = cli("club", "session", "--store", store.admin_url, "--open", "tuesday")
    assert opened.returncode == 0 and json.loads(opened.stdout) == {"session": "tuesday"}
    result = cli("generate", "--boards", "1-2", str(tmp_path / "set.pbn"), "--seed", "club",
                 "--db", str(tmp_path / "t.sqlite"),
                 "--club", store.table_url(), "--table-token", store.token("T1"))
    assert result.returncode == 0, result.stderr
    with store.admin() as conn:
        sessions = conn.execute("SELECT DISTINCT session FROM tablescan.deals").fetchall()
    assert sessions == [("tuesday",)]


def test_a_table_naming_another_session_than_the_clubs_is_refused_before_it_writes(
        store: Store, tmp_path: Path, cli) -> None:
    cli("club", "session", "--store", store.admin_url, "--open", "tuesday")
    result = cli("generate", "--boards", "1-2", str(tmp_path / "set.pbn"),
                 "--db", str(tmp_path / "t.sqlite"), "--session", "monday",
                 "--club", store.table_url(), "--table-token", store.token("T1"))
    assert result.returncode == 2
    assert "--session monday" in result.stderr and "tuesday" in result.stderr
    assert not (tmp_path / "set.pbn").exists() and not (tmp_path / "t.sqlite").exists()
