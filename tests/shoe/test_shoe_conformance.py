"""One conformance suite, three targets: the Python simulator, the host-native firmware core and
the real AVR image under simavr. Each test states one rule of firmware/PROTOCOL.md and checks it
on the wire (raw blocks) or through the driver, with the control channel's ground truth."""

from __future__ import annotations

import time

import pytest

from scanner.cards import Seat, parse_card
from scanner.shoe import driver
from scanner.shoe.driver import HostState, Shoe
from scanner.shoe.errors import (
    DoorOpen,
    DoubleFeed,
    EmergencyStop,
    HopperEmpty,
    Jam,
    ProtocolError,
)
from scanner.shoe.link import Link
from scanner.shoe.protocol import (
    DICTIONARY_CRC,
    EventCode,
    FaultCode,
    Flag,
    Message,
    answer,
    command,
    decode_message,
    encode_block,
    seq_add,
)

CARDS = [parse_card(c) for c in ("AS", "KD", "QH", "JC", "TS", "9H")]
ANSWER_WAIT_S = 5.0


class RawHost:
    """The wire, without the driver: send blocks, collect what the shoe answers."""

    def __init__(self, url: str) -> None:
        self.link = Link(url)
        self.link.open()

    def send(self, seq: int, message: Message) -> None:
        self.link.send(encode_block(seq, message.encode()))

    def expect(self, name: str, **match: int) -> tuple[int, Message]:
        """Wait for an answer called ``name`` whose fields include ``match``: (SEQ, message)."""
        deadline = time.monotonic() + ANSWER_WAIT_S
        while True:
            block = self.link.receive(deadline)
            assert block is not None, f"no {name} {match} within {ANSWER_WAIT_S} s"
            if not block.payload:
                continue
            message = decode_message(block.payload, from_host=False)
            if message.name == name and all(message[k] == v for k, v in match.items()):
                return block.seq, message

    def pure_ack(self) -> int:
        deadline = time.monotonic() + ANSWER_WAIT_S
        while True:
            block = self.link.receive(deadline)
            assert block is not None, "no acknowledgement"
            if block.is_pure_ack:
                return block.seq

    def identify(self) -> tuple[int, Message]:
        self.send(0, command("identify"))
        return self.expect("identity")

    def status(self) -> tuple[int, Message]:
        self.send(0, command("status"))
        return self.expect("status")

    def act(self, seq: int, message: Message) -> Message:
        """Send an action once and wait for its result (done or fault)."""
        self.send(seq, message)
        deadline = time.monotonic() + ANSWER_WAIT_S
        while True:
            block = self.link.receive(deadline)
            assert block is not None, f"no result for {message.name} seq {seq}"
            if block.payload:
                result = decode_message(block.payload, from_host=False)
                if result.name in ("done", "fault") and result["action_seq"] == seq:
                    return result

    def close(self) -> None:
        self.link.close()


@pytest.fixture
def shoe_on(start_target, write_deck, control_of):
    """Start a target with ``cards`` and connect the driver: (shoe, control channel)."""
    opened: list[Shoe] = []

    def start(cards=CARDS, down=()):
        running = start_target(write_deck(cards, down))
        shoe = Shoe(running.serial)
        shoe.connect()
        opened.append(shoe)
        return shoe, control_of(running.control)

    yield start
    for shoe in opened:
        shoe.close()


@pytest.fixture
def raw_on(start_target, write_deck, control_of):
    opened: list[RawHost] = []

    def start(cards=CARDS):
        running = start_target(write_deck(cards))
        host = RawHost(running.serial)
        opened.append(host)
        return host, control_of(running.control)

    yield start
    for host in opened:
        host.close()


def test_identify_reports_protocol_1_four_pockets_and_geometry(shoe_on):
    shoe, _ = shoe_on()
    assert shoe.identity.protocol == 1
    assert shoe.identity.pockets == 4
    assert shoe.identity.path_width_mm >= 57 and shoe.identity.max_card_length_mm >= 88


def test_identify_carries_the_crc_of_the_protocol_table_the_shoe_was_built_from(raw_on):
    host, _ = raw_on()
    _, identity = host.identify()
    assert identity["dictionary_crc"] == DICTIONARY_CRC


def test_a_host_built_from_another_protocol_table_refuses_the_shoe_before_any_card_moves(
        start_target, write_deck, control_of, monkeypatch):
    running = start_target(write_deck(CARDS))
    monkeypatch.setattr(driver, "DICTIONARY_CRC", DICTIONARY_CRC ^ 0x0101)
    shoe = Shoe(running.serial)
    with pytest.raises(ProtocolError, match="built from another protocol table") as refused:
        shoe.connect()
    assert refused.value.kind == "protocol-dictionary" and not refused.value.resumable
    assert shoe.state is HostState.OFFLINE
    assert control_of(running.control).pockets() == {p: [] for p in "NESW"}


