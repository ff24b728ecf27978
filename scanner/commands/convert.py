"""`tablescan convert IN OUT`: copy a set of boards between PBN, DLM, DUP, BRI, DGE, LIN and CSV."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..app.cli_io import DamagedInput, load_set, print_json, report_damage
from ..bridge.formats import FORMATS, UnknownFormat, format_for, write_boards
from ..bridge.formats import dlm as dlm_format
from ..bridge.formats.reading import SetInfo
from ..cli import UsageError
from ..output_file import check_output


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "convert", help="convert a set of boards between board file formats",
        description="Read IN and write OUT, each in the format its extension names "
                    f"({' '.join(sorted(FORMATS))}). Damaged input exits 2 and names every "
                    "damaged board and every good one; OUT is then not written.")
    parser.add_argument("input", metavar="IN")
    parser.add_argument("output", metavar="OUT")
    parser.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    parser.add_argument("--unseal", action="store_true",
                        help="allow a Sealed DLM set to be written to a format that shows "
                             "the hands to whoever opens it")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        target = format_for(args.output)
        check_output(args.output, overwrite=args.force, inputs=[args.input])
        loaded = load_set(args.input)
    except (UnknownFormat, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    except DamagedInput as exc:
        return report_damage(exc)
    info = loaded.info
    if info.sealed and target is not dlm_format and not args.unseal:
        raise UsageError(f"{args.input} is Sealed (its hands are hidden from the operator); "
                         f"writing {Path(args.output).suffix} would show them: pass --unseal "
                         "if that is intended")
    if args.unseal:
        info = SetInfo(False, info.copies, info.headline, info.random_hands, info.backwards)
    try:
        write_boards(args.output, loaded.boards, info, overwrite=args.force,
                     inputs=[args.input])
    except ValueError as exc:
        raise UsageError(f"{args.output}: {exc}") from None
    numbers = [board.number for board in loaded.boards]
    print_json({"in": args.input, "out": args.output, "boards": numbers,
                "sealed": info.sealed})
    print(f"wrote {len(numbers)} board(s) to {args.output}", file=sys.stderr)
    return 0
