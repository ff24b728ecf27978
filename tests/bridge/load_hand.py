"""The operator's part when verifying through a simulated shoe: put one hand in the hopper.

Run as ``verify --next-hand-cmd``: ``HANDS_FILE`` is JSON ``{"BOARD": {"SEAT": [cards]}}``
(what physically lies in each pocket of each board), ``SIM_CONTROL`` the simulator's control
channel, ``TABLESCAN_BOARD``/``TABLESCAN_SEAT`` the hand the command asks for.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from scanner.shoe.control import ControlChannel


def main() -> int:
    board, seat = os.environ["TABLESCAN_BOARD"], os.environ["TABLESCAN_SEAT"]
    hands = json.loads(Path(os.environ["HANDS_FILE"]).read_text(encoding="utf-8"))
    path = Path(tempfile.mkdtemp()) / f"hand-{board}-{seat}.txt"
    path.write_text("".join(f"{card}\n" for card in hands[board][seat]), encoding="utf-8")
    with ControlChannel(os.environ["SIM_CONTROL"]) as control:
        control.command(f"deck {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
