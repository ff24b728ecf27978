"""The live table's cost per event at hand 1 and at hand 40 of a sitting: it should not grow.

The live host (``scanner.live.LiveTable``) folds each new event into the state once, so a card
late in a long evening costs what a card of the first hand did. The bench plays a sitting of
simulated hands, then, on a real event log in a temporary folder, times ``record`` (append
to the log, read back what is new, fold it in) for every event of hand 1 on a fresh table and of
hand N on a table that already holds hands 1 to N-1. Baseline in the same run: folding the
whole sitting again for each event, as the live table did before, at the same two points.

    python3 bench/live_table.py [--hands 40] [--rounds 5] [--dir DIR]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from pinochle_fold import sitting

from scanner.events import Event
from scanner.live import LiveTable
from scanner.log import EventLog
from scanner.pinochle.live_game import PinochleGame
from scanner.pinochle.table import fold

SESSION = "bench"


def per_event_record(db: Path, earlier: Sequence[Event], hand: Sequence[Event]) -> float:
    """Median seconds of ``record`` per event of ``hand``, after ``earlier``."""
    with EventLog(db, session=SESSION) as log:
        for event in earlier:
            log.append(event)
    table = LiveTable(lambda: EventLog(db, session=SESSION), PinochleGame())
    try:
        times = []
        for event in hand:
            start = time.perf_counter()
            table.record([event])
            times.append(time.perf_counter() - start)
    finally:
        table.close()
    return statistics.median(times)


def per_event_apply(earlier: Sequence[Event], hand: Sequence[Event]) -> float:
    """Median seconds of the game's ``apply`` alone per event of ``hand``, after ``earlier``:
    the fold step without the log's disk writes, whose noise is far larger."""
    game = PinochleGame()
    state = game.initial()
    for event in earlier:
        state = game.apply(state, event)
    times = []
    for event in hand:
        start = time.perf_counter()
        state = game.apply(state, event)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def per_event_refold(earlier: Sequence[Event], hand: Sequence[Event]) -> float:
    """Median seconds per event of ``hand`` when every event refolds the sitting so far."""
    so_far = list(earlier)
    times = []
    for event in hand:
        so_far.append(event)
        start = time.perf_counter()
        fold(so_far)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds, hand 1 and hand N alternating (default 5)")
    parser.add_argument("--dir", type=Path, help="folder for the logs (default: a temp folder)")
    args = parser.parse_args()
    hands = sitting(args.hands)
    before_last = [event for hand in hands[:-1] for event in hand]
    firsts, lasts = [], []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        # Alternating, so a machine that slows down for a while slows both alike.
        for round_ in range(args.rounds):
            firsts.append(per_event_record(Path(tmp) / f"first-{round_}.sqlite", [], hands[0]))
            lasts.append(per_event_record(Path(tmp) / f"last-{round_}.sqlite", before_last,
                                          hands[-1]))
    first, last = statistics.median(firsts), statistics.median(lasts)
    apply_first = per_event_apply([], hands[0])
    apply_last = per_event_apply(before_last, hands[-1])
    refold_first = per_event_refold([], hands[0])
    refold_last = per_event_refold(before_last, hands[-1])
    print(f"live table, cost per event (median of {args.rounds} rounds' medians), sitting of "
          f"{args.hands} hands ({len(before_last) + len(hands[-1])} events)")
    print(f"  record (append, read back, fold in): hand 1 {first * 1e3:7.3f} ms, hand {args.hands} "
          f"{last * 1e3:7.3f} ms, ratio x{last / first:.2f}")
    print(f"  the fold step alone: hand 1 {apply_first * 1e6:7.1f} µs, hand {args.hands} "
          f"{apply_last * 1e6:7.1f} µs, ratio x{apply_last / apply_first:.2f}")
    print(f"  baseline, refold the sitting per event: hand 1 {refold_first * 1e3:7.3f} ms, "
          f"hand {args.hands} {refold_last * 1e3:7.3f} ms, ratio x{refold_last / refold_first:.2f}")


if __name__ == "__main__":
    main()
