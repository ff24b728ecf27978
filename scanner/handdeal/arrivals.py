"""Cards landing in the seats' zones, as the camera over the table sees them.

Every frame is shrunk and compared with the one before, zone by zone: that costs about a
millisecond, so the watcher keeps up with the camera. When a zone that was moving has been
still for ``SETTLE_FRAMES`` frames, its picture is compared with how it looked when last
still; a change of at least part of a card's area is something that landed (a hand that came
and went leaves no change). Only then is the table reader asked, on the changed part alone,
whether a face lies there on top: a card dealt face up, or meld laid down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import cv2
import numpy as np

from ..cards import Card, Seat
from ..vision.indices import find_index_corners
from ..vision.table import Detection, read_table
from .zones import SeatZones

SHRINK = 4  # the change test runs on a picture this many times smaller each way
# Levels a pixel must change by, in any colour channel, to count as changed. In grey alone a
# card's back can average out to the cloth's shade once shrunk; its colour still differs.
STEP = 20
SETTLE_FRAMES = 2
# Shares of a card's area. Changed between two frames: something moves in the zone. Changed
# since the zone was last still: something landed. A card dropped neatly on the pile changes
# little more than a sliver along its edges; sensor noise changes nothing by ``STEP``.
MOVING_SHARE = 0.02
LANDED_SHARE = 0.02
CARD_AREA = 0.012  # of the frame's area: a card as the table camera sees it, at least


@dataclass(frozen=True)
class Arrival:
    """Something landed in ``seat``'s zone; ``faces`` are the faces read on it. The zone
    started moving at frame ``since`` and was still again at ``frame``."""

    seat: Seat
    faces: tuple[Card | None, ...]
    since: int
    frame: int


class ZoneWatch:
    """Feed it the table camera's frames in order; it returns what landed in each.

    ``copies`` is how many of each card the deck holds (pinochle 2). Once ``meld`` is set
    (the auction is over), what lands is read as meld too: laid in a row, each card over the
    last, only the index corners show, and the row's outline may pass for one card, even a
    back; every index corner on it names a card (a double pinochle shows a card twice)."""

    def __init__(self, zones: SeatZones,
                 reader: Callable[[np.ndarray], list[Detection]] | None = None, *,
                 copies: int = 1) -> None:
        self.zones = zones
        # A crop's indices are the frame's size: enlarging each small crop to the finder's
        # floor cost the watcher five times its landing latency, for nothing found.
        self.reader = reader or partial(read_table, copies=copies, enlarge=False)
        self.copies = copies
        self.meld = False
        w, h = zones.frame_size
        self._small_size = (w // SHRINK, h // SHRINK)
        self._boxes: dict[Seat, tuple[int, int, int, int]] = {}
        self._masks: dict[Seat, np.ndarray] = {}
        for seat, mask in zones.masks().items():
            small = cv2.resize(mask, self._small_size, interpolation=cv2.INTER_NEAREST) > 0
            ys, xs = np.nonzero(small)
            box = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
            self._boxes[seat] = box
            self._masks[seat] = small[box[1]:box[3], box[0]:box[2]]
        self._card_pixels = CARD_AREA * self._small_size[0] * self._small_size[1]
        self._last: np.ndarray | None = None
        self._still: np.ndarray | None = None
        self._quiet = {seat: SETTLE_FRAMES for seat in zones.zones}
        self._since = {seat: 0 for seat in zones.zones}
        self.frames = 0

    def _shrink(self, frame: np.ndarray) -> np.ndarray:
        # Averaging 4×4 pixels also averages out the sensor's noise.
        return cv2.resize(frame, self._small_size, interpolation=cv2.INTER_AREA)

    @staticmethod
    def _changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return cv2.absdiff(a, b).max(axis=2) > STEP

    def feed(self, frame: np.ndarray) -> list[Arrival]:
        index = self.frames
        self.frames += 1
        small = self._shrink(frame)
        if self._last is None:
            self._last, self._still = small, small.copy()
            return []
        moved = self._changed(small, self._last)
        self._last = small
        arrivals = []
        for seat, (x0, y0, x1, y1) in self._boxes.items():
            mask = self._masks[seat]
            moving = np.count_nonzero(moved[y0:y1, x0:x1] & mask)
            if moving > MOVING_SHARE * self._card_pixels:
                if self._quiet[seat] >= SETTLE_FRAMES:
                    self._since[seat] = index
                self._quiet[seat] = 0
                continue
            if self._quiet[seat] >= SETTLE_FRAMES:
                continue
            self._quiet[seat] += 1
            if self._quiet[seat] < SETTLE_FRAMES:
                continue
            assert self._still is not None
            changed = self._changed(small[y0:y1, x0:x1], self._still[y0:y1, x0:x1]) & mask
            self._still[y0:y1, x0:x1][mask] = small[y0:y1, x0:x1][mask]
            if np.count_nonzero(changed) >= LANDED_SHARE * self._card_pixels:
                faces = self._faces(frame, changed, x0, y0)
                arrivals.append(Arrival(seat, faces, self._since[seat], index))
        return arrivals

    def _faces(self, frame: np.ndarray, changed: np.ndarray, x0: int, y0: int
               ) -> tuple[Card | None, ...]:
        """The faces lying on the part of the zone that changed, read from the full frame,
        cropped around the change: cards whose centre lies on it.

        A card landing on the pile shares its white edge with the card under it, so the two
        can make one outline that no card locator takes for a card. Then the change, which is
        the new card's footprint, is cut out on black (its hull) and read alone."""
        ys, xs = np.nonzero(changed)
        pad = 6
        h, w = frame.shape[:2]
        left = max((x0 + int(xs.min()) - pad) * SHRINK, 0)
        top = max((y0 + int(ys.min()) - pad) * SHRINK, 0)
        right = min((x0 + int(xs.max()) + 1 + pad) * SHRINK, w)
        bottom = min((y0 + int(ys.max()) + 1 + pad) * SHRINK, h)
        crop = np.ascontiguousarray(frame[top:bottom, left:right])
        if self.meld:
            return self._meld(crop)
        faces = []
        located = self.reader(crop)
        for found in located:
            cx, cy = found.outline.mean(axis=0)
            sx, sy = int((cx + left) / SHRINK) - x0, int((cy + top) / SHRINK) - y0
            on_change = 0 <= sy < changed.shape[0] and 0 <= sx < changed.shape[1]
            if on_change and changed[sy, sx]:
                faces.append(found)
        if faces:
            return _faces_up(faces)
        points = np.column_stack([xs + x0, ys + y0]).astype(np.float32) * SHRINK + SHRINK / 2
        hull = cv2.convexHull(points - np.float32([left, top]))
        mask = np.zeros((bottom - top, right - left), np.uint8)
        cv2.fillConvexPoly(mask, np.round(hull).astype(np.int32), 255)
        mask = cv2.dilate(mask, np.ones((2 * SHRINK + 1, 2 * SHRINK + 1), np.uint8))
        alone = cv2.bitwise_and(crop, crop, mask=mask)
        seen = _faces_up(self.reader(alone))
        if located:
            # A card was found there, off the change: a back dropped neatly on the pile
            # changes only a sliver along its edges. The cut-out of that sliver is no card as
            # it lies, and the reader may abstain on a "face" there that is not one; only a
            # face it names counts.
            return tuple(card for card in seen if card is not None)
        return seen

    def _meld(self, crop: np.ndarray) -> tuple[Card | None, ...]:
        """The cards laid down in ``crop``: each whole card read, then every index corner
        showing outside them (the corners of the cards a row overlaps), each card at most as
        often as the deck holds it."""
        found = [d for d in self.reader(crop) if d.face == "up" and d.seen == "card"]
        whole = [d for d in found if d.card is not None]
        named: list[Card | None] = [d.card for d in whole]
        hits = find_index_corners(crop, copies=self.copies, known=[d.outline for d in whole],
                                  enlarge=False)
        for hit in hits:
            if named.count(hit.card) < self.copies:
                named.append(hit.card)
        # A face no reader named, and with no index corner read on it: a card laid down
        # that is asked about, not a guess (a row's outline holds its cards' corners).
        for d in found:
            outline = d.outline.reshape(-1, 1, 2).astype(np.float32)
            if d.card is None and not any(cv2.pointPolygonTest(
                    outline, _centre(hit.corner), False) >= 0 for hit in hits):
                named.append(None)
        return tuple(named)


def _centre(points: np.ndarray) -> tuple[float, float]:
    x, y = points.mean(axis=0)
    return float(x), float(y)


def _faces_up(found: list[Detection]) -> tuple[Card | None, ...]:
    """The faces up among ``found``. A row of overlapped cards is also one outline, which
    the reader abstains on while naming each card by its corner: that outline is the row,
    not one more unread card."""
    corners = [_centre(d.outline) for d in found if d.seen == "corner"]
    faces = []
    for d in found:
        if d.face != "up":
            continue
        outline = d.outline.reshape(-1, 1, 2).astype(np.float32)
        if d.card is None and any(cv2.pointPolygonTest(outline, point, False) >= 0
                                  for point in corners):
            continue
        faces.append(d.card)
    return tuple(faces)
