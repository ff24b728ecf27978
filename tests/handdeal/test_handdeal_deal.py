"""A hand deal's draws become the shoe's events; a draw that cannot be taken stops and asks."""

from __future__ import annotations

import pytest

from scanner.cards import Seat, parse_card
from scanner.events import CardDelivered, CardExposed, CardRead, HandStarted, MachineFault
from scanner.handdeal.deal import OPERATOR_SOURCE, HandDeal
from scanner.handdeal.passes import CardPass
from scanner.log import EventLog
from scanner.pinochle.deal_rules import THE_DEAL
from scanner.shoe.station import StationStop

AS, KD, TWO = parse_card("AS"), parse_card("KD"), parse_card("2C")


def draw(card, face="up", others=(), frame=0):
    return CardPass(face, card, 1.0 if card else 0.3, tuple(others), frame, frame)


@pytest.fixture
def deal(tmp_path):
    log = EventLog(tmp_path / "log.db")
    names = {Seat.E: "Bob"}
    hand = HandDeal(log, HandStarted("pinochle", Seat.N, 3, session=log.session), names=names)
    hand.start()
    yield hand
    log.close()


def logged(deal):
    return deal.events()


def test_pinochle_cards_go_in_packets_of_three_clockwise_from_the_dealers_left(deal):
    assert deal.next_prompt() == "3 to Bob"
    deal.on_pass(draw(AS))
    assert deal.next_prompt() == "2 more to Bob"
    deal.on_pass(draw(KD))
    deal.on_pass(draw(parse_card("QH")))
    assert deal.next_prompt() == "3 to South"
    events = logged(deal)
    assert [type(e) for e in events] == [CardRead, CardDelivered] * 3
    assert {e.to for e in events if isinstance(e, CardDelivered)} == {Seat.E}


def test_bridge_cards_go_one_at_a_time_clockwise_from_the_dealers_left(tmp_path):
    with EventLog(tmp_path / "b.db") as log:
        deal = HandDeal(log, HandStarted("bridge", Seat.S, 1, session=log.session))
        deal.start()
        assert deal.next_prompt() == "1 to West"
        deal.on_pass(draw(AS))
        deal.on_pass(draw(KD))
        assert [e.to for e in deal.events() if isinstance(e, CardDelivered)] == [Seat.W, Seat.N]
        assert deal.next_prompt() == "1 to East"


def test_an_unreadable_card_stops_the_deal_asking_for_a_reread_and_delivers_nothing(deal):
    with pytest.raises(StationStop) as stop:
        deal.on_pass(draw(None))
    result = deal.result()
    assert stop.value.reason == "unreadable"
    assert (result["status"], result["rule"], result["evidence"]) == ("needs-reread", THE_DEAL,
                                                                      [0])
    assert result["prompt"].startswith("card 1 of 48: the camera could not read it")
    assert [type(e) for e in logged(deal)] == [CardRead, MachineFault]
    assert logged(deal)[1] == MachineFault("unreadable", result["prompt"], "stopped")
    assert deal.next_prompt().startswith("stop: card 1 of 48")


def test_after_a_double_draw_the_next_draw_is_taken_for_the_same_card(deal):
    with pytest.raises(StationStop):
        deal.on_pass(draw(KD, others=[AS]))
    deal.on_pass(draw(KD))
    assert deal.stop is None and deal.reads == 1
    assert [e.card for e in logged(deal) if isinstance(e, CardDelivered)] == [KD]


def test_the_operator_naming_an_unreadable_card_deals_it_on(deal):
    with pytest.raises(StationStop):
        deal.on_pass(draw(None))
    read = CardRead(AS, "up", 1.0, OPERATOR_SOURCE)
    deal.resolve(read, deal.log.append(read))
    assert deal.stop is None and deal.next_prompt() == "2 more to Bob"
    assert [(e.card, e.to) for e in logged(deal) if isinstance(e, CardDelivered)] == [
        (AS, Seat.E)]


