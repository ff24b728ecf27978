"""Where frames come from, behind one small interface that yields frames with timestamps.

* any ``cv2.VideoCapture`` source: a device index (``0``), a video file, an RTSP/HTTP URL;
* a folder of images, read in file-name order, one frame per file;
* the rendered camera (``synthetic.camera``): the renderer drawing a list of cards at the
  read station, for tests and the demo.

``open_source(spec)`` turns the text a user types into one of these:
``0`` | ``path/to/video.mp4`` | ``rtsp://…`` | ``path/to/folder/`` |
``virtual:STYLE[:DECK][:seed=N][:back=NAME]`` (DECK is ``bridge`` or ``pinochle``; the
virtual camera then shows that deck in its sorted learn order).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from .frames import Frame, FrameSource, SourceError
from .image_io import ImageFileError, load_image

__all__ = ["CaptureSource", "FolderSource", "Frame", "FrameSource", "SourceError", "open_source"]

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


@dataclass
class CaptureSource:
    """A camera, video file or stream through ``cv2.VideoCapture``."""

    target: int | str
    one_card_per_frame: bool = False
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = str(self.target)

    def frames(self) -> Iterator[Frame]:
        capture = cv2.VideoCapture(self.target)
        if not capture.isOpened():
            raise SourceError(f"source {self.name!r}: cannot open (no such device, file or "
                              "stream, or no decoder for it)")
        live = isinstance(self.target, int) or "://" in str(self.target)
        try:
            index = 0
            while True:
                ok, image = capture.read()
                if not ok or image is None:
                    return
                stamp = (time.monotonic() if live
                         else capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0)
                yield Frame(image, stamp, index, f"{self.name}#{index}")
                index += 1
        finally:
            capture.release()


@dataclass
class FolderSource:
    """Every image file of a folder, in file-name order; each file is one card."""

    folder: Path
    one_card_per_frame: bool = True
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = str(self.folder)

    def files(self) -> list[Path]:
        if not self.folder.is_dir():
            raise SourceError(f"source {self.name!r}: not a folder")
        files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise SourceError(f"source {self.name!r}: no image files "
                              f"({', '.join(sorted(IMAGE_SUFFIXES))})")
        return files

    def frames(self) -> Iterator[Frame]:
        for index, path in enumerate(self.files()):
            # As read-card loads a photo: a truncated file is refused, not read half grey.
            try:
                image = load_image(path)
            except ImageFileError as exc:
                raise SourceError(f"source {self.name!r}: {path.name}: {exc.reason}") from exc
            yield Frame(image, path.stat().st_mtime, index, path.name)


def open_source(spec: str) -> FrameSource:
    """The source a user's ``--source`` text names (see the module docstring)."""
    text = spec.strip()
    if not text:
        raise SourceError("source is empty: give a device index, file, URL, folder or virtual:")
    if text.startswith("virtual:"):
        # The renderer is a simulator, loaded only when a rendered camera is asked for.
        from .synthetic.camera import rendered_camera

        return rendered_camera(text)
    if text.isdigit():
        return CaptureSource(int(text))
    if "://" in text:
        return CaptureSource(text)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path)
    if path.is_file():
        return CaptureSource(str(path))
    raise SourceError(f"source {spec!r}: no such file or folder")
