"""A table joining the club: its token checked with the store, the club's session learnt,
and its log shipped for as long as the command runs.

A refused token is an AccessError (TokenRefused) and the command must not start; an
unreachable store is not: the table logs locally and the shipper catches up when the store
answers. The command line's side of this (the --club and --table-token options, exit codes)
is scanner.app.club_options.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import psycopg

from .access import TableToken
from .schema import SESSION_KEY
from .shipper import Shipper, open_table_link


@dataclass(frozen=True)
class Membership:
    """What the store said when the table asked to join; ``table`` is None if it could not
    be reached (then ``unreachable`` says why, and the club's session is not known)."""

    url: str
    token: TableToken
    table: str | None
    session: str | None
    unreachable: str = ""


def check_membership(url: str, token: TableToken) -> Membership:
    """Ask the store now whether it takes this table's token, and which session the club is
    in. AccessError or StoreError if it refuses; an unreachable store is not an error."""
    try:
        conn, table = open_table_link(url, token)
    except psycopg.OperationalError as exc:
        text = str(exc).strip()
        return Membership(url, token, None, None, text.splitlines()[0] if text else
                          type(exc).__name__)
    try:
        row = conn.execute("SELECT value FROM tablescan.meta WHERE key = %s",
                           (SESSION_KEY,)).fetchone()
    finally:
        conn.close()
    return Membership(url, token, table, row[0] if row else None)


def club_session_problem(membership: Membership, session: str | None) -> str:
    """Why ``session`` cannot be this table's session at the club, or "" if it can.

    Boards are compared across tables within one session name, so a table writing under
    another name than the club's open session would have its copies never compared.
    """
    if membership.session is None or session is None or session == membership.session:
        return ""
    return (f"--session {session}: the club's session is {membership.session} (opened by the "
            f"director with `tablescan club session`); leave --session out to take it, or "
            "the director opens another")


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


def start_shipping(membership: Membership | None, db: Path) -> ClubLink:
    """Ship ``db`` to the club for as long as the link is open (nothing without a membership)."""
    if membership is None:
        return ClubLink(None, db)
    return ClubLink(Shipper(db, membership.url, membership.token).start(), db)

