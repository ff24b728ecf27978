"""The values a person types on the command line, checked once, before any command runs.

Each function here is an argparse ``type=``: it turns the text into the value or raises
``argparse.ArgumentTypeError`` with a sentence saying what was expected, which argparse
prints with the option's name before exiting 2. Numbers are ASCII digits only (``int``
would take ``٣٠`` and ``2_5``), within bounds a table can use; text must be UTF-8.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

# A port is 16 bits; the operating system would otherwise wrap 70000 to 4464.
MAX_PORT = 65535
# A set's boards: far above any real session's, far below what exhausts memory.
MAX_BOARD_NUMBER = 99_999
MAX_BOARDS = 10_000
# DUP keeps the copies of a board in two digits; no table makes more.
MAX_COPIES = 99


def whole_number(text: str, *, low: int = 0, high: int | None = None) -> int:
    """``text`` as a whole number of ASCII digits within ``low``–``high``."""
    stripped = text.strip()
    if not (stripped.isascii() and stripped.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (digits 0-9 only)")
    if len(stripped) > 18:
        raise argparse.ArgumentTypeError(f"{text!r} is far too large")
    value = int(stripped)
    if value < low or (high is not None and value > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        raise argparse.ArgumentTypeError(f"{value} is out of range: give {bound}")
    return value


def bounded(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type for a whole number within ``low``–``high``."""
    def parse(text: str) -> int:
        return whole_number(text, low=low, high=high)
    parse.__name__ = "whole number"
    return parse


def port(text: str) -> int:
    """A TCP port, 1–65535, or 0 for any free one."""
    return whole_number(text, low=0, high=MAX_PORT)


def seconds(text: str) -> float:
    """A finite, non-negative number of seconds (``nan`` and ``inf`` are not durations)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a finite number of seconds, 0 or more")
    return value


def text(value: str) -> str:
    """Text that is valid UTF-8 (a terminal can pass any bytes; they would fail later)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError(
            f"{value.encode('utf-8', 'backslashreplace').decode('ascii', 'replace')!r} is not "
            "valid UTF-8 text") from None
    return value


def pin(value: str) -> str:
    """An operator PIN: 4 to 12 ASCII digits."""
    if not (value.isascii() and value.isdigit() and 4 <= len(value) <= 12):
        raise argparse.ArgumentTypeError("a PIN is 4 to 12 digits 0-9")
    return value


def board_numbers(value: str) -> list[int]:
    """``1-32``, ``1-16,20,25-26`` → board numbers in order, each once."""
    numbers: dict[int, None] = {}
    for part in text(value).split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first = whole_number(low, low=1, high=MAX_BOARD_NUMBER)
            last = whole_number(high, low=1, high=MAX_BOARD_NUMBER) if dash else first
        except argparse.ArgumentTypeError as exc:
            raise argparse.ArgumentTypeError(
                f"{part.strip()!r} is not N or N-M with boards 1 to {MAX_BOARD_NUMBER}: {exc}",
            ) from None
        if last < first:
            raise argparse.ArgumentTypeError(f"{part.strip()!r} is not a rising range")
        if len(numbers) + last - first + 1 > MAX_BOARDS:
            raise argparse.ArgumentTypeError(f"more than {MAX_BOARDS} boards")
        numbers.update(dict.fromkeys(range(first, last + 1)))
    return list(numbers)
