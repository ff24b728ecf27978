"""A 52-card deck through the AVR image under simavr over a line that corrupts 1 % of the bytes
both ways, against the same deck over a clean line, in the same process.

The host here is the firmware tests' minimal stop-and-wait host (tests/firmware/
firmware_wire.py: retransmit after 50 ms doubling to 400 ms, re-send after 1 s without a
result), not scanner/shoe's driver: this measures what the firmware and PROTOCOL.md deliver.

    python3 bench/firmware_noisy_link.py [--corruption 0.01] [--seed 7]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scanner.app.firmware_wire import BUILD, DONE, FEED, FIRMWARE, ROUTE, NoisyLink, ShoeTarget

RANKS, SUITS, POCKETS = "AKQJT98765432", "SHDC", "NESW"


def deal(deck: Path, corruption: float, seed: int) -> dict[str, float]:
    shoe = ShoeTarget([str(BUILD / "shoe-sim"), "--deck", str(deck)])
    link = NoisyLink(shoe, corruption=corruption, seed=seed)
    started = time.monotonic()
    link.identify()
    failed = 0
    for index in range(52):
        failed += link.act(bytes((FEED,))).payload[0] != DONE
        failed += link.act(bytes((ROUTE, index % 4))).payload[0] != DONE
    wall = time.monotonic() - started
    pockets = shoe.control("pockets")
    shoe.close()
    cards = [f"{r}{s}" for s in SUITS for r in RANKS]
    landed = dict(item.split(":") for item in pockets.split()[1:])
    misrouted = sum(card not in landed[POCKETS[i % 4]].split(",") for i, card in enumerate(cards))
    delivered = sum(len(v.split(",")) for v in landed.values() if v)
    return {"wall_s": wall, "retransmits": link.retransmits, "misrouted": misrouted,
            "delivered": delivered, "failed_actions": failed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corruption", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    subprocess.run(["make", "-C", str(FIRMWARE), "sim"], check=True,
                   capture_output=True)
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "deck.txt"
        deck.write_text("".join(f"{r}{s}\n" for s in SUITS for r in RANKS), encoding="utf-8")
        clean = deal(deck, 0.0, args.seed)
        noisy = deal(deck, args.corruption, args.seed)
    print("52 cards through the AVR image under simavr, real time, host: tests/firmware")
    for name, r in (("clean", clean), (f"{args.corruption:.0%} bytes", noisy)):
        print(f"  {name:9s} wall {r['wall_s']:.1f} s, retransmits {r['retransmits']}, "
              f"misrouted {r['misrouted']}, delivered {r['delivered']}/52, "
              f"failed actions {r['failed_actions']}")
    print(f"  wall time noisy/clean: {noisy['wall_s'] / clean['wall_s']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
