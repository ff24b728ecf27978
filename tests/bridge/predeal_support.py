"""Helpers for the predeal tests: the CLI as a real subprocess, and the hook commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scanner.shoe.simulator import Simulator

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
LOAD_DECK = f"{sys.executable} {HERE / 'load_deck.py'}"
LOAD_HAND = f"{sys.executable} {HERE / 'load_hand.py'}"


def shoe_args(sim: Simulator) -> list[str]:
    return ["--shoe", sim.serial_url, "--camera", f"sim:{sim.control_address}"]


def tablescan(*args: str, env: dict[str, str] | None = None, stdin: str = "",
              timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scanner", *args], input=stdin,
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout)


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]
