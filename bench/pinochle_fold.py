"""Table fold speed: how fast a restarted table rebuilds from its log (no target in the issue).

Builds an evening of simulated hands as events (deal, auction, trump, counters), then times
``fold`` over all of them: the work a restart or a page reload does. Baseline in the same
process: decoding the same events from their JSON, which any replay has to do anyway.

    python3 bench/pinochle_fold.py [--hands N] [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence

from scanner.app.terminal_demo import DemoTable
from scanner.events import Event, event_from_dict
from scanner.live import LiveTable
from scanner.pinochle.live_game import PinochleGame
from scanner.pinochle.table import TableState, apply, fold


class _Quiet:
    """A reporter that prints nothing."""

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


class MemoryLog:
    """Just enough of an event log (``scanner.live.EventSink``) to run the live table in
    memory. It has one writer, so ``expected_version`` never finds another's event."""

    session = "bench"

    def __init__(self) -> None:
        self.events: list[Event] = []

    def append_many(self, events: Sequence[Event], keys: Sequence[str | None] | None = None,
                    *, expected_version: int | None = None) -> list[int]:
        first = len(self.events) + 1
        self.events.extend(events)
        return list(range(first, len(self.events) + 1))

    def replay(self, from_seq: int = 0, session: str | None = None,
               ) -> Iterator[tuple[int, Event]]:
        start = max(from_seq, 1)
        return iter(list(enumerate(self.events[start - 1:], start=start)))

    def sessions(self) -> list[str]:
        return [self.session]

    def close(self) -> None:
        pass


def sitting(hands: int, seed: int = 7) -> list[list[Event]]:
    """An evening of ``hands`` simulated hands (deal, auction, trump, counters), hand by hand."""
    log = MemoryLog()
    table = LiveTable(lambda: log, PinochleGame())
    try:
        demo = DemoTable(table, _Quiet(), random.Random(seed))
        by_hand = []
        for _ in range(hands):
            before = len(log.events)
            demo.play_hand()
            by_hand.append(log.events[before:])
    finally:
        table.close()
    return by_hand


def median_seconds(work: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    events = [event for hand in sitting(args.hands) for event in hand]
    bodies = [json.dumps(e.to_dict()) for e in events]
    state = fold(events)
    assert not state.refused and len(state.sheet) == args.hands

    decode = median_seconds(lambda: [event_from_dict(json.loads(b)) for b in bodies],
                            args.repeats)
    full = median_seconds(lambda: fold(events), args.repeats)

    def one_by_one() -> None:
        state = TableState()
        for event in events:
            state = apply(state, event)
            state.to_dict()

    live = median_seconds(one_by_one, max(1, args.repeats // 2))
    n = len(events)
    print(f"table fold, {args.hands} hands = {n} events, median of {args.repeats} runs")
    print(f"  baseline: decode JSON      {n / decode:>10,.0f} events/s")
    print(f"  fold (restart)             {n / full:>10,.0f} events/s  "
          f"x{decode / full:.2f} baseline")
    print(f"  apply + to_dict per event  {n / live:>10,.0f} events/s  "
          f"x{decode / live:.2f} baseline ({live / n * 1e3:.2f} ms per event)")


if __name__ == "__main__":
    main()
