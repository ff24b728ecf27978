"""Events per second into the club store from 20 tables. Target: at least 2,000 events/s.

A real PostgreSQL server (a throwaway cluster, as in the tests) and 20 table processes, each
with its own SQLite log already holding ``--events`` events (a table catching up after a
cut, the heaviest load a club sees). Every table's shipper starts at once; the clock stops
when the store holds every event. Printed as medians of ``--runs`` runs, with in the same
run the baseline of one table alone, so the ratio shows how 20 tables share the server.

    python bench/club_shipping.py [--tables 20] [--events 10000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

import psycopg  # noqa: E402

from scanner.app.pg_cluster import Cluster  # noqa: E402
from scanner.cards import BRIDGE_52, Seat  # noqa: E402
from scanner.club.admin import init_store, issue_token  # noqa: E402
from scanner.events import CardDelivered  # noqa: E402
from scanner.log import EventLog  # noqa: E402

TARGET_EVENTS_PER_S = 2_000
# One table process: imports done, it waits for "go", then ships the log it is given until
# the store has all of it (connecting, logging in and catching up are all on the clock).
SHIP = ("import sys; from scanner.club.access import parse_token; "
        "from scanner.club.shipper import Shipper; sys.stdin.readline(); "
        "Shipper(sys.argv[1], sys.argv[2], parse_token(sys.argv[3])).ship_pending()")


def fill_log(path: Path, n: int) -> None:
    cards = BRIDGE_52.cards()
    seats = list(Seat)
    with EventLog(path, session="bench", durability="process") as log:
        for at in range(0, n, 500):
            log.append_many([CardDelivered(cards[i % 52], seats[i % 4])
                             for i in range(at, min(at + 500, n))])


def one_run(cluster: Cluster, run: int, tables: int, events: int, folder: Path) -> float:
    db = cluster.create_database(f"bench_{tables}_{run}")
    init_store(cluster.admin_url(db))
    with psycopg.connect(cluster.admin_url(db), autocommit=True) as admin:
        tokens = [str(issue_token(admin, f"T{i:02d}")) for i in range(tables)]
    logs = []
    for i in range(tables):
        path = folder / f"{db}-T{i:02d}.sqlite"
        fill_log(path, events)
        logs.append(path)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    # Start the interpreters first, so the clock measures shipping, not Python starting.
    procs = [subprocess.Popen(
        [sys.executable, "-c", SHIP, str(path),
         cluster.table_url(db), token], stdin=subprocess.PIPE, env=env, text=True)
        for path, token in zip(logs, tokens, strict=True)]
    time.sleep(1.0 + 0.15 * tables)
    start = time.perf_counter()
    for proc in procs:
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc in procs:
        if proc.wait() != 0:
            raise SystemExit("a table process failed")
    elapsed = time.perf_counter() - start
    with psycopg.connect(cluster.admin_url(db)) as admin:
        stored = admin.execute("SELECT count(*) FROM tablescan.events").fetchone()[0]
    if stored != tables * events:
        raise SystemExit(f"the store holds {stored} events, not {tables * events}")
    return tables * events / elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--events", type=int, default=10000,
                        help="events in each table's log (default 10,000: a busy table back "
                             "after a long cut)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    cluster = Cluster().init()
    cluster.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            alone = [one_run(cluster, r, 1, args.events, folder) for r in range(args.runs)]
            club = [one_run(cluster, r, args.tables, args.events, folder)
                    for r in range(args.runs)]
    finally:
        cluster.destroy()
    base, rate = statistics.median(alone), statistics.median(club)
    print(f"{args.events} events per table, median of {args.runs} runs, PostgreSQL "
          f"{cluster.bin.parent.name} on this machine ({os.cpu_count()} cores, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} at the end)")
    print(f"  1 table alone (baseline)  {base:10,.0f} events/s   runs {[round(x) for x in alone]}")
    verdict = "meets" if rate >= TARGET_EVENTS_PER_S else "BELOW"
    print(f"  {args.tables} tables at once       {rate:10,.0f} events/s   runs "
          f"{[round(x) for x in club]}  {rate / base:5.2f}x baseline  {verdict} "
          f"{TARGET_EVENTS_PER_S:,}/s")


if __name__ == "__main__":
    main()
