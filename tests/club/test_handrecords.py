"""Hand records out to the scoring programs: PBN 2.1 export format and the Bridgemate Data
Connector's PutHandrecords, checked against a local test double of its endpoint."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from bridgemate_double import DTO_FIELDS, BridgemateDouble, validate_handrecord
from club_support import Store, ship
from director_support import random_deal, record_deals, rotated

from scanner.bridge.formats import load
from scanner.bridge.formats.pbn import EXPORT_TAGS
from scanner.cards import SEATS, format_hand

GUID = "A1B2C3D4E5F60718293A4B5C6D7E8F90"




@pytest.fixture
def dealt(store: Store, tmp_path: Path) -> dict:
    """Boards 1–5 of session 'tuesday' dealt by the machine; a table's rotated copy of
    board 2 must not replace the record."""
    rng = random.Random(2101)
    boards = {n: random_deal(rng) for n in range(1, 6)}
    record_deals(tmp_path / "machine.sqlite", "tuesday", "dealt", boards)
    ship(store, "machine", tmp_path / "machine.sqlite")
    record_deals(tmp_path / "t1.sqlite", "tuesday", "verified", {2: rotated(boards[2], 1)})
    ship(store, "T1", tmp_path / "t1.sqlite")
    return boards


def test_pbn_export_has_the_mandatory_tags_in_order_and_crlf_line_ends(
        store: Store, dealt: dict, tmp_path: Path, cli) -> None:
    out = tmp_path / "tuesday.pbn"
    result = cli("club", "export", "--store", store.admin_url, "--session", "tuesday",
                 "--pbn", str(out), "--event", "Tuesday pairs", "--date", "2026.12.01")
    assert result.returncode == 0, result.stderr
    data = out.read_bytes()
    assert data.startswith(b"% PBN 2.1\r\n% EXPORT\r\n\r\n")
    assert b"\n" not in data.replace(b"\r\n", b""), "a line end that is not CRLF"
    games = data.decode().split("\r\n\r\n")[1:]
    games = [g for g in games if g]
    assert len(games) == 5
    for number, game in enumerate(games, start=1):
        lines = game.split("\r\n")
        assert [line.split(" ", 1)[0][1:] for line in lines] == list(EXPORT_TAGS)
        assert lines[0] == '[Event "Tuesday pairs"]' and lines[2] == '[Date "2026.12.01"]'
        assert lines[3] == f'[Board "{number}"]'
        dealer = lines[8].split('"')[1]
        assert lines[10].startswith(f'[Deal "{dealer}:')
        assert all("  " not in line and "\t" not in line for line in lines)
    read_back = {b.number: b for b in load(out).boards}
    for number, hands in dealt.items():
        assert [format_hand(read_back[number].hand(seat)) for seat in SEATS] == [
            format_hand(hands[seat]) for seat in SEATS]


def test_export_refuses_to_overwrite_a_file_unasked(store: Store, dealt: dict, tmp_path: Path,
                                                    cli) -> None:
    out = tmp_path / "kept.pbn"
    out.write_text("the director's own notes")
    result = cli("club", "export", "--store", store.admin_url, "--session", "tuesday",
                 "--pbn", str(out))
    assert result.returncode == 2 and "--force" in result.stderr
    assert out.read_text() == "the director's own notes"
    assert cli("club", "export", "--store", store.admin_url, "--session", "tuesday",
               "--pbn", str(out), "--force").returncode == 0
    assert out.read_bytes().startswith(b"% PBN 2.1")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".kept")] == []


def test_put_handrecords_posts_the_documented_request_to_the_data_connector(
        store: Store, dealt: dict, tmp_path: Path, cli) -> None:
    double = BridgemateDouble()
    try:
        result = cli("club", "export", "--store", store.admin_url, "--session", "tuesday",
                     "--bridgemate-url", double.url, "--session-guid", GUID,
                     "--club-id", "CLUB001", "--licence-key", "KEY-1")
        assert result.returncode == 0, result.stderr
        [request] = double.requests
        assert double.check(request) == []
        assert (request["Command"], request["SessionGuid"]) == (13, GUID)
        dtos = json.loads(request["SerializedData"])
        assert [d["BoardNumber"] for d in dtos] == [1, 2, 3, 4, 5]
        board2 = dtos[1]
        suits = [("Spades", 0), ("Hearts", 1), ("Diamonds", 2), ("Clubs", 3)]
        for seat, name in zip(SEATS, ("North", "East", "South", "West"), strict=True):
            expected = format_hand(dealt[2][seat], void="").split(".")
            assert [board2[name + suit] for suit, _ in suits] == expected

        double.refuse_with = "the session is closed"
        refused = cli("club", "export", "--store", store.admin_url, "--session", "tuesday",
                      "--bridgemate-url", double.url, "--session-guid", GUID,
                      "--club-id", "CLUB001", "--licence-key", "KEY-1")
        assert refused.returncode == 2 and "the session is closed" in refused.stderr
    finally:
        double.close()


def test_put_handrecords_to_a_file_is_the_same_request(store: Store, dealt: dict,
                                                       tmp_path: Path, cli) -> None:
    out = tmp_path / "handrecords.json"
    result = cli("club", "export", "--store", store.admin_url, "--session", "tuesday",
                 "--bridgemate", str(out), "--session-guid", GUID)
    assert result.returncode == 0, result.stderr
    request = json.loads(out.read_text())
    dtos = json.loads(request["SerializedData"])
    assert len(dtos) == 5
    assert all(validate_handrecord(dto, GUID) == [] for dto in dtos)


def test_the_test_double_refuses_what_the_dto_documents_as_invalid() -> None:
    """The double's checks can fail: a duplicated card and an unknown field are caught."""
    dto = dict.fromkeys(DTO_FIELDS, 0)
    assert validate_handrecord({**dto, "Extra": 1}, GUID)[0].startswith("fields differ")
    hand = {"SessionGuid": GUID, "ScoringGroupNumber": 1, "SectionLetters": "A",
            "BoardNumber": 1, "HasHandEvaluationData": False}
    for seat in ("North", "East", "South", "West"):
        for suit in ("Clubs", "Diamonds", "Hearts", "Spades"):
            hand[seat + suit] = ""
    hand.update(NorthSpades="AKQJT98765432", EastHearts="AKQJT98765432",
                SouthDiamonds="AKQJT98765432", WestClubs="AKQJT98765433")
    problems = validate_handrecord({**dto, **hand}, GUID)
    assert problems == ["Clubs do not add up to one of each rank: 'AKQJT98765433'"]


