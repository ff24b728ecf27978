"""A real PostgreSQL server for the club tests: one throwaway cluster per test run, a fresh
database (a fresh club store) per test."""

from __future__ import annotations

import itertools
import subprocess
from collections.abc import Iterator

import pytest
from club_support import Store

from scanner.app.pg_cluster import Cluster
from scanner.cli import main
from scanner.club.admin import init_store

_names = itertools.count(1)


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    server = Cluster().init()
    server.start()
    try:
        yield server
    finally:
        server.destroy()


@pytest.fixture
def store(cluster: Cluster) -> Store:
    db = cluster.create_database(f"club{next(_names)}")
    init_store(cluster.admin_url(db))
    return Store(cluster, db)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """The command line in this process (starting Python again costs seconds per call)."""
    def run(*argv: str) -> subprocess.CompletedProcess:
        capsys.readouterr()
        code = main(list(argv))
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(argv, code, out, err)
    return run
