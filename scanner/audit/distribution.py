"""A discrete null distribution on the integers, and its tail probabilities.

Every audit statistic is a whole number, so each null is a table of probabilities
indexed by value. Tails are summed from the table rather than approximated, so a
p-value is as exact as the table it comes from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class Distribution:
    """P(X = offset + i) = probs[i]. ``method`` says how the table was obtained."""

    probs: tuple[float, ...]
    offset: int = 0
    method: str = "exact"

    @classmethod
    def from_counts(cls, counts: Sequence[int], offset: int = 0,
                    method: str = "exact") -> Distribution:
        """Normalise whole-number counts exactly before rounding to floats."""
        total = sum(counts)
        return cls(tuple(float(Fraction(c, total)) for c in counts), offset, method)

    @classmethod
    def from_weights(cls, weights: np.ndarray, offset: int = 0,
                     method: str = "exact") -> Distribution:
        weights = np.asarray(weights, dtype=float)
        return cls(tuple((weights / weights.sum()).tolist()), offset, method)

    @property
    def support(self) -> range:
        return range(self.offset, self.offset + len(self.probs))

    def pmf(self, x: int) -> float:
        i = x - self.offset
        return self.probs[i] if 0 <= i < len(self.probs) else 0.0

    @cached_property
    def _lower_tails(self) -> np.ndarray:
        """P(X <= offset + i), summed from the left so small lower tails stay exact."""
        return np.cumsum(self.probs)

    @cached_property
    def _upper_tails(self) -> np.ndarray:
        """P(X >= offset + i), summed from the right so small upper tails stay exact."""
        return np.cumsum(self.probs[::-1])[::-1]

    def at_most(self, x: int) -> float:
        """P(X <= x)."""
        i = x - self.offset
        if i < 0:
            return 0.0
        return min(1.0, float(self._lower_tails[min(i, len(self.probs) - 1)]))

    def at_least(self, x: int) -> float:
        """P(X >= x)."""
        i = x - self.offset
        if i >= len(self.probs):
            return 0.0
        return min(1.0, float(self._upper_tails[max(i, 0)]))

    def two_sided(self, x: int) -> float:
        """Twice the smaller tail, capped at 1: the usual doubling rule for a discrete null."""
        return min(1.0, 2.0 * min(self.at_most(x), self.at_least(x)))

    def mean(self) -> float:
        return float(sum(p * x for x, p in zip(self.support, self.probs, strict=True)))

    def variance(self) -> float:
        mu = self.mean()
        return float(sum(p * (x - mu) ** 2 for x, p in zip(self.support, self.probs, strict=True)))

    def lower_critical(self, level: float) -> int | None:
        """The largest c with P(X <= c) <= level: "alarm if X <= c" at that level."""
        inside = int(np.searchsorted(self._lower_tails, level, side="right"))
        return self.offset + inside - 1 if inside else None

    def upper_critical(self, level: float) -> int | None:
        """The smallest c with P(X >= c) <= level: "alarm if X >= c" at that level."""
        inside = int(np.searchsorted(-self._upper_tails, -level, side="left"))
        return self.offset + inside if inside < len(self.probs) else None

    def alarm_region(self, tail: str, level: float) -> dict[str, int | None]:
        """The values that alarm at ``level``: ``lower`` tail, or ``two-sided`` (level split)."""
        if tail == "lower":
            return {"at_most": self.lower_critical(level)}
        return {"at_most": self.lower_critical(level / 2),
                "at_least": self.upper_critical(level / 2)}

    def p_value(self, tail: str, x: int) -> float:
        if tail == "lower":
            return self.at_most(x)
        return self.two_sided(x)

    def fold(self, mirror: int) -> Distribution:
        """The distribution of min(X, mirror - X): one statistic for both directions."""
        weights: dict[int, float] = {}
        for x, p in zip(self.support, self.probs, strict=True):
            folded = min(x, mirror - x)
            weights[folded] = weights.get(folded, 0.0) + p
        low, high = min(weights), max(weights)
        return Distribution(tuple(weights.get(x, 0.0) for x in range(low, high + 1)), low,
                            self.method)

    def sum_of(self, copies: int) -> Distribution:
        """The distribution of the sum of ``copies`` independent draws (by convolution)."""
        result = np.array([1.0])
        base = np.array(self.probs)
        power = base
        remaining = copies
        while remaining:
            if remaining & 1:
                result = np.convolve(result, power)
            remaining >>= 1
            if remaining:
                power = np.convolve(power, power)
        return Distribution(tuple(np.clip(result, 0.0, None).tolist()), self.offset * copies,
                            self.method)