def test_bridgemate_needs_the_scoring_programs_session_guid(store: Store, dealt: dict,
                                                            tmp_path: Path, cli) -> None:
    result = cli("club", "export", "--store", store.admin_url, "--session", "tuesday",
                 "--bridgemate", str(tmp_path / "x.json"))
    assert result.returncode == 2 and "--session-guid" in result.stderr
    bad = cli("club", "export", "--store", store.admin_url, "--session", "tuesday",
              "--bridgemate", str(tmp_path / "x.json"), "--session-guid", "a1b2")
    assert bad.returncode == 2 and "32 capital hex digits" in bad.stderr
    assert not (tmp_path / "x.json").exists()


def test_a_session_without_dealt_records_exports_nothing(store: Store, tmp_path: Path,
                                                         cli) -> None:
    record_deals(tmp_path / "t.sqlite", "friday", "verified", {1: random_deal(random.Random(1))})
    ship(store, "T1", tmp_path / "t.sqlite")
    result = cli("club", "export", "--store", store.admin_url, "--session", "friday",
                 "--pbn", str(tmp_path / "f.pbn"))
    assert result.returncode == 2
    assert "board(s) [1]" in result.stderr and "no board with a dealt record" in result.stderr
    assert not (tmp_path / "f.pbn").exists()
