"""The virtual camera: it draws the card the simulated shoe holds at its read station.

It asks the simulator's control channel which card rests at the station (and which way up), draws
that card as the shoe's fixed camera would see it with ``scanner.vision.render``, and reads the
frame with the real reader, ``scanner.vision.station.read_station``. Simulator and camera share one
virtual deck, so a double feed, a face-down card or an empty station shows in both.

A camera spec ``sim:HOST:PORT`` names a simulator's control channel; anything else is a
``cv2.VideoCapture`` source (device index, file, URL) opened through ``scanner.vision.sources``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

import numpy as np

from ..cards import Card
from ..vision.reading import Reading
from ..vision.render import render_station_frame
from ..vision.station import read_station
from .control import SIM_PREFIX, ControlChannel

DEFAULT_STYLE = "standard"
DEFAULT_BACK = "lattice-red"


class StationCamera(Protocol):
    """Anything that can look at the read station once and say what it read."""

    source: str

    def look(self) -> Reading: ...

    def close(self) -> None: ...


class VirtualCamera:
    """The read station of a simulated shoe, drawn and then read like a real frame."""

    def __init__(self, control_address: str, style: str = DEFAULT_STYLE,
                 back: str = DEFAULT_BACK) -> None:
        self.source = SIM_PREFIX + control_address
        self.style = style
        self.back = back
        self._control = ControlChannel(control_address)

    def frame(self) -> np.ndarray:
        held = self._control.station()
        if held is None:
            return station_frame(None, "none", self.style, self.back)
        return station_frame(held.card, held.face, self.style, self.back)

    def look(self) -> Reading:
        held = self._control.station()
        if held is None:
            return station_reading(None, "none", self.style, self.back)
        return station_reading(held.card, held.face, self.style, self.back)

    def close(self) -> None:
        self._control.close()


@lru_cache(maxsize=256)
@lru_cache(maxsize=256)
def station_reading(card: Card | None, face: str, style: str, back: str) -> Reading:
    """``read_station`` of ``station_frame``: both are deterministic, so a card's frame is read
    once per process however many decks deal it."""
    return read_station(station_frame(card, face, style, back))


def station_frame(card: Card | None, face: str, style: str, back: str) -> np.ndarray:
    """The frame of one card lying one way, the same every time: a read that differs between
    two looks at the same card is then the reader's doing, never the renderer's."""
    seed = 1 + (card.index if card is not None else 52) + (100 if face == "down" else 0)
    if face == "none":
        frame = render_station_frame(None, style, seed=seed, empty=True)
    else:
        frame = render_station_frame(card, style, seed=seed,
                                     back=back if face == "down" else None)
    frame.setflags(write=False)
    return frame

