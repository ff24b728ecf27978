"""The operator confirms or corrects a card the table camera read: logged first, then counted.

A read is named by its place in the hand (0 is the first event after the hand-started); the
operator's card stands in for the camera's wherever the hand is folded, while the read itself
stays in the log as the camera saw it.
"""

from __future__ import annotations

import pytest

from scanner.cards import Seat, parse_card
from scanner.events import (
    CardDelivered,
    CardExposed,
    HandStarted,
    Marker,
    ReadChecked,
)
from scanner.handdeal.deal import HandDeal
from scanner.handdeal.game import HandDealGame
from scanner.handdeal.passes import CardPass
from scanner.live import ActionRefused, MalformedAction
from scanner.log import EventLog

QS, JD, KD, KS = (parse_card(c) for c in ("QS", "JD", "KD", "KS"))
GAME = HandDealGame()


def folded(*events):
    state = GAME.initial()
    for event in (HandStarted("pinochle", Seat.N, 3), *events):
        state = GAME.apply(state, event)
    return state


def then(state, action, **params):
    """The operator's action, folded in as the live table would after logging it."""
    for event in GAME.command(state, action, params):
        state = GAME.apply(state, event)
    return state


def meld_of(state, seat):
    view = GAME.snapshot(state)
    return next(m for m in view["meld"] if m["seat"] == seat.value)


# QS and JD dealt to East; after the auction East lays down QS and a face nobody could name.
MELD_WITH_AN_UNREAD_CARD = (CardDelivered(QS, Seat.E), CardDelivered(JD, Seat.E),
                            Marker("bidding-ended"), CardExposed(QS, Seat.E),
                            CardExposed(None, Seat.E))
UNREAD_SLOT = 4


def test_a_meld_card_the_operator_names_is_scored_in_the_meld_and_no_longer_unread():
    state = folded(*MELD_WITH_AN_UNREAD_CARD)
    assert meld_of(state, Seat.E)["unread"] == 1
    assert meld_of(state, Seat.E)["points"] == 0

    state = then(state, "check-read", slot=UNREAD_SLOT, card="JD")

    meld = meld_of(state, Seat.E)
    assert meld["cards"] == ["QS", "JD"] and meld["unread"] == 0
    assert meld["points"] == 4  # pinochle: QS with JD
    assert meld["not_dealt"] == []


def test_the_check_is_logged_as_an_event_naming_the_read_and_the_card():
    state = folded(*MELD_WITH_AN_UNREAD_CARD)
    assert GAME.command(state, "check-read", {"slot": UNREAD_SLOT, "card": "jd"}) == [
        ReadChecked(UNREAD_SLOT, JD)]


def test_the_page_lists_each_table_read_and_whether_the_operator_confirmed_or_corrected_it():
    state = folded(*MELD_WITH_AN_UNREAD_CARD)
    reads = GAME.snapshot(state)["reads"]
    assert [(r["slot"], r["kind"], r["read"], r["checked"]) for r in reads] == [
        (3, "meld", "QS", ""), (4, "meld", None, "")]

    state = then(state, "check-read", slot=3, card="QS")
    state = then(state, "check-read", slot=4, card="JD")

    reads = GAME.snapshot(state)["reads"]
    assert [(r["read"], r["card"], r["checked"]) for r in reads] == [
        ("QS", "QS", "confirmed"), (None, "JD", "corrected")]


def test_a_meld_card_corrected_to_one_not_dealt_to_that_seat_is_flagged():
    state = then(folded(*MELD_WITH_AN_UNREAD_CARD), "check-read", slot=UNREAD_SLOT, card="KD")
    assert meld_of(state, Seat.E)["not_dealt"] == ["KD"]


def test_an_exposure_corrected_on_the_page_is_listed_with_the_operators_card():
    state = folded(CardExposed(KD, Seat.W))
    state = then(state, "check-read", slot=0, card="KS")
    view = GAME.snapshot(state)
    assert [(x["slot"], x["card"]) for x in view["exposures"]] == [(0, "KS")]
    assert view["reads"][0]["read"] == "KD" and view["reads"][0]["checked"] == "corrected"


def test_the_latest_check_of_a_read_is_the_one_that_counts():
    state = folded(*MELD_WITH_AN_UNREAD_CARD)
    state = then(state, "check-read", slot=UNREAD_SLOT, card="KD")
    state = then(state, "check-read", slot=UNREAD_SLOT, card="JD")
    assert meld_of(state, Seat.E)["cards"] == ["QS", "JD"]


@pytest.mark.parametrize(("params", "why"), [
    ({"slot": UNREAD_SLOT, "card": "ZZ"}, "'card'"),
    ({"slot": UNREAD_SLOT, "card": "2C"}, "not a card of the pinochle"),
    ({"slot": UNREAD_SLOT}, "'card' must be given as text"),
    ({"slot": 99, "card": "JD"}, "no card was read from the table at 99"),
    ({"slot": -1, "card": "JD"}, "no card was read from the table at -1"),
    ({"slot": 0, "card": "JD"}, "no card was read from the table at 0"),  # a face-down delivery
    ({"slot": "4", "card": "JD"}, "'slot' must be a whole number"),
    ({"slot": True, "card": "JD"}, "'slot' must be a whole number"),
])
def test_a_bad_check_is_refused_naming_what_is_wrong(params, why):
    with pytest.raises(MalformedAction, match=why):
        GAME.command(folded(*MELD_WITH_AN_UNREAD_CARD), "check-read", params)


def test_there_is_no_read_to_check_before_a_hand_has_started():
    with pytest.raises(ActionRefused, match="no hand has started"):
        GAME.command(GAME.initial(), "check-read", {"slot": 0, "card": "JD"})


def test_the_watchers_ruling_counts_a_face_up_landing_as_the_operator_corrected_it(tmp_path):
    with EventLog(tmp_path / "log.db") as log:
        deal = HandDeal(log, HandStarted("pinochle", Seat.N, 3, session=log.session),
                        table_camera=True, reading_shoe=False)
        deal.start()
        deal.on_arrival(Seat.E, [KD])  # only the table camera: a face up tells which card
        slot = next(i for i, e in enumerate(deal.events())
                    if isinstance(e, CardDelivered) and e.exposed)
        log.append(ReadChecked(slot, KS))
        assert deal.ruling().hands[Seat.E] == [KS]
        assert [e.card for e in deal.events() if isinstance(e, CardDelivered)] == [KD]



def test_the_watchers_meld_counts_a_meld_card_the_operator_named(tmp_path):
    with EventLog(tmp_path / "log.db") as log:
        deal = HandDeal(log, HandStarted("pinochle", Seat.N, 3, session=log.session))
        deal.start()
        for card in (QS, JD, KS):
            deal.on_pass(CardPass("up", card, 1.0, (), 0, 0))  # all three to East
        deal.end_of_bidding()
        deal.on_meld(Seat.E, [QS, None])
        assert deal.result()["meld"][0]["unread"] == 1
        slot = next(i for i, e in enumerate(deal.events())
                    if isinstance(e, CardExposed) and e.card is None)
        log.append(ReadChecked(slot, JD))
        [meld] = deal.result()["meld"]
        assert (meld["cards"], meld["unread"], meld["points"]) == (["QS", "JD"], 0, 4)
