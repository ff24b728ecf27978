"""The demo behind `tablescan serve --demo --dealing hand`: a hand deal, rendered and watched.

Each hand is shuffled with the OS's secure RNG and filmed by ``footage`` as it is watched: the
reading shoe's window, cards crossing the table to the seat zones, then meld laid down, frame
by frame in real time, through the same watcher a real table uses, into the page's log. Now and
then a card lands face up (the page shows the exposure and its ruling) or two cards leave the
shoe at once (the page stops and asks; the dealer puts one back and draws again).
"""

from __future__ import annotations

import secrets
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from ..cards import Seat
from ..events import HandStarted
from ..handdeal import footage
from ..handdeal.arrivals import ZoneWatch
from ..handdeal.deal import HandDeal
from ..handdeal.thumbnails import Thumbnails
from ..handdeal.watch import Tick, watch_deal
from ..log import EventLog
from ..vision.sources import Frame
from .worker import Worker


@dataclass(frozen=True)
class HandDealPace:
    """How fast the demo moves (tests set it near zero)."""

    fps: float = footage.FPS
    pause_s: float = 6.0
    expose_every: int = 3
    double_draw_every: int = 4


class LiveFilm:
    """A rendered deal played as two live cameras, at ``fps``: the reading shoe's and the
    table's frames come out in step, drawn as they are asked for."""

    def __init__(self, script: footage.DealScript, fps: float, stop: threading.Event) -> None:
        self._shots = footage.shots(script, seed=secrets.randbits(32), travel=True)
        self._queues: tuple[deque[Frame], deque[Frame]] = (deque(), deque())
        self._start = time.monotonic()
        self._index = 0
        self.fps = fps
        self.stop = stop
        self.station = _Camera(self, 0, "station")
        self.table = _Camera(self, 1, "table")

    def next(self, side: int) -> Frame | None:
        queue = self._queues[side]
        if not queue:
            if self.stop.is_set():
                return None
            shot = next(self._shots, None)
            if shot is None:
                return None
            delay = self._start + self._index / self.fps - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            stamp = self._index / self.fps
            for q, image in zip(self._queues, shot, strict=True):
                q.append(Frame(image, stamp, self._index))
            self._index += 1
        return queue.popleft()


class _Camera:
    def __init__(self, film: LiveFilm, side: int, name: str) -> None:
        self.film = film
        self.side = side
        self.name = f"demo:{name}"

    def frames(self) -> Iterator[Frame]:
        while (frame := self.film.next(self.side)) is not None:
            yield frame


def demo_script(hand: int, dealer: Seat, pace: HandDealPace) -> footage.DealScript:
    """A shuffled deal, with an exposure or a double draw now and then, and meld."""
    script = footage.right_deal("pinochle", dealer, secrets.randbits(32))
    draws = list(script.draws)
    if pace.expose_every and hand % pace.expose_every == pace.expose_every - 1:
        at = secrets.randbelow(len(draws) - 8) + 4
        draws[at] = replace(draws[at], face_up=True)
    elif pace.double_draw_every and hand % pace.double_draw_every == pace.double_draw_every - 1:
        # Two cards leave the shoe together; the dealer puts both back, as the page asks,
        # and draws them again one at a time.
        at = secrets.randbelow(len(draws) - 8) + 4
        first, second = draws[at], draws[at + 1]
        draws.insert(at, footage.Draw(first.cards + second.cards, first.to, lands=0))
    script = replace(script, draws=tuple(draws))
    hands = footage.dealt_hands(script)
    meld = {seat: tuple(hands[seat][:2]) for seat in (Seat.S, Seat.N)}
    return replace(script, meld=meld)


class HandDemo(Worker):
    """Films and watches hand deals onto a live table until stopped."""

    thread_name = "tablescan-hand-demo"

    def __init__(self, session: str, db: Path, thumbnails: Thumbnails,
                 pace: HandDealPace = HandDealPace()) -> None:
        self.session = session
        self.db = db
        self.thumbnails = thumbnails
        self.pace = pace
        super().__init__()

    def _run(self) -> None:
        try:
            self._deal_hands()
        except Exception:  # the page stays up; say why the demo stopped dealing
            traceback.print_exc()
            print("tablescan: the hand-deal demo stopped", file=sys.stderr)

    def _deal_hands(self) -> None:
        dealer = Seat.N
        with EventLog(self.db, session=self.session) as log:
            for hand in range(1_000_000):
                if self._stop.is_set():
                    return
                film = LiveFilm(demo_script(hand, dealer, self.pace), self.pace.fps,
                                self._stop)
                deal = HandDeal(log, HandStarted("pinochle", dealer, 3, session=log.session),
                                table_camera=True)
                watch_deal(deal, film.station, film.table, ZoneWatch(footage.zones()),
                           meld=True, on_tick=self._show, wait_on_stop=True)
                if self._stop.wait(self.pace.pause_s):
                    return
                dealer = dealer.left

    def _show(self, tick: Tick) -> None:
        self.thumbnails.offer("station", tick.station)
        self.thumbnails.offer("table", tick.table)
