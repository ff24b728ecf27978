"""`tablescan shoe-sim [--firmware] --deck FILE`: run a simulated dealing shoe until stopped.

Prints one JSON line, ``{"shoe": <pyserial URL or pty path>, "camera": <value for --camera>}``,
then serves. Without ``--firmware`` the Python simulator serves the shoe on a local socket; with
it, the real AVR image runs under simavr (``make -C firmware sim`` first) on a pty.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from pathlib import Path

from ..app import arguments
from ..cli import UsageError
from ..shoe import targets
from ..shoe.control import SIM_PREFIX
from ..shoe.simulator import Simulator
from ..shoe.virtual_deck import VirtualDeckError, load_virtual_deck


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "shoe-sim", help="run a simulated dealing shoe (Python, or the AVR image under simavr)",
        description=__doc__.splitlines()[0])
    parser.add_argument("--deck", required=True, type=Path,
                        help="virtual deck: one card per line, top first; 'AS down' = face down")
    parser.add_argument("--firmware", action="store_true",
                        help="run the real AVR firmware under simavr instead of the Python model")
    parser.add_argument("--motion", type=arguments.seconds, default=0.05, metavar="SECONDS",
                        help="Python simulator: seconds each feed or route takes (default 0.05)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        deck = load_virtual_deck(args.deck)
    except VirtualDeckError as exc:
        raise UsageError(str(exc)) from None
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    if args.firmware:
        return _serve_firmware(args.deck, stop)
    with Simulator(deck, motion_s=args.motion) as sim:
        _announce(sim.serial_url, sim.control_address)
        _wait(stop, sim.stopped)
    return 0


def _serve_firmware(deck: Path, stop: threading.Event) -> int:
    try:
        running = targets.start("simavr", deck)
    except targets.TargetError as exc:
        print(f"tablescan shoe-sim: {exc}", file=sys.stderr)
        return 1
    with running:
        _announce(running.serial, running.control)
        exited = threading.Event()
        threading.Thread(target=lambda: (running.process.wait(), exited.set()),
                         daemon=True).start()
        _wait(stop, exited)
    return 0


def _announce(serial_port: str, control: str) -> None:
    print(json.dumps({"shoe": serial_port, "camera": SIM_PREFIX + control}), flush=True)
    print(f"shoe-sim: serving; control channel on {control}; Ctrl-C to stop", file=sys.stderr)


def _wait(*events: threading.Event) -> None:
    try:
        while not any(e.wait(0.2) for e in events):
            pass
    except KeyboardInterrupt:
        pass
