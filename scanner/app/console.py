"""The operator at a console: prompts and a progress bar on stderr, and the go-ahead to go on.

A real operator puts the next shuffled deck (or the next hand to verify) in the hopper and
presses Enter. Without a person at a terminal the go-ahead comes from one of:

* ``--yes``: go on at once (a feeder, or a deck already loaded);
* a hook command (``--next-deck-cmd``/``--next-hand-cmd``), run through the shell with
  ``TABLESCAN_BOARD``, ``TABLESCAN_COPY`` and (verifying) ``TABLESCAN_SEAT`` in
  its environment; a non-zero exit stops the run;
* stdin that is not a terminal: each go-ahead is one line read from it (``yes '' | …``),
  and the end of input stops the run, naming the options above;
* the live page (``--wait-for-page``): the wait is logged as ``deck-wanted`` and the
  operator's "loaded" button on the bridge view (``tablescan serve --game bridge`` on the
  same log and session) logs the ``deck-loaded`` that ends it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from ..bridge.predeal import Step
from ..cards import BRIDGE_52, Seat
from ..events import DeckLoaded, DeckWanted
from ..log import EventLog

BAR_WIDTH = 26


class NoGoAhead(Exception):
    """Nobody gave the go-ahead (stdin ended, the hook failed): the run stops cleanly."""


@dataclass(frozen=True)
class Wanted:
    """What the shoe waits for: a deck for a board's copy, or one hand of a board."""

    board: int
    copy: int = 1
    seat: Seat | None = None

    @property
    def stage(self) -> str:
        return "deal" if self.seat is None else "verify"

    def env(self) -> dict[str, str]:
        """The hook command's environment."""
        out = {"TABLESCAN_BOARD": str(self.board), "TABLESCAN_COPY": str(self.copy)}
        if self.seat is not None:
            out["TABLESCAN_SEAT"] = self.seat.value
        return out


class GoAhead(Protocol):
    def wait(self, prompt: str, wanted: Wanted) -> None:
        """Return once the operator has done what ``prompt`` asks."""


@dataclass
class PressEnter:
    """A person presses Enter (or a script writes a line) on ``stdin``."""

    stdin: TextIO
    stderr: TextIO

    def wait(self, prompt: str, wanted: Wanted) -> None:
        print(f"{prompt}, then press Enter", file=self.stderr, flush=True)
        if not self.stdin.readline():
            raise NoGoAhead("no operator: stdin ended before the go-ahead; pass --yes or a "
                            "hook command to run without one")


@dataclass
class GoAtOnce:
    """``--yes``: the prompt is shown and the run goes on."""

    stderr: TextIO

    def wait(self, prompt: str, wanted: Wanted) -> None:
        print(f"{prompt} (--yes: going on)", file=self.stderr, flush=True)


@dataclass
class HookCommand:
    """A shell command does the operator's part (loads a deck into a simulator, signals a
    feeder); it inherits stderr, so whatever it says is seen."""

    command: str
    stderr: TextIO
    option: str

    def wait(self, prompt: str, wanted: Wanted) -> None:
        print(f"{prompt} ({self.option})", file=self.stderr, flush=True)
        done = subprocess.run(self.command, shell=True, env={**os.environ, **wanted.env()},
                              stdin=subprocess.DEVNULL, check=False)
        if done.returncode != 0:
            raise NoGoAhead(f"{self.option} {self.command!r} exited {done.returncode}")


@dataclass
class FromPage:
    """The operator's button on the live page: the wait is logged, and so is its end.

    Runs on the thread that owns ``log``; it looks for the page's ``deck-loaded`` every
    ``poll_s`` seconds, which is well under a person's reaction time.
    """

    log: EventLog
    stderr: TextIO
    poll_s: float = 0.1

    def wait(self, prompt: str, wanted: Wanted) -> None:
        print(f"{prompt}, then press 'Loaded' on the live page", file=self.stderr, flush=True)
        after = self.log.append(DeckWanted(wanted.board, wanted.stage, wanted.copy,
                                           wanted.seat))
        key = (wanted.board, wanted.stage, wanted.copy, wanted.seat)
        while True:
            for seq, event in self.log.replay(from_seq=after + 1):
                after = seq
                if isinstance(event, DeckLoaded) and \
                        (event.board, event.stage, event.copy, event.seat) == key:
                    return
            time.sleep(self.poll_s)


def go_ahead(yes: bool, hook: str | None, option: str, stdin: TextIO = sys.stdin,
             stderr: TextIO = sys.stderr, page_log: EventLog | None = None) -> GoAhead:
    """The go-ahead the command line asks for: the page, a hook, ``--yes``, or Enter."""
    if page_log is not None:
        return FromPage(page_log, stderr)
    if hook:
        return HookCommand(hook, stderr, option)
    if yes:
        return GoAtOnce(stderr)
    return PressEnter(stdin, stderr)


def format_duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


@dataclass
class PredealConsole:
    """The predeal operator at a console: deck prompts and a progress bar with an ETA.

    The ETA counts dealing time only (seconds per card so far, times the cards left); the
    time the operator takes to change decks is not the machine's and is left out.
    """

    go: GoAhead
    stderr: TextIO
    tty: bool = False
    _previous: Step | None = None
    _dealing_s: float = 0.0
    _cards_timed: int = 0
    _last: tuple[int, int, float] | None = None
    _last_line: int = field(default=-1)

    def load_deck(self, step: Step) -> None:
        if self._previous is None:
            done = ""
        else:
            done = (f"put the four hands of board {self._previous.board.number} (copy "
                    f"{self._previous.copy}) from the pockets into the board; ")
        self._end_bar()
        self._last = None
        self._last_line = -1
        self.go.wait(f"{done}load a shuffled deck for {step.describe()} into the hopper",
                     Wanted(step.board.number, step.copy))
        self._previous = step

    def resumed(self, step: Step, at_card: int) -> None:
        print(f"resuming {step.describe()} at card {at_card + 1} from the log",
              file=self.stderr, flush=True)
        self._previous = step

    def progress(self, step: Step, cards_done: int) -> None:
        now = time.monotonic()
        if self._last is not None and self._last[0] == step.position \
                and cards_done > self._last[1]:
            self._dealing_s += now - self._last[2]
            self._cards_timed += cards_done - self._last[1]
        self._last = (step.position, cards_done, now)
        self._previous = step
        self._draw(step, cards_done)

    def _draw(self, step: Step, cards_done: int) -> None:
        size = BRIDGE_52.size
        left = (step.total - step.position) * size + (size - cards_done)
        eta = (f"ETA {format_duration(left * self._dealing_s / self._cards_timed)}"
               if self._cards_timed else "ETA –")
        filled = BAR_WIDTH * cards_done // size
        line = (f"{step.describe()} [{'#' * filled}{'-' * (BAR_WIDTH - filled)}] "
                f"{cards_done}/{size} cards · {eta}")
        if self.tty:
            print(f"\r{line}", end="\n" if cards_done == size else "", file=self.stderr,
                  flush=True)
        elif cards_done % 13 == 0 and cards_done != self._last_line:
            # Not a terminal: a line per quarter deck, so a log file stays readable.
            self._last_line = cards_done
            print(line, file=self.stderr, flush=True)

    def _end_bar(self) -> None:
        if self.tty and self._last is not None and self._last[1] != BRIDGE_52.size:
            print(file=self.stderr, flush=True)
