"""`tablescan check-deal FILE.jsonl [--db FILE]`: verdict as JSON; bad input exits 2 naming it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess

import pytest
from core_dealing import deal, shuffled, with_marker, write_deal_log

from scanner.cli import main
from scanner.log import EventLog

REQUIRED_KEYS = {"status", "rule", "reason", "evidence", "remedy", "hands"}


def run(capsys, *argv):
    code = main(["check-deal", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def bridge_log(tmp_path, seed=1, name="deal.jsonl"):
    header, events = deal("bridge", shuffled("bridge", seed))
    return write_deal_log(tmp_path / name, header, with_marker("bridge", events))


def pinochle_log(tmp_path, lines_after_header):
    path = tmp_path / "pinochle.jsonl"
    path.write_text("\n".join(['{"game": "pinochle", "dealer": "N", "packet": 3}',
                               *lines_after_header]) + "\n")
    return path


def test_a_good_deal_prints_an_ok_verdict_with_the_hands(tmp_path, capsys):
    code, out, _ = run(capsys, bridge_log(tmp_path))
    assert code == 0
    assert set(out) >= REQUIRED_KEYS
    assert out["status"] == "ok"
    assert sorted(out["hands"]) == ["E", "N", "S", "W"]
    assert all(len(cards) == 13 for cards in out["hands"].values())


def test_a_faulty_deal_still_exits_0_and_cites_rule_evidence_and_remedy(tmp_path, capsys):
    path = pinochle_log(tmp_path, ['{"card": "AS", "to": "E", "exposed": true}'])
    code, out, _ = run(capsys, path)
    assert code == 0
    assert out["status"] == "redeal-same-dealer"
    assert out["rule"].startswith("Setup & Deal")
    assert out["evidence"] and out["remedy"]
    assert out["evidence_lines"][0] == out["evidence"][0] + 2


def test_any_event_of_the_vocabulary_may_be_written_with_its_type(tmp_path, capsys):
    path = pinochle_log(tmp_path, ['{"card": "10h", "to": "E"}',
                                   '{"type": "card-exposed", "card": "KS"}'])
    _, out, _ = run(capsys, path)
    assert out["hands"]["E"] == ["TH"]
    exposed = [f for f in out["findings"] if "KS was exposed" in f["reason"]]
    assert exposed and exposed[0]["evidence"] == [1]


def test_an_unread_card_is_reported_as_null_in_its_hand(tmp_path, capsys):
    path = pinochle_log(tmp_path, ['{"card": null, "to": "E"}'])
    _, out, _ = run(capsys, path)
    assert out["hands"]["E"] == [None]
    assert any(f["status"] == "needs-reread" for f in out["findings"])


@pytest.mark.parametrize(("lines", "names"), [
    (['{"card": "AS", "to": "E"', ], "line 2: not JSON"),
    (['{"card": "1X", "to": "E"}'], "line 2: field 'card'"),
    (['{"card": "AS", "to": "Q"}'], "line 2: field 'to'"),
    (['{"card": "AS"}'], "line 2: missing field 'to'"),
    (['{"card": "AS", "to": "E", "exposed": "yes"}'], "line 2: field 'exposed'"),
    (['{"card": "AS", "to": "E", "face": "up"}'], "line 2: unknown field(s) ['face']"),
    (['{"event": "tea-break"}'], "line 2: field 'event'"),
    (['', '{"card": "AS", "to": "E"}', '[1, 2]'], "line 4: expected a JSON object"),
    (['{"type": "hand-started", "game": "bridge", "dealer": "N"}'], "line 2: field 'type'"),
    (['{"type": "card-exposed", "card": "AX"}'], "line 2: card-exposed: field 'card'"),
])
def test_bad_input_exits_2_naming_the_line_and_field(tmp_path, capsys, lines, names):
    code, out, err = run(capsys, pinochle_log(tmp_path, lines))
    assert code == 2
    assert out is None
    assert names in err


@pytest.mark.parametrize(("header", "names"), [
    ('{"game": "canasta", "dealer": "N"}', "line 1: field 'game'"),
    ('{"game": "bridge", "dealer": "X"}', "line 1: field 'dealer'"),
    ('{"game": "pinochle", "dealer": "N", "packet": 5}', "line 1: field 'packet'"),
    ('{"game": "bridge", "dealer": "N", "packet": 3}', "line 1: field 'packet'"),
    ('{"dealer": "N"}', "line 1: header: missing field 'game'"),
    ('not json', "line 1: not JSON"),
])
def test_a_bad_header_exits_2_naming_the_field(tmp_path, capsys, header, names):
    path = tmp_path / "deal.jsonl"
    path.write_text(header + "\n")
    code, _, err = run(capsys, path)
    assert code == 2
    assert names in err


def test_an_empty_file_exits_2(tmp_path, capsys):
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    code, _, err = run(capsys, path)
    assert code == 2 and "missing header" in err


def test_a_missing_file_exits_2(tmp_path, capsys):
    code, _, err = run(capsys, tmp_path / "nope.jsonl")
    assert code == 2 and "no such file" in err


def test_a_deal_checked_in_two_sessions_of_one_log_is_a_repeat(tmp_path, capsys):
    db = tmp_path / "club.sqlite"
    path = bridge_log(tmp_path)
    assert run(capsys, path, "--db", db)[1]["status"] == "ok"
    code, out, _ = run(capsys, path, "--db", db)
    assert code == 0
    assert out["status"] == "no-result"
    assert out["rule"] == "Law 6D2"


def test_a_named_session_may_check_its_deal_again(tmp_path, capsys):
    db = tmp_path / "club.sqlite"
    path = bridge_log(tmp_path)
    for _ in range(2):
        assert run(capsys, path, "--db", db, "--session", "tuesday")[1]["status"] == "ok"


def test_bad_input_never_writes_to_an_existing_log(tmp_path, capsys):
    db = tmp_path / "club.sqlite"
    run(capsys, bridge_log(tmp_path), "--db", db)
    bad = pinochle_log(tmp_path, ['{"card": "ZZ", "to": "E"}'])
    before = folder_state(tmp_path, db)
    assert run(capsys, bad, "--db", db)[0] == 2
    assert folder_state(tmp_path, db) == before


def folder_state(folder, db):
    return hashlib.sha256(db.read_bytes()).hexdigest(), sorted(p.name for p in folder.iterdir())


def test_a_log_from_a_newer_tablescan_exits_2(tmp_path, capsys):
    db = tmp_path / "future.sqlite"
    with EventLog(db):
        pass
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    code, _, err = run(capsys, bridge_log(tmp_path), "--db", db)
    assert code == 2 and "newer tablescan" in err


def test_the_installed_command_prints_json_on_stdout(tmp_path):
    done = subprocess.run(["tablescan", "check-deal", str(bridge_log(tmp_path))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert json.loads(done.stdout)["status"] == "ok"
    assert "ok" in done.stderr
