"""`tablescan audit FILE…`: was the deck really shuffled? (Law 6A, Law 6D2)

Deal logs (.jsonl) are audited by their dealing order; a set of boards (.pbn .dlm .dup …)
by its hands alone. JSON on stdout; one line per test on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..app.cli_io import DamagedInput, load_set, report_damage
from ..audit import (
    DEFAULT_FALSE_ALARM_RATE,
    AuditInputError,
    AuditReport,
    audit_boards,
    audit_orders,
    orders_from_log,
    read_prior,
)
from ..bridge.formats import FORMATS, UnknownFormat
from ..cli import UsageError

DEAL_LOG_SUFFIXES = (".jsonl", ".json", ".log")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "audit", help="test whether a deck or a set of boards was really shuffled",
        description="Audit the dealing order of one or more deal logs (.jsonl), or the hands "
                    f"of one set of boards ({' '.join(sorted(FORMATS))}). Each test reports "
                    "its statistic, exact p-value and alarm; the overall false-alarm rate is "
                    "split over the tests run (weighted Bonferroni).")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--prior", default="new-pack", metavar="ORDER",
                        help="the deck's order before the shuffle, for deal logs: 'new-pack' "
                             "(default: suit order and direction unknown), 'none', or a file "
                             "listing the cards in order (e.g. the previous hand as gathered)")
    parser.add_argument("--false-alarm-rate", type=float, default=DEFAULT_FALSE_ALARM_RATE,
                        metavar="RATE",
                        help="chance of any alarm on a well-shuffled deck or set "
                             f"(default {DEFAULT_FALSE_ALARM_RATE})")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.false_alarm_rate < 1:
        raise UsageError(f"--false-alarm-rate {args.false_alarm_rate}: must be between 0 and 1")
    logs = [f for f in args.files if Path(f).suffix.lower() in DEAL_LOG_SUFFIXES]
    sets = [f for f in args.files if f not in logs]
    if logs and sets:
        raise UsageError(f"{sets[0]}: give either deal logs ({', '.join(DEAL_LOG_SUFFIXES)}) "
                         "or one set of boards, not both")
    if len(sets) > 1:
        raise UsageError(f"{sets[1]}: audit one set of boards at a time")
    try:
        report = _audit_logs(logs, args) if logs else _audit_set(sets[0], args)
    except AuditInputError as exc:
        raise UsageError(str(exc)) from None
    except DamagedInput as exc:
        return report_damage(exc)
    except (UnknownFormat, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    json.dump(report.to_dict(), sys.stdout)
    sys.stdout.write("\n")
    _print_summary(report)
    return 0


def _audit_logs(paths: list[str], args: argparse.Namespace) -> AuditReport:
    deals, notes = [], []
    for path in paths:
        logged = orders_from_log(path, first_deal=len(deals) + 1)
        deals.extend(logged.deals)
        notes.extend(logged.notes)
    games = {deal.deck.name for deal in deals}
    if len(games) > 1:
        raise UsageError(f"the logs mix decks ({', '.join(sorted(games))}); audit one game "
                         "at a time")
    prior = read_prior(args.prior, deals[0].deck)
    return audit_orders(deals, prior, args.false_alarm_rate, notes)


def _audit_set(path: str, args: argparse.Namespace) -> AuditReport:
    if args.prior != "new-pack":
        raise UsageError(f"--prior {args.prior}: a set of boards has no dealing order; the "
                         "prior applies to deal logs only")
    loaded = load_set(path)
    boards = [board.complete_hands() for board in loaded.boards]
    numbers = [board.number for board in loaded.boards]
    return audit_boards(boards, numbers, args.false_alarm_rate, hide_hands=loaded.info.sealed)


def _print_summary(report: AuditReport) -> None:
    for test in report.tests:
        where = f" deal {test.scope['deal']}" if "deal" in test.scope else ""
        flag = "ALARM" if test.alarm else "ok"
        print(f"{flag:5} {test.name}{where}: {test.statistic} (null mean "
              f"{test.null_distribution.mean():.2f}), p = {test.p_value:.3g}, "
              f"level {test.level:.3g}", file=sys.stderr)
    print(f"overall false-alarm rate {report.false_alarm_rate:g} (weighted Bonferroni over "
          f"{len(report.tests)} tests): {'ALARM' if report.alarm else 'no alarm'}",
          file=sys.stderr)
    if report.verdict:
        print(f"{report.verdict.rule}: {report.verdict.remedy}", file=sys.stderr)
