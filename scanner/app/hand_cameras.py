"""Real cameras behind `tablescan serve --dealing hand`: hand deals watched into the page's log.

Any ``cv2.VideoCapture`` source works for the reading shoe and the table camera (a device
index, an RTSP or HTTP stream, a video file) and so does a folder of frames. A table camera
waits, showing its still to the page, until the seat zones are calibrated for its frames.
Each hand is watched as `tablescan watch` watches one, through the same watcher. A camera
that stops (a USB camera pulled out, a stream dropped) or freezes mid-deal is logged, with
what the log keeps, so every page shows it; the watch then opens the camera again every
``retry_s`` seconds and goes on with the same hand. A recording (a video file, a folder of
frames) is one deal: it ends there, frozen or not.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..cards import Seat
from ..events import HandStarted
from ..handdeal.arrivals import ZoneWatch
from ..handdeal.calibration import ZoneCalibration
from ..handdeal.deal import HandDeal
from ..handdeal.thumbnails import Thumbnails
from ..handdeal.watch import CameraLost, Tick, is_live, watch_deal
from ..handdeal.zones import SeatZones
from ..log import EventLog
from ..shoe.deal_plan import LiveDeal
from ..vision.sources import FrameSource, SourceError, open_source
from .worker import Worker


class _Stopping(Exception):
    """The server is shutting down: leave the watch where it is."""


@dataclass
class HandCameras(Worker):
    """Watches hand deals from ``station`` and/or ``table`` (source texts) until stopped."""

    session: str
    db: Path
    game: str
    dealer: Seat
    station: str | None
    table: str | None
    calibration: ZoneCalibration | None
    thumbnails: Thumbnails
    names: Mapping[Seat, str] = field(default_factory=dict)
    retry_s: float = 2.0

    thread_name = "tablescan-hand-cameras"

    def __post_init__(self) -> None:
        super().__init__()

    @property
    def watching(self) -> bool:
        """Whether it still watches: a recording's deal ends the watch."""
        return self._thread.is_alive()

    def _run(self) -> None:
        try:
            self._watch_hands()
        except _Stopping:
            pass
        except Exception:  # the page stays up; say why the watch stopped
            traceback.print_exc()
            print("tablescan: watching the cameras stopped", file=sys.stderr)

    def _open(self, spec: str | None) -> FrameSource | None:
        return open_source(spec) if spec is not None else None

    def _watch_hands(self) -> None:
        plan = LiveDeal.for_game(self.game, self.dealer)
        copies = max(n for _, n in plan.deck.counts)
        dealer, resume = self.dealer, None
        with EventLog(self.db, session=self.session) as log:
            while not self._stop.is_set():
                try:
                    station, table = self._open(self.station), self._open(self.table)
                    zone_watch = None
                    if table is not None:
                        zone_watch = ZoneWatch(self._zones(table), copies=copies)
                except (SourceError, CameraLost) as exc:
                    print(f"tablescan: {exc}; trying again in {self.retry_s:g} s",
                          file=sys.stderr)
                    if self._stop.wait(self.retry_s):
                        return
                    continue
                deal = HandDeal(log, HandStarted(self.game, dealer, plan.packet,
                                                 session=log.session),
                                table_camera=table is not None,
                                reading_shoe=station is not None, names=self.names)
                try:
                    watch_deal(deal, station, table, zone_watch,
                               meld=table is not None and self.game == "pinochle",
                               on_tick=self._show, wait_on_stop=True, resume_from=resume)
                except CameraLost as exc:
                    if deal.deal_key:
                        deal.camera_lost(str(exc))
                        resume = deal.hand_seq
                    print(f"tablescan: {exc}", file=sys.stderr)
                    live = any(is_live(s) for s in (station, table) if s is not None)
                    # A recording that froze would only freeze again: it is not reopened.
                    if not live or self._stop.wait(self.retry_s):
                        return
                    continue
                resume = None
                if not any(is_live(s) for s in (station, table) if s is not None):
                    return  # a recording is one deal
                dealer = dealer.left

    def _zones(self, table: FrameSource) -> SeatZones:
        """The seat zones for ``table``'s frames: the saved calibration once it fits them.
        Until then the camera's frames go to the page, for the still the operator marks;
        a recording holds its first frame, so its deal does not play unseen."""
        assert self.calibration is not None
        frames = table.frames()
        try:
            for frame in frames:
                self._show(Tick(0, None, frame.image, 0))
                self.calibration.seen(frame.image.shape)
                zones = self.calibration.fitting()
                while zones is None and not is_live(table):
                    self.calibration.wait(0.5)
                    if self._stop.is_set():
                        raise _Stopping
                    zones = self.calibration.fitting()
                if zones is not None:
                    return zones
                if self._stop.is_set():
                    raise _Stopping
        finally:
            frames.close()
        raise CameraLost(f"camera {table.name!r} gives no frame")

    def _show(self, tick: Tick) -> None:
        if self._stop.is_set():
            raise _Stopping
        self.thumbnails.offer("station", tick.station)
        self.thumbnails.offer("table", tick.table)
