"""Verification bookkeeping for 1,000 boards: target ≤ 1 s (issue 5 §8).

The record is 1,000 seeded boards; the observed hands mix every status (matches, a 14–12,
a missing card, a card in two hands, rotations, swaps and a crash-shifted run), so every
path of the bookkeeping is timed. Prints the median of several runs and its ratio to a
baseline run in the same process: a bare loop asking whether each observed board's hands
equal the record's (what a "match or not" check with no diagnosis would cost).

    python3 bench/bridge_verify.py [--boards N] [--repeats R]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import replace

from scanner.bridge.board import Board
from scanner.bridge.dealset import generate
from scanner.bridge.verify import ObservedFile, verify_set


def damaged_copies(record: list[Board]) -> list[Board]:
    """Observed hands with every kind of fault spread through the set."""
    observed = []
    for i, board in enumerate(record):
        hands = [list(h) for h in board.hands]
        kind = i % 10
        if kind == 1:  # 14–12
            hands[1].append(hands[3].pop())
        elif kind == 2:  # a card missing
            hands[0].pop()
        elif kind == 3:  # a card in two hands
            hands[2].append(hands[0][0])
        elif kind == 4:  # rotated one seat
            hands = hands[3:] + hands[:3]
        elif kind == 5 and i > 0:  # holds the previous board
            hands = [list(h) for h in record[i - 1].hands]
        elif kind == 6 and i + 50 < len(record):  # holds a distant board
            hands = [list(h) for h in record[i + 50].hands]
        observed.append(replace(board, hands=tuple(tuple(h) for h in hands)))
    return observed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    record = generate(range(1, args.boards + 1), seed="bench-verify")
    observed = damaged_copies(record)
    source = ObservedFile({b.number: b for b in observed})
    statuses = Counter(r.status for r in verify_set(record, source))

    def bookkeeping() -> None:
        verify_set(record, source)

    def baseline() -> None:
        sum(set(o.hands[i]) == set(r.hands[i]) for r, o in zip(record, observed, strict=True)
            for i in range(4))

    times, cpu, base = [], [], []
    for _ in range(args.repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        bookkeeping()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        start = time.perf_counter()
        baseline()
        base.append(time.perf_counter() - start)
    median, base_median = statistics.median(times), statistics.median(base)
    print(f"verify {args.boards} boards ({dict(statistics_order(statuses))}): "
          f"median {median * 1000:.1f} ms wall, {statistics.median(cpu) * 1000:.1f} ms CPU "
          f"(target ≤ 1000 ms); bare equality loop "
          f"{base_median * 1000:.1f} ms; ratio {median / base_median:.1f}×")


def statistics_order(counts: Counter) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: -item[1])


if __name__ == "__main__":
    main()
