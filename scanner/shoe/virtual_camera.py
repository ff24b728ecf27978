"""The virtual camera: it draws the card the simulated shoe holds at its read station.

It asks the simulator's control channel which card rests at the station (and which way up), draws
that card as the shoe's fixed camera would see it with ``scanner.vision.synthetic.render``, and
reads the frame with the real reader, ``scanner.vision.station.read_station``. Simulator and
camera share one virtual deck, so a double feed, a face-down card or an empty station shows in both.

A camera spec ``sim:HOST:PORT`` names a simulator's control channel; anything else is a
``cv2.VideoCapture`` source (device index, file, URL) opened through ``scanner.vision.sources``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

import numpy as np

from ..cards import Card
from ..vision.reading import Reading
from ..vision.station import read_station
from ..vision.synthetic.render import render_station_frame
from .control import SIM_PREFIX, ControlChannel

DEFAULT_STYLE = "standard"
DEFAULT_BACK = "lattice-red"
# A station camera films a resting card; these many frames before the card is unreadable.
FRAMES_PER_LOOK = 3
# How often a simulated operator (the demos) re-seats a card the camera could not read before
# the stop is left for a person.
RESEATS = 3


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
        self._take = 0

    def frame(self) -> np.ndarray:
        held = self._control.station()
        if held is None:
            return station_frame(None, "none", self.style, self.back, self._take)
        return station_frame(held.card, held.face, self.style, self.back, self._take)

    def look(self) -> Reading:
        """Film the resting card for up to ``FRAMES_PER_LOOK`` frames; the first clear reading
        counts. A card no frame reads clearly stays unreadable: it is never guessed."""
        held = self._control.station()
        card, face = (None, "none") if held is None else (held.card, held.face)
        for frame in range(FRAMES_PER_LOOK):
            reading = station_reading(card, face, self.style, self.back, self._take + frame)
            if reading.face != "up" or reading.card is not None:
                break
        return reading

    def reseat(self) -> None:
        """What an operator does for an unreadable card: take it out and put it back. The
        camera then sees new pictures of the same card (another position, light, noise)."""
        self._take += FRAMES_PER_LOOK

    def close(self) -> None:
        self._control.close()


@lru_cache(maxsize=256)
def station_reading(card: Card | None, face: str, style: str, back: str,
                    take: int = 0) -> Reading:
    """``read_station`` of ``station_frame``: both are deterministic, so a card's frame is read
    once per process however many decks deal it."""
    return read_station(station_frame(card, face, style, back, take))


def station_frame(card: Card | None, face: str, style: str, back: str,
                  take: int = 0) -> np.ndarray:
    """The frame of one card lying one way, the same every time for the same ``take``: a read
    that differs between two looks at the same card is then the reader's doing, never the
    renderer's. A re-seated card (``take`` + 1) is a new picture."""
    seed = (1 + (card.index if card is not None else 52) + (100 if face == "down" else 0)
            + 1000 * take)
    if face == "none":
        frame = render_station_frame(None, style, seed=seed, empty=True)
    else:
        frame = render_station_frame(card, style, seed=seed,
                                     back=back if face == "down" else None)
    frame.setflags(write=False)
    return frame

