"""Exact null distributions of the dealing-order statistics under a uniformly random deck.

Nothing here is pasted in: each table is counted from first principles.

* Rising sequences: R - 1 is the number of descents of a uniform permutation, so R follows
  the Eulerian numbers, built by their recurrence.
* Neighbour counts: "how many of the n - 1 neighbouring pairs in the dealing order are
  edges of a graph G" (G = same suit, same suit and adjacent rank, identical pinochle copies,
  successor in the prior order). For a set S of j edges to be all adjacent at once, S must be
  a linear forest (disjoint paths); gluing each path into a block leaves (n - j)! orders,
  times 2 per path for its direction when the relation is symmetric. Summing over S gives the
  factorial moments, and inclusion-exclusion turns them into the exact distribution, in whole
  numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import comb, factorial

from .distribution import Distribution


@cache
def eulerian_numbers(n: int) -> tuple[int, ...]:
    """A(n, d) for d = 0..n-1: permutations of n items with d descents."""
    row = [1]
    for m in range(2, n + 1):
        nxt = [0] * m
        for d in range(m):
            stay = (d + 1) * row[d] if d < len(row) else 0
            grow = (m - d) * row[d - 1] if d >= 1 else 0
            nxt[d] = stay + grow
        row = nxt
    return tuple(row)


@cache
def rising_sequences_null(n: int) -> Distribution:
    """R = 1 + descents of the inverse permutation, for a uniform deck of n distinct cards."""
    return Distribution.from_counts(eulerian_numbers(n), offset=1)


@cache
def folded_rising_sequences_null(n: int) -> Distribution:
    """min(R, n + 1 - R): dealing the prior order backwards turns R into n + 1 - R."""
    return rising_sequences_null(n).fold(n + 1)


@cache
def suit_folded_rising_sequences_null(suits: int, per_suit: int) -> Distribution:
    """T = sum over suits of min(R_s, n_s + 1 - R_s).

    Under a uniform deck the relative orders inside disjoint suits are independent uniform
    permutations, so T is the sum of independent folded Eulerian variables.
    """
    return folded_rising_sequences_null(per_suit).sum_of(suits)


# --- neighbour counts -------------------------------------------------------------------

@dataclass(frozen=True)
class Component:
    """One connected piece of the neighbour graph: a path or a clique on ``size`` cards.

    ``directed`` paths count a pair only in the path's direction (successor pairs).
    """

    shape: str  # "path" or "clique"
    size: int
    directed: bool = False


def _path_forests(size: int, directed: bool) -> list[int]:
    """Weighted count, by number of edges j, of edge sets of a path that can all be adjacent."""
    edges = size - 1
    out = [0] * (edges + 1)
    out[0] = 1
    for j in range(1, edges + 1):
        for runs in range(1, j + 1):
            placements = comb(j - 1, runs - 1) * comb(edges - j + 1, runs)
            out[j] += placements * (1 if directed else 2 ** runs)
    return out


def _clique_forests(size: int) -> list[int]:
    """Weighted count of linear forests in a clique, by edges, each path counted per direction.

    A forest with j edges in c paths covers v = j + c vertices: choose them, order them (v!),
    cut into c segments of at least two (C(v - c - 1, c - 1)), forget the order of the paths
    (c!). The factor 1 / 2^c for undirected paths cancels the 2^c directions.
    """
    out = [0] * size
    out[0] = 1
    for j in range(1, size):
        for paths in range(1, j + 1):
            covered = j + paths
            if covered > size:
                break
            out[j] += (comb(size, covered) * factorial(covered)
                       * comb(covered - paths - 1, paths - 1) // factorial(paths))
    return out


def _component_forests(part: Component) -> list[int]:
    if part.shape == "path":
        return _path_forests(part.size, part.directed)
    if part.shape == "clique":
        return _clique_forests(part.size)
    raise ValueError(f"unknown neighbour-graph component shape {part.shape!r}")


def _multiply(a: Sequence[int], b: Sequence[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


@cache
def neighbour_count_null(n: int, components: tuple[Component, ...]) -> Distribution:
    """Exact distribution of the number of neighbouring pairs that are edges of the graph.

    ``components`` partition some of the n cards; cards outside them have no edges.
    """
    forests = [1]
    for part in components:
        forests = _multiply(forests, _component_forests(part))
    moments = [w * factorial(n - j) for j, w in enumerate(forests)]  # E[C(X, j)] * n!
    counts = [
        sum((-1) ** (j - k) * comb(j, k) * moments[j] for j in range(k, len(moments)))
        for k in range(len(moments))
    ]
    if sum(counts) != factorial(n) or min(counts) < 0:
        raise ArithmeticError("neighbour null does not sum to n!: the graph is not as described")
    while len(counts) > 1 and counts[-1] == 0:
        counts.pop()
    return Distribution.from_counts(counts)
