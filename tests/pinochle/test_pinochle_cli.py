"""`tablescan meld` and `tablescan auction`: JSON on stdout, exit 2 naming what was wrong."""

import json

import pytest
from pinochle_hands import WORKED_EXAMPLE

from scanner.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def test_meld_prints_trump_total_and_each_meld_with_its_cards(capsys):
    code, out, _ = run(capsys, "meld", "--trump", "D", *WORKED_EXAMPLE.split())
    assert code == 0
    assert out == {"trump": "D", "total": 47, "melds": [
        {"name": "run", "points": 15, "cards": ["AD", "TD", "KD", "QD", "JD"]},
        {"name": "spade marriage", "points": 2, "cards": ["KS", "QS"]},
        {"name": "double pinochle", "points": 30, "cards": ["QS", "QS", "JD", "JD"]}]}


def test_meld_accepts_forgiving_card_notation(capsys):
    tokens = WORKED_EXAMPLE.replace("TD", "10♦").replace("TS", "10s").split()
    assert run(capsys, "meld", "--trump", "H", *tokens)[1]["total"] == 34


def test_meld_with_a_malformed_card_exits_2_naming_the_card(capsys):
    tokens = WORKED_EXAMPLE.split()
    tokens[4] = "XD"
    code, out, err = run(capsys, "meld", "--trump", "D", *tokens)
    assert (code, out) == (2, None)
    assert "card 5 ('XD')" in err


def test_meld_with_a_card_outside_the_deck_exits_2(capsys):
    tokens = WORKED_EXAMPLE.split()
    tokens[-1] = "8S"
    code, _, err = run(capsys, "meld", "--trump", "D", *tokens)
    assert code == 2
    assert "card 12 ('8S')" in err and "not a pinochle card" in err


def test_meld_needs_twelve_cards(capsys):
    code, _, err = run(capsys, "meld", "--trump", "D", "AS", "KS")
    assert code == 2
    assert "12 cards, got 2" in err


def test_meld_with_an_unknown_trump_exits_2_naming_the_option(capsys):
    code, _, err = run(capsys, "meld", "--trump", "X", *WORKED_EXAMPLE.split())
    assert code == 2
    assert "--trump" in err


def test_auction_prints_declarer_contract_next_and_history(capsys):
    code, out, _ = run(capsys, "auction", "--dealer", "N", "20", "21", "pass", "22", "pass",
                       "pass")
    assert code == 0
    assert out == {"finished": True, "declarer": "N", "contract": 22, "next": None,
                   "history": [{"seat": "E", "call": 20}, {"seat": "S", "call": 21},
                               {"seat": "W", "call": "pass"}, {"seat": "N", "call": 22},
                               {"seat": "E", "call": "pass"}, {"seat": "S", "call": "pass"}]}


def test_auction_sticks_the_dealer(capsys):
    _, out, _ = run(capsys, "auction", "--dealer", "W", "pass", "pass", "pass")
    assert (out["finished"], out["declarer"], out["contract"]) == (True, "W", 20)


def test_an_unfinished_auction_says_whose_turn_it_is(capsys):
    _, out, _ = run(capsys, "auction", "--dealer", "S", "20")
    assert (out["finished"], out["next"]) == (False, "N")


@pytest.mark.parametrize(("calls", "named"), [
    (["19"], "call 1 (E 19)"),
    (["20", "20"], "call 2 (S 20)"),
    (["pass", "pass", "pass", "21"], "call 4 (N 21)"),
    (["20", "2x"], "call 2 ('2x')"),
])
def test_an_illegal_call_exits_2_naming_the_call_and_the_rule(capsys, calls, named):
    code, out, err = run(capsys, "auction", "--dealer", "N", *calls)
    assert (code, out) == (2, None)
    assert named in err
    assert "Setup & Deal: Auction" in err


def test_an_unknown_dealer_seat_exits_2_naming_the_field(capsys):
    code, _, err = run(capsys, "auction", "--dealer", "X", "20")
    assert code == 2
    assert "--dealer" in err and "'X'" in err
