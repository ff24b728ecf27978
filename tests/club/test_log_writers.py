"""Every command that writes a log joins the club the same way: --club URL --table-token T."""

from __future__ import annotations

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
