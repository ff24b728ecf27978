"""The operator at the console: where the go-ahead for each deck comes from, and the progress
line on stderr."""

from __future__ import annotations

import io
import sys
import threading
import time

import pytest

from scanner.app.console import (
    FromPage,
    GoAtOnce,
    HookCommand,
    NoGoAhead,
    PredealConsole,
    PressEnter,
    Wanted,
    format_duration,
    go_ahead,
)
from scanner.bridge.dealset import generate
from scanner.bridge.predeal import Step
from scanner.cards import Seat
from scanner.events import DeckLoaded, DeckWanted
from scanner.log import EventLog

DECK = Wanted(7, 2)


def test_enter_on_stdin_is_the_go_ahead():
    stderr = io.StringIO()
    PressEnter(io.StringIO("\n"), stderr).wait("load a shuffled deck", DECK)
    assert stderr.getvalue() == "load a shuffled deck, then press Enter\n"


def test_the_end_of_stdin_is_no_go_ahead_and_names_the_way_out():
    with pytest.raises(NoGoAhead, match="--yes"):
        PressEnter(io.StringIO(""), io.StringIO()).wait("load a shuffled deck", DECK)


def test_yes_goes_on_at_once_and_still_shows_the_prompt():
    stderr = io.StringIO()
    GoAtOnce(stderr).wait("load a shuffled deck", DECK)
    assert "load a shuffled deck (--yes" in stderr.getvalue()


def test_the_hook_runs_with_the_board_and_copy_in_its_environment():
    HookCommand('test "$TABLESCAN_BOARD" = 7 && test "$TABLESCAN_COPY" = 2', sys.stderr,
                "--next-deck-cmd").wait("load", DECK)


def test_a_failing_hook_stops_the_run_naming_the_option_and_exit_code():
    with pytest.raises(NoGoAhead, match=r"--next-deck-cmd 'exit 3' exited 3"):
        HookCommand("exit 3", sys.stderr, "--next-deck-cmd").wait("load", DECK)


def test_a_hook_wins_over_yes_and_yes_over_stdin():
    assert isinstance(go_ahead(True, "true", "--next-deck-cmd"), HookCommand)
    assert isinstance(go_ahead(True, None, "--next-deck-cmd"), GoAtOnce)
    assert isinstance(go_ahead(False, None, "--next-deck-cmd"), PressEnter)


def test_the_progress_line_shows_the_copy_the_bar_and_an_eta_once_cards_were_timed():
    stderr = io.StringIO()
    console = PredealConsole(GoAtOnce(stderr), stderr, tty=False)
    step = Step(generate([1], seed="x")[0], 1, 2, 1, 2)
    console.progress(step, 0)
    console.progress(step, 13)
    first, second = stderr.getvalue().splitlines()
    assert first.startswith("board 1, copy 1 of 2 (1 of 2) [----")
    assert first.endswith("0/52 cards · ETA –")
    assert "[######--------------------] 13/52 cards · ETA " in second
    assert not second.endswith("ETA –")


def test_the_next_deck_prompt_says_to_empty_the_pockets_into_the_board_just_dealt():
    stderr = io.StringIO()
    console = PredealConsole(GoAtOnce(stderr), stderr)
    board = generate([5], seed="x")[0]
    console.load_deck(Step(board, 1, 2, 1, 2))
    console.load_deck(Step(board, 2, 2, 2, 2))
    assert stderr.getvalue().splitlines()[1].startswith(
        "put the four hands of board 5 (copy 1) from the pockets into the board; load a "
        "shuffled deck for board 5, copy 2 of 2")


@pytest.mark.parametrize(("seconds", "text"), [(0, "0m00s"), (75.4, "1m15s"), (3725, "1h02m")])
def test_durations_read_as_minutes_and_seconds(seconds, text):
    assert format_duration(seconds) == text


def test_the_hook_gets_the_seat_of_the_hand_to_read_back():
    HookCommand('test "$TABLESCAN_SEAT" = E', sys.stderr, "--next-hand-cmd").wait(
        "put hand E in the hopper", Wanted(7, seat=Seat.E))


def test_the_page_go_ahead_logs_the_wait_and_ends_at_its_own_deck_loaded(tmp_path):
    db = tmp_path / "club.sqlite"

    def operator_on_the_page() -> None:
        time.sleep(0.2)
        with EventLog(db, session="tuesday") as page_log:
            page_log.append(DeckLoaded(6, "deal", 2))  # another copy: not the awaited one
            page_log.append(DeckLoaded(7, "deal", 2))

    stderr = io.StringIO()
    with EventLog(db, session="tuesday") as log:
        page = threading.Thread(target=operator_on_the_page)
        page.start()
        FromPage(log, stderr, poll_s=0.01).wait("load a shuffled deck", DECK)
        page.join()
        events = [event for _, event in log.replay()]
    assert events == [DeckWanted(7, "deal", 2), DeckLoaded(6, "deal", 2), DeckLoaded(7, "deal", 2)]
    assert "press 'Loaded' on the live page" in stderr.getvalue()
