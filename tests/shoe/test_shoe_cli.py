"""`tablescan shoe-sim` and `tablescan deal-deck` as a user runs them."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from scanner.cli import main

TABLESCAN = [sys.executable, "-m", "scanner"]


@pytest.fixture
def shoe_sim(write_deck, bridge_deck):
    """`tablescan shoe-sim --deck FILE --motion 0` running; yields its announced JSON."""
    process = subprocess.Popen(
        [*TABLESCAN, "shoe-sim", "--deck", str(write_deck(bridge_deck(31))), "--motion", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    announced = json.loads(process.stdout.readline())
    yield announced
    process.terminate()
    process.wait(timeout=10)
    process.stdout.close()


def test_shoe_sim_announces_a_pyserial_url_and_a_camera(shoe_sim):
    assert shoe_sim["shoe"].startswith("socket://127.0.0.1:")
    assert shoe_sim["camera"].startswith("sim:127.0.0.1:")


def test_shoe_sim_with_a_bad_deck_line_exits_2_naming_the_line(tmp_path, capsys):
    deck = tmp_path / "deck.txt"
    deck.write_text("AS\nKD sideways\n", encoding="utf-8")
    assert main(["shoe-sim", "--deck", str(deck)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_deal_deck_deals_a_bridge_deck_and_prints_the_pockets(shoe_sim, tmp_path, bridge_deck):
    out = subprocess.run(
        [*TABLESCAN, "deal-deck", "--shoe", shoe_sim["shoe"], "--camera", shoe_sim["camera"],
         "--game", "bridge", "--dealer", "S", "--db", str(tmp_path / "deal.db")],
        capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert (result["status"], result["reason"], result["retransmits"]) == ("complete", "", 0)
    cards = bridge_deck(31)
    assert result["pockets"]["W"] == [str(c) for c in cards[0::4]]


def test_deal_deck_with_an_unknown_dealer_exits_2(capsys):
    code = main(["deal-deck", "--shoe", "loop://", "--camera", "sim:127.0.0.1:1",
                 "--game", "bridge", "--dealer", "X"])
    assert code == 2
    assert "'X'" in capsys.readouterr().err


def test_deal_deck_with_a_shoe_that_cannot_be_opened_exits_2_naming_it(tmp_path, capsys,
                                                                       shoe_sim):
    code = main(["deal-deck", "--shoe", "/dev/ttyNOPE", "--camera", shoe_sim["camera"],
                 "--game", "pinochle", "--dealer", "N", "--db", str(tmp_path / "d.db")])
    assert code == 2
    assert "/dev/ttyNOPE" in capsys.readouterr().err


def test_deal_deck_with_process_durability_logs_every_delivery(shoe_sim, tmp_path, bridge_deck):
    db = tmp_path / "deal.db"
    out = subprocess.run(
        [*TABLESCAN, "deal-deck", "--shoe", shoe_sim["shoe"], "--camera", shoe_sim["camera"],
         "--game", "bridge", "--dealer", "N", "--db", str(db), "--durability", "process"],
        capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["status"] == "complete"
    with sqlite3.connect(db) as conn:
        delivered = conn.execute(
            "SELECT count(*) FROM events WHERE type = 'card-delivered'").fetchone()[0]
    assert delivered == 52
