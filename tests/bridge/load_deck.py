"""The operator's part for a simulated shoe: load a freshly shuffled deck into its hopper.

Run as a predeal ``--next-deck-cmd``: the control channel comes from ``SIM_CONTROL``, the
board and copy from ``TABLESCAN_BOARD``/``TABLESCAN_COPY``, so each deck's order is seeded
and a test can repeat it. ``DECK_EXTRA`` puts one more card (say ``AS``, a duplicate from
another deck) in the middle of the deck; ``DECK_JAM=feed`` arms a jam for the first feed.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

from scanner.cards import BRIDGE_52, parse_card
from scanner.shoe.control import ControlChannel


def main() -> int:
    board, copy = int(os.environ["TABLESCAN_BOARD"]), int(os.environ["TABLESCAN_COPY"])
    deck = BRIDGE_52.cards()
    random.Random(board * 100 + copy).shuffle(deck)
    extra = os.environ.get("DECK_EXTRA")
    if extra:
        deck.insert(len(deck) // 2, parse_card(extra))
    folder = Path(os.environ.get("DECK_DIR") or tempfile.mkdtemp())
    path = folder / f"deck-{board}-{copy}.txt"
    path.write_text("".join(f"{card}\n" for card in deck), encoding="utf-8")
    with ControlChannel(os.environ["SIM_CONTROL"]) as control:
        control.command(f"deck {path}")
        if os.environ.get("DECK_JAM"):
            control.command(f"jam {os.environ['DECK_JAM']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
