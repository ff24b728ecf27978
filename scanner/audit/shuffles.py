"""Models of how people shuffle, used to measure what the audit can detect.

These simulate decks; the audit never calls them. The riffle is the Gilbert-Shannon-Reeds
model (cut binomially, drop cards from each half in proportion to its size), which Bayer and
Diaconis showed matches real riffles well. The closed forms below give the exact law of the
number of rising sequences after k riffles, so simulated power can be checked against them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb, factorial
from typing import TypeVar

from ..cards import Card, Suit
from .order_nulls import eulerian_numbers
from .statistics import ACE_LOW_RANKS

T = TypeVar("T")

# A US new pack, face down, top first: A-K of spades, A-K of diamonds, K-A of clubs and of
# hearts. Makers differ, which is why the new-pack test does not assume this order.
NEW_DECK_ORDER: tuple[Card, ...] = (
    *(Card(r, Suit.S) for r in ACE_LOW_RANKS),
    *(Card(r, Suit.D) for r in ACE_LOW_RANKS),
    *(Card(r, Suit.C) for r in reversed(ACE_LOW_RANKS)),
    *(Card(r, Suit.H) for r in reversed(ACE_LOW_RANKS)),
)


def riffle(deck: Sequence[T], rng: random.Random) -> list[T]:
    """One GSR riffle: a binomial cut, then cards fall from each packet with probability
    proportional to the packet's size."""
    cut = sum(rng.random() < 0.5 for _ in deck)
    left, right = list(deck[:cut]), list(deck[cut:])
    out: list[T] = []
    i = j = 0
    while i < len(left) or j < len(right):
        remaining_left, remaining_right = len(left) - i, len(right) - j
        if rng.random() * (remaining_left + remaining_right) < remaining_left:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out


def neat_riffle(deck: Sequence[T], rng: random.Random, *, cut_spread: int = 2,
                pair_chance: float = 0.2) -> list[T]:
    """A practised dealer's riffle: a cut within a few cards of the middle, and the halves
    alternating card by card, now and then two at once. Far from GSR-random: neat riffles
    of a new pack are what make hands "too wild"."""
    middle = len(deck) // 2 + rng.randint(-cut_spread, cut_spread)
    halves = [list(deck[:middle]), list(deck[middle:])]
    side = rng.randrange(2)
    out: list[T] = []
    while halves[0] or halves[1]:
        if not halves[side]:
            side = 1 - side
        drop = 2 if rng.random() < pair_chance else 1
        out.extend(halves[side][:drop])
        del halves[side][:drop]
        side = 1 - side
    return out


def riffles(deck: Sequence[T], times: int, rng: random.Random) -> list[T]:
    out = list(deck)
    for _ in range(times):
        out = riffle(out, rng)
    return out


def cut(deck: Sequence[T], rng: random.Random) -> list[T]:
    """A cut somewhere near the middle, as a player offers it."""
    at = rng.randint(len(deck) // 4, 3 * len(deck) // 4)
    return list(deck[at:]) + list(deck[:at])


def gsr_probability(n: int, riffles: int, rising: int) -> float:
    """P(one given permutation with ``rising`` rising sequences) after k GSR riffles:
    C(2^k + n - r, n) / 2^(kn)."""
    return comb(2 ** riffles + n - rising, n) / 2 ** (riffles * n)


def rising_sequences_after(n: int, riffles: int) -> list[float]:
    """P(R = r) for r = 1..n after k riffles of a deck in the prior order."""
    counts = eulerian_numbers(n)
    return [counts[r - 1] * gsr_probability(n, riffles, r) for r in range(1, n + 1)]


def expected_rising_sequences(n: int, riffles: int) -> float:
    return sum(r * p for r, p in enumerate(rising_sequences_after(n, riffles), start=1))


def total_variation(n: int, riffles: int) -> float:
    """Distance from uniform after k riffles: half the sum over permutations of |P - 1/n!|."""
    uniform = 1 / factorial(n)
    counts = eulerian_numbers(n)
    return 0.5 * sum(counts[r - 1] * abs(gsr_probability(n, riffles, r) - uniform)
                     for r in range(1, n + 1))


def gathered_from_tricks(hands: Sequence[Sequence[Card]], rng: random.Random) -> list[Card]:
    """The deck as a table gathers it after play: 13 tricks of four, players following suit.

    Each trick's leader plays a random card; the others follow suit with a random card of it
    when they can. Tricks go on the pile in the order played.
    """
    holding = [list(h) for h in hands]
    leader = rng.randrange(len(holding))
    pile: list[Card] = []
    while any(holding):
        led = holding[leader].pop(rng.randrange(len(holding[leader])))
        trick = [led]
        for step in range(1, len(holding)):
            hand = holding[(leader + step) % len(holding)]
            following = [c for c in hand if c.suit is led.suit] or hand
            card = rng.choice(following)
            hand.remove(card)
            trick.append(card)
        pile.extend(trick)
        leader = rng.randrange(len(holding))
    return pile


def deal_round_robin(deck: Sequence[T], hands: int = 4, packet: int = 1) -> list[list[T]]:
    """Deal the deck in turn, ``packet`` cards at a time, starting with the first hand."""
    out: list[list[T]] = [[] for _ in range(hands)]
    for start in range(0, len(deck), packet):
        out[(start // packet) % hands].extend(deck[start:start + packet])
    return out

