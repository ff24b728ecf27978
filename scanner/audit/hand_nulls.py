"""Exact null distributions of the hand-shape statistics under random dealing.

A deal's shape is its 4 x 4 table of suit lengths (hands by suits). The number of deals with
a given table is the product over suits of the multinomial 13! / prod(lengths!), so every
shape probability is exact combinatorics. Both session statistics add up over the cells of
that table (freakness) or over suits (a 10+ card fit), so a deal's distribution is the sum,
over pairs of "two suits" half-tables whose hand totals complement each other, of their
product. The boards of a set are independent, so a session's null is a convolution
(freakness) or a binomial (big-fit count).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from math import comb, factorial

import numpy as np

from .distribution import Distribution

BIG_FIT = 10  # cards in one suit held by a partnership: the director's "six or seven" deals


def suit_freakness(length: int) -> int:
    """Pavlicek's freakness of one suit in one hand: distance from 3-4, plus void/singleton."""
    return max(0, length - 4) + max(0, 3 - length) + {0: 2, 1: 1}.get(length, 0)


def hand_freakness(lengths: Sequence[int]) -> int:
    return sum(suit_freakness(n) for n in lengths)


def has_big_fit(table: Sequence[Sequence[int]]) -> bool:
    """``table[hand][suit]`` with hands in N E S W order: does N-S or E-W hold 10+ of a suit?"""
    return any(table[0][s] + table[2][s] >= BIG_FIT or table[1][s] + table[3][s] >= BIG_FIT
               for s in range(len(table[0])))


@dataclass(frozen=True)
class DealNull:
    """Per-deal freakness distribution and the chance of a 10+ fit, for one deck shape."""

    freakness: Distribution
    big_fit: float


def _splits(cards: int, hands: int) -> np.ndarray:
    """Every way to share one suit's cards among the hands, as rows of lengths."""
    rows = [r for r in product(range(cards + 1), repeat=hands - 1) if sum(r) <= cards]
    return np.array([(*r, cards - sum(r)) for r in rows], dtype=np.int64)


@cache
def deal_null(suit_size: int = 13, hand_size: int = 13) -> DealNull:
    """Exact per-deal null for four hands dealt from four suits of ``suit_size`` cards."""
    splits = _splits(suit_size, 4)
    weight = np.array([factorial(suit_size) / np.prod([factorial(x) for x in row])
                       for row in splits])
    freak = np.array([sum(suit_freakness(x) for x in row) for row in splits])
    fit = (splits[:, 0] + splits[:, 2] >= BIG_FIT) | (splits[:, 1] + splits[:, 3] >= BIG_FIT)

    # Half-tables: two suits at once, keyed by the four hands' running totals.
    i, j = np.meshgrid(np.arange(len(splits)), np.arange(len(splits)), indexing="ij")
    i, j = i.ravel(), j.ravel()
    totals = splits[i] + splits[j]
    base = 2 * suit_size + 1
    key = ((totals[:, 0] * base + totals[:, 1]) * base + totals[:, 2]) * base + totals[:, 3]
    max_freak = int(freak.max()) * 2 + 1
    cell = (key * max_freak + freak[i] + freak[j]) * 2 + (fit[i] | fit[j])
    half = np.bincount(cell, weights=weight[i] * weight[j],
                       minlength=base ** 4 * max_freak * 2).reshape(base ** 4, max_freak, 2)

    # Join each half-table with the one whose totals bring every hand to hand_size.
    width = 2 * max_freak - 1
    freak_counts = np.zeros(width)
    fit_free = np.zeros(width)
    for totals_key in np.unique(key):
        t = np.array(np.unravel_index(totals_key, (base,) * 4))
        rest = hand_size - t
        if (rest < 0).any() or (rest > 2 * suit_size).any():
            continue
        other = np.ravel_multi_index(tuple(rest), (base,) * 4)
        a, b = half[totals_key], half[other]
        freak_counts += np.convolve(a.sum(axis=1), b.sum(axis=1))
        fit_free += np.convolve(a[:, 0], b[:, 0])
    total = freak_counts.sum()
    expected = factorial(4 * suit_size) / factorial(hand_size) ** 4
    if not np.isclose(total, expected, rtol=1e-9):
        raise ArithmeticError(f"deal null counts {total:.6g} deals, expected {expected:.6g}")
    return DealNull(Distribution.from_weights(freak_counts), float(1.0 - fit_free.sum() / total))


def session_freakness_null(boards: int) -> Distribution:
    """Total freakness of ``boards`` independent random bridge deals."""
    return deal_null().freakness.sum_of(boards)


def session_big_fit_null(boards: int) -> Distribution:
    """Number of deals, out of ``boards``, in which a partnership holds a 10+ card fit."""
    p = deal_null().big_fit
    return Distribution(tuple(comb(boards, k) * p ** k * (1 - p) ** (boards - k)
                              for k in range(boards + 1)))


def hand_pattern_probabilities(suit_size: int = 13, hand_size: int = 13) -> dict[str, float]:
    """Exact probability of each suit-length pattern ("4-4-3-2") of one hand."""
    deck = 4 * suit_size
    out: dict[str, float] = {}
    for lengths in product(range(min(suit_size, hand_size) + 1), repeat=4):
        if sum(lengths) != hand_size:
            continue
        ways = 1
        for n in lengths:
            ways *= comb(suit_size, n)
        pattern = "-".join(str(n) for n in sorted(lengths, reverse=True))
        out[pattern] = out.get(pattern, 0.0) + ways / comb(deck, hand_size)
    return out
