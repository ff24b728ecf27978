"""`tablescan verify SET --shoe URL --camera SRC`: the boards read back through the shoe.

The operator feeds each board's hands one at a time (Enter, ``--yes`` or ``--next-hand-cmd``);
each hand goes back into its pocket. JSON on stdout in the shape ``verify --observed`` prints;
the table on stderr. Every read is logged in ``--db`` (default: the user's data folder).
"""

from __future__ import annotations

import argparse
import sys

from ..bridge.formats import LoadedSet
from ..bridge.shoe_source import ShoeReadback, verify_through_shoe
from ..bridge.verify import STATUSES, results_table
from ..cards import Seat
from ..cli import UsageError
from ..log import EventLog, LogError, new_session_name
from ..paths import default_db_path
from ..shoe.station import StationStop
from .cli_io import print_json
from .console import NoGoAhead, Wanted, go_ahead
from .shoe_access import open_shoe_and_camera


def run_from_shoe(args: argparse.Namespace, record_set: LoadedSet, numbers: list[int] | None
                  ) -> int:
    if args.camera is None:
        raise UsageError("--shoe needs --camera: the camera at the shoe's read station")
    wanted = numbers or sorted(record_set.by_number())
    unknown = [n for n in wanted if n not in record_set.by_number()]
    if unknown:
        raise UsageError(f"--boards: board(s) {unknown} are not in the record set ({args.set})")
    go = go_ahead(args.yes, args.next_hand_cmd, "--next-hand-cmd")

    def load_hand(board: int, seat: Seat) -> None:
        go.wait(f"put hand {seat} of board {board} in the hopper, face up",
                Wanted(board, seat=seat))

    session = args.session or new_session_name()
    sealed = record_set.info.sealed and not args.reveal
    try:
        log = EventLog(args.db or default_db_path(), session=session)
    except LogError as exc:
        raise UsageError(f"--db: {exc}") from None
    stop = ""
    results = []
    with log, open_shoe_and_camera(args.shoe, args.camera) as (shoe, camera):
        readback = ShoeReadback(shoe, camera, log, load_hand)
        try:
            results = verify_through_shoe(readback, record_set.boards, wanted,
                                          session if args.db else None, sealed)
        except StationStop as exc:
            stop = exc.prompt
        except NoGoAhead as exc:
            stop = str(exc)
    rows = []
    for result, flag in results:
        row = result.to_dict()
        if flag:
            row["history"] = flag
        rows.append(row)
    print_json({"set": args.set, "observed": f"shoe {args.shoe}", "boards": rows,
                "summary": {s: sum(r.status == s for r, _ in results) for s in STATUSES},
                "session": session, "cards_withheld": sealed, "stopped": stop or None})
    if results:
        print(results_table([r for r, _ in results]), file=sys.stderr)
    if stop:
        print(f"verify: STOPPED: {stop}", file=sys.stderr)
    return 0
