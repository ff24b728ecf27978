"""`tablescan predeal SET --shoe URL --camera SRC [--boards 1-32] [--copies N] [--db FILE]`.

Pre-deals a duplicate set (Law 6E4, Law 6F): for every copy of every board the operator loads
a shuffled deck, and the shoe puts each card the camera reads into the pocket the set file
says, whatever order the deck is in. Blind by default: nothing printed names a card. A run
that was killed or unplugged resumes at the exact card when run again with the same --db;
a card that does not belong (another deck, a duplicate read, unreadable) stops the run with
a prompt. Every dealt copy is recorded in the deal history (Law 6D2) under --session; a
board whose deal was played in another session is not dealt. Before each deck the run waits
for Enter — or, when stdin is not a terminal, for a line on it (its end stops the run, exit
2) — unless --yes or --next-deck-cmd says otherwise.

stdout: one JSON line per copy, then a summary line. stderr: prompts and a progress bar.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

from ..app import arguments, options
from ..app.cli_io import DamagedInput, load_set, report_damage
from ..app.club_options import add_club_arguments, check_club_arguments, join_club
from ..bridge.formats import UnknownFormat
from ..cli import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "predeal", help="pre-deal a set of boards through the dealing shoe (Law 6E, 6F)",
        description=__doc__.split("\n\n", 1)[1])
    parser.add_argument("set", metavar="SET", help="the set file (.pbn .dlm .dup …)")
    parser.add_argument("--boards", type=arguments.board_numbers,
                        help="board numbers, e.g. 1-32 or 1-16,20 (default: all)")
    parser.add_argument("--copies", type=arguments.bounded(1, arguments.MAX_COPIES), default=1,
                        help=f"copies of each board, 1 to {arguments.MAX_COPIES} (default 1)")
    options.add_shoe(parser)
    parser.add_argument("--db", type=Path,
                        help="event log and deal history (default: the user's data folder); "
                             "the same file resumes a stopped run")
    parser.add_argument("--session", help="session the boards will be played in (default: the "
                                          "session the run started in, or a new one)")
    options.add_durability(parser)
    parser.add_argument("--show-hands", action="store_true",
                        help="print each copy's pockets (default: blind, no card is named)")
    parser.add_argument("--allow-repeat", action="store_true",
                        help="deal boards whose deal was played in another session (Law 6D2: "
                             "no result may stand; by default the run stops before them)")
    parser.add_argument("--yes", action="store_true",
                        help="do not wait for Enter before each deck (a deck feeder, scripts)")
    parser.add_argument("--next-deck-cmd", metavar="CMD",
                        help="shell command that loads the next deck; gets TABLESCAN_BOARD, "
                             "TABLESCAN_COPY; non-zero exit stops")
    parser.add_argument("--wait-for-page", action="store_true",
                        help="wait for the operator's 'Loaded' on the live page (tablescan serve "
                             "--game bridge on the same --db and --session) instead of Enter")
    add_club_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..app.console import NoGoAhead, PredealConsole, go_ahead
    from ..app.shoe_access import open_shoe_and_camera
    from ..bridge.predeal import Predeal, run_session_for, steps_for
    from ..cards import BRIDGE_52
    from ..log import EventLog, LogError
    from ..paths import default_db_path
    from ..shoe.dealing import deck_check_for

    check_club_arguments(args)
    boards = _boards(args)
    try:
        steps_for(boards, args.copies)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    db = args.db or default_db_path()
    try:
        session = args.session or run_session_for(db, boards)
        log = EventLog(db, session=session, durability=args.durability)
    except LogError as exc:
        raise UsageError(f"--db: {exc}") from None
    try:
        club = join_club(args, db)
    except UsageError:
        log.close()
        raise
    console = PredealConsole(go_ahead(args.yes, args.next_deck_cmd, "--next-deck-cmd",
                                      page_log=log if args.wait_for_page else None),
                             sys.stderr, tty=sys.stderr.isatty())
    blind = not args.show_hands
    outcomes: list[dict[str, Any]] = []
    with log, closing(club), open_shoe_and_camera(args.shoe, args.camera) as (shoe, camera):
        predeal = Predeal(shoe, camera, log, console, lambda: deck_check_for(BRIDGE_52),
                          boards, args.copies, blind, args.allow_repeat)
        print(f"predeal: {args.set}, {len(boards)} board(s) × {args.copies} cop(ies), "
              f"session {log.session}, log {db}{', blind' if blind else ''}", file=sys.stderr)

        def emit(outcome: Any) -> None:
            outcomes.append(outcome.to_dict(blind))
            _print(outcomes[-1])
            _tell(outcomes[-1])

        try:
            predeal.run(emit)
        except NoGoAhead as exc:
            _print(_summary(outcomes, args, log.session, "stopped", str(exc)))
            raise UsageError(str(exc)) from None
        status = "complete" if len(outcomes) == len(boards) * args.copies and all(
            o["status"] == "dealt" for o in outcomes) else outcomes[-1]["status"]
        if outcomes and all(o.get("note") for o in outcomes):
            status = "already-dealt"
        summary = _summary(outcomes, args, session=log.session, status=status)
        if status == "complete":
            summary["audit"] = predeal.log_audit().to_dict()
            summary["audit"].pop("type")
    _print(summary)
    return 0


def _boards(args: argparse.Namespace) -> list:
    try:
        loaded = load_set(args.set)
        numbers = args.boards
    except (ValueError, UnknownFormat, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    except DamagedInput as exc:
        report_damage(exc)
        raise UsageError(f"{args.set}: damaged set file; nothing was dealt") from None
    if loaded.info.sealed and args.show_hands:
        raise UsageError(f"--show-hands: {args.set} is Sealed; its hands are for blind "
                         "pre-dealing only")
    try:
        by_number = loaded.by_number()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if numbers is None:
        return [by_number[n] for n in sorted(by_number)]
    missing = [n for n in numbers if n not in by_number]
    if missing:
        raise UsageError(f"--boards: board(s) {missing} are not in {args.set}")
    return [by_number[n] for n in numbers]


def _summary(outcomes: list[dict[str, Any]], args: argparse.Namespace, session: str,
             status: str, reason: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"summary": True, "status": status, "set": args.set,
                           "session": session, "copies": args.copies,
                           "dealt": sum(o["status"] == "dealt" for o in outcomes),
                           "flagged": [o["board"] for o in outcomes if o.get("history")]}
    if reason:
        out["reason"] = reason
    return out


def _print(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _tell(outcome: dict[str, Any]) -> None:
    where = f"board {outcome['board']} copy {outcome['copy']}"
    if outcome.get("history"):
        flag = outcome["history"]
        print(f"{where}: {flag['status']} ({flag['law']}): {flag['reason']}; {flag['remedy']}",
              file=sys.stderr)
    if outcome["status"] in ("stopped", "refused"):
        print(f"{where}: {outcome['status'].upper()}: {outcome['prompt']}", file=sys.stderr)
        if outcome["status"] == "stopped":
            print("run the same command again to resume at this card", file=sys.stderr)
    else:
        print(f"{where}: dealt", file=sys.stderr)
