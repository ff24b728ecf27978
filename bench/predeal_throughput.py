"""How fast a set is pre-dealt through the shoe, and how fast the bridge page refolds its log.

Run: ``python3 bench/predeal_throughput.py [--boards N]``. Prints medians:

* seconds per board pre-dealt through the simulated shoe (no motor time) with the virtual
  camera (the real renderer and reader at the read station) — compare with the commercial
  machines' published figures: Duplimate about 5–7 s per board, 10–12 s a cycle;
* the same loop with a baseline camera that asks the simulator which card it holds: the cost
  of the dealing loop, the serial protocol and the durable log alone, and the ratio;
* milliseconds for the bridge view to refold a 32-board, 2-copy set's log (every change on
  the page refolds it).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from scanner.bridge.dealset import generate
from scanner.bridge.live_set import fold, set_view
from scanner.bridge.predeal import Predeal, Step
from scanner.cards import BRIDGE_52, SEATS
from scanner.events import BoardResult, BoardStarted, CardDelivered, CardRead
from scanner.log import EventLog
from scanner.shoe.control import ControlChannel
from scanner.shoe.dealing import deck_check_for
from scanner.shoe.driver import Shoe
from scanner.shoe.simulator import Simulator
from scanner.shoe.virtual_camera import VirtualCamera
from scanner.vision.reading import Reading


class TruthCamera:
    """Baseline only: the simulator's own record of the card at the station, no vision."""

    def __init__(self, address: str) -> None:
        self.source = "truth:" + address
        self._control = ControlChannel(address)

    def look(self) -> Reading:
        held = self._control.station()
        if held is None:
            return Reading("none", None, 1.0)
        return Reading(held.face, held.card if held.face == "up" else None, 1.0)

    def close(self) -> None:
        self._control.close()


class TimedOperator:
    """Loads a shuffled deck per copy and notes when each copy's dealing starts and ends."""

    def __init__(self, sim: Simulator, folder: Path) -> None:
        self.sim, self.folder = sim, folder
        self.started: dict[int, float] = {}
        self.ended: dict[int, float] = {}
        self.placed: dict[int, tuple[int, float]] = {}

    def load_deck(self, step: Step) -> None:
        import random

        deck = BRIDGE_52.cards()
        random.Random(step.position).shuffle(deck)
        path = self.folder / f"deck-{step.position}.txt"
        path.write_text("".join(f"{c}\n" for c in deck), encoding="utf-8")
        self.sim.control(f"deck {path}")

    def resumed(self, step: Step, at_card: int) -> None:
        pass

    def progress(self, step: Step, cards_done: int) -> None:
        now = time.perf_counter()
        self.started.setdefault(step.position, now)
        self.placed[step.position] = (cards_done, now)
        if cards_done == BRIDGE_52.size:
            self.ended[step.position] = now

    def seconds_per_card(self) -> float | None:
        """Over every card placed, finished boards or not (a stopped run still measures)."""
        cards = sum(n for n, _ in self.placed.values())
        spent = sum(t - self.started[p] for p, (_, t) in self.placed.items())
        return spent / cards if cards else None


def seconds_per_board(camera_kind: str, boards: int) -> tuple[list[float], str, float | None]:
    with Simulator(motion_s=0.0) as sim, tempfile.TemporaryDirectory() as tmp:
        shoe = Shoe(sim.serial_url)
        shoe.connect()
        camera = (VirtualCamera(sim.control_address) if camera_kind == "virtual"
                  else TruthCamera(sim.control_address))
        operator = TimedOperator(sim, Path(tmp))
        with EventLog(Path(tmp) / "bench.sqlite") as log:
            predeal = Predeal(shoe, camera, log, operator, lambda: deck_check_for(BRIDGE_52),
                              generate(range(1, boards + 1), seed="bench"), 1, True)
            outcomes = predeal.run(lambda outcome: None)
        camera.close()
        shoe.close()
    times = [operator.ended[p] - operator.started[p] for p in operator.ended]
    last = outcomes[-1]
    status = last.status if last.deal is None or last.status == "dealt" else \
        f"{last.status}: {last.deal.reason}"
    return times, status, operator.seconds_per_card()


def fold_ms(repeats: int = 7) -> float:
    events = []
    for board in range(1, 33):
        for copy in (1, 2):
            events.append(BoardStarted(board, "deal", copy, (board - 1) * 2 + copy, 64))
            for i, card in enumerate(BRIDGE_52.cards()):
                events += [CardRead(card, "up", 1.0, "shoe-station"),
                           CardDelivered(card, SEATS[i % 4])]
            events.append(BoardResult(board, "dealt", "deal", copy, "Law 6F"))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        set_view(fold(events))
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=3)
    args = parser.parse_args()
    base, base_status, base_card = seconds_per_board("truth", args.boards)
    real, real_status, real_card = seconds_per_board("virtual", args.boards)
    base_median = statistics.median(base) if base else float("nan")
    print(f"baseline (loop + protocol + durable log, no vision): median "
          f"{base_median:.2f} s per board over {len(base)} board(s) [{base_status}]")
    if real:
        real_median = statistics.median(real)
        print(f"virtual camera (render + read every card): median {real_median:.2f} s per board "
              f"over {len(real)} board(s), {real_median / base_median:.1f}x the baseline "
              f"[{real_status}]")
    else:
        print(f"virtual camera: no board completed [{real_status}]")
    if real_card and base_card:
        print(f"per card placed: virtual camera {real_card * 1000:.0f} ms, baseline "
              f"{base_card * 1000:.0f} ms ({real_card / base_card:.1f}x); at that rate a board "
              f"takes {real_card * BRIDGE_52.size:.1f} s")
    print("reference: Duplimate about 5-7 s per board (10-12 s a cycle with handling)")
    print(f"bridge view refold of a 32-board x 2-copy log (6784 events): median "
          f"{fold_ms():.1f} ms")


if __name__ == "__main__":
    main()
