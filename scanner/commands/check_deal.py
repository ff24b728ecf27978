"""`tablescan check-deal FILE.jsonl [--db FILE] [--session NAME] [--board N]`.

Rules on one dealt hand from a deal log and prints the verdict as JSON. With ``--db`` the deal
is also compared with the deal history in that event log (a deal seen in another session is a
repeat, Law 6D2) and, when complete, recorded there. Each run is its own session unless
``--session`` names one. The deal log is read and checked in full before the database is
opened, so bad input never writes to it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..app import arguments, options
from ..app.club_options import add_club_arguments, check_before_logging, ship_after_logging
from ..cli import UsageError
from ..dealfile import DealFileError, read_deal_log
from ..history import DealHistory
from ..log import EventLog, LogError, new_session_name
from ..tracker import check_deal


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check-deal", help="rule on a dealt hand from a JSONL deal log",
        description="Rule on one dealt hand from a JSONL deal log (a header line, then a "
                    "card a line) and print the verdict as JSON: status, rule, reason, "
                    "evidence (event indexes, 0 = the line after the header), remedy, hands. "
                    "Exit 2 on unusable input.")
    parser.add_argument("file", type=Path, metavar="FILE.jsonl", help="the deal log")
    options.add_deal_history(parser)
    parser.add_argument("--board", type=arguments.bounded(1, arguments.MAX_BOARD_NUMBER),
                        help="board number to record with the deal")
    add_club_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    options.check_deal_history(args)
    token = check_before_logging(args, args.db)
    try:
        deal = read_deal_log(args.file)
    except DealFileError as exc:
        raise UsageError(str(exc)) from None
    if args.db is None:
        result = check_deal(deal.header, deal.events)
    else:
        session = args.session or new_session_name()
        try:
            with EventLog(args.db, session=session) as log:
                result = check_deal(deal.header, deal.events, DealHistory(log), session,
                                    board=args.board)
        except LogError as exc:
            raise UsageError(str(exc)) from None
        ship_after_logging(token, args.db)
    out = result.to_dict()
    out["evidence_lines"] = [deal.lines[i] for i in result.verdict.evidence
                             if 0 <= i < len(deal.lines)]
    json.dump(out, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    print(f"{args.file}: {result.verdict.status}: {result.verdict.reason}", file=sys.stderr)
    return 0
