"""Smoke tests of the two C shoe targets (the AVR image under simavr, the host-native core):
the start-up line, the protocol over the pty with pyserial, and the control channel."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from scanner.app.firmware_wire import (
    CLEAR_COUNTS,
    DONE,
    EVENT,
    EVENT_DOOR_OPENED,
    EVENT_RESET,
    FAULT,
    FEED,
    IDENTIFY,
    RESUME,
    ROUTE,
    STATES,
    STATUS,
    ShoeTarget,
)

N, E, S, W = range(4)
JAM, DOUBLE_FEED, HOPPER_EMPTY, DOOR_OPEN = 1, 2, 3, 4


def test_startup_line_names_a_pty_and_a_loopback_control_port(shoe: ShoeTarget) -> None:
    assert shoe.started["serial"].startswith("/dev/pts/")
    host, port = shoe.started["control"].split(":")
    assert host == "127.0.0.1" and int(port) > 0


def test_identify_reports_protocol_1_and_the_geometry(shoe: ShoeTarget) -> None:
    payload = shoe.identify().payload
    assert payload[4] == 1  # protocol version
    assert payload[5:9] == bytes((4, 60, 66, 89))  # pockets, hopper, path width, card length


def test_status_of_a_fresh_shoe_is_idle_with_empty_pockets(shoe: ShoeTarget) -> None:
    payload = shoe.query(STATUS).payload
    assert STATES[payload[1]] == "idle"
    assert payload[3:7] == bytes(4)


def test_fed_card_is_what_the_station_shows_and_lands_in_the_routed_pocket(
        shoe: ShoeTarget) -> None:
    shoe.identify()
    assert shoe.control("station") == "ok none"
    assert shoe.act(bytes((FEED,))).payload[0] == DONE
    assert shoe.control("station") == "ok AS up"
    done = shoe.act(bytes((ROUTE, E)))
    assert done.payload[0] == DONE and done.payload[3:5] == bytes((E, 1))
    assert shoe.control("pockets") == "ok N: E:AS S: W:"


def test_face_down_card_shows_down_at_the_station(shoe: ShoeTarget) -> None:
    shoe.identify()
    for pocket in (N, S):
        shoe.act(bytes((FEED,)))
        shoe.act(bytes((ROUTE, pocket)))
    shoe.act(bytes((FEED,)))
    assert shoe.control("station") == "ok TD down"


def test_retransmitted_route_is_answered_again_without_a_second_drop(shoe: ShoeTarget) -> None:
    shoe.identify()
    shoe.act(bytes((FEED,)))
    first = shoe.act(bytes((ROUTE, W)))
    shoe.seq = first.payload[1]  # send the very same block again
    again = shoe.act(bytes((ROUTE, W)))
    assert again == first
    assert shoe.control("pockets") == "ok N: E: S: W:AS"


def test_injected_feed_jam_faults_and_clears(shoe: ShoeTarget) -> None:
    shoe.identify()
    assert shoe.control("jam feed") == "ok jam feed"
    fault = shoe.act(bytes((FEED,)))
    assert fault.payload[0] == FAULT and fault.payload[3:5] == bytes((JAM, 0))
    assert shoe.control("clearjam") == "ok jam cleared"
    assert shoe.act(bytes((RESUME,))).payload[0] == DONE
    assert shoe.act(bytes((FEED,))).payload[0] == DONE


def test_injected_double_feed_faults_at_the_station(shoe: ShoeTarget) -> None:
    shoe.identify()
    shoe.control("doublefeed")
    fault = shoe.act(bytes((FEED,)))
    assert fault.payload[3:5] == bytes((DOUBLE_FEED, 1))


def test_empty_hopper_refuses_feed(shoe: ShoeTarget) -> None:
    shoe.identify()
    shoe.control("empty")
    assert shoe.act(bytes((FEED,))).payload[3] == HOPPER_EMPTY


def test_door_open_sends_an_event_and_faults_the_next_feed(shoe: ShoeTarget) -> None:
    shoe.identify()
    assert shoe.control("door open") == "ok door open"
    assert shoe.wait_for(EVENT).payload[1] == EVENT_DOOR_OPENED
    assert shoe.act(bytes((FEED,))).payload[3] == DOOR_OPEN


def test_reset_keeps_the_card_at_the_station_and_changes_boot_id(shoe: ShoeTarget) -> None:
    boot_before = shoe.identify().payload[9:11]
    shoe.act(bytes((FEED,)))
    assert shoe.control("reset") == "ok reset"
    assert shoe.wait_for(EVENT).payload[1] == EVENT_RESET
    identity = shoe.identify()
    assert identity.payload[9:11] != boot_before
    assert identity.seq == 0
    assert STATES[shoe.query(STATUS).payload[1]] == "at_station"
    assert shoe.control("station") == "ok AS up"


def test_an_armed_reset_fires_once_the_routed_card_reaches_its_point(shoe: ShoeTarget) -> None:
    assert shoe.control("reset when later").startswith("err reset takes nothing, or when")
    boot_before = shoe.identify().payload[9:11]
    shoe.act(bytes((FEED,)))
    assert shoe.control("reset when falling") == "ok reset when falling"
    assert shoe.identify().payload[9:11] == boot_before, "armed, it waits for a route"
    shoe.send(shoe.seq, bytes((ROUTE, E)))
    assert shoe.wait_for(EVENT).payload[1] == EVENT_RESET
    assert shoe.identify().payload[9:11] != boot_before
    assert shoe.control("station") == "ok none", "the card had left the station"


def test_clear_counts_is_done_at_once(shoe: ShoeTarget) -> None:
    shoe.identify()
    assert shoe.act(bytes((CLEAR_COUNTS,)), seconds=0.5).payload[0] == DONE


def test_control_channel_rejects_bad_commands_naming_them(shoe: ShoeTarget) -> None:
    assert shoe.control("jam sideways").startswith("err jam takes feed, router or pocket")
    assert shoe.control("fly").startswith("err unknown command 'fly'")


def test_control_deck_error_names_the_file_and_line_not_its_text(shoe: ShoeTarget,
                                                                 tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("AS\nZZ\n", encoding="utf-8")
    reply = shoe.control(f"deck {bad}")
    assert reply.startswith("err ") and f"{bad}, line 2: not a card" in reply
    assert "ZZ" not in reply


def test_quit_ends_the_target_cleanly(shoe: ShoeTarget) -> None:
    assert shoe.control("quit") == "ok bye"
    assert shoe.process.wait(timeout=10) == 0


def test_unusable_deck_at_start_exits_2_naming_the_line(firmware_build: Path,
                                                        tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("AS\nAS sideways\n", encoding="utf-8")
    for executable in ("shoe-sim", "shoe-native"):
        result = subprocess.run([str(firmware_build / executable), "--deck", str(bad)],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 2
        assert f"{bad}, line 2" in result.stderr


def test_identify_is_answered_whatever_its_seq(shoe: ShoeTarget) -> None:
    shoe.port.write(b"")
    for seq in (0, 200):
        shoe.send(seq, bytes((IDENTIFY,)))
        assert shoe.wait_for(0x81).seq == 0


def test_reset_with_an_empty_station_boots_idle_with_every_sensor_as_it_was(
        shoe: ShoeTarget) -> None:
    shoe.identify()
    shoe.control("reset")
    shoe.wait_for(EVENT)
    status = shoe.query(STATUS).payload
    assert STATES[status[1]] == "idle"
    assert status[2] == 0  # no card at the station, hopper not empty, door shut, no e-stop


def test_simulated_time_never_runs_ahead_of_the_wall_clock_times_speed(
        firmware_build: Path, deck_file: Path) -> None:
    # The host's timeouts are wall-clock: a target whose time ran ahead would make the
    # firmware's jam timeouts fire early as seen from the host.
    for executable in ("shoe-sim", "shoe-native"):
        spawned = time.monotonic()
        target = ShoeTarget([str(firmware_build / executable), "--deck", str(deck_file),
                             "--speed", "2"])
        try:
            for _ in range(5):
                time.sleep(0.1)
                simulated_us = int(target.control("clock").split()[1])
                # + the 10 ms boot shoe-sim simulates before its start-up line, + 5 ms
                allowed_us = (time.monotonic() - spawned) * 2 * 1e6 + 15000
                assert simulated_us <= allowed_us, executable
        finally:
            target.close()


def test_host_that_closes_and_reopens_the_port_resumes_with_identify_and_status(
        shoe: ShoeTarget) -> None:
    shoe.identify()
    shoe.act(bytes((FEED,)))
    shoe.port.close()  # the cable is pulled: the shoe keeps its state
    time.sleep(0.3)
    shoe.port.open()
    assert shoe.identify().seq == 1  # the next sequence it expects, not a guess
    assert STATES[shoe.query(STATUS).payload[1]] == "at_station"
    assert shoe.act(bytes((ROUTE, S))).payload[0] == DONE
    assert shoe.control("pockets") == "ok N: E: S:AS W:"
