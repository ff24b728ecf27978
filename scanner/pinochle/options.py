"""The table's settings for a pinochle game, as data with the defaults marked.

Every value a table may change lives here, never in the code that uses it: the meld
scale and which optional melds are on, the counter count, the game target, the
minimum bid and the stick-the-dealer amount, and whether concession is allowed.
The defaults are those of common four-handed partnership pinochle and its "Setup & Deal" rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..cards import Rank

# The meld kinds a scale prices. "single" is one copy, "double" both copies of every card
# where the reference gives a double value that replaces the single one.
MELD_KINDS = (
    "run", "royal-marriage", "marriage", "dix", "pinochle",
    "aces-around", "kings-around", "queens-around", "jacks-around",
    "roundhouse", "roundhouse-with-run", "run-with-extra-royal", "grand-pinochle",
)
OPTIONAL_MELDS = frozenset({"roundhouse", "run-with-extra-royal", "grand-pinochle"})


class OptionError(ValueError):
    """A table option that is not usable; the message names the option."""


@dataclass(frozen=True)
class MeldScale:
    """Points for each meld kind: ``values[kind] = (single, double)``.

    ``double`` is the value of both copies together and replaces the single value
    (double aces = 100, not 110). For marriages and dix it is simply two singles.
    Optional melds have a single value only.
    """

    name: str
    values: MappingProxyType[str, tuple[int, int]]

    @classmethod
    def from_table(cls, name: str, table: dict[str, tuple[int, int]]) -> MeldScale:
        missing = [k for k in MELD_KINDS if k not in table]
        unknown = [k for k in table if k not in MELD_KINDS]
        if missing or unknown:
            raise OptionError(
                f"meld scale {name!r}: missing kinds {missing}, unknown kinds {unknown}")
        for kind, pair in table.items():
            if (len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                          and v >= 0 for v in pair)):
                raise OptionError(f"meld scale {name!r}: {kind} must be (single, double) "
                                  f"whole numbers >= 0, not {pair!r}")
        return cls(name, MappingProxyType(dict(table)))

    def single(self, kind: str) -> int:
        return self.values[kind][0]

    def double(self, kind: str) -> int:
        return self.values[kind][1]

    def scaled(self, name: str, factor: int) -> MeldScale:
        return MeldScale.from_table(
            name, {k: (s * factor, d * factor) for k, (s, d) in self.values.items()})


# The modern scale: every value is the old one divided by 10.
MODERN_MELD = MeldScale.from_table("modern", {
    "run": (15, 150),
    "royal-marriage": (4, 8),
    "marriage": (2, 4),
    "dix": (1, 2),
    "pinochle": (4, 30),
    "aces-around": (10, 100),
    "kings-around": (8, 80),
    "queens-around": (6, 60),
    "jacks-around": (4, 40),
    "roundhouse": (24, 24),
    "roundhouse-with-run": (35, 35),
    "run-with-extra-royal": (19, 19),
    "grand-pinochle": (6, 6),
})
OLD_MELD = MODERN_MELD.scaled("old", 10)


@dataclass(frozen=True)
class CounterScale:
    """What each counter rank is worth in play, and the last trick."""

    name: str
    per_rank: MappingProxyType[Rank, int]
    last_trick: int

    @property
    def total(self) -> int:
        """Points in the whole deck: two copies of each rank in each of four suits, plus last."""
        return sum(points * 8 for points in self.per_rank.values()) + self.last_trick


MODERN_COUNT = CounterScale(
    "modern", MappingProxyType({Rank.A: 1, Rank.T: 1, Rank.K: 1}), last_trick=1)
OLD_COUNT = CounterScale(
    "old", MappingProxyType({Rank.A: 11, Rank.T: 10, Rank.K: 4, Rank.Q: 3, Rank.J: 2}),
    last_trick=10)

MELD_SCALES = {s.name: s for s in (MODERN_MELD, OLD_MELD)}


@dataclass(frozen=True)
class TableOptions:
    """One table's agreed settings. The defaults are the project's table rules."""

    meld_scale: MeldScale = MODERN_MELD
    optional_melds: frozenset[str] = field(default_factory=frozenset)
    counters: CounterScale = MODERN_COUNT
    game_target: int = 150
    minimum_bid: int = 20
    stick_the_dealer: int = 20
    concession: bool = True
    tricks_per_hand: int = 12

    def __post_init__(self) -> None:
        unknown = set(self.optional_melds) - OPTIONAL_MELDS
        if unknown:
            raise OptionError(
                f"optional_melds: unknown {sorted(unknown)}; known: {sorted(OPTIONAL_MELDS)}")
        if self.game_target <= 0:
            raise OptionError(f"game_target must be positive, not {self.game_target}")
        if self.stick_the_dealer < self.minimum_bid:
            raise OptionError(
                f"stick_the_dealer ({self.stick_the_dealer}) is below minimum_bid "
                f"({self.minimum_bid})")

    def to_dict(self) -> dict[str, Any]:
        return {
            "meld_scale": self.meld_scale.name,
            "optional_melds": sorted(self.optional_melds),
            "counters": self.counters.name,
            "game_target": self.game_target,
            "minimum_bid": self.minimum_bid,
            "stick_the_dealer": self.stick_the_dealer,
            "concession": self.concession,
        }


DEFAULT_OPTIONS = TableOptions()
