"""Shuffle audit: was this deck (or this set of boards) really shuffled?

Order-based tests read the dealing order card by card; hand-only tests look at a set of
boards' shapes. Every null distribution is computed here, exactly, and the audit's overall
false-alarm rate is split over the tests it runs (weighted Bonferroni).
"""

from .inputs import AuditInputError, LoggedOrders, orders_from_log, prior_from_text, read_prior
from .report import DEFAULT_FALSE_ALARM_RATE, AuditReport, AuditVerdict, TestResult
from .suite import NEW_PACK, NO_PRIOR, DealtOrder, Prior, audit_boards, audit_orders

__all__ = [
           "DEFAULT_FALSE_ALARM_RATE",
           "NEW_PACK",
           "NO_PRIOR",
           "AuditInputError",
           "AuditReport",
           "AuditVerdict",
           "DealtOrder",
           "LoggedOrders",
           "Prior",
           "TestResult",
           "audit_boards",
           "audit_orders",
           "orders_from_log",
           "prior_from_text",
           "read_prior",
]
