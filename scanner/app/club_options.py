"""``--club URL --table-token TOKEN``: the options that join any log-writing command to the club.

Checked before the command writes anything: both options or neither, the token asked of the
store (refused: exit 2, nothing written), and the club's session taken as the command's
``--session`` when it names none, so every table of a club night writes under one name and
its boards are compared; a different ``--session`` is refused. An unreachable store is not
fatal: the table logs locally and ships when the store answers. Then ``join_club`` ships the
log for as long as the command runs, or ``ship_after_logging`` once, for a one-shot command.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..cli import UsageError

if TYPE_CHECKING:
    from ..club.join import ClubLink, Membership

TOKEN_VARIABLE = "TABLESCAN_TABLE_TOKEN"


def add_club_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("club", "ship this table's log to the club's store")
    group.add_argument("--club", metavar="URL",
                       help="the club store, postgresql://HOST[:PORT]/DATABASE (no password)")
    group.add_argument("--table-token", metavar="TOKEN",
                       help=f"this table's token, from `tablescan club token` (or "
                            f"${TOKEN_VARIABLE})")
    parser.set_defaults(club_membership=None)


def check_club_arguments(args: argparse.Namespace) -> None:
    """Both options or neither; with them, the token checked with the store and the club's
    session settled in ``args.session``, before the command opens its log. A UsageError says
    what is wrong; the membership is kept in ``args.club_membership``."""
    if args.club_membership is not None:
        return
    token_text = args.table_token or os.environ.get(TOKEN_VARIABLE)
    if bool(args.club) != bool(token_text):
        raise UsageError("--club and --table-token go together" if args.club
                         else "--table-token needs --club URL")
    if not args.club:
        return
    # Imported here, so a command run without --club never loads psycopg.
    from ..club.access import AccessError, parse_token
    from ..club.join import check_membership
    from ..club.schema import StoreError

    try:
        membership = check_membership(args.club, parse_token(token_text))
    except (AccessError, StoreError) as exc:
        raise UsageError(str(exc)) from None
    if membership.table is None:
        print(f"tablescan: club store {args.club} unreachable now ({membership.unreachable}); "
              "logging locally and shipping when it answers", file=sys.stderr)
    else:
        print(f"tablescan: joined the club at {args.club} as table {membership.table}",
              file=sys.stderr)
    _settle_session(args, membership)
    args.club_membership = membership


def _settle_session(args: argparse.Namespace, membership: Membership) -> None:
    from ..club.join import club_session_problem

    problem = club_session_problem(membership, args.session)
    if problem:
        raise UsageError(problem)
    if args.session is None and membership.session is not None:
        args.session = membership.session
        if hasattr(args, "new_session"):
            # The club's session may be new to this table's log (serve's "no such sitting").
            args.new_session = True
        print(f"tablescan: writing under the club's session {membership.session}",
              file=sys.stderr)


def join_club(args: argparse.Namespace, db: Path) -> ClubLink:
    """Ship ``db`` to the club for as long as the returned link is open (checked first)."""
    from ..club.join import start_shipping

    check_club_arguments(args)
    return start_shipping(args.club_membership, db)


def check_before_logging(args: argparse.Namespace, db: Path | None) -> Membership | None:
    """For a command that writes its log and ends (check-deal, generate, verify): the club
    options checked before anything is written; the membership, or None without --club."""
    if args.club and db is None:
        raise UsageError("--club ships a log: give it with --db FILE")
    check_club_arguments(args)
    return args.club_membership


def ship_after_logging(membership: Membership | None, db: Path | None) -> None:
    """Ship what the command logged (for a few seconds; the rest goes with the next run)."""
    from ..club.join import start_shipping

    if membership is not None and db is not None:
        start_shipping(membership, db).close()
