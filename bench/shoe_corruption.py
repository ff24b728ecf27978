"""A 52-card deck through the real firmware under simavr, on a clean link and at 1 % byte
corruption: misrouted cards (target 0), retransmissions, and wall time against the clean link.
Also: the cards per second the firmware sustains at real clock speed, driver only.

How: ``make -C firmware sim`` builds the harness; it runs the unchanged AVR image with simulated
time kept at wall-clock pace (``--speed 1``, the default here), so motion takes as long as on
the machine. The dealing loop (real driver, virtual camera, real ``read_station``, durable log)
deals a shuffled bridge deck through a byte-level fault proxy that flips one random bit in 1 % of
the bytes, in both directions, from a fixed seed. Misrouted = a card whose pocket in the
simulator's ground truth (``pockets`` on the control channel) is not the pocket the deal order
gives it; the log is compared with the same ground truth.

    python bench/shoe_corruption.py [--speed 1] [--corrupt 0.01] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from scanner.cards import BRIDGE_52, Seat
from scanner.events import CardDelivered, HandStarted
from scanner.log import EventLog
from scanner.shoe import targets
from scanner.shoe.control import ControlChannel
from scanner.shoe.deal_plan import LiveDeal
from scanner.shoe.dealing import deal_deck, deck_check_for
from scanner.shoe.driver import Shoe
from scanner.shoe.fault_proxy import FaultProxy, FaultRates
from scanner.shoe.virtual_camera import VirtualCamera
from scanner.shoe.virtual_deck import DeckCard, format_virtual_deck

DEALER = Seat.N


def write_deck(directory: Path, seed: int) -> tuple[Path, list]:
    cards = BRIDGE_52.cards()
    random.Random(seed).shuffle(cards)
    path = directory / "deck.txt"
    path.write_text(format_virtual_deck([DeckCard(c) for c in cards]), encoding="utf-8")
    return path, cards


def deal_through_simavr(directory: Path, speed: str, corrupt: float, seed: int) -> dict:
    deck_file, cards = write_deck(directory, seed)
    plan = LiveDeal.for_game("bridge", DEALER)
    intended = {seat.value: [str(c) for i, c in enumerate(cards)
                             if plan.pocket_for(i, c, []) is seat] for seat in Seat}
    with targets.start("simavr", deck_file, ("--speed", speed)) as sim, \
            FaultProxy(sim.serial, FaultRates(corrupt_byte=corrupt), seed=seed) as proxy:
        shoe = Shoe(proxy.url)
        shoe.connect()
        camera = VirtualCamera(sim.control)
        db = directory / f"deal-{corrupt}.db"
        log = EventLog(db)
        start = time.perf_counter()
        result = deal_deck(shoe, camera, plan, log, hand=HandStarted("bridge", DEALER),
                           deck_check_factory=lambda: deck_check_for(plan.deck))
        wall = time.perf_counter() - start
        with ControlChannel(sim.control) as control:
            truth = control.pockets()
        logged = {p: [] for p in "NESW"}
        for _, event in log.replay():
            if isinstance(event, CardDelivered):
                logged[event.to.value].append(str(event.card))
        shoe.close()
        camera.close()
        log.close()
    misrouted = sum(1 for p in "NESW" for c in truth[p] if c not in intended[p])
    return {"status": result.status, "reason": result.reason, "wall": wall,
            "retransmits": shoe.counters.retransmits, "resyncs": shoe.counters.resyncs,
            "misrouted": misrouted, "log_matches_truth": logged == truth,
            "delivered": sum(len(v) for v in truth.values()),
            "corrupted_bytes": proxy.counts.bytes_corrupted,
            "bad_blocks": shoe.link.stats.bad_blocks}


def firmware_cards_per_second(directory: Path, speed: str, cards: int = 12) -> float:
    deck_file, _ = write_deck(directory, 99)
    with targets.start("simavr", deck_file, ("--speed", speed)) as sim:
        shoe = Shoe(sim.serial)
        shoe.connect()
        start = time.perf_counter()
        for i in range(cards):
            shoe.feed()
            shoe.route(i % 4)
        elapsed = time.perf_counter() - start
        shoe.close()
    return cards / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", default="1", help="simavr pace: 1 = real clock, 0 = flat out")
    parser.add_argument("--corrupt", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    targets.build(targets.TARGETS["simavr"])
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        clean = deal_through_simavr(directory, args.speed, 0.0, args.seed)
        noisy = deal_through_simavr(directory, args.speed, args.corrupt, args.seed)
        rate = firmware_cards_per_second(directory, args.speed)
    print(f"52-card bridge deck through the AVR image under simavr (--speed {args.speed}):")
    for name, run in (("clean link", clean), (f"{args.corrupt:.0%} byte corruption", noisy)):
        print(f"  {name:>20}: {run['status']} {run['reason']}; delivered {run['delivered']}; "
              f"misrouted {run['misrouted']} (target 0); log == pockets: "
              f"{run['log_matches_truth']}; retransmits {run['retransmits']}, status resyncs "
              f"{run['resyncs']}, bytes corrupted {run['corrupted_bytes']}, bad blocks seen by "
              f"the host {run['bad_blocks']}; wall {run['wall']:.1f} s")
    print(f"  wall time corrupted / clean: {noisy['wall'] / clean['wall']:.2f}x")
    print(f"  firmware at --speed {args.speed}, driver only (feed + route): "
          f"{rate:.2f} cards/s")


if __name__ == "__main__":
    main()
