"""Seat zones: where on the table camera's picture each seat's cards land.

Calibrated once, either by marking on a still frame (the table's four corners, or each seat's
zone as a polygon) and storing the result as a small JSON file, or from four ArUco markers
laid at the seats (``cv2.aruco``, 4×4 dictionary, ids 0–3 for N, E, S, W). A calibration
records the frame size it was made on, so a camera that was swapped or re-set is refused with
a clear message rather than counted into the wrong zones.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..cards import Seat, parse_seat

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)  # marker id i lies at MARKER_SEATS[i]
# A seat's zone is a square centred on its marker, this many marker sides across: room for a
# pile of cards laid on the marker, however untidy.
MARKER_ZONE = 4.2
INWARD = 0.42  # of the way to the table's centre: how deep a zone reaches from its edge
OVERLAP_SHARE = 0.01  # of the smaller zone: more than its border shared with another


class ZoneError(ValueError):
    """A calibration that is malformed or does not fit the camera's frames."""


@dataclass(frozen=True)
class SeatZones:
    """A polygon per seat in frame pixels, for frames of ``frame_size`` (width, height)."""

    frame_size: tuple[int, int]
    zones: Mapping[Seat, np.ndarray]

    def check_fits(self, shape: tuple[int, ...], camera: str) -> None:
        """Refuse frames of another size, or zones that leave the frame or overlap."""
        h, w = shape[:2]
        if (w, h) != tuple(self.frame_size):
            raise ZoneError(f"the seat zones were calibrated on {self.frame_size[0]}×"
                            f"{self.frame_size[1]} frames but camera {camera!r} gives {w}×{h}: "
                            "calibrate the zones again on this camera")
        for seat, polygon in self.zones.items():
            if (polygon < 0).any() or (polygon[:, 0] > w).any() or (polygon[:, 1] > h).any():
                raise ZoneError(f"zone {seat} reaches outside camera {camera!r}'s {w}×{h} "
                                "frame: calibrate the zones again")
        masks = self.masks()
        seats = list(self.zones)
        for i, a in enumerate(seats):
            for b in seats[i + 1:]:
                # Zones marked edge to edge share their border line, and that is all.
                shared = np.count_nonzero(masks[a] & masks[b])
                smaller = min(np.count_nonzero(masks[a]), np.count_nonzero(masks[b]))
                if shared > OVERLAP_SHARE * smaller:
                    raise ZoneError(f"zones {a} and {b} overlap: a card there would count for "
                                    "both seats; calibrate the zones again")

    def masks(self) -> dict[Seat, np.ndarray]:
        w, h = self.frame_size
        out = {}
        for seat, polygon in self.zones.items():
            mask = np.zeros((h, w), np.uint8)
            cv2.fillPoly(mask, [np.round(polygon).astype(np.int32)], 255)
            out[seat] = mask
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"frame_size": list(self.frame_size),
                "zones": {seat.value: np.round(p, 1).tolist() for seat, p in self.zones.items()}}

    @classmethod
    def from_dict(cls, obj: Any, where: str = "zones") -> SeatZones:
        try:
            w, h = (int(v) for v in obj["frame_size"])
            zones = {parse_seat(seat): np.asarray(points, np.float32)
                     for seat, points in obj["zones"].items()}
        except (KeyError, TypeError, ValueError) as exc:
            raise ZoneError(f"{where}: expected {{\"frame_size\": [W, H], \"zones\": {{\"N\": "
                            f"[[x, y], …], …}}}}: {exc}") from None
        for seat, polygon in zones.items():
            if polygon.ndim != 2 or polygon.shape[1] != 2 or len(polygon) < 3:
                raise ZoneError(f"{where}: zone {seat} needs at least three [x, y] points")
        if set(zones) != set(Seat):
            raise ZoneError(f"{where}: zones for N, E, S and W expected, got "
                            f"{', '.join(s.value for s in zones) or 'none'}")
        for seat, polygon in zones.items():
            if (polygon < 0).any() or (polygon > (w, h)).any():
                raise ZoneError(f"{where}: zone {seat} reaches outside the {w}×{h} frame it "
                                "was calibrated on")
        return cls((w, h), zones)


def zones_from_corners(corners: np.ndarray, frame_size: tuple[int, int]) -> SeatZones:
    """Zones from the table's four corners as marked on a still (top-left, top-right,
    bottom-right, bottom-left of the picture; North sits at the top edge): each seat's zone
    runs from its edge ``INWARD`` of the way to the table's centre."""
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    centre = quad.mean(axis=0)
    edges = {Seat.N: (0, 1), Seat.E: (1, 2), Seat.S: (2, 3), Seat.W: (3, 0)}
    zones = {}
    for seat, (i, j) in edges.items():
        a, b = quad[i], quad[j]
        zones[seat] = np.array([a, b, b + INWARD * (centre - b), a + INWARD * (centre - a)],
                               np.float32)
    return SeatZones(frame_size, zones)


def zones_from_markers(frame: np.ndarray) -> SeatZones:
    """Zones around the four seat markers seen in ``frame``; ZoneError naming any missing."""
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY))
    corners, ids, _ = detector.detectMarkers(frame)
    found: dict[Seat, np.ndarray] = {}
    for quad, marker in zip(corners, [] if ids is None else ids.ravel(), strict=True):
        if 0 <= marker < len(MARKER_SEATS):
            found[MARKER_SEATS[marker]] = quad.reshape(4, 2)
    missing = [s.value for s in MARKER_SEATS if s not in found]
    if missing:
        raise ZoneError(f"seat marker(s) {', '.join(missing)} not seen (ArUco 4x4 ids 0-3 "
                        "for N, E, S, W): lay them flat in view and try again")
    h, w = frame.shape[:2]
    zones = {}
    for seat, quad in found.items():
        centre = quad.mean(axis=0)
        half = MARKER_ZONE * float(np.linalg.norm(quad[1] - quad[0])) / 2
        box = centre + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * half
        zones[seat] = np.clip(box, 0, (w, h)).astype(np.float32)
    return SeatZones((w, h), zones)


def marker_image(seat: Seat, side: int = 200) -> np.ndarray:
    """The ArUco marker to print and lay at ``seat``, as a grey image with a white margin."""
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    image = cv2.aruco.generateImageMarker(dictionary, MARKER_SEATS.index(seat), side)
    return cv2.copyMakeBorder(image, side // 8, side // 8, side // 8, side // 8,
                              cv2.BORDER_CONSTANT, value=255)


def load_zones(path: Path) -> SeatZones:
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ZoneError(f"{path}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ZoneError(f"{path}: line {exc.lineno}: not JSON: {exc.msg}") from None
    return SeatZones.from_dict(obj, str(path))


def save_zones(zones: SeatZones, path: Path, *, overwrite: bool = False) -> None:
    """Write atomically (temp file in the same folder, fsync, rename); never over an existing
    file unless asked."""
    if path.exists() and not overwrite:
        raise ZoneError(f"{path} exists: choose another name or allow overwriting")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(zones.to_dict(), out, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
