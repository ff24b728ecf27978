"""The driver against the Python simulator: handshake, typed faults, retransmission, replug."""

from __future__ import annotations

import contextlib
import socket
import threading

import pytest
import serial
import serial.rfc2217

from scanner.cards import Seat, parse_card
from scanner.shoe.driver import HostState, Shoe
from scanner.shoe.errors import LinkLost, ProtocolError
from scanner.shoe.fault_proxy import FaultProxy, FaultRates
from scanner.shoe.link import Link
from scanner.shoe.protocol import Block, Timing, encode_block
from scanner.shoe.simulator import Simulator
from scanner.shoe.virtual_deck import DeckCard

CARDS = [DeckCard(parse_card(c)) for c in ("AS", "KD", "QH", "JC", "TS", "9H", "8D", "7C")]


@pytest.fixture
def sim():
    with Simulator(CARDS) as simulator:
        yield simulator


def test_link_carries_blocks_over_pyserial_loop_url():
    link = Link("loop://")
    link.open()
    link.send(encode_block(42, b"\x02"))
    assert link.receive(until=float("inf")) == Block(42, b"\x02")
    link.close()


def test_link_reports_a_port_that_cannot_be_opened_by_its_url():
    with pytest.raises(LinkLost, match="/dev/ttyNOPE"):
        Shoe("/dev/ttyNOPE").connect()


def test_connect_takes_the_shoes_sequence_and_state(sim):
    shoe = Shoe(sim.serial_url)
    shoe.connect()
    assert shoe.state is HostState.IDLE
    assert shoe.machine.boot_id == sim.model.boot_id


def test_a_shoe_whose_identity_has_another_length_is_refused_as_other_firmware(sim, monkeypatch):
    # A firmware from before the table's CRC was in its identity sends two bytes fewer.
    send = sim.model._send

    def older_firmware(message):
        if message is not None and message.name == "identity":
            sim.model.output += encode_block(sim.model.expected_seq, message.encode()[:-2])
        else:
            send(message)

    monkeypatch.setattr(sim.model, "_send", older_firmware)
    shoe = Shoe(sim.serial_url)
    with pytest.raises(ProtocolError, match="built from another protocol table") as refused:
        shoe.connect()
    assert refused.value.kind == "protocol-dictionary" and not refused.value.resumable
    assert shoe.state is HostState.OFFLINE


def test_an_action_in_the_wrong_host_state_is_refused_before_it_is_sent(sim):
    shoe = Shoe(sim.serial_url)
    shoe.connect()
    with pytest.raises(ProtocolError, match="cannot route while the shoe is idle"):
        shoe.route(Seat.N)
    assert sim.model.actions_performed == 0


def test_a_shoe_that_never_answers_is_reported_lost_with_its_url():
    silent = serial.serial_for_url("loop://")
    shoe = Shoe("loop://", timing=Timing(link_lost_after=0.5),
                open_port=lambda url: silent)
    with pytest.raises(LinkLost, match="loop://"):
        shoe.connect()


def test_dropped_frames_are_retransmitted_until_acknowledged(sim):
    with FaultProxy(sim.serial_url, FaultRates(drop_frame=0.1), seed=4) as proxy:
        shoe = Shoe(proxy.url)
        shoe.connect()
        for i in range(len(CARDS)):
            shoe.feed()
            shoe.route(i % 4)
    assert shoe.retransmits > 0
    assert sum(len(p) for p in sim.model.pockets.values()) == len(CARDS)


def test_a_replugged_cable_is_reopened_and_the_action_completes_once(sim):
    with FaultProxy(sim.serial_url) as proxy:
        shoe = Shoe(proxy.url)
        shoe.connect()
        shoe.feed()
        proxy.outage(0.5)
        shoe.route(Seat.S)
    assert shoe.link.stats.reopened >= 1
    assert [str(c.card) for c in sim.model.pockets["S"]] == ["AS"]


def test_the_link_is_reported_lost_when_it_stays_away(sim):
    with FaultProxy(sim.serial_url) as proxy:
        shoe = Shoe(proxy.url, timing=Timing(link_lost_after=1.0))
        shoe.connect()
        proxy.outage(30)
        with pytest.raises(LinkLost) as caught:
            shoe.feed()
    assert caught.value.resumable


def test_a_reset_between_actions_is_logged_once_and_nothing_moves_twice(sim):
    events = []
    shoe = Shoe(sim.serial_url, on_event=lambda event, key: events.append(key))
    shoe.connect()
    shoe.feed()
    shoe.route(Seat.N)
    sim.control("reset")
    shoe.feed()
    shoe.route(Seat.E)
    assert events.count(f"reset:{sim.model.boot_id}") == 1
    assert [str(c.card) for c in sim.model.pockets["N"]] == ["AS"]
    assert [str(c.card) for c in sim.model.pockets["E"]] == ["KD"]


def test_counts_survive_a_shoe_reset_on_the_host(sim):
    shoe = Shoe(sim.serial_url)
    shoe.connect()
    shoe.clear_counts()
    shoe.feed()
    shoe.route(Seat.W)
    sim.control("reset")
    shoe.feed()
    shoe.route(Seat.W)
    assert shoe.counts["W"] == 2


def test_a_door_opened_mid_feed_is_a_door_fault_carrying_the_state():
    with Simulator(CARDS, motion_s=0.5) as slow:
        shoe = Shoe(slow.serial_url)
        shoe.connect()
        threading.Timer(0.1, slow.control, args=("door open",)).start()
        with pytest.raises(Exception) as caught:
            shoe.feed()
    assert caught.value.kind == "door-open"
    assert caught.value.machine.state == "fault"


class Rfc2217Server:
    """pyserial's own RFC 2217 port manager in front of the simulator's serial socket, so the
    driver can be tested on an ``rfc2217://`` URL as a networked serial server would offer it."""

    def __init__(self, target_url: str) -> None:
        self.port = serial.serial_for_url(target_url, timeout=0.01)
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.url = f"rfc2217://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        conn, _ = self.listener.accept()

        class Writer:
            def write(self, data: bytes) -> None:
                conn.sendall(data)

        manager = serial.rfc2217.PortManager(self.port, Writer())
        threading.Thread(target=self._to_client, args=(conn, manager), daemon=True).start()
        with contextlib.suppress(OSError, serial.SerialException):
            while data := conn.recv(1024):
                self.port.write(b"".join(manager.filter(data)))

    def _to_client(self, conn: socket.socket, manager) -> None:
        # pyserial's socket port raises AttributeError when close() races a read: that is
        # this relay's normal end at teardown, not a failure.
        with contextlib.suppress(OSError, serial.SerialException, AttributeError):
            while self.port.is_open:
                data = self.port.read(max(1, self.port.in_waiting))
                if data:
                    conn.sendall(b"".join(manager.escape(data)))

    def close(self) -> None:
        self.listener.close()
        self.port.close()


def test_the_driver_deals_over_an_rfc2217_url(sim):
    server = Rfc2217Server(sim.serial_url)
    try:
        shoe = Shoe(server.url)
        shoe.connect()
        shoe.feed()
        assert shoe.route(Seat.E) == 1
        shoe.close()
    finally:
        server.close()
    assert [str(c.card) for c in sim.model.pockets["E"]] == ["AS"]
