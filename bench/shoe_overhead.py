"""Host overhead per card of the dealing loop: driver + decision + durable log (target ≤ 2 ms).

How: the real dealing loop deals full bridge decks through the Python simulator, started as its
own process (``python -m scanner.shoe.simulator``) with zero motion delay, so the machine's
physical motion is excluded and the simulator does not share this process's GIL. The camera is
the real virtual camera (render + ``read_station``); the time spent inside ``camera.look()`` is
measured and subtracted, because reading the card is the vision issue's budget, not the host's.
What remains per card is: two protocol exchanges over a localhost socket (feed, route, including
the simulator's answer time, so this is an upper bound on driver time), the deck check and the
pocket decision, and two durable log appends (the read, then the delivery; SQLite WAL with
synchronous=FULL, so each append waits for an fsync).

The same process also times a baseline: a bare localhost TCP round trip to an echo socket, and a
bare durable log append, so the figures can be compared across machines.

    python bench/shoe_overhead.py [--decks N]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

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


class TimedCamera:
    """The virtual camera, with the time spent looking recorded per look."""

    def __init__(self, camera: VirtualCamera) -> None:
        self.camera = camera
        self.source = camera.source
        self.spent: list[float] = []

    def look(self):
        start = time.perf_counter()
        reading = self.camera.look()
        self.spent.append(time.perf_counter() - start)
        return reading

    def close(self) -> None:
        self.camera.close()


def timed(fn, times: list[float]):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            times.append(time.perf_counter() - start)
    return wrapper


def deal_one(log_dir: Path, seed: int) -> dict[str, list[float]]:
    import random

    cards = BRIDGE_52.cards()
    random.Random(seed).shuffle(cards)
    deck_file = log_dir / f"deck{seed}.txt"
    deck_file.write_text(format_virtual_deck([DeckCard(c) for c in cards]), encoding="utf-8")
    with targets.start("python", deck_file) as sim:
        camera = TimedCamera(VirtualCamera(sim.control))
        shoe = Shoe(sim.serial)
        shoe.connect()
        driver: list[float] = []
        appends: list[float] = []
        shoe.feed = timed(shoe.feed, driver)
        shoe.route = timed(shoe.route, driver)
        log = EventLog(log_dir / f"deal{seed}.db")
        log.append = timed(log.append, appends)
        plan = LiveDeal.for_game("bridge", Seat.N)
        start = time.perf_counter()
        result = deal_deck(shoe, camera, plan, log, hand=HandStarted("bridge", Seat.N),
                           deck_check_factory=lambda: deck_check_for(plan.deck))
        total = time.perf_counter() - start
        assert result.status == "complete", result.prompt
        with ControlChannel(sim.control) as control:
            assert control.pockets() == result.pockets, "the simulator disagrees with the log"
        shoe.close()
        camera.close()
        log.close()
    per_card = (total - sum(camera.spent)) / 52
    return {"per_card": [per_card], "driver": driver, "appends": appends,
            "camera": camera.spent}


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


def baseline_append(log_dir: Path, n: int = 100) -> float:
    times = []
    with EventLog(log_dir / "baseline.db") as log:
        for i in range(n):
            start = time.perf_counter()
            log.append(MachineFault("bench", str(i)), key=f"b{i}")
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(where: str, log_dir: Path, decks: int) -> None:
    samples: dict[str, list[float]] = {"per_card": [], "driver": [], "appends": [],
                                       "camera": []}
    for seed in range(decks):
        for name, values in deal_one(log_dir, seed).items():
            samples[name].extend(values)
    per_card = statistics.median(samples["per_card"])
    action = statistics.median(samples["driver"])
    append = statistics.median(samples["appends"])
    rtt = baseline_round_trip()
    bare_append = baseline_append(log_dir)
    print(f"[log on {where}: {log_dir}]")
    print(f"  host overhead per card (median of {decks} decks, camera excluded): "
          f"{per_card * 1e3:.2f} ms   target <= 2 ms: {'met' if per_card <= 0.002 else 'NOT met'}")
    print(f"  one driver action (feed or route), median:     {action * 1e3:.3f} ms")
    print(f"  one durable log append in the loop, median:    {append * 1e3:.3f} ms")
    print(f"  camera look (render + read_station), median:   "
          f"{statistics.median(samples['camera']) * 1e3:.1f} ms  (excluded)")
    print(f"  baseline: bare localhost TCP round trip {rtt * 1e3:.3f} ms; "
          f"driver action / round trip = {action / rtt:.1f}x")
    print(f"  baseline: bare durable append {bare_append * 1e3:.3f} ms; "
          f"per-card overhead / (2 appends) = {per_card / (2 * bare_append):.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as disk:
        run("disk (tempdir)", Path(disk), args.decks)
    shm = Path("/dev/shm")
    if shm.is_dir():
        with tempfile.TemporaryDirectory(dir=shm) as ram:
            run("tmpfs (/dev/shm: fsync costs nothing, durability is not real)", Path(ram),
                args.decks)


if __name__ == "__main__":
    main()
