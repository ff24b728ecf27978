"""The operator at a console: prompts and a progress bar on stderr, and the go-ahead to go on.

A real operator puts the next shuffled deck (or the next hand to verify) in the hopper and
presses Enter. Without a person at a terminal the go-ahead comes from one of:

* ``--yes``: go on at once (a feeder, or a deck already loaded);
* a hook command (``--next-deck-cmd``/``--next-hand-cmd``), run through the shell with
  ``TABLESCAN_BOARD``, ``TABLESCAN_COPY``, ``TABLESCAN_SEAT`` and ``TABLESCAN_POSITION`` in
  its environment; a non-zero exit stops the run;
* stdin that is not a terminal: each go-ahead is one line read from it (``yes '' | …``),
  and the end of input stops the run, naming the options above.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from ..cards import BRIDGE_52
from .predeal import Step

BAR_WIDTH = 26


class NoGoAhead(Exception):
    """Nobody gave the go-ahead (stdin ended, the hook failed): the run stops cleanly."""


class GoAhead(Protocol):
    def wait(self, prompt: str, env: Mapping[str, str]) -> None:
        """Return once the operator has done what ``prompt`` asks."""


@dataclass
class PressEnter:
    """A person presses Enter (or a script writes a line) on ``stdin``."""

    stdin: TextIO
    stderr: TextIO

    def wait(self, prompt: str, env: Mapping[str, str]) -> None:
        print(f"{prompt}, then press Enter", file=self.stderr, flush=True)
        if not self.stdin.readline():
            raise NoGoAhead("no operator: stdin ended before the go-ahead; pass --yes or a "
                            "hook command to run without one")


@dataclass
class GoAtOnce:
    """``--yes``: the prompt is shown and the run goes on."""

    stderr: TextIO

    def wait(self, prompt: str, env: Mapping[str, str]) -> None:
        print(f"{prompt} (--yes: going on)", file=self.stderr, flush=True)


@dataclass
class HookCommand:
    """A shell command does the operator's part (loads a deck into a simulator, signals a
    feeder); it inherits stderr, so whatever it says is seen."""

    command: str
    stderr: TextIO
    option: str

    def wait(self, prompt: str, env: Mapping[str, str]) -> None:
        print(f"{prompt} ({self.option})", file=self.stderr, flush=True)
        done = subprocess.run(self.command, shell=True, env={**os.environ, **env},
                              stdin=subprocess.DEVNULL, check=False)
        if done.returncode != 0:
            raise NoGoAhead(f"{self.option} {self.command!r} exited {done.returncode}")


def go_ahead(yes: bool, hook: str | None, option: str, stdin: TextIO = sys.stdin,
             stderr: TextIO = sys.stderr) -> GoAhead:
    """The go-ahead the command line asks for: ``--yes``, a hook, or Enter on stdin."""
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
                     {"TABLESCAN_BOARD": str(step.board.number), "TABLESCAN_COPY": str(step.copy),
                      "TABLESCAN_POSITION": str(step.position)})
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
