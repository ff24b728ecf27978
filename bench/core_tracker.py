"""Card events through the deal tracker, in one process. Target: at least 100,000 events/s.

Prints the median of several runs for: a bare loop over the same events (the floor Python
allows), the tracker's per-event path alone, and whole deals (tracker built, fed, finished,
including the end-of-deal checks). Also measures the unshuffled-deck detector's false-alarm
rate on shuffled decks.

    python bench/core_tracker.py [--deals N] [--runs R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scanner.cards import Seat
from scanner.events import CardDelivered, HandStarted, Marker
from scanner.tracker import DealTracker, check_deal, rules_for_game

TARGET_EVENTS_PER_S = 100_000


def make_deals(n: int, seed: int = 1, games: tuple[str, ...] = ("pinochle", "bridge"),
               ) -> list[tuple[HandStarted, list]]:
    rng = random.Random(seed)
    deals = []
    for i in range(n):
        game = games[i % len(games)]
        rules = rules_for_game(game)
        cards = rules.deck.cards()
        rng.shuffle(cards)
        dealer = rng.choice(list(Seat))
        packet = rules.default_packet
        seats = dealer.left.clockwise_from()
        events = [CardDelivered(card, seats[(j // packet) % 4]) for j, card in enumerate(cards)]
        events.append(Marker(rules.marker))
        deals.append((HandStarted(game=game, dealer=dealer, packet=packet), events))
    return deals


def bare_loop(deals) -> int:
    n = 0
    for _, events in deals:
        for event in events:
            if type(event) is CardDelivered:
                n += 1
    return n


def feed_only(deals) -> int:
    trackers = [DealTracker.for_hand(header) for header, _ in deals]
    start = time.perf_counter()
    for tracker, (_, events) in zip(trackers, deals, strict=True):
        feed = tracker.feed
        for event in events:
            feed(event)
    return time.perf_counter() - start


def whole_deals(deals) -> None:
    for header, events in deals:
        result = check_deal(header, events)
        assert result.verdict.status == "ok", result.verdict


def median_seconds(fn, deals, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        out = fn(deals)
        elapsed = time.perf_counter() - start
        times.append(out if isinstance(out, float) else elapsed)
    return statistics.median(times)


def false_alarms(game: str, trials: int) -> int:
    """Shuffled decks dealt by the rules that the tracker calls unshuffled."""
    return sum(any(f.rule in ("Law 6D2", "Setup & Deal: Shuffle and cut")
                   for f in check_deal(header, events).findings)
               for header, events in make_deals(trials, seed=7, games=(game,)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--alarm-trials", type=int, default=20000)
    args = parser.parse_args()
    deals = make_deals(args.deals)
    events = sum(len(e) for _, e in deals)
    print(f"{args.deals} deals (half pinochle, half bridge), {events} events, "
          f"median of {args.runs} runs")
    base = median_seconds(bare_loop, deals, args.runs)
    feed = median_seconds(feed_only, deals, args.runs)
    whole = median_seconds(whole_deals, deals, args.runs)
    print(f"  {'bare loop (baseline)':36s} {events / base:12,.0f} events/s")
    for name, seconds in (("tracker.feed, one call per event", feed),
                          ("check_deal: build, feed_all, finish", whole)):
        rate = events / seconds
        verdict = "meets" if rate >= TARGET_EVENTS_PER_S else "BELOW"
        print(f"  {name:36s} {rate:12,.0f} events/s  {seconds / base:6.1f}x baseline time  "
              f"{verdict} {TARGET_EVENTS_PER_S:,}/s")
    for game in ("bridge", "pinochle"):
        alarms = false_alarms(game, args.alarm_trials)
        print(f"  unshuffled-deck alarms on {args.alarm_trials} shuffled {game} decks: {alarms}")


if __name__ == "__main__":
    main()
