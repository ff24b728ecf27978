"""What every frame source yields, and the one error a source raises: shared by the real
sources (``sources``) and the rendered camera (``synthetic.camera``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np


class SourceError(ValueError):
    """A source that cannot be opened or read; the message names the source."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    timestamp: float  # seconds: stream time for files, capture time for live sources
    index: int
    name: str = ""


class FrameSource(Protocol):
    name: str
    one_card_per_frame: bool  # True when each frame is a separate card (a folder of photos)

    def frames(self) -> Iterator[Frame]: ...