def test_a_duplicate_is_not_put_right_by_drawing_again(deal):
    deal.on_pass(draw(AS))
    deal.on_pass(draw(AS))
    with pytest.raises(StationStop):
        deal.on_pass(draw(AS))
    with pytest.raises(StationStop):
        deal.on_pass(draw(KD))


def test_a_back_at_the_shoe_stops_the_deal_asking_to_turn_the_card(deal):
    with pytest.raises(StationStop) as stop:
        deal.on_pass(draw(None, face="down"))
    assert stop.value.reason == "face-down"
    assert "wrong way round" in stop.value.prompt


def test_a_double_draw_stops_the_deal_naming_both_cards(deal):
    deal.on_pass(draw(AS))
    with pytest.raises(StationStop) as stop:
        deal.on_pass(draw(KD, others=[AS]))
    assert stop.value.reason == "double-draw"
    assert "card 2 of 48: two cards left the shoe in one draw (KD and AS)" in stop.value.prompt
    assert deal.result()["status"] == "needs-reread"


def test_a_card_dealt_more_often_than_the_deck_holds_it_stops_for_the_director(deal):
    deal.on_pass(draw(AS))
    deal.on_pass(draw(AS))
    with pytest.raises(StationStop) as stop:
        deal.on_pass(draw(AS))
    result = deal.result()
    assert stop.value.reason == "duplicate"
    assert (result["status"], result["rule"]) == ("redeal-same-dealer", THE_DEAL)


def test_a_card_of_another_deck_stops_the_deal(deal):
    with pytest.raises(StationStop) as stop:
        deal.on_pass(draw(TWO))
    assert stop.value.reason == "foreign"


def test_with_a_table_camera_cards_go_where_they_land_and_a_face_up_landing_is_exposed(
        tmp_path):
    with EventLog(tmp_path / "t.db") as log:
        deal = HandDeal(log, HandStarted("pinochle", Seat.N, 3, session=log.session),
                        table_camera=True)
        deal.start()
        deal.on_pass(draw(AS, frame=1))
        deal.on_pass(draw(KD, frame=5))
        deal.on_arrival(Seat.W, [AS], since=3)  # only AS was read before W's zone moved
        deal.on_arrival(Seat.W, [], since=7)
        deal.on_arrival(Seat.S, [parse_card("QH")], since=9)  # a face seen, no draw
        delivered = [e for e in deal.events() if isinstance(e, CardDelivered)]
        assert [(e.card, e.to, e.exposed) for e in delivered] == [(AS, Seat.W, True),
                                                                  (KD, Seat.W, False)]
        assert [e for e in deal.events() if isinstance(e, CardExposed)] == [
            CardExposed(parse_card("QH"), Seat.S)]
        assert deal.result()["counts"] == {"N": 0, "E": 0, "S": 0, "W": 2}


def test_meld_with_a_card_not_dealt_to_that_seat_goes_to_the_director(tmp_path):
    with EventLog(tmp_path / "m.db") as log:
        deal = HandDeal(log, HandStarted("pinochle", Seat.N, 3, session=log.session),
                        table_camera=True)
        deal.start()
        deal.on_pass(draw(AS, frame=1))
        deal.on_arrival(Seat.E, [], since=2)
        deal.end_of_bidding()
        deal.on_arrival(Seat.E, [AS, KD])
        result = deal.result()
        assert (result["status"], result["rule"]) == ("director", THE_DEAL)
        assert "E shows KD in meld, not dealt to that seat" in result["reason"]
        assert result["meld"][0]["not_dealt"] == ["KD"]


def counted_only(log) -> HandDeal:
    """A deal watched by the table camera alone: no reading shoe names the cards."""
    hand = HandDeal(log, HandStarted("pinochle", Seat.N, 3, session=log.session),
                    table_camera=True, reading_shoe=False)
    hand.start()
    return hand


