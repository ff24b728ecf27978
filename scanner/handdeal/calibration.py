"""The table camera's seat zones as the page calibrates them and the watcher uses them.

The operator marks them on a still frame of the table camera: the table's four corners, or
each seat's zone as a polygon (points in the still's pixels). They are checked against the
camera's frames (size, inside the frame, no two zones overlapping) and saved atomically to
one JSON file, never over an earlier calibration unless the operator says to replace it.
The watcher waits here until a calibration fits the camera's frames; one that does not fit
(made on another camera, or another resolution) is reported, not used.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .zones import SeatZones, ZoneError, load_zones, save_zones, zones_from_corners


class ZoneCalibration:
    """The calibration file ``path`` for the table camera ``camera``."""

    def __init__(self, path: Path, camera: str) -> None:
        self.path = path
        self.camera = camera
        self.frame_size: tuple[int, int] | None = None  # of the camera's frames, once seen
        self.problem: str | None = None  # why the saved zones cannot be used, if they cannot
        self._changed = threading.Condition()

    def seen(self, shape: tuple[int, ...]) -> None:
        """The camera gave a frame of this shape: the size the zones must fit."""
        self.frame_size = (int(shape[1]), int(shape[0]))

    def fitting(self) -> SeatZones | None:
        """The saved zones, if they fit the camera's frames; else None, with ``problem``
        saying why when a file is there."""
        if self.frame_size is None or not self.path.exists():
            return None
        w, h = self.frame_size
        try:
            zones = load_zones(self.path)
            zones.check_fits((h, w), self.camera)
        except ZoneError as exc:
            self.problem = f"{self.path}: {exc}"
            return None
        self.problem = None
        return zones

    def wait(self, timeout: float) -> None:
        """Until the page saves a calibration, or ``timeout`` seconds."""
        with self._changed:
            self._changed.wait(timeout)

    def calibrate(self, marks: Mapping[str, Any], *, replace: bool = False) -> SeatZones:
        """Zones from the operator's marks, ``{"corners": [[x, y] × 4]}`` (top-left clockwise,
        North at the top edge) or ``{"zones": {"N": [[x, y], …], …}}``, checked and saved.
        ZoneError says what does not fit, and where."""
        if self.frame_size is None:
            raise ZoneError(f"camera {self.camera!r} has given no frame yet to mark the zones "
                            "on: check that it is plugged in and aimed at the table")
        w, h = self.frame_size
        if "corners" in marks:
            zones = zones_from_corners(_corners(marks["corners"], w, h), (w, h))
        elif "zones" in marks:
            zones = SeatZones.from_dict({"frame_size": [w, h], "zones": marks["zones"]},
                                        "the marked zones")
        else:
            raise ZoneError('mark the table\'s "corners" or each seat\'s "zones"')
        zones.check_fits((h, w), self.camera)
        if self.path.exists() and not replace:
            raise ZoneError(f"{self.path} holds a calibration already: say to replace it")
        save_zones(zones, self.path, overwrite=replace)
        with self._changed:
            self.problem = None
            self._changed.notify_all()
        return zones

    def to_dict(self) -> dict[str, Any]:
        zones = self.fitting()
        return {"file": str(self.path), "camera": self.camera,
                "frame_size": list(self.frame_size) if self.frame_size else None,
                "zones": zones.to_dict()["zones"] if zones is not None else None,
                "problem": self.problem}


def _corners(points: Any, w: int, h: int) -> np.ndarray:
    try:
        corners = np.asarray(points, np.float32)
    except (TypeError, ValueError):
        corners = np.zeros(0)
    if corners.shape != (4, 2) or not np.isfinite(corners).all():
        raise ZoneError("the table's corners: four [x, y] points expected, top-left first, "
                        "clockwise")
    for i, (x, y) in enumerate(corners):
        if not (0 <= x <= w and 0 <= y <= h):
            raise ZoneError(f"corner {i + 1} ({x:.0f}, {y:.0f}) lies outside the camera's "
                            f"{w}×{h} frame")
    return corners
