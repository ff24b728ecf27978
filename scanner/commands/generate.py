"""`tablescan generate --boards 1-32 OUT`: a set of wholly random deals (Law 6E4).

Deals come from the OS CSPRNG, or with ``--seed TEXT`` from that seed by the published
derivation in scanner/bridge/dealset.py, so the set can be re-derived and audited after
play. With ``--db FILE`` every deal is recorded in the deal history under ``--session``,
and any deal seen before in another session is flagged (Law 6D2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..app import arguments, options
from ..app.cli_io import print_json
from ..app.club_options import add_club_arguments, check_before_logging, ship_after_logging
from ..bridge import dealset
from ..bridge.formats import UnknownFormat, format_for, write_boards
from ..bridge.formats.reading import SetInfo
from ..bridge.repeats import record, repeat_flag
from ..cli import UsageError
from ..history import DealHistory
from ..log import EventLog, LogError, new_session_name
from ..output_file import check_output


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "generate", help="generate a set of wholly random deals (Law 6E4)",
        description=__doc__.split("\n\n", 1)[1])
    parser.add_argument("output", metavar="OUT", help="set file to write (.pbn .dlm .dup …)")
    parser.add_argument("--boards", default="1-32", type=arguments.board_numbers,
                        help="board numbers, e.g. 1-32 or 1-16,20")
    parser.add_argument("--seed", type=arguments.text,
                        help="derive every deal from this published seed instead of the OS "
                             "CSPRNG")
    parser.add_argument("--sealed", action="store_true",
                        help="mark the set Sealed (DLM): the hands are for blind pre-dealing")
    parser.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    options.add_deal_history(parser)
    add_club_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    numbers = args.boards
    try:
        format_for(args.output)
    except UnknownFormat as exc:
        raise UsageError(str(exc)) from None
    options.check_deal_history(args)
    if args.seed == "":
        raise UsageError("--seed: an empty seed would make every set the same")
    out = Path(args.output)
    if args.sealed and out.suffix.lower() != ".dlm":
        raise UsageError(f"--sealed: only a .dlm file can say Sealed; {out.suffix} would show "
                         "the hands to whoever opens it")
    check_output(out, overwrite=args.force)
    token = check_before_logging(args, args.db)
    boards = dealset.generate(numbers, args.seed)
    try:
        write_boards(out, boards, SetInfo(sealed=args.sealed), overwrite=args.force)
    except ValueError as exc:
        raise UsageError(f"{out}: {exc}") from None
    result: dict = {"out": str(out), "boards": numbers,
                    "source": "seed" if args.seed is not None else "os-csprng",
                    "sealed": args.sealed}
    if args.seed is not None:
        result["derivation"] = "tablescan-deal-v1 (SHA-256, see scanner/bridge/dealset.py)"
        result["seed_sha256"] = dealset.seed_commitment(args.seed)
    if args.db is not None:
        result["session"], result["repeats"] = _check_history(args, boards)
        ship_after_logging(token, args.db)
    print_json(result)
    print(f"wrote {len(boards)} board(s) to {out}", file=sys.stderr)
    for flag in result.get("repeats", []):
        print(f"board {flag['board']}: {flag['status']} ({flag['law']}): {flag['reason']}",
              file=sys.stderr)
    return 0


def _check_history(args: argparse.Namespace, boards: list) -> tuple[str, list[dict]]:
    session = args.session or new_session_name()
    flags = []
    try:
        with EventLog(args.db, session=session) as log:
            history = DealHistory(log)
            for board in boards:
                flag = repeat_flag(history, board, session)
                if flag:
                    flags.append({"board": board.number, **flag})
                record(history, board, session, "generated")
    except LogError as exc:
        raise UsageError(str(exc)) from None
    return session, flags
