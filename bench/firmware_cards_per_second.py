"""How many cards per second the shoe firmware sustains at its real clock (16 MHz).

Deals a 52-card deck, clockwise N E S W, through the unchanged AVR image under simavr and
through the host-native core, and reads each target's simulated clock (control command
`clock`) around every card. Simulated time is what a real 16 MHz ATmega328P and the mechanics
would take; cycles per card = simulated seconds × 16e6. Per-card times also hold the host's
turnaround (run at --speed 1, it is wall-clock latency on this machine), so the best card is
the firmware-and-mechanics figure and the median shows what this host adds.

    python3 bench/firmware_cards_per_second.py [--speed X]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scanner.app.firmware_wire import BUILD, DONE, FEED, FIRMWARE, ROUTE, ShoeTarget

MCU_HZ = 16_000_000
RANKS, SUITS = "AKQJT98765432", "SHDC"
POCKETS = "NESW"


def deal(executable: str, deck: Path, speed: float) -> dict[str, float]:
    shoe = ShoeTarget([str(BUILD / executable), "--deck", str(deck), "--speed", str(speed)])
    shoe.identify()
    per_card_us = []
    wall_start = time.monotonic()
    start_us = int(shoe.control("clock").split()[1])
    for index in range(52):
        before = int(shoe.control("clock").split()[1])
        fed = shoe.act(bytes((FEED,)), seconds=5)
        assert fed.payload[0] == DONE, f"card {index + 1}: {fed.payload.hex()}"
        routed = shoe.act(bytes((ROUTE, index % 4)), seconds=5)
        assert routed.payload[0] == DONE, f"card {index + 1}: {routed.payload.hex()}"
        per_card_us.append(int(shoe.control("clock").split()[1]) - before)
    total_us = int(shoe.control("clock").split()[1]) - start_us
    wall = time.monotonic() - wall_start
    pockets = shoe.control("pockets")
    shoe.control("quit")
    stderr = shoe.process.stderr.read()
    shoe.close()
    expected = " ".join(
        f"{POCKETS[p]}:" + ",".join(f"{RANKS[i % 13]}{SUITS[i // 13]}"
                                    for i in range(52) if i % 4 == p) for p in range(4))
    misrouted = 0 if pockets == f"ok {expected}" else 1
    instructions = re.search(r"(\d+) AVR instructions", stderr)
    return {
        "median_card_ms": statistics.median(per_card_us) / 1000,
        "best_card_ms": min(per_card_us) / 1000,
        "total_s": total_us / 1e6,
        "wall_s": wall,
        "misrouted": misrouted,
        "instructions": float(instructions.group(1)) if instructions else float("nan"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", type=float, default=1.0,
                        help="simulated time per wall-clock second (default 1: real time)")
    args = parser.parse_args()
    subprocess.run(["make", "-C", str(FIRMWARE), "all", "sim", "native"], check=True,
                   capture_output=True)
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "deck.txt"
        deck.write_text("".join(f"{r}{s}\n" for s in SUITS for r in RANKS), encoding="utf-8")
        results = {name: deal(exe, deck, args.speed)
                   for name, exe in (("simavr", "shoe-sim"), ("native", "shoe-native"))}
    avr = results["simavr"]
    print(f"52-card deck, clockwise N E S W, --speed {args.speed}")
    for name, r in results.items():
        print(f"  {name:7s} median {r['median_card_ms']:.1f} ms/card, best {r['best_card_ms']:.1f} "
              f"ms/card (simulated), "
              f"deck {r['total_s']:.2f} s simulated = {52 / r['total_s']:.2f} cards/s, "
              f"wall {r['wall_s']:.1f} s, misrouted {r['misrouted']}")
    print(f"  AVR at 16 MHz: {avr['best_card_ms'] * MCU_HZ / 1000:,.0f} cycles per card with a "
          f"prompt host = {1000 / avr['best_card_ms']:.2f} cards/s; over the whole deck, with "
          f"this machine's host latency, {avr['total_s'] * MCU_HZ / 52:,.0f} cycles per card = "
          f"{52 / avr['total_s']:.2f} cards/s; it executed {avr['instructions']:,.0f} "
          f"instructions in the whole run (the CPU is asleep the rest: the mechanics, not the "
          f"firmware, set the pace)")
    print(f"  ratio simavr/native median per card: "
          f"{avr['median_card_ms'] / results['native']['median_card_ms']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
