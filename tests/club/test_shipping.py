"""Tables ship their logs to the club store: delivered at least once, applied exactly once.

Twenty simulated tables (each a process with its own SQLite log) deal a session through a
network link the test controls, while one table is killed mid-deal and restarted, the link is
cut for two seconds and PostgreSQL is restarted. At the end the store holds exactly the union
of the tables' logs: nothing lost, nothing doubled.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from club_support import Store, log_events
from tcp_proxy import Proxy

from scanner.app.pg_cluster import wait_until

REPO = Path(__file__).resolve().parents[2]
TABLES = 20
DEALS = 4
EVENTS_PER_DEAL = 52  # hand-started, 48 deliveries, auction-started, a bid, a pass
CUT_SECONDS = 2.0
PACE = 0.02  # seconds between a table's events: a table deals for at least 4 s


def start_table(store: Store, port: int, token: str, db: Path, seed: int, pace: float,
                deals: int = DEALS) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-m", "scanner.app.club_table_process", "--db", str(db),
         "--club", store.table_url(port), "--token", token, "--deals", str(deals),
         "--pace", str(pace), "--seed", str(seed)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def store_count(store: Store, table: str) -> int:
    with store.admin() as conn:
        return conn.execute("SELECT count(*) FROM tablescan.events WHERE table_name = %s",
                            (table,)).fetchone()[0]


def log_count(db: Path) -> int:
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT count(*) FROM events").fetchone()[0]
    except sqlite3.Error:
        return 0  # not made yet


def finish(proc: subprocess.Popen) -> str:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, f"table exited {proc.returncode}: {out}\n{err}"
    return out


def test_twenty_tables_through_kill_cut_and_restart_store_equals_union_of_logs(
        store: Store, tmp_path: Path) -> None:
    proxy = Proxy(store.cluster.port)
    names = [f"T{n:02d}" for n in range(1, TABLES + 1)]
    tokens = {name: store.token(name) for name in names}
    dbs = {name: tmp_path / f"{name}.sqlite" for name in names}
    try:
        procs = {name: start_table(store, proxy.port, tokens[name], dbs[name], seed=i,
                                   pace=PACE)
                 for i, name in enumerate(names)}

        # SIGKILL one table in its second deal; start it again on the same log.
        victim = "T07"
        assert wait_until(lambda: log_count(dbs[victim]) > EVENTS_PER_DEAL + 10, 120)
        procs[victim].send_signal(signal.SIGKILL)
        procs[victim].wait()
        assert log_count(dbs[victim]) < DEALS * EVENTS_PER_DEAL, "it finished before the kill"
        procs[victim] = start_table(store, proxy.port, tokens[victim], dbs[victim], seed=6,
                                    pace=PACE)

        # Cut the network between the tables and the store, briefly, while they deal on.
        still_dealing = [name for name, proc in procs.items() if proc.poll() is None]
        print(f"cut with {len(still_dealing)} tables dealing")
        assert len(still_dealing) >= TABLES // 2
        proxy.cut()
        time.sleep(CUT_SECONDS)
        proxy.mend()

        # Restart PostgreSQL as if it crashed (immediate: no shutdown checkpoint).
        store.cluster.stop("immediate")
        store.cluster.start()
        dealing = sum(p.poll() is None for p in procs.values())
        print(f"restarted with {dealing} tables dealing")
        assert dealing >= 1

        for proc in procs.values():
            finish(proc)
    finally:
        proxy.close()

    union = set().union(*(log_events(name, dbs[name]) for name in names))
    assert len(union) == TABLES * DEALS * EVENTS_PER_DEAL
    stored = store.events()
    assert stored - union == set(), "the store holds events no table logged"
    assert union - stored == set(), "events logged at a table never reached the store"


def test_a_table_killed_mid_deal_resumes_and_ships_each_event_once(
        store: Store, tmp_path: Path) -> None:
    token = store.token("T1")
    db = tmp_path / "t1.sqlite"
    proc = start_table(store, store.cluster.port, token, db, seed=1, pace=PACE, deals=2)
    assert wait_until(lambda: log_count(db) > EVENTS_PER_DEAL + 10, 120)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert log_count(db) < 2 * EVENTS_PER_DEAL, "the table finished before it was killed"
    finish(start_table(store, store.cluster.port, token, db, seed=1, pace=0, deals=2))
    assert store.events() == log_events("T1", db)
    assert len(log_events("T1", db)) == 2 * EVENTS_PER_DEAL


def test_a_table_logs_through_a_network_cut_and_catches_up(
        store: Store, tmp_path: Path) -> None:
    proxy = Proxy(store.cluster.port)
    token = store.token("T1")
    db = tmp_path / "t1.sqlite"
    try:
        proxy.cut()  # the table starts while the store is out of reach: it logs anyway
        proc = start_table(store, proxy.port, token, db, seed=3, pace=0.01, deals=1)
        time.sleep(CUT_SECONDS)
        assert store_count(store, "T1") == 0
        proxy.mend()
        finish(proc)
    finally:
        proxy.close()
    assert store.events() == log_events("T1", db)
