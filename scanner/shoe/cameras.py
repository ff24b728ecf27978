"""Opening the read-station camera named by ``--camera``: a simulated shoe's virtual camera
(``sim:HOST:PORT``) or any ``cv2.VideoCapture`` source (device index, file, stream URL)."""

from __future__ import annotations

import cv2

from ..vision.reading import Reading
from ..vision.station import read_station
from .control import SIM_PREFIX, ControlChannelError
from .virtual_camera import StationCamera, VirtualCamera


class CameraError(ValueError):
    """A camera that cannot be opened or gives no frame; the message names the source."""


class CaptureCamera:
    """A real camera looking at the read station through ``cv2.VideoCapture``."""

    def __init__(self, spec: str) -> None:
        self.source = spec
        self._capture = cv2.VideoCapture(int(spec) if spec.isdigit() else spec)
        if not self._capture.isOpened():
            raise CameraError(f"cannot open camera {spec!r}")

    def look(self) -> Reading:
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self.source!r} gave no frame")
        return read_station(frame)

    def close(self) -> None:
        self._capture.release()


def open_station_camera(spec: str) -> StationCamera:
    if spec.startswith(SIM_PREFIX):
        try:
            return VirtualCamera(spec[len(SIM_PREFIX):])
        except (ControlChannelError, ValueError) as exc:
            raise CameraError(str(exc)) from None
    return CaptureCamera(spec)
