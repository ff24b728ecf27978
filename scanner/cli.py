"""`tablescan …`: one entry point; each command lives in its own module in scanner.commands.

A command module defines ``register(subparsers)``, which adds its sub-parser and sets
``func`` to a callable taking the parsed arguments and returning the exit code.
JSON goes to stdout, messages for people to stderr. Exit 2 means unusable input.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from . import __version__, commands
from .output_file import OutputError

DESCRIPTION = ("A companion for a real card table: reads every card as it is dealt, checks the "
               "deal against the table's redeal rules, and shows auction, meld and verdicts. "
               "JSON on stdout; exit 2 on unusable input.")
EXIT_OK = 0
EXIT_UNAVAILABLE = 1
EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Unusable input; the message names the file, line or field. The CLI exits 2, as it
    does for an OutputError (a file that must not or cannot be written)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tablescan", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"tablescan {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        try:
            module = importlib.import_module(f"{commands.__name__}.{info.name}")
        except ImportError as exc:
            _register_unavailable(subparsers, info.name.replace("_", "-"), exc)
            continue
        module.register(subparsers)
    return parser


def _register_unavailable(subparsers: argparse._SubParsersAction, name: str,
                          error: ImportError) -> None:
    """Keep every other command working when one command's dependencies cannot be imported;
    the broken command itself still fails, saying why."""
    # No option prefix, so whatever the caller passed is taken as-is and the error is ours.
    parser = subparsers.add_parser(name, help=f"(unavailable: {error})", add_help=False,
                                   prefix_chars="\0")
    parser.add_argument("rest", nargs="*")

    def unavailable(args: argparse.Namespace) -> int:
        print(f"tablescan {name}: cannot run: {error}", file=sys.stderr)
        return EXIT_UNAVAILABLE

    parser.set_defaults(func=unavailable)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        # argparse has printed why a value was refused; the caller gets the exit code, as
        # for any other unusable input. --help and --version still end the program.
        if exc.code == EXIT_BAD_INPUT:
            return EXIT_BAD_INPUT
        raise
    try:
        return int(args.func(args) or EXIT_OK)
    except (UsageError, OutputError) as exc:
        print(f"tablescan {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `tablescan demo | head` closed our stdout: not an error worth a traceback. Point
        # stdout at /dev/null so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
