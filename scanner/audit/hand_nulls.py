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


SHORTNESS_BONUS = {0: 2, 1: 1}  # a void, a singleton


def suit_freakness(length: int) -> int:
    """Pavlicek's freakness of one suit in one hand: distance from 3-4, plus void/singleton."""
    return max(0, length - 4) + max(0, 3 - length) + SHORTNESS_BONUS.get(length, 0)


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

    # Half-tables: two suits at once, keyed by the four hands' running totals. Only totals
    # that leave room in every hand can meet a complementary half-table.
    i, j = np.meshgrid(np.arange(len(splits)), np.arange(len(splits)), indexing="ij")
    i, j = i.ravel(), j.ravel()
    totals = splits[i] + splits[j]
    room = (totals <= hand_size).all(axis=1)
    i, j, totals = i[room], j[room], totals[room]
    base = hand_size + 1
    key = ((totals[:, 0] * base + totals[:, 1]) * base + totals[:, 2]) * base + totals[:, 3]
    keys, row = np.unique(key, return_inverse=True)
    width = int(freak.max()) * 2 + 1
    cell = (row * width + freak[i] + freak[j]) * 2 + (fit[i] | fit[j])
    half = np.bincount(cell, weights=weight[i] * weight[j],
                       minlength=len(keys) * width * 2).reshape(len(keys), width, 2)

    # Join each half-table with the one whose totals bring every hand to hand_size:
    # totals t and hand_size - t, whose key is the all-hand_size key minus t's.
    full = ((hand_size * base + hand_size) * base + hand_size) * base + hand_size
    other = np.minimum(np.searchsorted(keys, full - keys), len(keys) - 1)
    meets = keys[other] == full - keys
    everything, fit_free = half.sum(axis=2), half[:, :, 0]
    freak_counts = _sum_of_products(everything[meets], everything[other[meets]])
    no_fit_counts = _sum_of_products(fit_free[meets], fit_free[other[meets]])
    total = freak_counts.sum()
    expected = factorial(4 * suit_size) / factorial(hand_size) ** 4
    if not np.isclose(total, expected, rtol=1e-9):
        raise ArithmeticError(f"deal null counts {total:.6g} deals, expected {expected:.6g}")
    big_fit = float(1.0 - no_fit_counts.sum() / total)
    return DealNull(Distribution.from_weights(freak_counts), big_fit)


def _sum_of_products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sum over rows u of the polynomial product a[u] * b[u] (coefficients by freakness)."""
    outer = np.einsum("uf,ug->fg", a, b)
    flipped = outer[:, ::-1]
    size = outer.shape[0]
    return np.array([np.trace(flipped, offset=size - 1 - k) for k in range(2 * size - 1)])


@cache
def session_freakness_null(boards: int) -> Distribution:
    """Total freakness of ``boards`` independent random bridge deals."""
    return deal_null().freakness.sum_of(boards)


@cache
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
