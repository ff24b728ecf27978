"""`tablescan zones OUT.json --table SRC (--corners "X,Y X,Y X,Y X,Y" | --markers)`.

Calibrates the table camera's seat zones once, on one still frame of it, and stores them for
``tablescan watch --zones``: from the table's four corners as marked on that frame (top-left,
top-right, bottom-right, bottom-left; North at the top edge), or from the ArUco seat markers
lying in view. Never writes over an existing file; the write is atomic.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from ..cli import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "zones", help="calibrate the table camera's seat zones on one still frame",
        description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, metavar="OUT.json", help="where to store the zones")
    parser.add_argument("--table", required=True, help="the table camera: a device index, "
                        "video file, stream URL, folder of frames or one photo")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--corners", help='the table\'s corners in frame pixels, "X,Y X,Y X,Y X,Y" '
                     "from top-left clockwise")
    how.add_argument("--markers", action="store_true",
                     help="find the ArUco markers 0-3 laid at N, E, S, W")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..handdeal.zones import ZoneError, save_zones, zones_from_corners, zones_from_markers
    from ..vision.sources import SourceError, open_source

    if args.out.exists():
        raise UsageError(f"{args.out} exists: choose another name (nothing was written)")
    corners = _corners(args.corners) if args.corners is not None else None
    try:
        still = next(iter(open_source(args.table).frames()), None)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    if still is None:
        raise UsageError(f"--table {args.table!r} gives no frame")
    h, w = still.image.shape[:2]
    try:
        if corners is None:
            zones = zones_from_markers(still.image)
        else:
            if (corners < 0).any() or (corners > (w, h)).any():
                raise ZoneError(f"--corners: a corner lies outside the {w}×{h} frame")
            zones = zones_from_corners(corners, (w, h))
        zones.check_fits(still.image.shape, args.table)
        save_zones(zones, args.out)
    except ZoneError as exc:
        raise UsageError(str(exc)) from None
    json.dump(zones.to_dict(), sys.stdout)
    sys.stdout.write("\n")
    print(f"zones: {args.out}: seat zones for {w}×{h} frames", file=sys.stderr)
    return 0


def _corners(text: str) -> np.ndarray:
    try:
        points = [[float(v) for v in pair.split(",")] for pair in text.split()]
        corners = np.array(points, np.float32)
    except ValueError:
        corners = np.zeros(0)
    if corners.shape != (4, 2):
        raise UsageError(f'--corners {text!r}: expected four corners "X,Y X,Y X,Y X,Y"')
    return corners
