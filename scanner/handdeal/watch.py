"""Watching a hand deal: the reading shoe's camera and the table camera, frame by frame.

The two cameras are read in step, one frame of each per tick, so a draw and the landing it
leads to keep their order. The shoe's frames go to the read station's reader and the pass
tracker; the table's to the zone watch. What they find goes to the ``HandDeal``.

A camera that stops giving frames before the deal is complete is taken for a camera pulled
out when it is a live one (a device or a stream); a recording simply ends. A camera that
gives the very same frame again and again is frozen: a real sensor never repeats itself
exactly. Either way the watch stops with a message naming the camera and the frame, and
what the log acknowledged stays there.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..shoe.station import StationStop
from ..vision.reading import Reading
from ..vision.sources import Frame, FrameSource, SourceError
from ..vision.station import read_station
from .arrivals import ZoneWatch
from .deal import HandDeal
from .passes import PassTracker

FROZEN_FRAMES = 30  # identical frames in a row: three seconds of a 10 frames/s camera


class CameraLost(Exception):
    """A camera stopped, or froze, mid-deal; the message names it and the frame."""


@dataclass
class Tick:
    """What one tick saw, for a page or a bench that follows the watch."""

    index: int
    station: np.ndarray | None
    table: np.ndarray | None
    events: int  # events the hand had logged after this tick


def _frames(source: FrameSource | None, role: str) -> Iterator[Frame | None]:
    """The source's frames, then None for ever; a read error becomes CameraLost."""
    if source is None:
        yield from itertools.repeat(None)
        return
    last = b""
    same = 0
    try:
        for frame in source.frames():
            # A sparse grid of pixels is plenty: sensor noise changes nearly all of them.
            digest = hashlib.blake2b(frame.image[::7, ::7].tobytes(), digest_size=16).digest()
            same = same + 1 if digest == last else 0
            last = digest
            if same >= FROZEN_FRAMES:
                raise CameraLost(f"{role} camera {source.name!r} is frozen: frame {frame.index} "
                                 f"is the same picture as the {same} before it")
            yield frame
    except SourceError as exc:
        raise CameraLost(f"{role} camera: {exc}") from None
    yield from itertools.repeat(None)


def is_live(source: FrameSource | None) -> bool:
    """Whether ``source`` is a camera or a stream (a device index or a URL), not a
    recording: one that ends mid-deal was lost."""
    target = getattr(source, "target", None)
    return isinstance(target, int) or "://" in str(target)


def watch_deal(deal: HandDeal, station: FrameSource | None, table: FrameSource | None,
               zone_watch: ZoneWatch | None = None, *, meld: bool = False,
               reader: Callable[[np.ndarray], Reading] = read_station,
               on_tick: Callable[[Tick], Any] | None = None,
               wait_on_stop: bool = False, resume_from: int | None = None) -> dict[str, Any]:
    """Start the deal once every camera has given a frame (and the table's fits its zones),
    run it to the end of its sources or its stop, and return ``deal.result()``.

    A camera that gives no first frame, or zones that do not fit it, raise before anything
    is logged. With ``meld``, the sources go on past the deal into the meld: once every card
    is dealt, the end of bidding is logged and faces laid down in a zone are read as meld.
    """
    if station is None and table is None:
        raise ValueError("watching a deal needs the reading shoe's camera, the table's, or both")
    if table is not None and zone_watch is None:
        raise ValueError("a table camera needs its seat zones")
    station_frames = _frames(station, "reading-shoe")
    table_frames = _frames(table, "table")
    first = (next(station_frames), next(table_frames))
    for source, frame in zip((station, table), first, strict=True):
        if source is not None and frame is None:
            raise CameraLost(f"camera {source.name!r} gives no frame")
    if first[1] is not None and zone_watch is not None:
        zone_watch.zones.check_fits(first[1].image.shape, str(table.name))  # type: ignore[union-attr]
    if resume_from is None:
        deal.start()
    else:
        deal.resume(resume_from)
    # Both frame streams go on with None for ever once their source ends.
    ticks = itertools.chain([first], zip(station_frames, table_frames, strict=False))
    _run(deal, ticks, zone_watch, meld, reader, on_tick, wait_on_stop)
    size = deal.plan.deck.size
    if deal.stop is None and deal.cards_dealt < size:
        for source in (station, table):
            if source is not None and is_live(source):
                raise CameraLost(f"camera {source.name!r} stopped giving frames after "
                                 f"{deal.cards_dealt} of {size} cards")
    return deal.result()


def _run(deal: HandDeal, ticks: Iterator[tuple[Frame | None, Frame | None]],
         zone_watch: ZoneWatch | None, meld: bool, reader: Callable[[np.ndarray], Reading],
         on_tick: Callable[[Tick], Any] | None, wait_on_stop: bool) -> None:
    """Feed each tick's frames to the deal until both sources end, or the deal stops and
    nobody is there to answer (``wait_on_stop`` False: a recording).

    A folder of frames is a film like any other: its files in name order, with the empty
    window between two cards, so a card seen in several frames is one draw.
    """
    passes = PassTracker()
    size = deal.plan.deck.size
    for tick, (shot, view) in enumerate(ticks):
        if shot is None and view is None:
            break
        try:
            if deal.stop is not None:
                deal.answers_from_the_page()
            if view is not None and zone_watch is not None:
                for arrival in zone_watch.feed(view.image):
                    deal.on_arrival(arrival.seat, arrival.faces, arrival.since)
            finished = None
            if shot is not None:
                finished = passes.feed(tick, reader(shot.image))
            elif passes.in_window:
                # The shoe's camera ended on a card in the window: that draw is over.
                finished = passes.flush()
            if finished is not None:
                deal.on_pass(finished)
            if meld and deal.cards_dealt >= size and not deal.pending:
                deal.end_of_bidding()
                if zone_watch is not None:
                    zone_watch.meld = True
        except StationStop:
            if not wait_on_stop:
                return
        if on_tick is not None:
            on_tick(Tick(tick, None if shot is None else shot.image,
                         None if view is None else view.image, deal.logged))
    last = passes.flush()
    if last is not None:
        with contextlib.suppress(StationStop):
            deal.on_pass(last)