def test_feed_brings_the_top_card_to_the_read_station(shoe_on):
    shoe, control = shoe_on()
    shoe.feed()
    assert control.station().card == CARDS[0]
    assert shoe.state is HostState.AT_STATION


def test_route_drops_the_card_into_the_named_pocket_and_counts_it(shoe_on):
    shoe, control = shoe_on()
    shoe.clear_counts()
    shoe.feed()
    assert shoe.route(Seat.E) == 1
    assert control.pockets()["E"] == [str(CARDS[0])]
    assert shoe.refresh().counts == (0, 1, 0, 0)


def test_status_reports_the_card_at_station_flag(shoe_on):
    shoe, _ = shoe_on()
    shoe.feed()
    assert Flag.CARD_AT_STATION in shoe.refresh().flags


def test_a_retransmitted_feed_never_feeds_twice(raw_on):
    host, control = raw_on()
    seq, _ = host.identify()
    feed = command("feed")
    first = host.act(seq, feed)
    second = host.act(seq, feed)  # the same block again: the cached result, no motion
    assert first == second and first.name == "done"
    assert control.station().card == CARDS[0]
    route = host.act(seq_add(seq, 1), command("route", pocket=0))
    assert route.name == "done"
    assert control.pockets()["N"] == [str(CARDS[0])]


def test_a_retransmitted_route_never_drops_twice(raw_on):
    host, control = raw_on()
    seq, _ = host.identify()
    host.act(seq, command("feed"))
    first = host.act(seq_add(seq, 1), command("route", pocket=2))
    again = host.act(seq_add(seq, 1), command("route", pocket=2))
    assert first == again
    assert control.pockets()["S"] == [str(CARDS[0])]
    assert control.station() is None


def test_an_out_of_order_block_is_dropped_and_acknowledged_with_the_expected_seq(raw_on):
    host, control = raw_on()
    seq, _ = host.identify()
    host.send(seq_add(seq, 5), command("feed"))
    assert host.pure_ack() == seq
    assert control.station() is None


def test_queries_do_not_advance_the_sequence(raw_on):
    host, _ = raw_on()
    seq, _ = host.identify()
    again, _ = host.status()
    assert again == seq


def test_an_action_is_acknowledged_with_the_next_seq(raw_on):
    host, _ = raw_on()
    seq, _ = host.identify()
    host.send(seq, command("clear_counts"))
    ack_seq, _ = host.expect("done", action_seq=seq)
    assert ack_seq == seq_add(seq, 1)


def test_route_without_a_card_at_the_station_is_refused_as_bad_state(raw_on):
    host, _ = raw_on()
    seq, _ = host.identify()
    result = host.act(seq, command("route", pocket=0))
    assert (result.name, result["code"]) == ("fault", FaultCode.BAD_STATE)


def test_route_to_a_fifth_pocket_is_refused_as_bad_argument(raw_on):
    host, _ = raw_on()
    seq, _ = host.identify()
    host.act(seq, command("feed"))
    result = host.act(seq_add(seq, 1), command("route", pocket=4))
    assert (result.name, result["code"], result["where"]) == ("fault", FaultCode.BAD_ARGUMENT, 0)


def test_a_jam_in_the_feed_path_faults_with_where_0(shoe_on):
    shoe, control = shoe_on()
    control.command("jam feed")
    with pytest.raises(Jam) as caught:
        shoe.feed()
    assert caught.value.where == "feed path"
    assert caught.value.machine.state == "fault"


def test_after_a_feed_jam_is_cleared_resume_and_feed_bring_the_same_card(shoe_on):
    shoe, control = shoe_on()
    control.command("jam feed")
    with pytest.raises(Jam):
        shoe.feed()
    control.command("clearjam")
    shoe.resume()
    shoe.feed()
    assert control.station().card == CARDS[0]


def test_a_router_jam_leaves_the_card_to_be_routed_again(shoe_on):
    shoe, control = shoe_on()
    shoe.feed()
    control.command("jam router")
    with pytest.raises(Jam) as caught:
        shoe.route(Seat.W)
    assert caught.value.where == "router"
    control.command("clearjam")
    shoe.resume()
    assert shoe.state is HostState.AT_STATION
    shoe.route(Seat.W)
    assert control.pockets()["W"] == [str(CARDS[0])]


