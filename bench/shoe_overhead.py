"""Host overhead per card of the dealing loop: driver + decision + durable log (target ≤ 2 ms).

How: the real dealing loop deals full bridge decks through the Python simulator, started as its
own process (``python -m scanner.app.simulator_process``) with zero motion delay, so the machine's
physical motion is excluded and the simulator does not share this process's GIL. The camera is
the real virtual camera (render + ``read_station``); the time spent inside ``camera.look()`` is
excluded, because reading the card is the vision issue's budget, not the host's.

One card's overhead is the time from the end of its look to the start of the next card's look:
log the read, check the deck, choose the pocket, route (one protocol exchange), log the delivery,
feed the next card (another exchange). Both exchanges include the simulator's own answer time
over a localhost socket, so this is an upper bound on the host's part.

The loop makes two durable commits per card, and neither can wait for the other: the read must
be logged before the card is routed, and the delivery before the next card is fed. So the
figure is measured three ways, interleaved deck by deck:

- ``durability=power`` on disk, as shipped (``synchronous=FULL``): each commit waits for an
  fsync, so two fsyncs per card;
- ``durability=process`` on disk (``synchronous=NORMAL``): the commit survives kill -9 of the
  host but not a power cut; no fsync per commit;
- ``durability=power`` on tmpfs, where an fsync costs nothing: the host's CPU path alone.

Baselines, measured in the same process: the disk's bare fsync floor (4 KiB appended to a file and
its fdatasync, in the folder the logs are on), a bare localhost TCP round trip, and a bare append.

    python bench/shoe_overhead.py [--decks N]
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scanner.cards import BRIDGE_52, Seat
from scanner.events import HandStarted, MachineFault
from scanner.log import EventLog
from scanner.shoe import targets
from scanner.shoe.control import ControlChannel
from scanner.shoe.deal_plan import LiveDeal
from scanner.shoe.dealing import deal_deck, deck_check_for
from scanner.shoe.driver import Shoe
from scanner.shoe.virtual_camera import VirtualCamera
from scanner.shoe.virtual_deck import DeckCard, format_virtual_deck

TARGET_S = 0.002
CARDS = 52


@dataclass
class Setting:
    name: str
    folder: Path
    durability: str
    per_card: list[float] = field(default_factory=list)
    cpu_per_card: list[float] = field(default_factory=list)
    actions: list[float] = field(default_factory=list)
    appends: list[float] = field(default_factory=list)
    commits_per_card: list[float] = field(default_factory=list)


class TimedCamera:
    """The virtual camera, with when each look started and ended, and its CPU time."""

    def __init__(self, camera: VirtualCamera) -> None:
        self.camera = camera
        self.source = camera.source
        self.looks: list[tuple[float, float]] = []
        self.cpu = 0.0

    def look(self):
        start, cpu = time.perf_counter(), time.process_time()
        reading = self.camera.look()
        self.cpu += time.process_time() - cpu
        self.looks.append((start, time.perf_counter()))
        return reading

    def close(self) -> None:
        self.camera.close()


def timed(fn: Callable[..., Any], times: list[float]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            times.append(time.perf_counter() - start)
    return wrapper


def deal_one(setting: Setting, seed: int) -> None:
    cards = BRIDGE_52.cards()
    random.Random(seed).shuffle(cards)
    deck_file = setting.folder / f"deck{seed}.txt"
    deck_file.write_text(format_virtual_deck([DeckCard(c) for c in cards]), encoding="utf-8")
    with targets.start("python", deck_file) as sim:
        camera = TimedCamera(VirtualCamera(sim.control))
        shoe = Shoe(sim.serial)
        shoe.connect()
        actions: list[float] = []
        appends: list[float] = []
        shoe.feed = timed(shoe.feed, actions)
        shoe.route = timed(shoe.route, actions)
        log = EventLog(setting.folder / f"deal{seed}.db", durability=setting.durability)
        log.append = timed(log.append, appends)
        plan = LiveDeal.for_game("bridge", Seat.N)
        cpu = time.process_time()
        result = deal_deck(shoe, camera, plan, log, hand=HandStarted("bridge", Seat.N),
                           deck_check_factory=lambda: deck_check_for(plan.deck))
        cpu = time.process_time() - cpu - camera.cpu
        assert result.status == "complete", result.prompt
        with ControlChannel(sim.control) as control:
            assert control.pockets() == result.pockets, "the simulator disagrees with the log"
        shoe.close()
        camera.close()
        log.close()
    looks = camera.looks
    setting.per_card.extend(nxt[0] - end for (_, end), nxt in itertools.pairwise(looks))
    setting.cpu_per_card.append(cpu / CARDS)
    setting.actions.extend(actions)
    # The HandStarted is the deal's, not a card's.
    setting.appends.extend(appends[1:])
    setting.commits_per_card.append((len(appends) - 1) / CARDS)


def fsync_floor(folder: Path, n: int = 100) -> float:
    """What one durable commit cannot beat on this disk: appending 4 KiB to a file and waiting
    for its fdatasync, as a commit grows the write-ahead log."""
    path = folder / "fsync-floor"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    block = b"\0" * 4096
    times = []
    try:
        for _ in range(n):
            start = time.perf_counter()
            os.write(fd, block)
            os.fdatasync(fd)
            times.append(time.perf_counter() - start)
    finally:
        os.close(fd)
        path.unlink()
    return statistics.median(times)


def baseline_round_trip(n: int = 500) -> float:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def echo() -> None:
        conn, _ = server.accept()
        with conn:
            while data := conn.recv(64):
                conn.sendall(data)

    threading.Thread(target=echo, daemon=True).start()
    client = socket.create_connection(server.getsockname())
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        client.sendall(b"\x06\x00\x10\x00\x00\x7e")
        client.recv(64)
        times.append(time.perf_counter() - start)
    client.close()
    server.close()
    return statistics.median(times)


def baseline_append(folder: Path, durability: str, n: int = 100) -> float:
    times = []
    with EventLog(folder / f"baseline-{durability}.db", durability=durability) as log:
        for i in range(n):
            start = time.perf_counter()
            log.append(MachineFault("bench", str(i)), key=f"b{i}")
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


def report(settings: list[Setting], disk: Path, floor: float, rtt: float,
           bare: dict[str, float]) -> None:
    cards = len(settings[0].per_card)
    print(f"baselines, same process (log folder {disk}):")
    print(f"  fsync floor of this disk (4 KiB append + fdatasync), median: {ms(floor)}")
    print(f"  bare localhost TCP round trip, median:                       {ms(rtt)}")
    for durability, seconds in bare.items():
        print(f"  bare append, durability={durability:<8} on disk, median:      {ms(seconds)}"
              f"  ({seconds / floor:.2f}x the fsync floor)")
    print(f"host overhead per card (driver + decision + durable log, camera excluded), "
          f"median of {cards} cards:")
    shipped = statistics.median(settings[0].per_card)
    for setting in settings:
        per_card = statistics.median(setting.per_card)
        verdict = "met" if per_card <= TARGET_S else "NOT met"
        print(f"  {setting.name:<44} {ms(per_card)}  target <= 2 ms: {verdict}")
        print(f"      = {per_card / floor:.2f}x the fsync floor, {per_card / shipped:.2f}x shipped;"
              f" durable commits per card {statistics.median(setting.commits_per_card):.2f};"
              f" host CPU per card {ms(statistics.median(setting.cpu_per_card))}"
              " (process time, the kernel's share of each fsync included)")
        print(f"      one driver action (feed or route) {ms(statistics.median(setting.actions))}"
              f" = {statistics.median(setting.actions) / rtt:.1f}x a TCP round trip;"
              f" one append {ms(statistics.median(setting.appends))}")
    commits = statistics.median(settings[0].commits_per_card)
    synced = statistics.median(settings[0].appends)
    unsynced = statistics.median(settings[1].per_card)
    print(f"  with power-cut durability a card waits for {commits:.0f} synced commits "
          f"({ms(synced)} each in the loop): shipped minus process durability = "
          f"{ms(shipped - unsynced)} of the {ms(shipped)} per card")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as disk_dir, \
            tempfile.TemporaryDirectory(dir="/dev/shm") as ram_dir:
        disk, ram = Path(disk_dir), Path(ram_dir)
        settings = [
            Setting("durability=power (FULL), disk [shipped]", disk, "power"),
            Setting("durability=process (NORMAL), disk", disk, "process"),
            Setting("durability=power, tmpfs (CPU path only)", ram, "power"),
        ]
        # Interleaved deck by deck in a rotating order, so a change in the machine's load or in
        # the disk's speed touches all three alike.
        for seed in range(args.decks):
            for i in range(len(settings)):
                deal_one(settings[(seed + i) % len(settings)], seed)
        floor = fsync_floor(disk)
        rtt = baseline_round_trip()
        bare = {durability: baseline_append(disk, durability)
                for durability in ("power", "process")}
        report(settings, disk, floor, rtt, bare)


if __name__ == "__main__":
    main()
