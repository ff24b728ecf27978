"""Meld evaluation speed: target >= 20,000 hands per second (issue §8).

Prints medians over repeated runs for: meld from the 24-count vector (what the table keeps
per player), meld from a list of cards (counting included), meld with its JSON breakdown
(what the page shows), and the best of four trumps. The baseline, run in the same process, is
a direct Counter-based evaluation of the same rules; its totals are checked against the real
evaluator on every hand first, so the two are timed doing the same job.

    python3 bench/pinochle_meld.py [--hands N] [--repeats R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence

from scanner.cards import PINOCHLE_48, Card, Rank, Suit
from scanner.pinochle.meld import best_trump, evaluate, evaluate_counts, hand_counts
from scanner.pinochle.options import MODERN_MELD

RUN = (Rank.A, Rank.T, Rank.K, Rank.Q, Rank.J)
AROUND = {Rank.A: "aces-around", Rank.K: "kings-around", Rank.Q: "queens-around",
          Rank.J: "jacks-around"}


def baseline_total(cards: Sequence[Card], trump: Suit) -> int:
    """The default rules written the obvious way, over a Counter of cards."""
    held = Counter(cards)
    value = MODERN_MELD.values
    points = 0
    runs = min(held[Card(r, trump)] for r in RUN)
    if runs:
        points += value["run"][runs - 1]
    for suit in Suit:
        marriages = min(held[Card(Rank.K, suit)], held[Card(Rank.Q, suit)])
        if suit == trump:
            marriages -= runs
            points += marriages * value["royal-marriage"][0]
        else:
            points += marriages * value["marriage"][0]
    points += held[Card(Rank.R9, trump)] * value["dix"][0]
    for rank, kind in AROUND.items():
        n = min(held[Card(rank, suit)] for suit in Suit)
        if n:
            points += value[kind][n - 1]
    pinochles = min(held[Card(Rank.Q, Suit.S)], held[Card(Rank.J, Suit.D)])
    if pinochles:
        points += value["pinochle"][pinochles - 1]
    return points


def rate(work: Callable[[], object], n: int, repeats: int) -> float:
    """Median hands per second over ``repeats`` timed runs of ``work`` (``n`` hands each)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return n / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    rnd = random.Random(2024)
    deck = PINOCHLE_48.cards()
    hands, trumps = [], []
    for _ in range(args.hands):
        rnd.shuffle(deck)
        hands.append(deck[:12])
        trumps.append(rnd.choice(list(Suit)))
    counts = [hand_counts(h) for h in hands]
    pairs = list(zip(hands, trumps, strict=True))
    count_pairs = list(zip(counts, trumps, strict=True))

    mismatches = sum(evaluate(h, t).total != baseline_total(h, t) for h, t in pairs)
    if mismatches:
        raise SystemExit(f"baseline disagrees with the evaluator on {mismatches} hands")

    n = args.hands
    figures = {
        "baseline (Counter, total only)": rate(
            lambda: [baseline_total(h, t) for h, t in pairs], n, args.repeats),
        "meld from counts": rate(
            lambda: [evaluate_counts(c, t).total for c, t in count_pairs], n, args.repeats),
        "meld from cards": rate(
            lambda: [evaluate(h, t).total for h, t in pairs], n, args.repeats),
        "meld with JSON breakdown": rate(
            lambda: [evaluate(h, t).to_dict() for h, t in pairs], n, args.repeats),
        "best of four trumps": rate(lambda: [best_trump(h) for h in hands], n, args.repeats),
    }
    baseline = figures["baseline (Counter, total only)"]
    print(f"meld evaluation, {n} random hands, median of {args.repeats} runs "
          f"(target >= 20,000 hands/s)")
    for name, hands_per_second in figures.items():
        print(f"  {name:32s} {hands_per_second:>10,.0f} hands/s  "
              f"x{hands_per_second / baseline:.2f} baseline")


if __name__ == "__main__":
    main()
