"""Store URLs, table tokens and connections: who may do what in the club store.

A table is given the store's URL (host, port, database: no user, no password) and a token.
The token is ``ROLE.SECRET``: the PostgreSQL role the table logs in as, and its password.
PostgreSQL checks the password (SCRAM, so the secret never crosses the network) and its
row-level security keeps the role to its own table's rows (scanner.club.schema). The store
keeps only the SCRAM verifier, hashed on this side, so no token is ever stored or logged
in clear.

The administrator (club init/token/status/serve) connects with whatever the URL and libpq's
usual means give (a Unix socket, ~/.pgpass, PGPASSWORD); that role owns the store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import psycopg
from psycopg.conninfo import conninfo_to_dict

# A dead link is noticed within seconds rather than when the kernel gives up (minutes).
CONNECT_TIMEOUT_S = 10
LINK_OPTIONS = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
                "keepalives_count": 3, "tcp_user_timeout": 10000}
TOKEN_PATTERN = re.compile(r"^(tablescan_[0-9a-f]{8}_t[0-9a-f]{8})\.([A-Za-z0-9_-]{20,})$")
# PostgreSQL's answers that mean "these credentials are refused", as opposed to "not reachable":
# invalid_password, invalid_authorization_specification (a role that may not log in).
REFUSED_SQLSTATES = ("28P01", "28000")


class AccessError(Exception):
    """A URL or token that cannot be used; the message says which and why."""


class TokenRefused(AccessError):
    """The store answered and refused the table's token (wrong, revoked or unknown)."""


@dataclass(frozen=True)
class TableToken:
    role: str
    secret: str

    def __str__(self) -> str:
        return f"{self.role}.{self.secret}"


def parse_token(text: str) -> TableToken:
    match = TOKEN_PATTERN.match(text.strip())
    if match is None:
        raise AccessError("--table-token: not a tablescan table token (expected ROLE.SECRET "
                          "as printed by `tablescan club token`)")
    return TableToken(match.group(1), match.group(2))


def check_store_url(url: str, *, for_table: bool) -> dict[str, str]:
    """The URL's parts; an AccessError if it is not a PostgreSQL URL a table may be given."""
    if not url.startswith(("postgresql://", "postgres://")):
        raise AccessError(f"{_shown(url)}: expected postgresql://HOST[:PORT]/DATABASE")
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise AccessError(f"{_shown(url)}: not a usable PostgreSQL URL ({exc})") from None
    if "password" in parts:
        raise AccessError(f"{_shown(url)}: the URL must not carry a password; a table's only "
                          "credential is its --table-token")
    if for_table and "user" in parts:
        raise AccessError(f"{_shown(url)}: a table's URL names no user; the token says who "
                          "the table is")
    if not parts.get("dbname"):
        raise AccessError(f"{_shown(url)}: name the club's database, e.g. "
                          "postgresql://club.local/club")
    return parts


def _shown(url: str) -> str:
    # Never echo a password someone put in a URL by mistake.
    return re.sub(r"//([^/@:]*):[^/@]*@", r"//\1:***@", url)


def connect_admin(url: str, **options: object) -> psycopg.Connection:
    check_store_url(url, for_table=False)
    try:
        return psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S,
                               application_name="tablescan-club", **options)
    except psycopg.OperationalError as exc:
        raise AccessError(f"{_shown(url)}: cannot connect: {_first_line(exc)}") from None


def connect_table(url: str, token: TableToken) -> psycopg.Connection:
    """A connection as the table's role. TokenRefused if the store says no; psycopg's
    OperationalError if the store cannot be reached (the caller retries later)."""
    check_store_url(url, for_table=True)
    try:
        return psycopg.connect(url, user=token.role, password=token.secret,
                               connect_timeout=CONNECT_TIMEOUT_S,
                               application_name="tablescan-table", **LINK_OPTIONS)
    except psycopg.OperationalError as exc:
        if exc.sqlstate in REFUSED_SQLSTATES or _says_refused(exc):
            raise TokenRefused(f"{_shown(url)}: the store refused this table's token "
                               "(wrong or revoked): ask the director for a new one") from None
        raise


def _says_refused(exc: Exception) -> bool:
    # libpq reports a failed login as text; the SQLSTATE is not always passed through.
    text = str(exc)
    return ("password authentication failed" in text or "not permitted to log in" in text
            or ("does not exist" in text and "role" in text))


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
