"""The log is checked before anything writes to it: a damaged, incomplete, read-only or foreign
file is refused with exit 2 and a sentence, and left exactly as it was, with nothing beside it;
a full disk loses the one append and nothing logged before (issue 21, cases 12 to 17 and 19)."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from scanner.cli import main
from scanner.events import Marker
from scanner.log import (
    APPLICATION_ID,
    EventLog,
    LogCorruptError,
    LogError,
    LogFullError,
)

A_DEAL_LOG = [{"game": "bridge", "dealer": "N"}, {"card": "AS", "to": "E"}]


def _deal_log(tmp_path: Path) -> Path:
    path = tmp_path / "deal.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in A_DEAL_LOG))
    return path


def _set(tmp_path: Path) -> Path:
    path = tmp_path / "set.pbn"
    assert main(["generate", str(path), "--boards", "1-2", "--seed", "logs"]) == 0
    return path


def _log_with_events(path: Path, count: int = 400) -> None:
    with EventLog(path, session="friday") as log:
        log.append_many([Marker("bidding-ended")] * count)


def _files_beside(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir())
            if p.name.startswith(path.name)}


def _corrupt(path: Path) -> None:
    """Scribble over the head of every page but the first, as a failing disk would."""
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    for start in range(page, len(data), page):
        data[start:start + 8] = b"\xa5" * 8
    path.write_bytes(bytes(data))


def _log_commands(db: Path, tmp_path: Path) -> dict[str, list[str]]:
    deal, boards = _deal_log(tmp_path), _set(tmp_path)
    return {
        "check-deal": ["check-deal", str(deal), "--db", str(db)],
        "generate": ["generate", str(tmp_path / "g.pbn"), "--boards", "1-2", "--db", str(db)],
        "verify": ["verify", str(boards), "--observed", str(boards), "--db", str(db)],
        "demo": ["demo", "--db", str(db)],
        "serve": ["serve", "--db", str(db), "--port", "0"],
    }


# ---- case 12 (and 16): a corrupt log is refused, untouched, with the way to recover

@pytest.mark.parametrize("command", ["check-deal", "generate", "verify", "demo", "serve"])
def test_case_12_a_corrupt_log_is_refused_and_left_untouched(tmp_path, capsys, command) -> None:
    db = tmp_path / "table.sqlite"
    _log_with_events(db)
    _corrupt(db)
    argv = _log_commands(db, tmp_path)[command]
    before = _files_beside(db)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "damaged" in err and ".recover" in err and "Traceback" not in err
    assert _files_beside(db) == before


# ---- case 13: one malformed row is named, and a new sitting is offered

def test_case_13_a_malformed_event_row_is_named_by_its_sequence_number(tmp_path, capsys) -> None:
    db = tmp_path / "table.sqlite"
    _log_with_events(db, count=3)
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("UPDATE events SET body = '{\"type\": \"bid\", \"seat\": 7}' WHERE seq = 2")
    assert main(["serve", "--db", str(db), "--port", "0", "--session", "friday"]) == 2
    err = capsys.readouterr().err
    assert "event 2" in err and "seat" in err and "--new-session" in err
    with EventLog(db) as log, pytest.raises(LogCorruptError, match="event 2"):
        list(log.replay())


# ---- case 17: a log with our application id and no tables

def test_case_17_a_log_with_our_id_and_no_tables_is_refused(tmp_path, capsys) -> None:
    db = tmp_path / "hollow.sqlite"
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("PRAGMA user_version = 1")
    before = _files_beside(db)
    assert main(["check-deal", str(_deal_log(tmp_path)), "--db", str(db)]) == 2
    assert "without its table" in capsys.readouterr().err
    assert _files_beside(db) == before


# ---- case 16: a refused file gains no -wal or -shm and keeps its header

def test_case_16_a_refused_foreign_file_gains_nothing_beside_it(tmp_path) -> None:
    path = tmp_path / "recipes.sqlite"
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("INSERT INTO recipes VALUES ('pie')")
    before = _files_beside(path)
    assert list(before) == ["recipes.sqlite"]
    with pytest.raises(LogError, match="another kind"):
        EventLog(path)
    assert _files_beside(path) == before


# ---- cases 14, 15, 19: a read-only disk and a full disk, on a real file system

@contextlib.contextmanager
def _tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.fixture
def read_only_log(tmp_path: Path) -> Iterator[Path]:
    """A good log on a file system mounted read-only, or with write permission removed
    where the tests do not run as root (who may write any file)."""
    if os.geteuid() != 0:
        folder = tmp_path / "ro"
        folder.mkdir()
        _log_with_events(folder / "table.sqlite", count=3)
        (folder / "table.sqlite").chmod(0o444)
        folder.chmod(0o555)
        yield folder / "table.sqlite"
        folder.chmod(0o755)
        return
    with _tmpfs(tmp_path / "ro", "4m") as folder:
        _log_with_events(folder / "table.sqlite", count=3)
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield folder / "table.sqlite"


@pytest.mark.parametrize("command", ["check-deal", "generate", "verify", "demo", "serve"])
def test_case_14_19_a_read_only_log_is_refused_at_start_and_called_read_only(
        read_only_log, tmp_path, capsys, command) -> None:
    before = _files_beside(read_only_log)
    assert main(_log_commands(read_only_log, tmp_path)[command]) == 2
    err = capsys.readouterr().err
    assert "read-only" in err and "not a tablescan event log" not in err
    assert _files_beside(read_only_log) == before


def test_case_19_a_folder_given_as_the_log_is_called_a_folder(tmp_path, capsys) -> None:
    assert main(["check-deal", str(_deal_log(tmp_path)), "--db", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "folder" in err and "disk I/O error" not in err


def test_case_15_a_full_disk_says_disk_full_keeps_the_log_and_resumes(tmp_path) -> None:
    with _tmpfs(tmp_path / "small", "1m") as folder:
        db = folder / "table.sqlite"
        log = EventLog(db, session="friday")
        log.append(Marker("bidding-ended"))
        _fill(folder)
        with pytest.raises(LogFullError, match="disk full"):
            for _ in range(2000):
                log.append_many([Marker("bidding-ended")] * 50)
        logged = log.last_seq()
        (folder / "filler").unlink()
        seq = log.append(Marker("bidding-ended"))
        assert seq == logged + 1
        assert len(list(log.replay())) == logged + 1
        log.close()


def _fill(folder: Path) -> None:
    with (folder / "filler").open("wb") as out, contextlib.suppress(OSError):
        while True:
            out.write(b"\0" * 65536)
            out.flush()


def test_case_15_the_page_answers_disk_full_in_words_not_a_bare_500(tmp_path) -> None:
    from scanner.live import LiveTable
    from scanner.pinochle.live_game import PinochleGame
    from webui import create_app

    with _tmpfs(tmp_path / "small", "1m") as folder:
        table = LiveTable(lambda: EventLog(folder / "t.sqlite", session="s"), PinochleGame())
        try:
            client = create_app(table, pin="123456", title="t").test_client()
            page = client.get("/").get_data(as_text=True)
            token = page.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
            login = client.post("/login", json={"pin": "123456"}, headers={"X-CSRF-Token": token})
            headers = {"X-CSRF-Token": login.get_json()["csrf"]}
            _fill(folder)
            # next-hand and undo, in turn, each append one event while there is room.
            answers = [client.post(f"/act/{action}", json={}, headers=headers)
                       for _ in range(300) for action in ("next-hand", "undo")]
            codes = {a.status_code for a in answers}
            assert 500 not in codes and 503 in codes, codes
            full = next(a for a in answers if a.status_code == 503)
            assert "disk full" in full.get_json()["error"]
        finally:
            table.close()


def test_case_15_no_misleading_rollback_error_hides_the_cause(tmp_path) -> None:
    with _tmpfs(tmp_path / "small", "1m") as folder, EventLog(folder / "t.sqlite") as log:
        _fill(folder)
        for _ in range(3):
            with pytest.raises(LogFullError) as raised:
                for _ in range(2000):
                    log.append_many([Marker("bidding-ended")] * 50)
            assert "no transaction is active" not in str(raised.value)
