"""The SQLite event log: durable appends, exact replay, idempotent keys, refusing what it must."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest

from scanner.cards import Seat, Suit, parse_card
from scanner.events import (
    Bid,
    CardDelivered,
    CardRead,
    CountersTaken,
    EventError,
    HandStarted,
    MachineFault,
    Marker,
    Pass,
    TrumpNamed,
)
from scanner.log import APPLICATION_ID, SCHEMA_VERSION, EventLog, LogError, LogVersionError

A_HAND = [
    HandStarted(game="pinochle", dealer=Seat.W, packet=3),
    CardRead(parse_card("AS"), confidence=0.97, source="camera"),
    CardRead(None, face="down", confidence=0.2),
    CardDelivered(parse_card("AS"), Seat.N),
    CardDelivered(None, Seat.E, foreign="joker"),
    Marker("auction-started"),
    Bid(Seat.N, 21),
    Pass(Seat.E),
    Marker("bidding-ended"),
    TrumpNamed(Seat.N, Suit.H),
    CountersTaken("NS", 14, 7),
    MachineFault("jam", "gate 2", "dealing"),
]


def file_state(path):
    """Bytes of the file and which sidecar files exist: 'untouched' means all of it equal."""
    sidecars = sorted(p.name for p in path.parent.iterdir() if p.name != path.name)
    return hashlib.sha256(path.read_bytes()).hexdigest(), sidecars


def count_events(path):
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]


@pytest.fixture
def log(tmp_path):
    with EventLog(tmp_path / "table.sqlite") as log:
        yield log


def test_append_returns_increasing_sequence_numbers(log):
    seqs = [log.append(event) for event in A_HAND]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(A_HAND)


def test_replay_yields_every_event_exactly_in_order(log):
    seqs = [log.append(event) for event in A_HAND]
    assert list(log.replay()) == list(zip(seqs, A_HAND, strict=True))


def test_replay_from_a_sequence_number_starts_there(log):
    seqs = [log.append(event) for event in A_HAND]
    assert [seq for seq, _ in log.replay(from_seq=seqs[5])] == seqs[5:]


def test_the_log_is_in_wal_mode_with_synchronous_full(log):
    assert log.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # 2 = FULL: in WAL mode every commit syncs the WAL, so an acknowledged event survives power loss
    assert log.connection.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_process_durability_is_an_explicit_choice_of_synchronous_normal(tmp_path):
    with EventLog(tmp_path / "table.sqlite", durability="process") as log:
        assert log.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        # 1 = NORMAL: a commit survives the process being killed, not a power cut
        assert log.connection.execute("PRAGMA synchronous").fetchone()[0] == 1


def test_an_unknown_durability_is_refused_before_the_file_is_created(tmp_path):
    with pytest.raises(LogError, match="durability must be one of power, process"):
        EventLog(tmp_path / "table.sqlite", durability="fast")
    assert not (tmp_path / "table.sqlite").exists()


def test_an_appended_event_is_visible_to_another_connection_on_return(log):
    log.append(A_HAND[0])
    with sqlite3.connect(log.path) as other:
        body = other.execute("SELECT body FROM events").fetchone()[0]
    assert json.loads(body)["type"] == "hand-started"


def test_an_event_appended_again_under_its_key_is_logged_once(log):
    first = log.append(A_HAND[3], key="hand-1:card:00")
    again = log.append(A_HAND[3], key="hand-1:card:00")
    assert again == first
    assert count_events(log.path) == 1


def test_a_key_reused_for_a_different_event_is_refused(log):
    log.append(A_HAND[3], key="hand-1:card:00")
    with pytest.raises(LogError, match="different event"):
        log.append(CardDelivered(parse_card("KS"), Seat.N), key="hand-1:card:00")
    assert count_events(log.path) == 1


def test_an_invalid_event_raises_before_anything_is_written(log):
    log.append(A_HAND[0])
    with pytest.raises(EventError, match="marker"):
        log.append(Marker("shuffle-done"))
    with pytest.raises(EventError, match="not an event"):
        log.append({"type": "pass", "seat": "N"})
    assert count_events(log.path) == 1


def test_each_log_opening_is_its_own_session_unless_named(tmp_path):
    path = tmp_path / "table.sqlite"
    for session in (None, None, "club-night", "club-night"):
        with EventLog(path, session=session) as log:
            log.append(A_HAND[0])
    with EventLog(path) as log:
        assert len(log.sessions()) == 3
        assert "club-night" in log.sessions()
        assert len(list(log.replay(session="club-night"))) == 2


def test_reopening_the_log_keeps_everything(tmp_path):
    path = tmp_path / "table.sqlite"
    with EventLog(path) as log:
        seqs = [log.append(event) for event in A_HAND]
    with EventLog(path) as log:
        assert list(log.replay()) == list(zip(seqs, A_HAND, strict=True))
        assert log.last_seq() == seqs[-1]


def test_a_log_from_a_newer_schema_is_refused_and_never_modified(tmp_path):
    path = tmp_path / "future.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, body TEXT, hologram BLOB)")
        conn.execute("INSERT INTO events VALUES (1, '{}', x'00')")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = file_state(path)
    with pytest.raises(LogVersionError, match=f"schema version {SCHEMA_VERSION + 1}"):
        EventLog(path)
    assert file_state(path) == before
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_file_that_is_not_a_log_is_refused_and_never_modified(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("shopping: cards, pencils\n")
    before = file_state(path)
    with pytest.raises(LogError, match="not a tablescan event log"):
        EventLog(path)
    assert file_state(path) == before


def test_another_applications_database_is_refused_and_never_modified(tmp_path):
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    before = file_state(path)
    with pytest.raises(LogError, match="another kind"):
        EventLog(path)
    assert file_state(path) == before


def test_a_log_in_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(LogError, match="cannot open"):
        EventLog(tmp_path / "no-such-folder" / "table.sqlite")


def test_a_batch_is_logged_in_order_under_one_commit(log):
    seqs = log.append_many(A_HAND, [f"k{i}" for i in range(len(A_HAND))])
    assert list(log.replay()) == list(zip(seqs, A_HAND, strict=True))


def test_a_batch_with_one_invalid_event_writes_nothing(log):
    with pytest.raises(EventError):
        log.append_many([A_HAND[0], Marker("coffee")])
    assert count_events(log.path) == 0


def test_a_batch_with_one_conflicting_key_writes_nothing(log):
    log.append(A_HAND[3], key="card-0")
    with pytest.raises(LogError, match="different event"):
        log.append_many([A_HAND[0], A_HAND[1]], keys=["start", "card-0"])
    assert count_events(log.path) == 1
    assert log.seq_of("start") is None


def test_retransmitting_only_logged_events_starts_no_session(tmp_path):
    path = tmp_path / "table.sqlite"
    with EventLog(path) as log:
        log.append(A_HAND[0], key="start")
    with EventLog(path) as log:
        log.append(A_HAND[0], key="start")
        assert len(log.sessions()) == 1


def test_a_session_whose_first_append_was_rolled_back_is_recorded_by_its_next(tmp_path):
    path = tmp_path / "table.sqlite"
    with EventLog(path, session="first") as first, EventLog(path, session="second") as second:
        first.append(A_HAND[3], key="hand-1:card:00")
        with pytest.raises(LogError, match="different event"):
            second.append_many([A_HAND[0], CardDelivered(parse_card("KS"), Seat.N)],
                               keys=[None, "hand-1:card:00"])
        assert second.sessions() == ["first"]
        second.append(A_HAND[1])
        second.append(A_HAND[2])
        assert second.sessions() == ["first", "second"]
        assert [seq for seq, _ in second.replay(session="second")] == [2, 3]


def test_a_source_finds_the_last_event_it_logged_by_key_prefix(log):
    log.append(A_HAND[0], key="shoe:deal:1:start")
    second = log.append(A_HAND[0], key="shoe:deal:2:start")
    log.append(A_HAND[3], key="other_source:1")
    assert log.last_seq_with_key_prefix("shoe:deal:") == second
    assert log.event_at(second) == A_HAND[0]
    assert log.last_seq_with_key_prefix("shoe%") is None
    assert log.last_seq_with_key_prefix("other_") is not None
    assert log.last_seq_with_key_prefix("otherXsource") is None
    assert log.last_seq_with_key_prefix("SHOE:") is None
    assert log.event_at(999) is None


def test_two_writers_on_one_file_interleave_without_loss(tmp_path):
    path = tmp_path / "table.sqlite"
    with EventLog(path, session="shoe") as shoe, EventLog(path, session="page") as page:
        seqs = []
        for i, event in enumerate(A_HAND):
            seqs.append((shoe if i % 2 else page).append(event, key=f"e{i}"))
        assert list(shoe.replay()) == list(zip(seqs, A_HAND, strict=True))
        assert len(list(page.replay(session="shoe"))) == len(A_HAND) // 2
