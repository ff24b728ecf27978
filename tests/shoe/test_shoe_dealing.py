"""The dealing loop against the Python simulator and its virtual camera: the deal order, the
stops that never guess, and resuming at the exact card."""

from __future__ import annotations

import pytest
from shoe_hooks import before_route

from scanner.cards import PINOCHLE_48, Seat, parse_card
from scanner.events import CardDelivered, CardRead
from scanner.log import EventLog
from scanner.shoe.deal_plan import LiveDeal, PlanRefusal, TargetDeal
from scanner.shoe.simulator import Simulator
from scanner.shoe.virtual_deck import DeckCard


def deck_of(cards, down=()):
    return [DeckCard(c, "down" if i in down else "up") for i, c in enumerate(cards)]


@pytest.fixture
def simulator():
    started = []

    def start(cards, down=(), motion_s=0.0):
        sim = Simulator(deck_of(cards, down), motion_s=motion_s).start()
        started.append(sim)
        return sim

    yield start
    for sim in started:
        sim.stop()


def truth(sim):
    return {p: [str(c.card) for c in cards] for p, cards in sim.model.pockets.items()}


def test_bridge_deals_one_card_at_a_time_clockwise_from_the_dealers_left(
        simulator, run_deal, bridge_deck, logged_deliveries):
    cards = bridge_deck(11)
    sim = simulator(cards)
    result = run_deal(sim.serial_url, sim.control_address, "bridge", "N")
    assert result.status == "complete"
    for i, seat in enumerate("ESWN"):
        assert result.pockets[seat] == [str(c) for c in cards[i::4]]
    assert logged_deliveries() == truth(sim) == result.pockets


def test_pinochle_deals_packets_of_three_from_the_dealers_left(
        simulator, run_deal, pinochle_deck):
    cards = pinochle_deck(5)
    sim = simulator(cards)
    result = run_deal(sim.serial_url, sim.control_address, "pinochle", "W")
    assert result.status == "complete"
    assert result.pockets["N"][:3] == [str(c) for c in cards[0:3]]
    assert result.pockets["E"][:3] == [str(c) for c in cards[3:6]]
    assert truth(sim) == result.pockets


def test_a_face_down_card_stops_the_deal_at_its_position_without_guessing(
        simulator, run_deal, bridge_deck, tmp_path):
    sim = simulator(bridge_deck(3), down=(9,))
    result = run_deal(sim.serial_url, sim.control_address)
    assert (result.status, result.reason, result.position) == ("stopped", "face-down", 9)
    assert "card 10 of 52" in result.prompt and "face down" in result.prompt
    with EventLog(tmp_path / "deal.db") as log:
        reads = [e for _, e in log.replay() if isinstance(e, CardRead)]
    assert (reads[-1].card, reads[-1].face) == (None, "down")


def test_a_duplicate_card_stops_the_deal_citing_law_6d1(simulator, run_deal, bridge_deck):
    cards = bridge_deck(4)
    cards[20] = cards[3]
    sim = simulator(cards)
    result = run_deal(sim.serial_url, sim.control_address)
    assert (result.status, result.reason, result.position) == ("stopped", "duplicate", 20)
    assert str(cards[3]) in result.prompt and "Law 6D1" in result.prompt
    assert truth(sim) == result.pockets


def test_a_foreign_card_in_a_pinochle_deck_stops_citing_the_deal_rule(
        simulator, run_deal, pinochle_deck):
    cards = pinochle_deck(6)
    cards[7] = parse_card("2C")
    sim = simulator(cards)
    result = run_deal(sim.serial_url, sim.control_address, "pinochle", "S")
    assert (result.status, result.reason, result.position) == ("stopped", "foreign", 7)
    assert "2C" in result.prompt and "Setup & Deal: The deal" in result.prompt


@pytest.mark.parametrize("fault", ["jam router", "jam pocket E", "doublefeed"])
def test_a_machine_fault_stops_and_the_deal_resumes_at_the_exact_card(
        simulator, run_deal, bridge_deck, logged_deliveries, fault):
    cards = bridge_deck(7)
    sim = simulator(cards)
    jammed = []
    first = run_deal(sim.serial_url, sim.control_address,
                     on_shoe=before_route(5, lambda: jammed.append(sim.control(fault))))
    assert first.status == "stopped" and first.resumable
    assert jammed == ["ok"]
    sim.control("clearjam")
    second = run_deal(sim.serial_url, sim.control_address)
    assert second.status == "complete"
    for i, seat in enumerate("ESWN"):
        assert second.pockets[seat] == [str(c) for c in cards[i::4]]
    assert logged_deliveries() == truth(sim) == second.pockets