def deal_face_down(hand: HandDeal, seats) -> None:
    for seat in seats:
        hand.on_arrival(seat, ())


PACKETS = [s for _ in range(4) for s in Seat.N.left.clockwise_from() for _ in range(3)]


def test_without_a_reading_shoe_twelve_counted_at_each_seat_is_a_right_deal(tmp_path):
    with EventLog(tmp_path / "t.db") as log:
        hand = counted_only(log)
        assert hand.next_prompt() == "3 to East"
        deal_face_down(hand, PACKETS)
        result = hand.result()
    assert (result["status"], result["rule"]) == ("ok", THE_DEAL)
    assert "48 cards counted face down, 12 to each hand" in result["reason"]
    assert result["counts"] == {"N": 12, "E": 12, "S": 12, "W": 12}


def test_without_a_reading_shoe_a_seat_short_and_one_long_is_a_redeal(tmp_path):
    with EventLog(tmp_path / "t.db") as log:
        hand = counted_only(log)
        seats = list(PACKETS)
        seats[16] = Seat.E  # South's card goes to East
        deal_face_down(hand, seats)
        result = hand.result()
    assert (result["status"], result["rule"]) == ("redeal-same-dealer", THE_DEAL)
    assert any("E has 13, S has 11" in f["reason"] for f in result["findings"])


def test_without_a_reading_shoe_a_card_landing_face_up_is_read_and_an_exposure(tmp_path):
    with EventLog(tmp_path / "t.db") as log:
        hand = counted_only(log)
        deal_face_down(hand, PACKETS[:5])
        hand.on_arrival(PACKETS[5], [AS])
        deal_face_down(hand, PACKETS[6:])
        result = hand.result()
    assert (result["status"], result["rule"]) == ("redeal-same-dealer", THE_DEAL)
    assert "AS to S was dealt face up" in result["reason"]


def test_without_a_reading_shoe_meld_is_scored_but_not_checked_against_an_unread_hand(
        tmp_path):
    with EventLog(tmp_path / "t.db") as log:
        hand = counted_only(log)
        deal_face_down(hand, PACKETS)
        hand.end_of_bidding()
        hand.on_arrival(Seat.S, [parse_card("QS"), parse_card("JD")])
        result = hand.result()
    assert result["status"] == "ok"
    [meld] = result["meld"]
    assert (meld["seat"], meld["points"], meld["not_dealt"], meld["hand_known"]) == (
        "S", 4, [], False)


def test_a_meld_face_the_reader_cannot_name_is_logged_unread_never_guessed(deal):
    for card in ("QS", "JD", "KS"):
        deal.on_pass(draw(parse_card(card)))
    deal.end_of_bidding()
    deal.on_arrival(Seat.E, [parse_card("QS"), None])
    [meld] = deal.result()["meld"]
    assert (meld["cards"], meld["unread"], meld["not_dealt"]) == (["QS"], 1, [])
    shown = [e for e in deal.events() if isinstance(e, CardExposed)]
    assert [(e.card, e.seat) for e in shown] == [(parse_card("QS"), Seat.E), (None, Seat.E)]


def test_a_card_still_lying_face_up_is_no_new_exposure_when_its_twin_lands_on_it(tmp_path):
    kc = parse_card("KC")
    with EventLog(tmp_path / "t.db") as log:
        hand = HandDeal(log, HandStarted("pinochle", Seat.N, 3, session=log.session),
                        table_camera=True)
        hand.start()
        hand.on_pass(draw(kc, frame=1))
        hand.on_arrival(Seat.E, [kc], since=2)  # the first king of clubs lands face up
        hand.on_pass(draw(kc, frame=3))
        hand.on_arrival(Seat.E, [kc], since=4)  # its twin lands face down; the first shows
        delivered = [(e.card, e.exposed) for e in hand.events() if isinstance(e, CardDelivered)]
    assert delivered == [(kc, True), (kc, False)]
