"""`tablescan audit FILE…` end to end: JSON on stdout, one line per test on stderr, exit 2
naming the line or board when the evidence cannot be used."""

from __future__ import annotations

import json
import random

import pytest
from audit_helpers import diamond_anecdote_set, random_deal, random_deck

from scanner.audit.shuffles import NEW_DECK_ORDER
from scanner.bridge.board import Board
from scanner.bridge.formats import write_boards
from scanner.bridge.formats.reading import SetInfo
from scanner.cards import BRIDGE_52, PINOCHLE_48, SEATS
from scanner.cli import main


def _write_log(path, cards, game="bridge", packet=1, unread_at=None):
    lines = [json.dumps({"game": game, "dealer": "N", "packet": packet})]
    for i, card in enumerate(cards):
        seat = SEATS[(i // packet + 1) % 4].value
        token = None if i == unread_at else str(card)
        lines.append(json.dumps({"card": token, "to": seat, "exposed": False}))
    lines.append(json.dumps({"event": "auction-started"}))
    path.write_text("\n".join(lines) + "\n")
    return path


def _write_set(path, deals):
    boards = [Board.standard(n, tuple(tuple(h) for h in hands))
              for n, hands in enumerate(deals, start=1)]
    write_boards(path, boards)
    return path


def _run(capsys, *argv):
    code = main(["audit", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def test_an_unshuffled_new_pack_log_alarms_with_rule_statistics_and_stated_rate(tmp_path,
                                                                                 capsys):
    code, report, err = _run(capsys, _write_log(tmp_path / "deal.jsonl", NEW_DECK_ORDER))
    assert code == 0
    assert report["alarm"] is True
    assert report["false_alarm_rate"] == 0.001
    assert all({"name", "statistic", "p_value", "alarm"} <= set(t) for t in report["tests"])
    assert sum(t["level"] for t in report["tests"]) == pytest.approx(0.001)
    assert "Law 6D2" in report["verdict"]["rule"]
    assert "ALARM new-pack-suit-rising-sequences" in err


def test_a_shuffled_log_is_quiet_and_exits_zero(tmp_path, capsys):
    deck = random_deck(random.Random(1))
    code, report, _ = _run(capsys, _write_log(tmp_path / "deal.jsonl", deck))
    assert code == 0
    assert report["alarm"] is False
    assert "verdict" not in report


def test_a_stated_prior_file_adds_rising_sequences_and_successor_pairs(tmp_path, capsys):
    prior = tmp_path / "gathered.txt"
    prior.write_text("# the previous hand, as gathered\n"
                     + "\n".join(" ".join(str(c) for c in NEW_DECK_ORDER[i:i + 13])
                                 for i in range(0, 52, 13)) + "\n")
    log = _write_log(tmp_path / "deal.jsonl", NEW_DECK_ORDER)
    code, report, _ = _run(capsys, log, "--prior", prior)
    assert code == 0
    names = [t["name"] for t in report["tests"]]
    assert names[:2] == ["rising-sequences", "successor-pairs"]
    assert report["tests"][0]["detail"]["rising_sequences"] == 1


def test_several_logs_share_one_false_alarm_rate(tmp_path, capsys):
    rng = random.Random(2)
    logs = [_write_log(tmp_path / f"d{i}.jsonl", random_deck(rng)) for i in range(3)]
    code, report, _ = _run(capsys, *logs, "--false-alarm-rate", "0.01")
    assert code == 0
    assert len(report["tests"]) == 9
    assert sum(t["level"] for t in report["tests"]) == pytest.approx(0.01)
    assert [t["deal"] for t in report["tests"]] == [1, 1, 1, 2, 2, 2, 3, 3, 3]


def test_a_pinochle_log_runs_the_identical_card_test(tmp_path, capsys):
    log = _write_log(tmp_path / "p.jsonl", PINOCHLE_48.cards(), "pinochle", 3)
    code, report, _ = _run(capsys, log)
    assert code == 0
    assert report["alarm"] is True
    assert "identical-card-neighbours" in [t["name"] for t in report["tests"]]


def test_a_set_of_boards_is_audited_by_hand_shape(tmp_path, capsys):
    pbn = _write_set(tmp_path / "set.pbn", diamond_anecdote_set(random.Random(3)))
    code, report, _ = _run(capsys, pbn)
    assert code == 0
    assert report["alarm"] is True
    fits = next(t for t in report["tests"] if t["name"] == "session-big-fits")
    assert fits["alarm"] and len(fits["detail"]["boards_with_10_card_fit"]) >= 13


def test_a_sealed_set_keeps_its_per_board_figures_hidden(tmp_path, capsys):
    rng = random.Random(4)
    boards = [Board.standard(n, tuple(tuple(h) for h in random_deal(rng)))
              for n in range(1, 17)]
    write_boards(tmp_path / "sealed.dlm", boards, SetInfo(sealed=True))
    code, report, _ = _run(capsys, tmp_path / "sealed.dlm")
    assert code == 0
    assert all(t["detail"] == {} for t in report["tests"])


def test_an_unread_card_stops_the_audit_naming_the_line(tmp_path, capsys):
    log = _write_log(tmp_path / "deal.jsonl", BRIDGE_52.cards(), unread_at=9)
    code, report, err = _run(capsys, log)
    assert code == 2
    assert report is None
    assert "line 11" in err and "null" in err


def test_a_log_missing_a_card_stops_the_audit_naming_the_card(tmp_path, capsys):
    log = _write_log(tmp_path / "deal.jsonl", BRIDGE_52.cards()[:-1])
    code, _, err = _run(capsys, log)
    assert code == 2
    assert "51 cards" in err and "2C" in err


def test_a_card_dealt_twice_stops_the_audit_naming_the_line(tmp_path, capsys):
    cards = BRIDGE_52.cards()
    cards[30] = cards[2]
    code, _, err = _run(capsys, _write_log(tmp_path / "deal.jsonl", cards))
    assert code == 2
    assert "line 32" in err and str(cards[2]) in err


def test_a_prior_file_with_a_bad_token_names_its_line(tmp_path, capsys):
    prior = tmp_path / "prior.txt"
    prior.write_text("AS KS\nQS XX\n")
    log = _write_log(tmp_path / "deal.jsonl", NEW_DECK_ORDER)
    code, _, err = _run(capsys, log, "--prior", prior)
    assert code == 2
    assert "line 2" in err and "XX" in err


def test_a_prior_file_that_is_not_the_whole_deck_is_refused(tmp_path, capsys):
    prior = tmp_path / "prior.txt"
    prior.write_text(" ".join(str(c) for c in NEW_DECK_ORDER[:50]))
    code, _, err = _run(capsys, _write_log(tmp_path / "d.jsonl", NEW_DECK_ORDER), "--prior",
                        prior)
    assert code == 2
    assert "50 cards" in err


def test_a_damaged_set_exits_2_naming_the_board_and_the_good_ones(tmp_path, capsys):
    pbn = _write_set(tmp_path / "set.pbn", [random_deal(random.Random(5)) for _ in range(3)])
    pbn.write_text(_break_board_two(pbn.read_text()))
    code, report, err = _run(capsys, pbn)
    assert code == 2
    assert "board 2" in err
    assert report["good_boards"] == [1, 3]


def _break_board_two(text: str) -> str:
    """Drop one card from board 2's North hand: a 51-card deal."""
    head, board_two = text.split('[Board "2"]', 1)
    start = board_two.index('[Deal "') + len('[Deal "N:')
    return head + '[Board "2"]' + board_two[:start] + board_two[start + 1:]


def test_mixing_a_log_and_a_set_is_refused(tmp_path, capsys):
    log = _write_log(tmp_path / "d.jsonl", NEW_DECK_ORDER)
    pbn = _write_set(tmp_path / "s.pbn", [random_deal(random.Random(6))])
    code, _, err = _run(capsys, log, pbn)
    assert code == 2
    assert "not both" in err


def test_a_false_alarm_rate_outside_zero_and_one_is_refused(tmp_path, capsys):
    code, _, err = _run(capsys, _write_log(tmp_path / "d.jsonl", NEW_DECK_ORDER),
                        "--false-alarm-rate", "1.5")
    assert code == 2
    assert "--false-alarm-rate" in err


def test_a_missing_file_exits_2_naming_it(tmp_path, capsys):
    code, _, err = _run(capsys, tmp_path / "nowhere.jsonl")
    assert code == 2
    assert "nowhere.jsonl" in err


def test_a_redeal_in_the_log_is_noted_and_the_complete_dealing_audited(tmp_path, capsys):
    log = _write_log(tmp_path / "d.jsonl", NEW_DECK_ORDER)
    header, *events = log.read_text().splitlines()
    redeal = json.dumps({"type": "redeal", "reason": "card exposed"})
    log.write_text("\n".join([header, *events[:5], redeal, *events]) + "\n")
    code, report, _ = _run(capsys, log)
    assert code == 0
    assert "cut short by a redeal after 5 cards" in report["notes"][0]
    assert {t["dealing"] for t in report["tests"]} == {2}


def test_logs_of_two_games_are_refused(tmp_path, capsys):
    bridge = _write_log(tmp_path / "b.jsonl", NEW_DECK_ORDER)
    pinochle = _write_log(tmp_path / "p.jsonl", PINOCHLE_48.cards(), "pinochle", 3)
    code, _, err = _run(capsys, bridge, pinochle)
    assert code == 2
    assert "mix decks" in err
