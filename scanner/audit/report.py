"""Test results, the Bonferroni split of the false-alarm rate, and the audit's verdict.

Each test alarms at its own level, a share of the overall rate; the shares of the tests
actually run add up to the overall rate (weighted Bonferroni), so the chance that a
well-shuffled deck raises any alarm is at most that rate, whatever the tests' dependence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .distribution import Distribution

DEFAULT_FALSE_ALARM_RATE = 1e-3


@dataclass(frozen=True)
class TestResult:
    """One test on one deal (or one set of boards). ``level`` and ``alarm`` are set by
    :func:`bonferroni` once every test that will run is known."""

    __test__ = False  # not a pytest test class, despite the name

    name: str
    statistic: int
    tail: str
    null_distribution: Distribution = field(repr=False, compare=False)
    null: str
    scope: dict[str, Any] = field(default_factory=dict)
    detail: dict[str, Any] = field(default_factory=dict)
    weight: float = 1.0
    level: float = 1.0

    @property
    def p_value(self) -> float:
        return self.null_distribution.p_value(self.tail, self.statistic)

    @property
    def alarm(self) -> bool:
        return self.p_value <= self.level

    def alarm_region(self) -> dict[str, int | None]:
        return self.null_distribution.alarm_region(self.tail, self.level)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "statistic": self.statistic, "p_value": self.p_value,
                "alarm": self.alarm, "level": self.level, "tail": self.tail,
                "alarm_if": self.alarm_region(), "null": self.null,
                "null_mean": round(self.null_distribution.mean(), 4), **self.scope,
                "detail": self.detail}


@dataclass(frozen=True)
class AuditVerdict:
    rule: str
    evidence: str
    remedy: str

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "evidence": self.evidence, "remedy": self.remedy}


@dataclass(frozen=True)
class AuditReport:
    false_alarm_rate: float
    tests: tuple[TestResult, ...]
    verdict: AuditVerdict | None = None
    notes: tuple[str, ...] = ()

    @property
    def alarm(self) -> bool:
        return any(t.alarm for t in self.tests)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"alarm": self.alarm, "false_alarm_rate": self.false_alarm_rate,
                               "correction": f"weighted Bonferroni over {len(self.tests)} tests",
                               "tests": [t.to_dict() for t in self.tests]}
        if self.verdict:
            out["verdict"] = self.verdict.to_dict()
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def bonferroni(results: Sequence[TestResult], rate: float) -> tuple[TestResult, ...]:
    """Give each test its share of the rate, in proportion to its weight."""
    if not 0 < rate < 1:
        raise ValueError(f"false-alarm rate must be between 0 and 1, not {rate}")
    total = sum(r.weight for r in results)
    return tuple(replace(r, level=rate * r.weight / total) for r in results)
