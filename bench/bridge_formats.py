"""Board file speed: parse a 5,000-deal PBN file (target ≤ 1 s) and convert 99 boards to DLM
and back (target ≤ 0.2 s), issue 5 §8.

Prints the median of several runs of each, and its ratio to a baseline run in the same
process on the same file: for the PBN parse, a bare scan of the file's lines that only picks
out the Deal tags (the least any parser must do); for the DLM round trip, writing and reading
back the same bytes with no encoding at all.

    python3 bench/bridge_formats.py [--deals N] [--repeats R]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from scanner.bridge.dealset import generate
from scanner.bridge.formats import load, read_boards, write_boards


def median_seconds(job: Callable[[], object], repeats: int) -> float:
    """Median wall-clock time of ``job``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def median_cpu_seconds(job: Callable[[], object], repeats: int) -> float:
    """Median CPU time of ``job``: what it costs when other processes share the cores."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        job()
        times.append(time.process_time() - start)
    return statistics.median(times)


def bare_deal_scan(path: Path) -> int:
    with path.open(encoding="utf-8") as stream:
        return sum(1 for line in stream if line.startswith("[Deal "))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pbn = folder / "big.pbn"
        write_boards(pbn, generate(range(1, args.deals + 1), seed="bench"))
        assert sum(1 for _ in read_boards(pbn)) == args.deals == bare_deal_scan(pbn)

        parse = median_seconds(lambda: sum(1 for _ in read_boards(pbn)), args.repeats)
        parse_cpu = median_cpu_seconds(lambda: sum(1 for _ in read_boards(pbn)), args.repeats)
        scan = median_seconds(lambda: bare_deal_scan(pbn), args.repeats)
        print(f"parse {args.deals} PBN deals (strict): median {parse:.3f} s wall, "
              f"{parse_cpu:.3f} s CPU (target ≤ 1 s; {args.deals / parse:,.0f} deals/s); "
              f"bare line scan {scan:.4f} s; ratio {parse / scan:.1f}×")

        boards = generate(range(1, 100), seed="bench")
        dlm = folder / "set.dlm"

        def round_trip() -> None:
            write_boards(dlm, boards)
            assert len(load(dlm).boards) == 99

        raw = folder / "raw.bin"
        write_boards(dlm, boards)
        payload = dlm.read_bytes()

        def copy_bytes() -> None:
            raw.write_bytes(payload)
            raw.read_bytes()

        trip = median_seconds(round_trip, args.repeats * 4)
        trip_cpu = median_cpu_seconds(round_trip, args.repeats * 4)
        copy = median_seconds(copy_bytes, args.repeats * 4)
        print(f"convert 99 boards to DLM and back: median {trip * 1000:.1f} ms wall, "
              f"{trip_cpu * 1000:.1f} ms CPU (target ≤ 200 ms); "
              f"raw write+read of the same bytes {copy * 1000:.2f} ms; "
              f"ratio {trip / copy:.1f}×")


if __name__ == "__main__":
    main()
