"""A real PostgreSQL server for the club tests: one throwaway cluster per test run, a fresh
database (a fresh club store) per test."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from club_support import Store

from scanner.app.pg_cluster import Cluster
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
