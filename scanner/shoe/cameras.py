"""Opening the read-station camera named by ``--camera``: a simulated shoe's virtual camera
(``sim:HOST:PORT``) or any source ``scanner.vision.sources`` opens (device index, video file,
stream URL, folder of images)."""

from __future__ import annotations

from collections.abc import Iterator

from ..vision.reading import Reading
from ..vision.sources import Frame, SourceError, open_source
from ..vision.station import read_station
from .control import SIM_PREFIX, ControlChannelError
from .virtual_camera import StationCamera, VirtualCamera


class CameraError(ValueError):
    """A camera that cannot be opened or gives no frame; the message names the source."""


class SourceCamera:
    """A real camera (or recording) looking at the read station: one frame per look."""

    def __init__(self, spec: str) -> None:
        self.source = spec
        try:
            self._frames: Iterator[Frame] = iter(open_source(spec).frames())
        except SourceError as exc:
            raise CameraError(str(exc)) from None

    def look(self) -> Reading:
        try:
            frame = next(self._frames)
        except StopIteration:
            raise CameraError(f"camera {self.source!r} has no more frames") from None
        except SourceError as exc:
            raise CameraError(str(exc)) from None
        try:
            return read_station(frame.image)
        except ValueError as exc:  # a frame no station camera gives: the wrong source
            raise CameraError(f"camera {self.source!r}: {exc}") from None

    def close(self) -> None:
        close = getattr(self._frames, "close", None)
        if close is not None:
            close()


def open_station_camera(spec: str) -> StationCamera:
    if spec.startswith(SIM_PREFIX):
        try:
            return VirtualCamera(spec[len(SIM_PREFIX):])
        except (ControlChannelError, ValueError) as exc:
            raise CameraError(str(exc)) from None
    return SourceCamera(spec)
