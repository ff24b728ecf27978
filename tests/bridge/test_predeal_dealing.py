"""`tablescan predeal` end to end: the real CLI, the simulated shoe over its serial socket, the
virtual camera reading every card with the real reader, and a real SQLite log.

The simulator's pockets are the ground truth: what physically lies in each pocket.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from predeal_support import LOAD_DECK, ROOT, json_lines, shoe_args, tablescan

from scanner.bridge.dealset import generate
from scanner.bridge.formats import SetInfo, read_boards, write_boards
from scanner.bridge.predeal import CopyOutcome, Step, stop_prompt
from scanner.cards import SEATS, parse_card
from scanner.history import DealHistory
from scanner.log import EventLog
from scanner.shoe.control import ControlChannel
from scanner.shoe.dealing import DealOutcome
from scanner.shoe.fault_proxy import FaultProxy, FaultRates
from scanner.shoe.simulator import Simulator

# A card named in text: rank then suit, as the CLI would print it.
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[AKQJT2-9])[SHDC♠♥♦♣](?![A-Za-z0-9])")


def board_hands(set_file, number: int) -> dict[str, list[int]]:
    board = next(b for b in read_boards(set_file) if b.number == number)
    return {seat.value: sorted(c.index for c in hand)
            for seat, hand in zip(SEATS, board.complete_hands(), strict=True)}


def pockets_by_index(control) -> dict[str, list[int]]:
    return {seat: sorted(parse_card(c).index for c in cards)
            for seat, cards in control.pockets().items()}


def deliveries(db) -> list[tuple[str, str]]:
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT key, body FROM events WHERE type = 'card-delivered' "
                                "ORDER BY seq").fetchall()
    except sqlite3.OperationalError:  # the run has not created the log's tables yet
        return []


@dataclass
class DealtRun:
    """One board pre-dealt by the CLI (blind, the default), shared by the tests that read it."""

    set_file: Path
    db: Path
    done: subprocess.CompletedProcess
    pockets: dict[str, list[int]]
    args: list[str]
    env: dict[str, str]


@pytest.fixture(scope="module")
def dealt(tmp_path_factory) -> Iterator[DealtRun]:
    tmp = tmp_path_factory.mktemp("dealt")
    set_file = tmp / "set.pbn"
    write_boards(set_file, generate(range(1, 5), seed="predeal tests"))
    (tmp / "decks").mkdir()
    with Simulator(motion_s=0.0) as sim, ControlChannel(sim.control_address) as control:
        env = {**os.environ, "SIM_CONTROL": sim.control_address, "DECK_DIR": str(tmp / "decks"),
               "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT),
                                                           os.environ.get("PYTHONPATH"))))}
        args = ["predeal", str(set_file), "--boards", "2", *shoe_args(sim),
                "--db", str(tmp / "club.sqlite"), "--session", "tuesday",
                "--next-deck-cmd", LOAD_DECK]
        done = tablescan(*args, env=env)
        yield DealtRun(set_file, tmp / "club.sqlite", done, pockets_by_index(control), args, env)


def test_law_6e_every_card_goes_to_the_pocket_the_set_says_whatever_the_order(dealt):
    assert dealt.done.returncode == 0, dealt.done.stderr
    lines = json_lines(dealt.done.stdout)
    assert lines[0]["board"] == 2 and lines[0]["status"] == "dealt"
    assert lines[-1]["summary"] and lines[-1]["status"] == "complete"
    assert dealt.pockets == board_hands(dealt.set_file, 2)


def test_law_6d2_each_dealt_copy_is_in_the_history_with_its_session_and_date(dealt):
    with sqlite3.connect(dealt.db) as conn:
        rows = conn.execute("SELECT session, source, board, recorded_at FROM deals").fetchall()
    assert [(s, src, b) for s, src, b, _ in rows] == [("tuesday", "dealt", 2)]
    assert re.match(r"\d{4}-\d\d-\d\dT", rows[0][3])


def test_blind_mode_names_no_card_on_stdout_or_stderr(dealt):
    assert json_lines(dealt.done.stdout)[0]["status"] == "dealt"
    assert "cop" in dealt.done.stderr  # the prompts and the progress bar were printed
    assert not CARD_TOKEN.findall(dealt.done.stdout + dealt.done.stderr)


def test_law_6e4_a_complete_run_logs_the_sets_shuffle_audit(dealt):
    summary = json_lines(dealt.done.stdout)[-1]
    assert summary["audit"]["false_alarm_rate"] > 0 and summary["audit"]["tests"] > 0
    with sqlite3.connect(dealt.db) as conn:
        (count,) = conn.execute("SELECT COUNT(*) FROM events WHERE type = 'audit-result'"
                                ).fetchone()
    assert count == 1


def test_a_copy_already_dealt_is_not_dealt_again(dealt):
    again = tablescan(*dealt.args, env=dealt.env)
    assert again.returncode == 0, again.stderr
    copy, summary = json_lines(again.stdout)
    assert copy["note"] == "already dealt in this log"
    assert summary["status"] == "already-dealt"
    assert "load a shuffled deck" not in again.stderr


def test_the_blind_check_finds_cards_in_text_and_nothing_in_laws_or_sessions():
    assert len(CARD_TOKEN.findall('{"pockets": {"N": ["AS", "TD", "9C", "10h"]}}')) == 3
    assert not CARD_TOKEN.findall("Law 6D2, Law 6F; session 20261130T063502Z-981a666b")


def test_only_show_hands_prints_the_pockets():
    step = Step(generate([1], seed="x")[0], 1, 1, 1, 1)
    outcome = CopyOutcome(step, "dealt", DealOutcome("complete", {"N": ["AS"], "E": ["TD"]}))
    assert "pockets" not in outcome.to_dict(blind=True)
    assert outcome.to_dict(blind=False)["pockets"] == {"N": ["AS"], "E": ["TD"]}


def test_a_blind_stop_names_the_position_but_not_the_card():
    deal = DealOutcome("stopped", {}, "not-in-plan", "card 27 of 52: AS is not in the target "
                      "deal: take it out of the read station", position=26)
    assert stop_prompt(deal, blind=True).startswith("card 27 of 52: ")
    assert "AS" not in stop_prompt(deal, blind=True)
    assert "AS" in stop_prompt(deal, blind=False)


def test_a_card_that_does_not_belong_stops_at_that_card_with_a_prompt(
        sim, control, set_file, shoe_env, tmp_path):
    # A second ace of spades (another deck's, or the same card read twice) as the 27th card.
    env = {**shoe_env, "DECK_EXTRA": "AS"}
    done = tablescan("predeal", str(set_file), "--boards", "1", *shoe_args(sim),
                     "--db", str(tmp_path / "club.sqlite"), "--next-deck-cmd", LOAD_DECK, env=env)
    assert done.returncode == 0, done.stderr
    copy, summary = json_lines(done.stdout)
    assert copy["status"] == "stopped"
    assert copy["reason"] in ("duplicate", "foreign", "not-in-plan")
    assert copy["prompt"].startswith("card 27 of 52: ")
    assert "take it out of the read station" in copy["prompt"]
    assert summary["status"] == "stopped"
    assert sum(len(cards) for cards in control.pockets().values()) == 26
    assert control.station() is not None  # the card waits at the station for the operator


def test_killed_mid_board_it_resumes_at_the_exact_card_and_deals_nothing_twice(
        sim, control, set_file, shoe_env, tmp_path):
    db = tmp_path / "club.sqlite"
    args = [sys.executable, "-m", "scanner", "predeal", str(set_file), "--boards", "4",
            *shoe_args(sim), "--db", str(db), "--session", "tuesday",
            "--next-deck-cmd", LOAD_DECK]
    first = subprocess.Popen(args, env=shoe_env, cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and first.poll() is None:
        if db.exists() and len(deliveries(db)) >= 20:
            break
        time.sleep(0.05)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)
    first.stdout.close()
    first.stderr.close()
    logged = len(deliveries(db))
    assert 20 <= logged < 52, "the kill came mid-board"
    loads_before = len(os.listdir(shoe_env["DECK_DIR"]))

    second = tablescan(*args[3:], env=shoe_env)

    assert second.returncode == 0, second.stderr
    copy = json_lines(second.stdout)[0]
    assert copy["status"] == "dealt", (copy.get("reason"), copy.get("prompt"))
    # A card routed just before the kill is recognised from the pockets' counts, not dealt again.
    assert copy["resumed_at_card"] in (logged + 1, logged + 2)
    assert "resuming board 4, copy 1 of 1" in second.stderr
    assert len(os.listdir(shoe_env["DECK_DIR"])) == loads_before, "no new deck was loaded"
    keys = [key for key, _ in deliveries(db)]
    assert len(keys) == len(set(keys)) == 52
    assert Counter(body for _, body in deliveries(db)).most_common(1)[0][1] == 1
    assert pockets_by_index(control) == board_hands(set_file, 4)


def test_without_an_operator_the_run_stops_before_dealing_and_exits_2(
        sim, control, set_file, tmp_path):
    done = tablescan("predeal", str(set_file), "--boards", "1", *shoe_args(sim),
                     "--db", str(tmp_path / "club.sqlite"), stdin="")
    assert done.returncode == 2
    assert "stdin ended" in done.stderr and "--yes" in done.stderr
    assert sum(len(cards) for cards in control.pockets().values()) == 0


def test_a_damaged_set_deals_nothing_and_exits_2(sim, tmp_path):
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Board "1"]\n[Deal "N:AKQ.. - - -"]\n', encoding="utf-8")
    done = tablescan("predeal", str(bad), *shoe_args(sim), "--db", str(tmp_path / "x.sqlite"))
    assert done.returncode == 2
    assert "bad.pbn" in done.stderr


def test_boards_not_in_the_set_are_named_and_exit_2(sim, set_file, tmp_path):
    done = tablescan("predeal", str(set_file), "--boards", "3-6", *shoe_args(sim),
                     "--db", str(tmp_path / "x.sqlite"))
    assert done.returncode == 2
    assert "[5, 6]" in done.stderr


def test_law_6d2_a_board_played_in_another_session_is_not_dealt(sim, control, set_file,
                                                                 tmp_path):
    db = tmp_path / "club.sqlite"
    board = next(b for b in read_boards(set_file) if b.number == 2)
    with EventLog(db, session="monday") as log:
        DealHistory(log).record(dict(zip(SEATS, board.complete_hands(), strict=True)),
                                "monday", "dealt", board=2)
    done = tablescan("predeal", str(set_file), "--boards", "2", *shoe_args(sim), "--db", str(db),
                     "--session", "tuesday", "--yes")
    assert done.returncode == 0, done.stderr
    copy, summary = json_lines(done.stdout)
    assert copy["status"] == "refused" and copy["rule"] == "Law 6D2"
    assert copy["history"]["sightings"][0]["session"] == "monday"
    assert "--allow-repeat" in copy["prompt"]
    assert summary["status"] == "refused"
    assert sum(len(cards) for cards in control.pockets().values()) == 0


def test_a_jam_stops_the_copy_and_the_same_command_resumes_it(sim, control, set_file, shoe_env,
                                                              tmp_path):
    args = ["predeal", str(set_file), "--boards", "3", *shoe_args(sim),
            "--db", str(tmp_path / "club.sqlite"), "--next-deck-cmd", LOAD_DECK]
    jammed = tablescan(*args, env={**shoe_env, "DECK_JAM": "feed"})
    assert jammed.returncode == 0, jammed.stderr
    copy = json_lines(jammed.stdout)[0]
    assert (copy["status"], copy["reason"], copy["resumable"]) == ("stopped", "jam", True)
    assert copy["prompt"].startswith("card 1: feed: jam")
    control.command("clearjam")

    resumed = tablescan(*args, env=shoe_env)

    assert resumed.returncode == 0, resumed.stderr
    assert json_lines(resumed.stdout)[0]["status"] == "dealt"
    assert pockets_by_index(control) == board_hands(set_file, 3)


def test_a_noisy_line_and_an_unplugged_cable_still_give_the_exact_board(
        sim, control, set_file, shoe_env, tmp_path):
    """Frames dropped and duplicated, and the cable out for a second mid-board: the driver
    resynchronises, every card is placed once, and the board is as the set says."""
    db = tmp_path / "club.sqlite"
    rates = FaultRates(drop_frame=0.03, duplicate_frame=0.03)
    with FaultProxy(sim.serial_url, rates, seed=5) as proxy:
        args = [sys.executable, "-m", "scanner", "predeal", str(set_file), "--boards", "1",
                "--shoe", proxy.url, "--camera", f"sim:{sim.control_address}",
                "--db", str(db), "--next-deck-cmd", LOAD_DECK]
        run = subprocess.Popen(args, env=shoe_env, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while len(deliveries(db)) < 15 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.05)
        proxy.outage(1.0)
        stdout, stderr = run.communicate(timeout=240)
    assert run.returncode == 0, stderr
    copy = json_lines(stdout)[0]
    assert copy["status"] == "dealt", (copy.get("reason"), copy.get("prompt"))
    assert proxy.counts.outages == 1 and copy["retransmits"] > 0
    keys = [key for key, _ in deliveries(db)]
    assert len(keys) == len(set(keys)) == 52
    assert pockets_by_index(control) == board_hands(set_file, 1)


def test_a_sealed_set_is_never_dealt_with_its_hands_shown(sim, tmp_path):
    sealed = tmp_path / "sealed.dlm"
    write_boards(sealed, generate(range(1, 3), seed="sealed"), SetInfo(sealed=True))
    done = tablescan("predeal", str(sealed), "--show-hands", *shoe_args(sim),
                     "--db", str(tmp_path / "x.sqlite"))
    assert done.returncode == 2
    assert "Sealed" in done.stderr


def test_a_camera_that_gives_no_frame_stops_at_the_card_rather_than_guess(
        sim, control, set_file, shoe_env, tmp_path):
    # A folder source with no image in it opens, and gives no frame at the first look.
    (tmp_path / "no-frames").mkdir()
    done = tablescan("predeal", str(set_file), "--boards", "2", "--shoe", sim.serial_url,
                     "--camera", str(tmp_path / "no-frames"), "--db", str(tmp_path / "x.sqlite"),
                     "--next-deck-cmd", LOAD_DECK, env=shoe_env)
    assert done.returncode == 0, done.stderr
    copy = json_lines(done.stdout)[0]
    assert (copy["status"], copy["reason"], copy["resumable"]) == ("stopped", "camera", True)
    assert copy["prompt"].startswith("card 1: the camera failed")
    assert control.station() is not None  # the card waits at the station, unread
    assert sum(len(cards) for cards in control.pockets().values()) == 0
