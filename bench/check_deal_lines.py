"""`tablescan check-deal` on long deal logs. Target: 100,000 card lines in at most 2 s, linear.

A long log is the bad case of issue 21: far more cards than a deck, so every card after the
52nd is a surplus copy. Prints, for each size, the median of several runs of the whole
command (read, rule, JSON out) and, as the baseline in the same run, of reading the same
lines with json.loads alone; then the cost per line and its ratio to the smallest size
(1.0 means linear) and the command's ratio to the baseline.

    python bench/check_deal_lines.py [--sizes 6000,12000,24000,100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import tempfile
import time
from pathlib import Path

from scanner.cards import ALL_CARDS
from scanner.cli import main

TARGET_S = 2.0
SEATS = "ESWN"


def write_log(path: Path, lines: int) -> None:
    with path.open("w") as out:
        out.write(json.dumps({"game": "bridge", "dealer": "N"}) + "\n")
        for i in range(lines):
            out.write(json.dumps({"card": str(ALL_CARDS[i % 52]), "to": SEATS[i % 4]}) + "\n")


def baseline(path: Path) -> float:
    start = time.perf_counter()
    with path.open() as stream:
        for line in stream:
            json.loads(line)
    return time.perf_counter() - start


def command(path: Path) -> float:
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["check-deal", str(path)]) == 0
    return time.perf_counter() - start


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="6000,12000,24000,100000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            path = Path(folder) / f"deal-{size}.jsonl"
            write_log(path, size)
            base = statistics.median(baseline(path) for _ in range(args.runs))
            took = statistics.median(command(path) for _ in range(args.runs))
            rows.append((size, took, base))
    first_per_line = rows[0][1] / rows[0][0]
    print(f"{'lines':>8} {'check-deal s':>13} {'json.loads s':>13} {'us/line':>8} "
          f"{'vs smallest':>12} {'vs baseline':>12}")
    for size, took, base in rows:
        per_line = took / size
        print(f"{size:>8} {took:>13.3f} {base:>13.3f} {per_line * 1e6:>8.1f} "
              f"{per_line / first_per_line:>12.2f} {took / base:>12.1f}")
    largest = rows[-1]
    verdict = "meets" if largest[1] <= TARGET_S else "MISSES"
    print(f"{largest[0]} lines in {largest[1]:.2f} s (median of {args.runs}): {verdict} the "
          f"{TARGET_S:.0f} s target on this machine")


if __name__ == "__main__":
    main_bench()
