"""Verdicts on a deal: the status vocabulary, what each status tells the table to do, and severity.

A tracker may hold several findings; the deal's verdict is the most severe of them. A note
(say, a bridge deal that went round anticlockwise) is a finding whose status is ``ok``.
Evidence is always a list of event indexes: 0 is the first event after the hand started
(for a deal-log file, the first line after the header; blank lines are not counted).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

OK = "ok"
NEEDS_REREAD = "needs-reread"
REDEAL_SAME_DEALER = "redeal-same-dealer"
NEW_SHUFFLE_REDEAL = "new-shuffle-redeal"
CORRECTION_POLICY = "correction-policy"
DIRECTOR = "director"
NO_RESULT = "no-result"

# Least to most severe. An unread card only blocks a ruling; any fault already proven outranks
# it, because the remedy for the fault does not depend on what the unread card turns out to be.
SEVERITY: tuple[str, ...] = (
    OK,
    NEEDS_REREAD,
    REDEAL_SAME_DEALER,
    NEW_SHUFFLE_REDEAL,
    CORRECTION_POLICY,
    DIRECTOR,
    NO_RESULT,
)
STATUSES = frozenset(SEVERITY)
_RANK = {status: i for i, status in enumerate(SEVERITY)}

REMEDIES: dict[str, str] = {
    OK: "none: play on",
    NEEDS_REREAD: (
        "stop the deal and re-read the card without showing its face; the deal cannot be "
        "ruled complete until every card is read"
    ),
    REDEAL_SAME_DEALER: "gather the cards and redeal with the same dealer",
    NEW_SHUFFLE_REDEAL: "new shuffle and redeal (Law 6D1)",
    CORRECTION_POLICY: (
        "stop the hand; casual play: redeal unless it can be repaired without revealing "
        "hidden information"
    ),
    DIRECTOR: "call the director: the auction has begun, so the director rules",
    NO_RESULT: "no result may stand on this deal: call the director (Law 6D2)",
}


@dataclass(frozen=True)
class Verdict:
    """One ruling: status, the rule it applies, why, which events show it, what to do."""

    status: str
    rule: str
    reason: str
    evidence: list[int] = field(default_factory=list)
    remedy: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}; known: {SEVERITY}")
        if not self.remedy:
            object.__setattr__(self, "remedy", REMEDIES[self.status])

    @property
    def severity(self) -> int:
        return _RANK[self.status]

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "rule": self.rule, "reason": self.reason,
                "evidence": list(self.evidence), "remedy": self.remedy}


CLEAN = Verdict(OK, "", "every check passed")


def most_severe(findings: Iterable[Verdict]) -> Verdict:
    """The deal's verdict: the most severe finding; the earliest one wins a tie."""
    worst = CLEAN
    for finding in findings:
        if finding.severity > worst.severity:
            worst = finding
    return worst
