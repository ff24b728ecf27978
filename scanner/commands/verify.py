"""`tablescan verify SET --observed FILE [--boards 1-32]`: check every copy against the record.

Law 6F asks for exact copies. Each board of SET is compared with the hands observed for it
(read from FILE in any supported format, irregular hands and all) and gets one status:
match, differs (with every difference), rotated, swapped, repeat-of-previous or
not-observed. JSON on stdout; a table on stderr. For a Sealed set the cards are not named
(seats and counts only) unless ``--reveal``. With ``--db FILE`` each board is checked
against the deal history (Law 6D2: a deal already played in another session is
``no-result``) and recorded under ``--session`` (name the session the boards will be played
in): a matching board as verified, any other copy as it was found (fouled), so the club's
director sees which copy differs (Law 87A).
"""

from __future__ import annotations

import argparse
import sys

from ..app import arguments, options
from ..app.cli_io import (
    DamagedInput,
    load_set,
    print_json,
    report_damage,
)
from ..app.club_options import add_club_arguments, check_before_logging, ship_after_logging
from ..bridge.formats import UnknownFormat
from ..bridge.repeats import record_verification, repeat_flag
from ..bridge.verify import (
    STATUSES,
    BoardComparison,
    ObservedFile,
    results_table,
    verify_set,
    withheld,
)
from ..cli import UsageError
from ..history import DealHistory
from ..log import EventLog, LogError, new_session_name


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify", help="compare duplicated boards with the record set (Law 6F)",
        description=__doc__.split("\n\n", 1)[1])
    parser.add_argument("set", metavar="SET", help="the record set file")
    parser.add_argument("--observed", metavar="FILE",
                        help="the hands read back from the boards, in any supported format")
    parser.add_argument("--shoe", help="read the boards back through this dealing shoe instead "
                                       "(pyserial URL or device), hand by hand")
    parser.add_argument("--camera", help="with --shoe: the read-station camera (sim:HOST:PORT, "
                                         "a device index, a file or a stream URL)")
    parser.add_argument("--yes", action="store_true",
                        help="with --shoe: do not wait for Enter before each hand")
    parser.add_argument("--next-hand-cmd", metavar="CMD",
                        help="with --shoe: shell command that loads the next hand; gets "
                             "TABLESCAN_BOARD and TABLESCAN_SEAT; non-zero exit stops")
    parser.add_argument("--boards", type=arguments.board_numbers,
                        help="board numbers to verify (default: every board of SET)")
    parser.add_argument("--reveal", action="store_true",
                        help="name the cards in the differences of a Sealed set (by default "
                             "only seats and counts are shown, as the operator must not see "
                             "the hands)")
    options.add_deal_history(parser)
    add_club_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    options.check_deal_history(args)
    if (args.observed is None) == (args.shoe is None):
        raise UsageError("give the observed hands: --observed FILE, or --shoe URL --camera SRC")
    token = check_before_logging(args, args.db)
    try:
        numbers = args.boards
        record_set = load_set(args.set)
        observed = load_set(args.observed, strict=False) if args.observed else None
        # A board number must name one deal in each file (several events may reuse it).
        record_set.by_number()
        if observed is not None:
            observed.by_number()
    except (ValueError, UnknownFormat, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    except DamagedInput as exc:
        return report_damage(exc)
    if observed is None:
        from ..app.verify_from_shoe import run_from_shoe

        code = run_from_shoe(args, record_set, numbers)
        ship_after_logging(token, args.db)
        return code
    try:
        results = verify_set(record_set.boards, ObservedFile(observed.by_number()), numbers)
    except KeyError as exc:
        raise UsageError(f"--boards: {exc.args[0]} ({args.set})") from None
    sealed = record_set.info.sealed and not args.reveal
    if sealed:
        results = [withheld(result) for result in results]
    rows = [result.to_dict() for result in results]
    if args.db is not None:
        _history(args, record_set.by_number(), observed.by_number(), results, rows)
        ship_after_logging(token, args.db)
    extra = sorted(set(observed.by_number()) - set(record_set.by_number()))
    print_json({"set": args.set, "observed": args.observed, "cards_withheld": sealed,
                "boards": rows,
                "summary": {s: sum(r.status == s for r in results) for s in STATUSES},
                "observed_not_in_set": extra})
    print(results_table(results), file=sys.stderr)
    if extra:
        print(f"observed boards not in {args.set}: {extra}", file=sys.stderr)
    return 0


def _history(args: argparse.Namespace, record_boards: dict, observed_boards: dict,
             results: list[BoardComparison], rows: list[dict]) -> None:
    session = args.session or new_session_name()
    try:
        with EventLog(args.db, session=session) as log:
            history = DealHistory(log)
            for result, row in zip(results, rows, strict=True):
                board = record_boards[result.board]
                flag = repeat_flag(history, board, session)
                if flag:
                    row["history"] = flag
                    print(f"board {result.board}: {flag['status']} ({flag['law']}): "
                          f"{flag['reason']}", file=sys.stderr)
                record_verification(history, board, observed_boards.get(result.board), session,
                                    result.status)
    except LogError as exc:
        raise UsageError(str(exc)) from None
