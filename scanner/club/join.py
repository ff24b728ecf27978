"""``--club URL --table-token TOKEN``: the options that join any log-writing command to the club.

The command opens its SQLite log as always, then ``join_club`` checks the token with the
store and starts a shipper on the log. A refused token is unusable input (exit 2) and the
command does not start; an unreachable store is not: the table logs locally and the shipper
catches up when the store answers.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import psycopg

from ..cli import UsageError
from .access import AccessError, TableToken, parse_token
from .schema import StoreError
from .shipper import Shipper, open_table_link


def add_club_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("club", "ship this table's log to the club's store")
    group.add_argument("--club", metavar="URL",
                       help="the club store, postgresql://HOST[:PORT]/DATABASE (no password)")
    group.add_argument("--table-token", metavar="TOKEN",
                       help="this table's token, from `tablescan club token` (or "
                            "$TABLESCAN_TABLE_TOKEN)")


def check_club_arguments(args: argparse.Namespace) -> None:
    """Both or neither; a UsageError naming the missing one."""
    token = args.table_token or os.environ.get("TABLESCAN_TABLE_TOKEN")
    args.table_token = token
    if bool(args.club) != bool(token):
        raise UsageError("--club and --table-token go together" if args.club
                          else "--table-token needs --club URL")


class ClubLink:
    """A command's membership of the club for as long as it runs; ``close`` when done."""

    def __init__(self, shipper: Shipper | None, db: Path) -> None:
        self.shipper = shipper
        self.db = db

    def close(self) -> None:
        """Ship what is pending for a few seconds, then stop; the rest goes next time."""
        if self.shipper is not None and not self.shipper.stop():
            print("tablescan: not everything reached the club store yet; the next run on "
                  f"{self.db} with --club ships the rest", file=sys.stderr)


def join_club(args: argparse.Namespace, db: Path) -> ClubLink:
    """Start shipping ``db`` to the club if --club was given; UsageError if refused."""
    check_club_arguments(args)
    if not args.club:
        return ClubLink(None, db)
    token = check_token(args)
    return ClubLink(Shipper(db, args.club, token).start(), db)


def check_token(args: argparse.Namespace) -> TableToken:
    """Ask the store now whether it takes this table's token: UsageError if it refuses; a
    warning only if it cannot be reached (the table logs locally and ships later)."""
    try:
        token = parse_token(args.table_token)
        conn, table = open_table_link(args.club, token)
    except (AccessError, StoreError) as exc:
        raise UsageError(str(exc)) from None
    except psycopg.OperationalError as exc:
        print(f"tablescan: club store {args.club} unreachable now "
              f"({str(exc).strip().splitlines()[0]}); logging locally and shipping when it "
              "answers", file=sys.stderr)
    else:
        conn.close()
        print(f"tablescan: joined the club at {args.club} as table {table}", file=sys.stderr)
    return token


def check_before_logging(args: argparse.Namespace, db: Path | None) -> TableToken | None:
    """For a command that writes its log and ends (check-deal, generate, verify): the club
    options and the token checked before anything is written; the token, or None."""
    check_club_arguments(args)
    if not args.club:
        return None
    if db is None:
        raise UsageError("--club ships a log: give it with --db FILE")
    return check_token(args)


def ship_after_logging(args: argparse.Namespace, db: Path | None,
                       token: TableToken | None) -> None:
    """Ship what the command logged (for a few seconds; the rest goes with the next run)."""
    if token is not None and db is not None:
        ClubLink(Shipper(db, args.club, token).start(), db).close()
