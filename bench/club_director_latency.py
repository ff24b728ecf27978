"""The director's page: latency from an event at a table to the screen. Target with 30
tables: p95 at most 500 ms.

A real PostgreSQL server (a throwaway cluster, as in the tests), `tablescan club serve` as its
own process, the page in headless Chromium, and 30 tables: 29 simulated table processes
dealing in the background (one event every ``--pace`` seconds each) and one probe table in
this process. The probe logs a bid to its SQLite log (the clock starts just before) and its
shipper sends it on as any table's would; the clock stops when the page shows that bid in the
probe's card. The baseline, in the same run, is the probe alone. Medians over ``--runs``.

    python bench/club_director_latency.py [--tables 30] [--samples 30] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

import psycopg  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from scanner.app.browser import CHROMIUM_ARGS, chromium_path  # noqa: E402
from scanner.app.pg_cluster import Cluster, wait_until  # noqa: E402
from scanner.cards import Seat  # noqa: E402
from scanner.club.admin import init_store, issue_token  # noqa: E402
from scanner.club.shipper import POLL_INTERVAL_S, Shipper  # noqa: E402
from scanner.events import Bid, HandStarted  # noqa: E402
from scanner.log import EventLog  # noqa: E402

TARGET_P95_MS = 500.0
SIM_TABLE = REPO / "tests" / "club" / "sim_table.py"
PIN = "8642"


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def tables_shipping(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(DISTINCT table_name) FROM tablescan.events "
                            "WHERE table_name <> 'probe'").fetchone()[0]


def one_run(cluster: Cluster, run: int, tables: int, samples: int, pace: float,
            folder: Path) -> list[float]:
    db = cluster.create_database(f"latency_{tables}_{run}")
    url = cluster.admin_url(db)
    init_store(url)
    with psycopg.connect(url, autocommit=True) as admin:
        tokens = {f"T{i:02d}": str(issue_token(admin, f"T{i:02d}")) for i in range(1, tables)}
        probe_token = issue_token(admin, "probe")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    log_path = folder / f"serve-{db}.log"
    with log_path.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "scanner", "club", "serve", "--store", url, "--port", "0",
             "--pin", PIN], stdout=out, stderr=subprocess.STDOUT, env=env)
    probe_db = folder / f"{db}-probe.sqlite"
    latencies: list[float] = []
    background: list[subprocess.Popen] = []
    try:
        if not wait_until(lambda: "director's page http" in log_path.read_text(), 180):
            raise SystemExit(f"club serve did not start: {log_path.read_text()}")
        # The background tables start once the page's server is up, and deal throughout.
        background = [subprocess.Popen(
            [sys.executable, str(SIM_TABLE), "--db", str(folder / f"{db}-{name}.sqlite"),
             "--club", cluster.table_url(db), "--token", token, "--deals", "1000",
             "--pace", str(pace), "--seed", str(i), "--poll", str(POLL_INTERVAL_S)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for i, (name, token) in enumerate(tokens.items())]
        wait_until(lambda: tables_shipping(url) == len(tokens), 300, interval=0.5)
        page_url = re.search(r"(http://127\.0\.0\.1:\d+/)", log_path.read_text()).group(1)
        with EventLog(probe_db, session="bench") as log, sync_playwright() as playwright:
            log.append(HandStarted("bridge", Seat.N))
            shipper = Shipper(probe_db, cluster.table_url(db), probe_token).start()
            browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                                 args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(page_url)
            page.wait_for_selector('.tablecard[data-table="probe"]', timeout=60_000)
            for k in range(samples):
                amount = 1000 + k
                start = time.perf_counter()
                log.append(Bid(Seat.E, amount))
                page.wait_for_function(
                    "k => (document.querySelector('.tablecard[data-table=\"probe\"] .last-event')"
                    "?.textContent || '').includes('amount=' + k)", arg=amount, timeout=30_000,
                    polling="raf")
                latencies.append((time.perf_counter() - start) * 1000)
                time.sleep(0.2)
            browser.close()
            shipper.stop(drain_timeout=1)
    finally:
        server.send_signal(signal.SIGTERM)
        for proc in background:
            proc.kill()
        for proc in [server, *background]:
            proc.wait()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--samples", type=int, default=30, help="probe events per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pace", type=float, default=0.5,
                        help="seconds between a background table's events (default 0.5: a "
                             "shoe dealing a card every half second at every table at once)")
    args = parser.parse_args()
    cluster = Cluster().init()
    cluster.start()
    results: dict[int, list[list[float]]] = {1: [], args.tables: []}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for run in range(args.runs):
                for tables in results:
                    results[tables].append(one_run(cluster, run, tables, args.samples,
                                                   args.pace, Path(tmp)))
    finally:
        cluster.destroy()
    print(f"event at a table → shown on the director's page; {args.samples} events per run, "
          f"median over {args.runs} runs; background tables log one event every "
          f"{args.pace} s; {os.cpu_count()} cores, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")
    base = statistics.median(p95(r) for r in results[1])
    for tables, runs in results.items():
        medians = [statistics.median(r) for r in runs]
        p95s = [p95(r) for r in runs]
        label = "1 table (baseline)" if tables == 1 else f"{tables} tables"
        verdict = "" if tables == 1 else (
            "meets" if statistics.median(p95s) <= TARGET_P95_MS else "ABOVE")
        print(f"  {label:20s} median {statistics.median(medians):6.0f} ms   p95 "
              f"{statistics.median(p95s):6.0f} ms  (runs p95 {[round(x) for x in p95s]})  "
              f"{statistics.median(p95s) / base:5.2f}x baseline  {verdict} "
              f"{TARGET_P95_MS:.0f} ms")


if __name__ == "__main__":
    main()
