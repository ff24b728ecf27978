"""Loading image files for the readers: EXIF orientation honoured, clear per-file errors.

A batch of photos from a phone or a folder must never stop at the first bad file, so
every failure is an ``ImageFileError`` that names the file and what is wrong with it.
Truncated files are refused rather than decoded into a half-grey picture: a card read
from half a photo is a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

# 12 MP is the promise; the ceiling above it only guards against decompression bombs.
MAX_PIXELS = 64_000_000
MIN_SIDE = 16


def bgr_frame(frame: np.ndarray) -> np.ndarray:
    """A frame as the readers take it, 8-bit BGR (a BGRA frame, from a PNG with alpha or
    some cameras, loses its alpha); anything else refused, saying what was wrong with it.

    A grey frame is refused too: without colour a red suit cannot be told from a black
    one, and a reader would guess at the shape of a blurred pip.
    """
    frame = np.asarray(frame)
    if frame.dtype != np.uint8:
        raise ValueError(f"frame of {frame.dtype}: expected 8-bit pixels")
    channels = 1 if frame.ndim == 2 else frame.shape[2] if frame.ndim == 3 else 0
    if channels == 1:
        raise ValueError(f"grey frame of shape {frame.shape}: the readers need colour to tell "
                         "a red suit from a black one; set the camera to colour")
    if channels not in (3, 4):
        raise ValueError(f"frame of shape {frame.shape}: expected BGR or BGRA")
    if min(frame.shape[:2]) < MIN_SIDE:
        raise ValueError(f"frame of {frame.shape[1]}x{frame.shape[0]} px: too small to hold "
                         f"a card (at least {MIN_SIDE} px a side)")
    return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR) if channels == 4 else frame


class ImageFileError(ValueError):
    """A file that cannot be used as an image; the message names the file and the reason."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


@dataclass(frozen=True)
class ImageFormat:
    name: str
    magic: bytes
    offset: int = 0


# Formats cv2 decodes in every build we support, recognised by their leading bytes.
FORMATS = (
    ImageFormat("jpeg", b"\xff\xd8\xff"),
    ImageFormat("png", b"\x89PNG\r\n\x1a\n"),
    ImageFormat("bmp", b"BM"),
    ImageFormat("tiff", b"II*\x00"),
    ImageFormat("tiff", b"MM\x00*"),
    ImageFormat("webp", b"WEBP", offset=8),
    ImageFormat("pnm", b"P6"),
    ImageFormat("pnm", b"P5"),
)


