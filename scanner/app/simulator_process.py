"""The Python shoe simulator as a process of its own, started the way the C targets are.

``python -m scanner.app.simulator_process --deck FILE [--motion SECONDS]`` prints
``{"serial": …, "control": …}`` on its first line and serves until ``quit`` or Ctrl-C, so
``scanner.shoe.targets`` starts the three simulated shoes alike. People use ``tablescan
shoe-sim``; this entry point is for the targets, the tests and the benches.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys

from ..shoe.simulator import Simulator
from ..shoe.virtual_deck import VirtualDeckError, load_virtual_deck


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scanner.app.simulator_process")
    parser.add_argument("--deck", help="virtual deck file: one card per line, top first")
    parser.add_argument("--motion", type=float, default=0.0,
                        help="seconds each feed or route takes (default 0)")
    args = parser.parse_args(argv)
    try:
        deck = load_virtual_deck(args.deck) if args.deck else []
    except VirtualDeckError as exc:
        print(f"shoe simulator: {exc}", file=sys.stderr)
        return 2
    with Simulator(deck, motion_s=args.motion) as sim:
        print(json.dumps({"serial": sim.serial_url, "control": sim.control_address}), flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            sim.stopped.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
