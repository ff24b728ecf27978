"""A dealing process for the crash test: deals a known shuffled pack card by card into the log.

    python core_crash_dealer.py LOG HAND SEED DELAY [DURABILITY]

It finds from the log alone how far the hand got, re-sends the last card it logged (as a shoe
does after a reset, not knowing whether the host got it), then carries on. After each append
returns it prints ``ack ORDINAL SEQ`` and flushes, so the parent knows what was acknowledged.
"""

from __future__ import annotations

import random
import sys
import time

from scanner.cards import BRIDGE_52, Seat
from scanner.events import CardDelivered, HandStarted
from scanner.log import EventLog


def pack(seed: int):
    cards = BRIDGE_52.cards()
    random.Random(seed).shuffle(cards)
    return cards


def dealt_so_far(log: EventLog, hand: str) -> int:
    """How many cards of ``hand`` the log holds: the count of its keyed deliveries."""
    ordinal = 0
    while log.seq_of(f"{hand}:card:{ordinal:02d}") is not None:
        ordinal += 1
    return ordinal


def main(path: str, hand: str, seed: int, delay: float, durability: str) -> None:
    cards = pack(seed)
    seats = Seat.N.left.clockwise_from()
    with EventLog(path, durability=durability) as log:
        log.append(HandStarted(game="bridge", dealer=Seat.N, packet=1), key=f"{hand}:start")
        start = max(dealt_so_far(log, hand) - 1, 0)
        for ordinal in range(start, len(cards)):
            event = CardDelivered(cards[ordinal], seats[ordinal % 4])
            seq = log.append(event, key=f"{hand}:card:{ordinal:02d}")
            print(f"ack {ordinal} {seq}", flush=True)
            time.sleep(delay)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]),
         sys.argv[5] if len(sys.argv) > 5 else "power")
