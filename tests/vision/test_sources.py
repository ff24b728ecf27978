"""Frame sources: VideoCapture (file), a folder of images, the rendered camera."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.cards import parse_card
from scanner.vision.sources import (
    CaptureSource,
    FolderSource,
    SourceError,
    open_source,
)
from scanner.vision.synthetic import render
from scanner.vision.synthetic.camera import RenderedCamera


def test_virtual_camera_shows_each_card_then_an_empty_window_with_rising_timestamps():
    cam = RenderedCamera([parse_card("AS"), parse_card("KD")], "standard", frames_per_card=2)
    frames = list(cam.frames())
    assert len(frames) == 6
    stamps = [f.timestamp for f in frames]
    assert stamps == sorted(stamps) and len(set(stamps)) == 6
    assert all(f.image.shape == (480, 640, 3) for f in frames)
    assert frames[2].image.mean() < frames[0].image.mean() / 3  # the gap is an empty window


def test_folder_source_reads_images_in_file_name_order(tmp_path):
    for i, token in enumerate(["2S", "3S", "4S"]):
        frame = render.render_station_frame(parse_card(token), "standard", seed=i)
        cv2.imwrite(str(tmp_path / f"card{i:02d}.png"), frame)
    (tmp_path / "notes.txt").write_text("not an image")
    source = open_source(str(tmp_path))
    assert isinstance(source, FolderSource) and source.one_card_per_frame
    frames = list(source.frames())
    assert [f.name for f in frames] == ["card00.png", "card01.png", "card02.png"]


def test_folder_with_a_corrupt_image_names_the_file(tmp_path):
    (tmp_path / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n truncated")
    with pytest.raises(SourceError, match=r"a\.png"):
        list(open_source(str(tmp_path)).frames())


def test_a_truncated_photo_in_a_folder_stops_the_source_rather_than_being_read_half_grey(
        tmp_path):
    frame = render.render_station_frame(parse_card("2S"), "standard", seed=0)
    data = cv2.imencode(".jpg", frame)[1].tobytes()
    (tmp_path / "card00.jpg").write_bytes(data[: len(data) // 2])
    with pytest.raises(SourceError, match=r"card00\.jpg: truncated jpeg file"):
        list(open_source(str(tmp_path)).frames())


def test_video_file_is_read_through_videocapture(tmp_path):
    path = tmp_path / "deal.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    if not writer.isOpened():
        pytest.skip("this OpenCV build has no MJPG writer")
    for i in range(3):
        writer.write(render.render_station_frame(parse_card("5H"), "standard", seed=i))
    writer.release()
    source = open_source(str(path))
    assert isinstance(source, CaptureSource)
    frames = list(source.frames())
    assert len(frames) == 3
    assert frames[1].timestamp > frames[0].timestamp


def test_device_index_and_url_specs_open_videocapture_sources():
    assert open_source("0").target == 0
    assert open_source("rtsp://127.0.0.1:8554/station").target == "rtsp://127.0.0.1:8554/station"


def test_a_source_that_cannot_open_names_itself(tmp_path):
    missing = tmp_path / "nothing.mp4"
    with pytest.raises(SourceError, match=r"nothing\.mp4"):
        open_source(str(missing))
    garbage = tmp_path / "garbage.mp4"
    garbage.write_bytes(np.random.default_rng(0).bytes(2000))
    with pytest.raises(SourceError, match=r"garbage\.mp4"):
        list(open_source(str(garbage)).frames())


def test_virtual_spec_options_are_checked():
    cam = open_source("virtual:nordic:pinochle:seed=7")
    assert isinstance(cam, RenderedCamera) and len(cam.cards) == 48 and cam.seed == 7
    with pytest.raises(SourceError, match="bogus"):
        open_source("virtual:standard:bogus")
    with pytest.raises(SourceError, match="marseille"):
        open_source("virtual:marseille")
