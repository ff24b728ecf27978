"""Verification from the shoe (Law 6F): each board's hands fed back hand by hand, read by the
virtual camera, returned to their pockets, and compared with the record."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from predeal_support import LOAD_HAND, json_lines, shoe_args, tablescan

from scanner.bridge.formats import read_boards
from scanner.bridge.shoe_source import ShoeReadback, verify_through_shoe
from scanner.cards import SEATS, Seat
from scanner.events import BoardResult
from scanner.log import EventLog
from scanner.shoe.driver import Shoe
from scanner.shoe.station import StationStop
from scanner.shoe.virtual_camera import VirtualCamera


def hands_of(set_file: Path, number: int) -> dict[str, list[str]]:
    board = next(b for b in read_boards(set_file) if b.number == number)
    return {seat.value: [str(c) for c in hand]
            for seat, hand in zip(SEATS, board.complete_hands(), strict=True)}


@pytest.fixture
def boards_as_returned(set_file, tmp_path) -> Path:
    """Board 1 exact; board 2 with a card of N's put back in E's pocket; board 3 holding
    board 2's deal (the machine crashed mid-deal and every later board slipped by one)."""
    exact, short = hands_of(set_file, 1), hands_of(set_file, 2)
    shifted = hands_of(set_file, 2)
    short["E"].append(short["N"].pop())
    path = tmp_path / "hands.json"
    path.write_text(json.dumps({"1": exact, "2": short, "3": shifted}), encoding="utf-8")
    return path


def test_law_6f_each_board_read_back_gets_its_status_and_evidence(
        sim, control, set_file, shoe_env, boards_as_returned, tmp_path):
    db = tmp_path / "club.sqlite"
    done = tablescan("verify", str(set_file), "--boards", "1-3", *shoe_args(sim),
                     "--db", str(db), "--session", "tuesday", "--next-hand-cmd", LOAD_HAND,
                     env={**shoe_env, "HANDS_FILE": str(boards_as_returned)})
    assert done.returncode == 0, done.stderr
    (report,) = json_lines(done.stdout)
    status = {row["board"]: row for row in report["boards"]}
    assert status[1]["status"] == "match"
    assert status[2]["status"] == "differs"
    assert status[2]["laws"] == ["Law 6F", "Law 7B1"]
    assert status[2]["differences"][0]["text"] == "14–12: E holds 14 cards, N holds 12"
    assert (status[3]["status"], status[3]["matches"]) == ("repeat-of-previous", 2)
    assert report["stopped"] is None
    with sqlite3.connect(db) as conn:
        verified = conn.execute("SELECT board, session FROM deals WHERE source = 'verified'"
                                ).fetchall()
    assert verified == [(1, "tuesday")]
    # Each hand went back into its own pocket: board 1's hands lie first in the four pockets.
    returned = {seat: sorted(cards[:13]) for seat, cards in control.pockets().items()}
    assert returned == {seat: sorted(cards) for seat, cards in hands_of(set_file, 1).items()}


def test_an_unreadable_card_stops_the_reading_rather_than_guess(sim, control, set_file,
                                                               tmp_path):
    hand = tmp_path / "hand.txt"
    hand.write_text("AS\nKS down\nQS\n", encoding="utf-8")
    shoe = Shoe(sim.serial_url)
    shoe.connect()
    camera = VirtualCamera(sim.control_address)
    record = next(iter(read_boards(set_file)))
    try:
        with EventLog(tmp_path / "club.sqlite") as log:
            readback = ShoeReadback(shoe, camera, log,
                                    lambda board, seat: control.command(f"deck {hand}"))
            with pytest.raises(StationStop) as stop:
                verify_through_shoe(readback, [record], [record.number])
            logged = [event for _, event in log.replay() if isinstance(event, BoardResult)]
    finally:
        shoe.close()
        camera.close()
    assert stop.value.seat is Seat.N
    assert stop.value.reason == "face-down"
    assert stop.value.prompt.startswith(f"board {record.number}, hand N, card 2: ")
    assert readback.observed(record.number) is None
    assert [(e.board, e.status, e.detail) for e in logged] == [
        (record.number, "stopped", stop.value.prompt)]  # the page shows the stop


def test_shoe_without_camera_is_unusable_input(sim, set_file):
    done = tablescan("verify", str(set_file), "--shoe", sim.serial_url, "--yes")
    assert done.returncode == 2
    assert "--camera" in done.stderr


def test_observed_file_and_shoe_together_are_unusable_input(sim, set_file):
    done = tablescan("verify", str(set_file), "--observed", str(set_file), *shoe_args(sim))
    assert done.returncode == 2
    assert "--observed FILE, or --shoe URL --camera SRC" in done.stderr
