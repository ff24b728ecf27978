"""The shuffle audit of a pre-dealt set, as the event the bridge page shows (Law 6E4).

A set's deals must be wholly random; the audit's hand-only tests look at the boards' shapes,
two-sided, at a stated false-alarm rate. Per-board figures are withheld (``hide_hands``):
the page is for the whole room and the operator pre-deals blind.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..audit import audit_boards
from ..events import AuditResult
from .board import Board

RULE_RANDOM = "Law 6E4"


def audit_event(boards: Sequence[Board]) -> AuditResult:
    """The set's hands audited (two-sided, per-board figures withheld): the page's line."""
    hands = [[list(hand) for hand in board.complete_hands()] for board in boards]
    report = audit_boards(hands, [board.number for board in boards], hide_hands=True)
    verdict = report.verdict
    return AuditResult(report.alarm, report.false_alarm_rate, len(report.tests),
                       verdict.rule if verdict else RULE_RANDOM,
                       verdict.evidence if verdict else "", verdict.remedy if verdict else "")

