"""`tablescan records SET OUT.html`: printable hand records for a set, six boards per A4 sheet."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from ..app import arguments
from ..app.cli_io import DamagedInput, load_set, print_json, report_damage
from ..bridge.formats import UnknownFormat
from ..bridge.records import BOARDS_PER_SHEET, render
from ..cli import UsageError
from ..output_file import check_output, write_bytes_atomically


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "records", help="write printable hand records (HTML, A4) for a set",
        description="Write one HTML page with every board's four hands, number, dealer and "
                    "vulnerability; print it on A4, six boards to a sheet. A Sealed set is "
                    "only shown with --reveal.")
    parser.add_argument("set", metavar="SET", help="the set file (.pbn .dlm .dup …)")
    parser.add_argument("output", metavar="OUT.html")
    parser.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    parser.add_argument("--title", type=arguments.text,
                        help="heading of the page (default: the set's file name)")
    parser.add_argument("--reveal", action="store_true",
                        help="show the hands of a Sealed set (after play, or for the director)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        check_output(args.output, overwrite=args.force, inputs=[args.set])
        loaded = load_set(args.set)
    except (UnknownFormat, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    except DamagedInput as exc:
        return report_damage(exc)
    if loaded.info.sealed and not args.reveal:
        raise UsageError(f"{args.set} is Sealed: its hands are hidden from the operator; "
                         "pass --reveal to print them")
    title = args.title or f"Hand records: {Path(args.set).name}"
    subtitle = f"{len(loaded.boards)} boards"
    write_bytes_atomically(args.output, render(loaded.boards, title, subtitle).encode("utf-8"),
                           overwrite=args.force, inputs=[args.set])
    sheets = math.ceil(len(loaded.boards) / BOARDS_PER_SHEET)
    print_json({"set": args.set, "out": args.output,
                "boards": [b.number for b in loaded.boards], "sheets": sheets})
    print(f"wrote {len(loaded.boards)} board(s) on {sheets} A4 sheet(s) to {args.output}",
          file=sys.stderr)
    return 0
