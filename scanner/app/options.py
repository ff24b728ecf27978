"""Options several commands share, defined once so that they read and behave alike.

``arguments`` checks the value of one option; this module adds a group of options that mean
the same thing wherever they appear: the shoe and its camera, how durable the log is, and the
log whose deal history a command checks and extends.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cli import UsageError
from ..log import DEFAULT_DURABILITY, DURABILITY
from . import arguments


def add_shoe(parser: argparse.ArgumentParser) -> None:
    """``--shoe`` and ``--camera``, both required: a command that deals through the shoe."""
    parser.add_argument("--shoe", required=True,
                        help="pyserial URL or device: /dev/ttyUSB0, COM3, socket://HOST:PORT …")
    parser.add_argument("--camera", required=True,
                        help="sim:HOST:PORT (a simulated shoe's camera), a device index, a file "
                             "or a stream URL")


def add_durability(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--durability", choices=tuple(DURABILITY), default=DEFAULT_DURABILITY,
                        help="power (default): every logged event survives a power cut; "
                             "process: it survives the host being killed, not a power cut, "
                             "and spares a disk sync per event")


def add_deal_history(parser: argparse.ArgumentParser) -> None:
    """``--db`` and ``--session``: the log whose deal history (Law 6D2) is checked, then
    extended with what the command dealt; without ``--db`` nothing is checked or kept."""
    parser.add_argument("--db", type=Path, help="event log whose deal history to check and extend")
    parser.add_argument("--session", type=arguments.text,
                        help="session name for --db (default: a new session)")


def check_deal_history(args: argparse.Namespace) -> None:
    if args.session is not None and args.db is None:
        raise UsageError("--session only applies with --db")