def test_a_chute_jam_names_the_pocket_and_clearing_it_lands_the_card_there(shoe_on):
    shoe, control = shoe_on()
    shoe.clear_counts()
    shoe.feed()
    control.command("jam pocket S")
    with pytest.raises(Jam) as caught:
        shoe.route(Seat.S)
    assert caught.value.where == "pocket S's chute"
    control.command("clearjam")
    shoe.resume()
    assert control.pockets()["S"] == [str(CARDS[0])]
    assert shoe.counts["S"] == 1


def test_a_double_feed_stops_and_clearing_it_leaves_the_first_card_at_the_station(shoe_on):
    shoe, control = shoe_on()
    control.command("doublefeed")
    with pytest.raises(DoubleFeed):
        shoe.feed()
    control.command("clearjam")
    shoe.resume()
    assert control.station().card == CARDS[0]
    shoe.route(Seat.N)
    shoe.feed()
    assert control.station().card == CARDS[1]


def test_an_empty_hopper_faults_and_a_refill_resumes(shoe_on, write_deck):
    shoe, control = shoe_on()
    control.command("empty")
    with pytest.raises(HopperEmpty):
        shoe.feed()
    control.command(f"deck {write_deck(CARDS[1:])}")
    shoe.resume()
    shoe.feed()
    assert control.station().card == CARDS[1]


def test_an_open_door_refuses_feeding_until_closed_and_resumed(shoe_on):
    shoe, control = shoe_on()
    control.command("door open")
    with pytest.raises(DoorOpen):
        shoe.feed()
    with pytest.raises(DoorOpen):
        shoe.resume()
    control.command("door close")
    shoe.resume()
    shoe.feed()
    assert control.station().card == CARDS[0]


def test_the_emergency_stop_refuses_feeding_until_released(shoe_on):
    shoe, control = shoe_on()
    control.command("estop on")
    with pytest.raises(EmergencyStop):
        shoe.feed()
    control.command("estop off")
    shoe.resume()
    shoe.feed()
    assert control.station().card == CARDS[0]


def test_a_reset_announces_itself_and_changes_the_boot_id(raw_on):
    host, control = raw_on()
    _, before = host.identify()
    control.command("reset")
    _, event = host.expect("event", code=EventCode.RESET)
    _, after = host.identify()
    assert after["boot_id"] != before["boot_id"]
    assert event["code"] == EventCode.RESET


def test_after_a_reset_no_action_acts_until_identify(raw_on):
    host, control = raw_on()
    host.identify()
    control.command("reset")
    host.expect("event", code=EventCode.RESET)
    host.status()  # a query does not identify
    host.send(0, command("feed"))
    assert host.pure_ack() == 0
    time.sleep(0.3)
    assert control.station() is None


def test_after_a_reset_an_empty_station_reads_idle(raw_on):
    host, control = raw_on()
    host.identify()
    control.command("reset")
    host.expect("event", code=EventCode.RESET)
    _, status = host.status()
    assert (status["state"], status["flags"] & 1) == (0, 0)


def test_the_driver_learns_of_a_reset_and_does_not_feed_twice(shoe_on):
    shoe, control = shoe_on()
    events = []
    shoe.on_event = lambda event, key: events.append(event.kind)
    shoe.feed()
    shoe.route(Seat.N)
    control.command("reset")
    shoe.feed()
    assert "reset" in events
    assert control.station().card == CARDS[1]
    assert control.pockets()["N"] == [str(CARDS[0])]


def test_clear_counts_sets_every_pocket_count_to_zero(shoe_on):
    shoe, _ = shoe_on()
    shoe.feed()
    shoe.route(Seat.E)
    shoe.clear_counts()
    assert shoe.refresh().counts == (0, 0, 0, 0)


def test_a_whole_deck_lands_where_the_driver_sent_it(shoe_on, bridge_deck):
    cards = bridge_deck(3)
    shoe, control = shoe_on(cards)
    shoe.clear_counts()
    for i in range(len(cards)):
        shoe.feed()
        shoe.route(i % 4)
    pockets = control.pockets()
    for p, name in enumerate("NESW"):
        assert pockets[name] == [str(c) for c in cards[p::4]]
    assert shoe.refresh().counts == (13, 13, 13, 13)


def test_the_fault_answer_is_cached_for_a_retransmission(raw_on):
    host, control = raw_on()
    seq, _ = host.identify()
    control.command("jam feed")
    first = host.act(seq, command("feed"))
    again = host.act(seq, command("feed"))
    assert first == again == answer("fault", action_seq=seq, action=0x10,
                                     code=FaultCode.JAM, where=0)
