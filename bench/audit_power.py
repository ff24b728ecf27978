"""What the audit detects, and how often it cries wolf: power and false-alarm tables.

Every figure is simulated from a fixed seed (the riffle is the GSR model) at the default
overall false-alarm rate of 1e-3, except the "exact" column, which is the closed-form power
of the rising-sequences test alone at its own level.

    python3 bench/audit_power.py [decks-per-point]
"""

from __future__ import annotations

import random
import sys
import time

from scanner.audit import NEW_PACK, NO_PRIOR, DealtOrder, Prior, audit_boards, audit_orders
from scanner.audit.order_nulls import folded_rising_sequences_null
from scanner.audit.shuffles import (
    NEW_DECK_ORDER,
    deal_round_robin,
    gathered_from_tricks,
    neat_riffle,
    riffles,
    rising_sequences_after,
)
from scanner.cards import BRIDGE_52, PINOCHLE_48, Card, DeckSpec

STATED = Prior("stated", NEW_DECK_ORDER, "new deck order")
RATE = 1e-3
BOARDS = 16


def _order_alarm_rate(decks: list[list[Card]], prior: Prior, deck: DeckSpec = BRIDGE_52) -> float:
    alarms = sum(audit_orders([DealtOrder(tuple(d), deck, {})], prior, RATE).alarm
                 for d in decks)
    return alarms / len(decks)


def _exact_rising_power(times: int, level: float) -> float:
    """P(min(R, 53 - R) <= c) after k riffles, c the critical value at ``level``."""
    c = folded_rising_sequences_null(52).lower_critical(level)
    law = rising_sequences_after(52, times)
    return sum(p for r, p in enumerate(law, start=1) if min(r, 53 - r) <= c)


def _random_deal(rng: random.Random) -> list[list[Card]]:
    deck = BRIDGE_52.cards()
    rng.shuffle(deck)
    return deal_round_robin(deck)


def _set_alarm_rates(make_deck, sets: int, rng: random.Random) -> dict[str, float]:
    counts = {"session-freakness": 0, "session-big-fits": 0, "any": 0}
    for _ in range(sets):
        boards = [deal_round_robin(make_deck(rng)) for _ in range(BOARDS)]
        report = audit_boards(boards, list(range(1, BOARDS + 1)), RATE)
        for test in report.tests:
            counts[test.name] += test.alarm
        counts["any"] += report.alarm
    return {name: n / sets for name, n in counts.items()}


def main(per_point: int) -> None:
    started = time.perf_counter()
    rng = random.Random(20261130)
    rising_level = RATE * 2 / 5  # its weighted-Bonferroni share among the stated-prior tests

    print(f"Order-based audit, bridge, GSR riffles of a new pack ({per_point} decks a point, "
          f"overall rate {RATE:g})")
    print("riffles | new-pack prior (T) | stated prior | rising sequences alone, exact")
    for times in range(0, 8):
        decks = [riffles(NEW_DECK_ORDER, times, rng) for _ in range(per_point)]
        print(f"{times:7} | {_order_alarm_rate(decks, NEW_PACK):18.3f} | "
              f"{_order_alarm_rate(decks, STATED):12.3f} | "
              f"{_exact_rising_power(times, rising_level):.3f}")

    print("\nOrder-based audit, deck gathered from 13 played tricks, then k riffles (no prior)")
    for times in range(0, 4):
        decks = [riffles(gathered_from_tricks(_random_deal(rng), rng), times, rng)
                 for _ in range(per_point)]
        print(f"  {times} riffles: alarm rate {_order_alarm_rate(decks, NO_PRIOR):.3f}")

    print("\nOrder-based audit, pinochle, sorted pack (copies together), k riffles")
    for times in range(0, 5):
        decks = [riffles(PINOCHLE_48.cards(), times, rng) for _ in range(per_point)]
        print(f"  {times} riffles: alarm rate "
              f"{_order_alarm_rate(decks, NEW_PACK, PINOCHLE_48):.3f}")

    sets = max(per_point // 2, 50)
    print(f"\nHand-only audit of {BOARDS}-board sets ({sets} sets a row): alarm rates")
    scenarios = {
        "tricks gathered, no shuffle": lambda r: gathered_from_tricks(_random_deal(r), r),
        "tricks gathered, 1 riffle": lambda r: riffles(
            gathered_from_tricks(_random_deal(r), r), 1, r),
        "new pack, 1 neat riffle": lambda r: neat_riffle(NEW_DECK_ORDER, r),
        "new pack, 2 neat riffles": lambda r: neat_riffle(neat_riffle(NEW_DECK_ORDER, r), r),
        "new pack, 2 riffles": lambda r: riffles(NEW_DECK_ORDER, 2, r),
        "new pack, 3 riffles": lambda r: riffles(NEW_DECK_ORDER, 3, r),
    }
    for name, make_deck in scenarios.items():
        rates = _set_alarm_rates(make_deck, sets, rng)
        print(f"  {name:26} freakness {rates['session-freakness']:.3f}  big fits "
              f"{rates['session-big-fits']:.3f}  any {rates['any']:.3f}")

    print(f"\nFalse alarms on uniformly random decks and sets ({4 * per_point} each, "
          f"stated rate {RATE:g})")
    decks = []
    for _ in range(4 * per_point):
        deck = BRIDGE_52.cards()
        rng.shuffle(deck)
        decks.append(deck)
    for label, prior in (("new-pack prior", NEW_PACK), ("stated prior", STATED),
                         ("no prior", NO_PRIOR)):
        print(f"  bridge order, {label:15} {_order_alarm_rate(decks, prior):.4f}")
    pinochle = []
    for _ in range(4 * per_point):
        deck = PINOCHLE_48.cards()
        rng.shuffle(deck)
        pinochle.append(deck)
    rate = _order_alarm_rate(pinochle, NEW_PACK, PINOCHLE_48)
    print(f"  pinochle order               {rate:.4f}")
    rates = _set_alarm_rates(lambda r: [c for h in _random_deal(r) for c in h], 4 * per_point,
                             rng)
    print(f"  {BOARDS}-board sets, hands only     {rates['any']:.4f}")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
