"""Event to screen: from an event's durable append to the page showing it, in real Chromium.

A writer in this process appends events to the log that `tablescan serve` (a separate process)
follows; a MutationObserver in the page notes the wall-clock time at which each version is
rendered. Both clocks are this machine's. The baseline, measured in the same run, is the
page's own fetch of /healthz: the floor cost of any round trip to the server.

Target (issue 6): p95 ≤ 100 ms.   Run: python3 bench/webui_latency.py [--samples N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from scanner.app.browser import CHROMIUM_ARGS, chromium_path, running_server
from scanner.cards import Seat
from scanner.events import CardRead, HandStarted
from scanner.log import EventLog

SESSION = "latency-bench"
WATCH = """() => {
  window.shown = {};
  new MutationObserver(() => {
    const v = document.body.dataset.version;
    if (v && !(v in window.shown)) window.shown[v] = Date.now();
  }).observe(document.body, {attributes: true, attributeFilter: ["data-version"]});
}"""
FETCH_FLOOR = """async () => {
  const t0 = performance.now();
  await fetch('/healthz', {cache: 'no-store'});
  return performance.now() - t0;
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between events")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "table.sqlite"
        with EventLog(db, session=SESSION) as log:
            log.append(HandStarted("pinochle", Seat.N, 3, SESSION))
        with running_server(Path(tmp)) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(),
                                                 headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(server.url)
            page.wait_for_function("document.body.dataset.version !== ''")
            page.evaluate(WATCH)
            latencies, floors = [], []
            with EventLog(server.db, session=SESSION) as log:
                for _ in range(args.samples):
                    seq = log.append(CardRead(None, "none", 0.0, "latency-bench"))
                    appended = time.time() * 1000
                    page.wait_for_function(f"'{seq}' in window.shown", timeout=5000)
                    latencies.append(page.evaluate(f"window.shown['{seq}']") - appended)
                    floors.append(page.evaluate(FETCH_FLOOR))
                    time.sleep(args.gap)
            browser.close()
    median, p95 = statistics.median(latencies), percentile(latencies, 0.95)
    floor = statistics.median(floors)
    print(f"event → screen over {args.samples} events (serve follows the log every 20 ms)")
    print(f"{'measure':<34}{'median ms':>10}{'p95 ms':>10}")
    print(f"{'event appended → page rendered':<34}{median:>10.1f}{p95:>10.1f}")
    print(f"{'baseline: page fetch of /healthz':<34}{floor:>10.1f}"
          f"{percentile(floors, 0.95):>10.1f}")
    print(f"ratio (median / baseline median): {median / floor:.1f}×   target p95 ≤ 100 ms: "
          f"{'met' if p95 <= 100 else 'NOT met'}")


if __name__ == "__main__":
    main()
