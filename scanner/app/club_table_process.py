"""A simulated club table: deals hands into its own SQLite log and ships it to the club.

A process of its own, so a test can SIGKILL it mid-deal and start it again on the same log,
and a bench can run thirty at once. Every event is logged under an idempotency key (deal
number / event number), so a restarted table replays its script and logs only what it had not
logged yet: it carries on mid-deal. For the club's tests and benches, not for people.

    python -m scanner.app.club_table_process --db FILE --club URL --token TOKEN --deals N
        [--pace S] [--seed K] [--session NAME] [--poll S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from ..cards import PINOCHLE_48, Seat
from ..club.access import parse_token
from ..club.shipper import Shipper
from ..events import Bid, CardDelivered, Event, HandStarted, Marker, Pass
from ..log import EventLog

SEATS = list(Seat)


def deal_events(rng: random.Random, dealer: Seat) -> list[Event]:
    """One pinochle hand as a table logs it: start, 48 deliveries in threes, an auction."""
    deck = PINOCHLE_48.cards()
    rng.shuffle(deck)
    events: list[Event] = [HandStarted("pinochle", dealer, 3)]
    left = SEATS.index(dealer) + 1
    for i, card in enumerate(deck):
        events.append(CardDelivered(card, SEATS[(left + i // 3) % 4]))
    events += [Marker("auction-started"), Bid(SEATS[left % 4], 250), Pass(SEATS[(left + 1) % 4])]
    return events


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scanner.app.club_table_process")
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--club", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between events")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--session", default="club-night")
    parser.add_argument("--poll", type=float, default=0.02,
                        help="the shipper's poll interval (the shipped default is 0.05); each "
                             "event also wakes it")
    args = parser.parse_args(argv)
    shipper = None
    # "process" durability: an appended event survives SIGKILL, which is what the tests do,
    # without a disk sync per event for twenty tables on one test machine.
    with EventLog(args.db, session=args.session, durability="process") as log:
        shipper = Shipper(args.db, args.club, parse_token(args.token),
                          poll_interval=args.poll).start()
        rng = random.Random(args.seed)
        for deal in range(args.deals):
            for i, event in enumerate(deal_events(rng, SEATS[deal % 4])):
                log.append(event, key=f"deal{deal}/{i}")
                # Ship now, so a long --poll costs no latency, only fewer idle wake-ups.
                shipper.nudge()
                if args.pace:
                    time.sleep(args.pace)
        print("dealt", flush=True)
        drained = shipper.stop(drain_timeout=60)
    print("shipped" if drained else "not shipped", flush=True)
    return 0 if drained else 1


if __name__ == "__main__":
    sys.exit(main())
