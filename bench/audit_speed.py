"""Benchmark: audit a 32-board set (target <= 0.5 s), and one dealing order.

Figures are medians over repeated runs. "cold" recomputes every exact null from scratch
(as the first audit in a fresh process does); "warm" reuses them. The baseline, run in the
same process, is reading the same PBN file without auditing it, so the ratio says what the
audit adds to loading the set. The whole command is timed too, against `tablescan --version`
(interpreter start-up and every command module's imports), which the audit does not control.

    python3 bench/audit_speed.py
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scanner.audit import DealtOrder, audit_boards, audit_orders, hand_nulls, order_nulls
from scanner.audit.shuffles import deal_round_robin
from scanner.audit.suite import NEW_PACK
from scanner.bridge.board import Board
from scanner.bridge.formats import read_boards, write_boards
from scanner.cards import BRIDGE_52

TARGET_SECONDS = 0.5
REPEATS = 15


def _median_seconds(action, repeats: int = REPEATS, before=None) -> float:
    times = []
    for _ in range(repeats):
        if before:
            before()
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _clear_nulls() -> None:
    for module in (hand_nulls, order_nulls):
        for name in dir(module):
            cached = getattr(module, name)
            if hasattr(cached, "cache_clear"):
                cached.cache_clear()


def _write_set(path: Path, boards: int, rng: random.Random) -> None:
    deals = []
    for number in range(1, boards + 1):
        deck = BRIDGE_52.cards()
        rng.shuffle(deck)
        deals.append(Board.standard(number, tuple(tuple(h) for h in deal_round_robin(deck))))
    write_boards(path, deals)


def _run(*argv: str) -> None:
    subprocess.run([sys.executable, "-m", "scanner", *argv], check=True, capture_output=True)


def _audit_file(path: Path) -> None:
    boards = [b.complete_hands() for b in read_boards(path)]
    audit_boards(boards, list(range(1, len(boards) + 1))).to_dict()


def main() -> None:
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "set32.pbn"
        _write_set(path, 32, rng)

        baseline = _median_seconds(lambda: list(read_boards(path)))
        cold = _median_seconds(lambda: _audit_file(path), repeats=5, before=_clear_nulls)
        warm = _median_seconds(lambda: _audit_file(path))
        command = _median_seconds(lambda: _run("audit", str(path)), repeats=5)
        start_up = _median_seconds(lambda: _run("--version"), repeats=5)

    deck = BRIDGE_52.cards()
    rng.shuffle(deck)
    order = DealtOrder(tuple(deck), BRIDGE_52, {"deal": 1})
    order_cold = _median_seconds(lambda: audit_orders([order], NEW_PACK).to_dict(), repeats=5,
                                 before=_clear_nulls)
    order_warm = _median_seconds(lambda: audit_orders([order], NEW_PACK).to_dict())

    print("audit of a 32-board PBN set (medians)")
    print(f"  baseline: read the set only       {baseline * 1000:8.1f} ms")
    print(f"  read + audit, nulls cold          {cold * 1000:8.1f} ms   "
          f"({cold / baseline:.1f}x baseline)")
    print(f"  read + audit, nulls warm          {warm * 1000:8.1f} ms   "
          f"({warm / baseline:.1f}x baseline)")
    print(f"  target for the audit              {TARGET_SECONDS * 1000:8.1f} ms   "
          f"({'met' if cold <= TARGET_SECONDS else 'NOT met'} even with cold nulls)")
    print(f"  `tablescan audit set32.pbn`       {command * 1000:8.1f} ms   (whole process)")
    print(f"  `tablescan --version`             {start_up * 1000:8.1f} ms   (start-up baseline: "
          f"the audit command adds {(command - start_up) * 1000:.0f} ms)")
    print("audit of one 52-card dealing order, new-pack prior (medians)")
    print(f"  nulls cold                        {order_cold * 1000:8.1f} ms")
    print(f"  nulls warm                        {order_warm * 1000:8.1f} ms   "
          f"({order_warm / baseline:.2f}x the set-reading baseline)")


if __name__ == "__main__":
    main()
