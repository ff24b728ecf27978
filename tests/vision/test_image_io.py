"""Image files: EXIF orientation is honoured and every bad file gets an error naming it."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest

from scanner.vision.image_io import (
    ImageFileError,
    bgr_frame,
    decode_image,
    downscale_to,
    load_image,
)


def with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """A JPEG with an APP1 Exif segment carrying only the orientation tag (0x0112)."""
    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = b"MM\x00\x2a\x00\x00\x00\x08" + struct.pack(">H", 1) + entry + b"\x00" * 4
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def left_half_white(height: int = 60, width: int = 100) -> np.ndarray:
    image = np.zeros((height, width, 3), np.uint8)
    image[:, : width // 2] = 255
    return image


def encode(image: np.ndarray, ext: str = ".jpg") -> bytes:
    ok, buf = cv2.imencode(ext, image)
    assert ok
    return buf.tobytes()


def test_exif_orientation_6_rotates_the_photo_clockwise(tmp_path):
    path = tmp_path / "phone.jpg"
    path.write_bytes(with_exif_orientation(encode(left_half_white()), 6))
    image = load_image(path)
    assert image.shape[:2] == (100, 60)
    # The white left half ends up on top after a 90° clockwise turn.
    assert image[:40].mean() > 200 and image[60:].mean() < 50


def test_photo_without_exif_keeps_its_pixel_layout(tmp_path):
    path = tmp_path / "plain.png"
    path.write_bytes(encode(left_half_white(), ".png"))
    assert load_image(path).shape[:2] == (60, 100)


def test_missing_file_is_named(tmp_path):
    with pytest.raises(ImageFileError, match=r"nope\.jpg: no such file"):
        load_image(tmp_path / "nope.jpg")


def test_zero_size_file_is_named_empty(tmp_path):
    path = tmp_path / "empty.jpg"
    path.write_bytes(b"")
    with pytest.raises(ImageFileError, match=r"empty\.jpg: file is empty"):
        load_image(path)


def test_non_image_file_is_refused(tmp_path):
    path = tmp_path / "notes.jpg"
    path.write_text("these are not pixels\n")
    with pytest.raises(ImageFileError, match=r"notes\.jpg: not an image file"):
        load_image(path)


@pytest.mark.parametrize("ext", [".jpg", ".png"])
def test_truncated_file_is_refused(tmp_path, ext):
    data = encode(np.random.default_rng(1).integers(0, 255, (200, 300, 3), np.uint8), ext)
    path = tmp_path / f"cut{ext}"
    path.write_bytes(data[: len(data) * 3 // 4])
    with pytest.raises(ImageFileError, match="truncated"):
        load_image(path)


def test_corrupt_jpeg_body_is_refused(tmp_path):
    data = bytearray(encode(left_half_white()))
    data[3:200] = b"\x00" * 197  # header segments destroyed, markers intact at both ends
    path = tmp_path / "corrupt.jpg"
    path.write_bytes(bytes(data))
    with pytest.raises(ImageFileError, match=r"corrupt\.jpg: corrupt jpeg"):
        load_image(path)


def test_directory_is_not_an_image(tmp_path):
    with pytest.raises(ImageFileError, match="is a directory"):
        load_image(tmp_path)


def test_twelve_megapixel_photo_loads_and_downscales():
    image = np.full((3000, 4000, 3), 90, np.uint8)
    decoded = decode_image(encode(image), "big.jpg")
    assert decoded.shape == (3000, 4000, 3)
    small, scale = downscale_to(decoded, 1280)
    assert small.shape[:2] == (960, 1280) and scale == pytest.approx(0.32)


@pytest.mark.parametrize("ext", [".jpg", ".png", ".pgm"])
def test_a_greyscale_photo_is_refused_since_it_cannot_show_a_red_suit_from_a_black_one(
        tmp_path, ext):
    path = tmp_path / f"grey{ext}"
    path.write_bytes(encode(cv2.cvtColor(left_half_white(), cv2.COLOR_BGR2GRAY), ext))
    with pytest.raises(ImageFileError, match=r"greyscale .* need colour"):
        load_image(path)


def test_a_colour_jpeg_with_exif_before_its_frame_header_is_not_taken_for_greyscale(tmp_path):
    path = tmp_path / "phone.jpg"
    path.write_bytes(with_exif_orientation(encode(left_half_white()), 1))
    assert load_image(path).shape == (60, 100, 3)


@pytest.mark.parametrize(("frame", "complaint"), [
    (np.zeros((3, 3, 3), np.uint8), "too small"),
    (np.zeros((480, 8, 3), np.uint8), "too small"),
    (np.zeros((480, 640, 2), np.uint8), "BGR or BGRA"),
    (np.zeros((480, 640), np.uint8), "need colour"),
    (np.zeros((480, 640, 3), np.float32), "8-bit"),
])
def test_a_frame_no_camera_gives_is_refused_saying_what_is_wrong(frame, complaint):
    with pytest.raises(ValueError, match=complaint):
        bgr_frame(frame)


def test_a_bgra_frame_loses_only_its_alpha():
    frame = left_half_white()
    assert np.array_equal(bgr_frame(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)), frame)


@pytest.mark.parametrize(("head", "kind"), [
    (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic", "HEIC/HEIF photo"),
    (b"\x00\x00\x00\x1cftypmif1\x00\x00\x00\x00mif1heic", "HEIC/HEIF photo"),
    (b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1", "AVIF image"),
    (b"GIF89a\x01\x00\x01\x00\x80\x00\x00", "GIF image"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "PDF document"),
])
def test_a_photo_in_a_format_not_read_is_named_with_what_to_do(tmp_path, head, kind):
    """An iPhone saves HEIC by default: the error says so and how to get a JPEG, not only
    that the file is no image."""
    path = tmp_path / "IMG_0001.HEIC"
    path.write_bytes(head + b"\x00" * 64)
    with pytest.raises(ImageFileError, match=rf"IMG_0001\.HEIC: an? {kind}, which is not "
                                             r"read here: save or export it as JPEG or PNG"):
        load_image(path)


def png_declaring(width: int, height: int) -> bytes:
    """A PNG whose header declares ``width``×``height`` colour pixels, with a token body."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


def jpeg_declaring(width: int, height: int) -> bytes:
    """A real JPEG whose frame header is rewritten to declare ``width``×``height``."""
    data = bytearray(encode(left_half_white()))
    at = 2
    while data[at + 1] not in (0xC0, 0xC1, 0xC2):
        at += 2 + int.from_bytes(data[at + 2:at + 4], "big")
    data[at + 5:at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


@pytest.mark.parametrize("make", [png_declaring, jpeg_declaring])
def test_a_decompression_bomb_is_refused_before_it_is_decoded(tmp_path, monkeypatch, make):
    """A 1 MB PNG of 20,000 × 20,000 black pixels decodes to 1.2 GB: its header says so,
    and it is refused from the header, with no decoding at all."""
    path = tmp_path / "bomb.png"
    path.write_bytes(make(20000, 20000))

    def decode(*_):
        raise AssertionError("the bomb was decoded")

    monkeypatch.setattr(cv2, "imdecode", decode)
    with pytest.raises(ImageFileError, match=r"bomb\.png: image is too large \(20000×20000 px"):
        load_image(path)