def test_an_empty_hopper_stops_and_a_refill_resumes(simulator, run_deal, bridge_deck,
                                                    write_deck):
    cards = bridge_deck(8)
    sim = simulator(cards[:30])
    first = run_deal(sim.serial_url, sim.control_address)
    assert (first.status, first.reason, first.position) == ("stopped", "hopper-empty", 30)
    sim.control(f"deck {write_deck(cards[30:])}")
    second = run_deal(sim.serial_url, sim.control_address)
    assert second.status == "complete" and truth(sim) == second.pockets


def test_an_open_door_stops_and_closing_it_resumes(simulator, run_deal, bridge_deck):
    sim = simulator(bridge_deck(9))
    sim.control("door open")
    first = run_deal(sim.serial_url, sim.control_address)
    assert (first.status, first.reason) == ("stopped", "door-open")
    sim.control("door close")
    second = run_deal(sim.serial_url, sim.control_address)
    assert second.status == "complete" and truth(sim) == second.pockets


def test_a_host_stopped_between_drop_and_log_resumes_from_the_pocket_counts(
        simulator, run_deal, bridge_deck, tmp_path, logged_deliveries, monkeypatch):
    sim = simulator(bridge_deck(10))
    deliveries = []
    real_append = EventLog.append

    def append_then_die_at_the_twelfth_delivery(self, event, key=None):
        if isinstance(event, CardDelivered):
            deliveries.append(event)
            if len(deliveries) == 12:
                raise KeyboardInterrupt("host killed after the drop, before the log")
        return real_append(self, event, key)

    monkeypatch.setattr(EventLog, "append", append_then_die_at_the_twelfth_delivery)
    with pytest.raises(KeyboardInterrupt):
        run_deal(sim.serial_url, sim.control_address)
    monkeypatch.setattr(EventLog, "append", real_append)
    result = run_deal(sim.serial_url, sim.control_address)
    assert result.status == "complete"
    assert logged_deliveries() == truth(sim) == result.pockets


def test_a_target_deal_puts_each_card_into_its_hand_whatever_the_feed_order(
        simulator, run_deal, bridge_deck):
    cards = bridge_deck(12)
    hands = {seat: tuple(cards[i * 13:(i + 1) * 13]) for i, seat in enumerate(Seat)}
    sim = simulator(bridge_deck(13))
    plan = TargetDeal(hands, LiveDeal.for_game("bridge", Seat.N).deck)
    result = run_deal(sim.serial_url, sim.control_address, plan=plan)
    assert result.status == "complete"
    for seat in Seat:
        assert sorted(result.pockets[seat.value]) == sorted(str(c) for c in hands[seat])


def test_a_target_plan_gives_each_copy_of_a_pinochle_card_to_its_own_hand():
    ace = parse_card("AS")
    hands = {Seat.N: (ace,), Seat.S: (ace,), Seat.E: (), Seat.W: ()}
    plan = TargetDeal(hands, PINOCHLE_48)
    first = plan.pocket_for(0, ace, [])
    second = plan.pocket_for(5, ace, [ace])
    assert {first, second} == {Seat.N, Seat.S}


def test_a_target_plan_refuses_a_card_the_deal_does_not_hold():
    plan = TargetDeal({Seat.N: (parse_card("AS"),)}, PINOCHLE_48)
    with pytest.raises(PlanRefusal, match="KS is not in the target deal"):
        plan.pocket_for(0, parse_card("KS"), [])


@pytest.mark.parametrize(("game", "dealer", "position", "seat"), [
    ("bridge", Seat.N, 0, Seat.E), ("bridge", Seat.N, 3, Seat.N), ("bridge", Seat.W, 1, Seat.E),
    ("pinochle", Seat.S, 2, Seat.W), ("pinochle", Seat.S, 3, Seat.N),
    ("pinochle", Seat.S, 12, Seat.W),
])
def test_a_live_plan_deals_from_the_dealers_left_in_the_games_packets(
        game, dealer, position, seat):
    plan = LiveDeal.for_game(game, dealer)
    assert plan.pocket_for(position, parse_card("AS"), []) is seat


def test_a_packet_that_does_not_divide_a_hand_is_refused():
    with pytest.raises(ValueError, match="packet of 5"):
        LiveDeal.for_game("pinochle", Seat.N, 5)
