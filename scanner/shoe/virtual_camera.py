"""The virtual camera: it draws the card the simulated shoe holds at its read station.

It asks the simulator's control channel which card rests at the station (and which way up), draws
that card as the shoe's fixed camera would see it with ``scanner.vision.render``, and reads the
frame with the real reader, ``scanner.vision.station.read_station``. Simulator and camera share one
virtual deck, so a double feed, a face-down card or an empty station shows in both.

A camera spec ``sim:HOST:PORT`` names a simulator's control channel; anything else is a
``cv2.VideoCapture`` source (device index, file, URL) opened through ``scanner.vision.sources``.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

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
        self._looks = 0

    def frame(self) -> np.ndarray:
        held = self._control.station()
        self._looks += 1
        if held is None:
            return render_station_frame(None, self.style, seed=self._looks, empty=True)
        back = self.back if held.face == "down" else None
        return render_station_frame(held.card, self.style, seed=self._looks, back=back)

    def look(self) -> Reading:
        return read_station(self.frame())

    def close(self) -> None:
        self._control.close()


def is_virtual(spec: str) -> bool:
    return spec.startswith(SIM_PREFIX)
