"""Values typed on the command line are checked before any command runs: a wrong one exits 2
with a sentence naming the option, never a traceback, and is never quietly bent into another
value (issue 21, cases 17 and 18)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from scanner.cli import main
from scanner.events import Marker
from scanner.log import EventLog


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], option: str) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert option in err and "Traceback" not in err
    return err


# ---- case 17: bad arguments

def test_case_17_a_seed_that_is_not_utf8_is_refused(tmp_path, capsys) -> None:
    seed = b"\xff".decode("utf-8", "surrogateescape")  # what Python makes of $'\xff'
    _refused(capsys, ["generate", str(tmp_path / "s.pbn"), "--seed", seed], "--seed")
    assert not (tmp_path / "s.pbn").exists()


@pytest.mark.parametrize("boards", ["1-1000000000", "1-99999999999999999999"])
def test_case_17_a_board_range_beyond_any_set_is_refused(tmp_path, capsys, boards) -> None:
    _refused(capsys, ["generate", str(tmp_path / "s.pbn"), "--boards", boards], "--boards")


def test_case_17_predeal_refuses_a_billion_copies(tmp_path, capsys) -> None:
    _refused(capsys, ["predeal", str(tmp_path / "s.pbn"), "--copies", "1000000000",
                      "--shoe", "loop://", "--camera", "0"], "--copies")


def _deal_log(tmp_path: Path, second_line: str) -> Path:
    path = tmp_path / "deal.jsonl"
    path.write_text(json.dumps({"game": "bridge", "dealer": "N"}) + "\n" + second_line + "\n")
    return path


@pytest.mark.parametrize("command", ["check-deal", "audit"])
@pytest.mark.parametrize("line", [
    "[" * 10_000,
    "[" * 100_000,
    json.dumps({"card": {"rank": "A"}, "to": "E"}),
    json.dumps({"type": "card-delivered", "card": {"rank": "A"}, "to": "E"}),
    json.dumps({"type": "card-exposed", "card": ["A", "S"]}),
], ids=["nested-10k", "nested-100k", "card-object", "typed-card-object", "typed-card-list"])
def test_case_17_a_deal_log_line_that_is_no_card_exits_2_naming_the_line(
        tmp_path, capsys, command, line) -> None:
    path = _deal_log(tmp_path, line)
    err = _refused(capsys, [command, str(path)], "line 2")
    assert len(err) < 1000


def test_case_17_check_deal_refuses_an_endless_device(capsys) -> None:
    _refused(capsys, ["check-deal", "/dev/zero"], "line 1")


def test_case_17_read_card_refuses_an_endless_device(capsys) -> None:
    assert main(["read-card", "/dev/zero"]) == 2
    assert "not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["-1", "70000", "http"])
def test_case_17_18_serve_refuses_a_port_that_is_no_port(tmp_path, capsys, port) -> None:
    _refused(capsys, ["serve", "--db", str(tmp_path / "log.sqlite"), "--port", port], "--port")


def test_case_17_serve_on_a_port_in_use_exits_2_naming_it(tmp_path, capsys) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        _refused(capsys, ["serve", "--db", str(tmp_path / "log.sqlite"), "--port", str(port)],
                 f"--port {port}")


def test_case_17_serve_on_a_host_that_does_not_exist_exits_2(tmp_path, capsys) -> None:
    _refused(capsys, ["serve", "--db", str(tmp_path / "log.sqlite"), "--port", "0",
                      "--host", "no-such-host.invalid"], "--host")


# ---- case 18: wrong values are never accepted silently

@pytest.mark.parametrize("pin", ["٣٠٣٠", "12_34", "123"])
def test_case_18_a_pin_is_ascii_digits_only(tmp_path, capsys, pin) -> None:
    _refused(capsys, ["serve", "--db", str(tmp_path / "log.sqlite"), "--pin", pin], "--pin")


@pytest.mark.parametrize("call", ["٣٠", "2_5", "+25"])
def test_case_18_a_bid_is_ascii_digits_only(capsys, call) -> None:
    _refused(capsys, ["auction", "--dealer", "N", call], "call 1")


@pytest.mark.parametrize("command", ["check-deal", "generate", "verify"])
def test_a_session_without_a_log_to_keep_it_in_is_refused(tmp_path, capsys, command) -> None:
    deal = _deal_log(tmp_path, json.dumps({"card": "AS", "to": "E"}))
    argv = {"check-deal": [str(deal)], "generate": [str(tmp_path / "s.pbn")],
            "verify": [str(tmp_path / "s.pbn"), "--observed", str(tmp_path / "o.pbn")]}[command]
    err = _refused(capsys, [command, *argv, "--session", "tuesday"], "--session")
    assert "only applies with --db" in err
    assert not (tmp_path / "s.pbn").exists()


def test_case_18_check_deal_refuses_a_negative_board(tmp_path, capsys) -> None:
    path = _deal_log(tmp_path, json.dumps({"card": "AS", "to": "E"}))
    _refused(capsys, ["check-deal", str(path), "--board", "-5"], "--board")


@pytest.mark.parametrize("motion", ["nan", "inf", "-1"])
def test_case_18_shoe_sim_refuses_a_motion_that_is_no_duration(tmp_path, capsys, motion) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("AS\n")
    _refused(capsys, ["shoe-sim", "--deck", str(deck), "--motion", motion], "--motion")


def test_case_18_serve_refuses_a_sitting_that_is_not_in_the_log(tmp_path, capsys) -> None:
    db = tmp_path / "log.sqlite"
    with EventLog(db, session="friday") as log:
        log.append(Marker("bidding-ended"))
    err = _refused(capsys, ["serve", "--db", str(db), "--session", "firday", "--port", "0"],
                   "--session firday")
    assert "friday" in err and "--new-session" in err
    with EventLog(db) as log:
        assert log.sessions() == ["friday"]
