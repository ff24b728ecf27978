"""Durable appends to the event log. Target: at least 1,000 appends/s.

An acknowledged event is a committed event, so a single append costs at least one sync of the
disk. The bench therefore prints, in the same process and folder:

- the disk's own floor: write + fsync of 100 bytes, the most single durable appends it allows;
- single appends with synchronous=FULL (shipped), NORMAL and OFF;
- batched appends (``append_many``, one deck of 52 per commit) with synchronous=FULL.

What each setting promises in WAL mode:
- FULL: every commit syncs the WAL; an acknowledged event survives power loss.
- NORMAL: the WAL is synced only at checkpoints; survives a process crash, not a power cut.
- OFF: never syncs; for comparison only.

    python bench/core_log.py [--appends N] [--runs R] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from scanner.cards import BRIDGE_52, Seat
from scanner.events import CardDelivered
from scanner.log import SYNCHRONOUS, EventLog

TARGET_APPENDS_PER_S = 1_000
BATCH = 52


def events(n: int) -> list[CardDelivered]:
    cards = BRIDGE_52.cards()
    seats = list(Seat)
    return [CardDelivered(cards[i % 52], seats[i % 4]) for i in range(n)]


def fsync_floor(folder: Path, n: int, run: int) -> float:
    path = folder / f"fsync-{run}.bin"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        start = time.perf_counter()
        for _ in range(n):
            os.write(fd, b"x" * 100)
            os.fsync(fd)
        return n / (time.perf_counter() - start)
    finally:
        os.close(fd)


def single_appends(folder: Path, synchronous: str, n: int, run: int) -> float:
    with EventLog(folder / f"single-{synchronous}-{run}.sqlite") as log:
        log.connection.execute(f"PRAGMA synchronous = {synchronous}")
        todo = events(n)
        start = time.perf_counter()
        for i, event in enumerate(todo):
            log.append(event, key=f"bench:{i}")
        return n / (time.perf_counter() - start)


def batched_appends(folder: Path, n: int, run: int) -> float:
    with EventLog(folder / f"batched-{run}.sqlite") as log:
        todo = events(n)
        keys = [f"bench:{i}" for i in range(n)]
        start = time.perf_counter()
        for at in range(0, n, BATCH):
            log.append_many(todo[at:at + BATCH], keys[at:at + BATCH])
        return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--appends", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, help="folder for the files (default: a temp dir; "
                        "put it on the disk the log will live on)")
    args = parser.parse_args()
    n, runs = args.appends, args.runs
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"{n} keyed appends per run, median of {runs} runs, in {folder}")
        rates = {
            "disk floor: write+fsync (baseline)": [fsync_floor(folder, n, r) for r in range(runs)],
            "single, synchronous=FULL": [single_appends(folder, "FULL", n, r)
                                         for r in range(runs)],
            "single, synchronous=NORMAL": [single_appends(folder, "NORMAL", n, r)
                                           for r in range(runs)],
            "single, synchronous=OFF": [single_appends(folder, "OFF", n, r)
                                        for r in range(runs)],
            f"batches of {BATCH}, synchronous=FULL": [batched_appends(folder, n, r)
                                                      for r in range(runs)],
        }
    floor = statistics.median(rates["disk floor: write+fsync (baseline)"])
    print(f"  shipped setting: WAL, synchronous={SYNCHRONOUS}")
    for name, values in rates.items():
        rate = statistics.median(values)
        verdict = "meets" if rate >= TARGET_APPENDS_PER_S else "BELOW"
        print(f"  {name:36s} {rate:10,.0f} /s  {rate / floor:6.2f}x disk floor  "
              f"{verdict} {TARGET_APPENDS_PER_S:,}/s")


if __name__ == "__main__":
    main()
