"""A throwaway PostgreSQL cluster for the club tests and benches: initdb + pg_ctl in a temp folder.

The server is Debian's own (``/usr/lib/postgresql/<version>/bin``), run as the ``postgres`` user
when the tests run as root (PostgreSQL refuses to run as root). It listens on 127.0.0.1 at a
free port, for the tables, which log in with a password (their token) as in a club; and on a
Unix socket in the temp folder, where the administrator connects without one.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

PG_ROOT = Path("/usr/lib/postgresql")
ADMIN = "postgres"


def pg_bin() -> Path:
    """The newest installed server's bin folder; a clear error if none is installed."""
    versions = sorted((p for p in PG_ROOT.glob("*/bin/initdb")),
                      key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    if not versions:
        raise RuntimeError(f"no PostgreSQL server under {PG_ROOT}: apt-get install postgresql")
    return versions[-1].parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """One server with its data folder; ``start``, ``stop``, ``restart`` like an operator would."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root or tempfile.mkdtemp(prefix="tablescan-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root / "sock"
        self.port = free_port()
        self.bin = pg_bin()
        self._as_root = os.geteuid() == 0

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bin / argv[0]), *argv[1:]]
        if self._as_root:
            cmd = ["runuser", "-u", ADMIN, "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120)

    def init(self) -> Cluster:
        self.socket_dir.mkdir(parents=True, exist_ok=True)
        if self._as_root:
            entry = pwd.getpwnam(ADMIN)
            for path in (self.root, self.socket_dir):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", ADMIN, "--auth-local=trust",
                  "--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"\nlisten_addresses = '127.0.0.1'\nport = {self.port}\n"
                       f"unix_socket_directories = '{self.socket_dir}'\n"
                       "max_connections = 200\nshared_buffers = 32MB\n"
                       "password_encryption = 'scram-sha-256'\n")
        return self

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"),
                  "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop",
                  check=False)

    def restart(self) -> None:
        self.stop()
        self.start()

    def admin_url(self, db: str = ADMIN) -> str:
        """The administrator's URL: the Unix socket in the temp folder, no password."""
        return f"postgresql://{ADMIN}@/{db}?host={self.socket_dir}&port={self.port}"

    def table_url(self, db: str, port: int | None = None) -> str:
        """What a table is given: host, port and database, no user, no password."""
        return f"postgresql://127.0.0.1:{port or self.port}/{db}"

    def create_database(self, name: str) -> str:
        with psycopg.connect(self.admin_url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def wait_until(predicate, timeout: float = 30.0, interval: float = 0.05) -> bool:
    """Poll until ``predicate()`` is true; False if it never was (the test then says what)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())
