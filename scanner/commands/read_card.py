"""`tablescan read-card IMAGE…`: read one card per image, a station frame or a table photo.

One JSON object per image on stdout, one per line. A file that cannot be used gets an
object with an ``error`` instead, and the batch goes on; the exit code is 2 only when
no file at all could be read.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..cli import EXIT_BAD_INPUT, EXIT_OK, UsageError
from ..vision.glyphs import LETTER_SET_MEANINGS
from ..vision.image_io import ImageFileError, load_image
from ..vision.profile import DeckProfile, ProfileError, load_profile
from ..vision.table import read_single_card

ImageReader = Callable[[np.ndarray], dict[str, object]]
# Far above any photo of a card table; stops a device or a runaway file being read whole.
MAX_IMAGE_BYTES = 256 << 20
LETTER_SETS = tuple(name for name in LETTER_SET_MEANINGS if name is not None)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "read-card", help="read the card in each image (station frame or one card on a table)",
        description="Print one JSON object per image: {file, face: up|down|none, card, "
                    "confidence}. card is null when the reader abstains (a joker, a "
                    "non-card, an unclear index). A bad file gets {file, error}.")
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    add_deck_options(parser)
    parser.set_defaults(func=run)


def add_deck_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", metavar="FILE",
                        help="a deck profile made by `tablescan learn` for this deck design")
    parser.add_argument("--letters", choices=LETTER_SETS, metavar="|".join(LETTER_SETS),
                        help="the deck's index letters (french: R D V, german: K D B, dutch: "
                             "H V B); unset, a letter that means two ranks (V is a French "
                             "jack but a Dutch queen) reads as no card")


def profile_from(args: argparse.Namespace) -> DeckProfile | None:
    if args.profile is None:
        return None
    try:
        return load_profile(Path(args.profile))
    except (ProfileError, OSError) as exc:
        raise UsageError(f"--profile: {exc}") from None


def run_image_batch(paths: Sequence[str], reader: ImageReader) -> int:
    """Read every image with ``reader``; each bad file is reported and skipped."""
    read_any = False
    for path in paths:
        try:
            _refuse_unbounded(path)
            image = load_image(path)
        except ImageFileError as exc:
            print(json.dumps({"file": path, "error": exc.reason}), flush=True)
            print(f"tablescan: {exc}", file=sys.stderr)
            continue
        read_any = True
        print(json.dumps({"file": path, **reader(image)}), flush=True)
    if not read_any:
        print("tablescan: no image could be read", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


def _refuse_unbounded(path: str) -> None:
    """A device such as /dev/zero, a pipe, or a huge file would be read without end."""
    try:
        info = os.stat(path)
    except OSError:
        return  # load_image names a missing or unreadable file
    if stat.S_ISDIR(info.st_mode):
        return
    if not stat.S_ISREG(info.st_mode):
        raise ImageFileError(path, "not a regular file (a device, pipe or other special file)")
    if info.st_size > MAX_IMAGE_BYTES:
        raise ImageFileError(path, f"{info.st_size} bytes: larger than any image of a card "
                                   f"table ({MAX_IMAGE_BYTES >> 20} MiB at most)")


def run(args: argparse.Namespace) -> int:
    profile = profile_from(args)
    return run_image_batch(
        args.images, lambda image: read_single_card(image, profile, args.letters).to_dict())