# What a phone or a scanner may hand over that the readers do not decode, by the same
# leading bytes: named in the error, with what to do, rather than "not an image". HEIF and
# AVIF files open with an ISO "ftyp" box naming their brand.
UNREADABLE_FORMATS = (
    *(ImageFormat("a HEIC/HEIF photo", b"ftyp" + brand, offset=4)
      for brand in (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1")),
    *(ImageFormat("an AVIF image", b"ftyp" + brand, offset=4) for brand in (b"avif", b"avis")),
    ImageFormat("a GIF image", b"GIF87a"),
    ImageFormat("a GIF image", b"GIF89a"),
    ImageFormat("a PDF document", b"%PDF-"),
)


def _named_by(formats: tuple[ImageFormat, ...], data: bytes) -> str | None:
    """The name of the first of ``formats`` whose magic the leading bytes show, or None."""
    for fmt in formats:
        if data[fmt.offset : fmt.offset + len(fmt.magic)] == fmt.magic:
            return fmt.name
    return None


def unreadable_format(data: bytes) -> str | None:
    """What kind of file the leading bytes show, among ``UNREADABLE_FORMATS``, or None."""
    return _named_by(UNREADABLE_FORMATS, data)


def sniff_format(data: bytes) -> str | None:
    """The image format named by the file's leading bytes, or None."""
    return _named_by(FORMATS, data)


def _jpeg_is_complete(data: bytes) -> bool:
    # Cameras may append bytes after EOI, so look for the marker near the end, not at it.
    return b"\xff\xd9" in data[-65536:]


def _png_is_complete(data: bytes) -> bool:
    return b"IEND" in data[-64:]


COMPLETENESS_CHECKS = {"jpeg": _jpeg_is_complete, "png": _png_is_complete}

_JPEG_FRAME_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}  # SOF0..SOF15


def _jpeg_frame(data: bytes) -> bytes | None:
    """A JPEG's frame header after its length: precision, height, width, components."""
    at = 2
    while at + 4 <= len(data) and data[at] == 0xFF:
        marker, length = data[at + 1], int.from_bytes(data[at + 2:at + 4], "big")
        if marker in _JPEG_FRAME_MARKERS:
            frame = data[at + 4:at + 10]
            return frame if len(frame) == 6 else None
        at += 2 + length
    return None


def _jpeg_components(data: bytes) -> int | None:
    """The colour components a JPEG's frame header declares (1: greyscale), or None."""
    frame = _jpeg_frame(data)
    return None if frame is None else frame[5]


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a JPEG's frame header declares, or None."""
    frame = _jpeg_frame(data)
    if frame is None:
        return None
    return int.from_bytes(frame[3:5], "big"), int.from_bytes(frame[1:3], "big")


# Whether a file of each format declares itself greyscale, from its header.
GREYSCALE_CHECKS = {
    "jpeg": lambda data: _jpeg_components(data) == 1,
    "png": lambda data: len(data) > 25 and data[25] in (0, 4),  # IHDR colour type grey(+alpha)
    "pnm": lambda data: data[:2] == b"P5",
}


def _png_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a PNG's header (IHDR, its first chunk) declares, or None."""
    if len(data) < 24:
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


# The width and height a file's header declares, for formats where that is a few bytes in:
# a bomb (a small file that decodes to gigabytes) is refused before it is decoded.
DECLARED_SIZES = {"jpeg": _jpeg_size, "png": _png_size}


def _too_large(name: str | Path, width: int, height: int) -> ImageFileError:
    return ImageFileError(
        name, f"image is too large ({width}×{height} px, limit {MAX_PIXELS // 10**6} MP)")


def decode_image(data: bytes, name: str | Path = "<bytes>") -> np.ndarray:
    """Decode encoded image bytes to BGR uint8, applying EXIF orientation.

    Raises ImageFileError naming ``name`` when the bytes are empty, not an image,
    truncated, greyscale, corrupt, too small or too large.
    """
    if not data:
        raise ImageFileError(name, "file is empty (0 bytes)")
    fmt = sniff_format(data)
    if fmt is None:
        kind = unreadable_format(data)
        if kind is not None:
            raise ImageFileError(name, f"{kind}, which is not read here: save or export it "
                                       "as JPEG or PNG (a phone's share menu can)")
        raise ImageFileError(name, f"not an image file (starts with {data[:8]!r})")
    is_complete = COMPLETENESS_CHECKS.get(fmt)
    if is_complete is not None and not is_complete(data):
        raise ImageFileError(name, f"truncated {fmt} file ({len(data)} bytes, no end marker)")
    is_grey = GREYSCALE_CHECKS.get(fmt)
    if is_grey is not None and is_grey(data):
        raise ImageFileError(name, f"greyscale {fmt} file: the readers need colour to tell a "
                                   "red suit from a black one")
    declared = DECLARED_SIZES.get(fmt, lambda _: None)(data)
    if declared is not None and declared[0] * declared[1] > MAX_PIXELS:
        raise _too_large(name, *declared)
    # IMREAD_COLOR applies the EXIF orientation tag (IMREAD_IGNORE_ORIENTATION is not set).
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageFileError(name, f"corrupt {fmt} file: the decoder could not read it")
    height, width = image.shape[:2]
    if min(height, width) < MIN_SIDE:
        raise ImageFileError(name, f"image is too small to hold a card ({width}×{height} px)")
    if height * width > MAX_PIXELS:
        raise _too_large(name, width, height)
    return image


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR uint8 with EXIF orientation honoured.

    Raises ImageFileError for a missing, unreadable, empty, truncated, corrupt or
    non-image file; the message names the file.
    """
    path = Path(path)
    if not path.exists():
        raise ImageFileError(path, "no such file")
    if path.is_dir():
        raise ImageFileError(path, "is a directory, not an image file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageFileError(path, f"cannot read: {exc.strerror or exc}") from exc
    return decode_image(data, path)


def downscale_to(image: np.ndarray, max_side: int) -> tuple[np.ndarray, float]:
    """The image shrunk so its longer side is at most ``max_side``, and the scale applied."""
    longest = max(image.shape[:2])
    if longest <= max_side:
        return image, 1.0
    scale = max_side / longest
    size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), scale
