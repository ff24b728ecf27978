"""The latest small picture from each camera, for the page's aiming thumbnails, and its
latest whole frame, for the still the operator marks the seat zones on.

Frames arrive at the camera's rate; the page asks now and then. Only every ``EVERY``-th frame
is shrunk and compressed, and only the newest picture is kept: nothing here grows. The whole
frame is kept as it came (a reference, no copy) and compressed only when asked for.
"""

from __future__ import annotations

import threading

import cv2
import numpy as np

CAMERAS = ("station", "table")  # the reading shoe's camera and the one over the table
WIDTH = 240  # pixels: enough to aim a camera, small enough to refresh every second
EVERY = 5


class Thumbnails:
    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self._jpeg: dict[str, bytes] = {}
        self._seen: dict[str, int] = dict.fromkeys(names, 0)
        self._frame: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def offer(self, name: str, frame: np.ndarray | None) -> None:
        """A camera's frame; kept (shrunk) if it is time for a new thumbnail."""
        if frame is None or name not in self._seen:
            return
        self._frame[name] = frame
        self._seen[name] += 1
        if (self._seen[name] - 1) % EVERY:
            return
        h, w = frame.shape[:2]
        small = cv2.resize(frame, (WIDTH, max(1, round(h * WIDTH / w))),
                           interpolation=cv2.INTER_AREA)
        ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 70])
        if ok:
            with self._lock:
                self._jpeg[name] = jpeg.tobytes()

    def latest(self, name: str) -> bytes | None:
        with self._lock:
            return self._jpeg.get(name)

    def still(self, name: str) -> bytes | None:
        """The camera's latest whole frame as a JPEG, or None before its first."""
        frame = self._frame.get(name)
        if frame is None:
            return None
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
        return jpeg.tobytes() if ok else None
