"""Reading the evidence: a deal log's dealing order (with redeals and undos) and a stated
prior order. The audit abstains, naming the line, rather than guess a card."""

from __future__ import annotations

import json

import pytest

from scanner.audit import AuditInputError, orders_from_log, prior_from_text
from scanner.audit.shuffles import NEW_DECK_ORDER
from scanner.cards import BRIDGE_52, PINOCHLE_48, SEATS


def _card_line(card, i):
    return {"card": None if card is None else str(card), "to": SEATS[(i + 1) % 4].value}


def _log(tmp_path, entries, game="bridge", packet=1):
    """``entries``: cards (None for unread), or event dicts such as {"type": "redeal"}."""
    lines = [json.dumps({"game": game, "dealer": "N", "packet": packet})]
    for i, entry in enumerate(entries):
        lines.append(json.dumps(entry if isinstance(entry, dict) else _card_line(entry, i)))
    path = tmp_path / "deal.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_dealing_order_is_the_order_of_deliveries_ignoring_markers(tmp_path):
    path = _log(tmp_path, [*NEW_DECK_ORDER, {"event": "auction-started"}])
    logged = orders_from_log(path)
    assert [deal.cards for deal in logged.deals] == [NEW_DECK_ORDER]
    assert logged.deals[0].scope == {"deal": 1, "file": str(path), "game": "bridge"}


def test_a_redeal_starts_a_new_dealing_and_the_cut_short_one_is_noted(tmp_path):
    entries = [*NEW_DECK_ORDER[:7], {"type": "redeal", "reason": "exposed card"},
               *NEW_DECK_ORDER[::-1]]
    logged = orders_from_log(_log(tmp_path, entries))
    assert [deal.cards for deal in logged.deals] == [NEW_DECK_ORDER[::-1]]
    assert logged.deals[0].scope["dealing"] == 2
    assert "cut short by a redeal after 7 cards" in logged.notes[0]


def test_two_complete_dealings_are_both_audited(tmp_path):
    entries = [*NEW_DECK_ORDER, {"type": "redeal"}, *NEW_DECK_ORDER[::-1]]
    logged = orders_from_log(_log(tmp_path, entries), first_deal=4)
    assert [deal.scope["deal"] for deal in logged.deals] == [4, 5]


def test_an_undo_takes_the_latest_delivery_back_out_of_the_order(tmp_path):
    entries = [*NEW_DECK_ORDER[:5], NEW_DECK_ORDER[40], {"type": "undo"}, *NEW_DECK_ORDER[5:]]
    assert orders_from_log(_log(tmp_path, entries)).deals[0].cards == NEW_DECK_ORDER


def test_an_undone_redeal_joins_the_dealing_back_together(tmp_path):
    entries = [*NEW_DECK_ORDER[:5], {"type": "redeal"}, {"type": "undo"}, *NEW_DECK_ORDER[5:]]
    logged = orders_from_log(_log(tmp_path, entries))
    assert [deal.cards for deal in logged.deals] == [NEW_DECK_ORDER]
    assert logged.notes == []


def test_an_unread_card_is_never_guessed(tmp_path):
    entries = [*NEW_DECK_ORDER[:51], None]
    with pytest.raises(AuditInputError, match=r"line 53: field 'card' is null"):
        orders_from_log(_log(tmp_path, entries))


def test_a_joker_makes_the_deal_wrong_not_auditable(tmp_path):
    entries = [*NEW_DECK_ORDER[:10], {"card": "joker", "to": "E"}, *NEW_DECK_ORDER[10:]]
    with pytest.raises(AuditInputError, match=r"line 12: .*joker"):
        orders_from_log(_log(tmp_path, entries))


def test_a_third_copy_of_a_pinochle_card_names_its_line(tmp_path):
    cards = PINOCHLE_48.cards()
    cards[5] = cards[0]
    with pytest.raises(AuditInputError, match=r"line 7: .*copy 3 of 2"):
        orders_from_log(_log(tmp_path, cards, "pinochle", 3))


def test_a_card_outside_the_pinochle_deck_names_its_line(tmp_path):
    cards = PINOCHLE_48.cards()
    cards[47] = BRIDGE_52.cards()[12]  # the two of spades
    with pytest.raises(AuditInputError, match=r"line 49: .*2S is not in the pinochle-48"):
        orders_from_log(_log(tmp_path, cards, "pinochle", 3))


def test_a_malformed_log_reports_the_readers_line_and_field(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"game": "bridge", "dealer": "N"}\n{"card": "AS", "to": "Q"}\n')
    with pytest.raises(AuditInputError, match=r"line 2: field 'to'"):
        orders_from_log(path)


def test_a_prior_order_accepts_commas_new_lines_comments_and_forgiving_tokens():
    text = "# gathered after board 3\n" + ", ".join(
        str(c).lower().replace("t", "10") for c in NEW_DECK_ORDER) + "\n"
    assert prior_from_text(text, BRIDGE_52, "prior.txt").cards == NEW_DECK_ORDER


def test_a_prior_order_with_a_card_twice_names_both_lines():
    text = " ".join(str(c) for c in NEW_DECK_ORDER[:26]) + "\n" + str(NEW_DECK_ORDER[0])
    with pytest.raises(AuditInputError, match=r"line 2: AS appears again \(first on line 1\)"):
        prior_from_text(text, BRIDGE_52, "prior.txt")
