"""Opening the dealing shoe and its read-station camera for a bridge command, and closing both.

An unreachable shoe or a camera that cannot be opened is unusable input: the message names
the option and what went wrong, and the command exits 2 before anything is dealt.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..cli import UsageError
from ..shoe.cameras import CameraError, open_station_camera
from ..shoe.driver import Shoe
from ..shoe.errors import ShoeFault
from ..shoe.virtual_camera import StationCamera


@contextmanager
def open_shoe_and_camera(shoe_url: str, camera_spec: str) -> Iterator[tuple[Shoe, StationCamera]]:
    """A connected shoe and an open camera, closed again however the block ends."""
    try:
        camera = open_station_camera(camera_spec)
    except CameraError as exc:
        raise UsageError(f"--camera: {exc}") from None
    shoe = Shoe(shoe_url)
    try:
        shoe.connect()
    except ShoeFault as exc:
        camera.close()
        raise UsageError(f"--shoe {shoe_url}: {exc.message}") from None
    try:
        yield shoe, camera
    finally:
        shoe.close()
        camera.close()
