"""`deal-deck --camera`: a simulated shoe's camera, or any source scanner.vision.sources opens."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.cards import parse_card
from scanner.shoe.cameras import CameraError, SourceCamera, open_station_camera
from scanner.shoe.simulator import Simulator
from scanner.shoe.virtual_camera import VirtualCamera, station_frame
from scanner.shoe.virtual_deck import DeckCard

NUMBER_CARDS = [parse_card(c) for c in ("9S", "5H", "2D")]


def test_a_folder_of_station_photos_is_read_one_card_per_look(tmp_path):
    for i, card in enumerate(NUMBER_CARDS):
        cv2.imwrite(str(tmp_path / f"{i:02d}.png"), station_frame(card, "up", "standard",
                                                                  "lattice-red"))
    camera = open_station_camera(str(tmp_path))
    assert isinstance(camera, SourceCamera)
    assert [camera.look().card for _ in NUMBER_CARDS] == NUMBER_CARDS
    camera.close()


def test_a_source_that_does_not_exist_is_a_camera_error_naming_it(tmp_path):
    with pytest.raises(CameraError, match="nothing-here"):
        open_station_camera(str(tmp_path / "nothing-here"))


def test_sim_spec_opens_the_simulators_virtual_camera():
    with Simulator([DeckCard(NUMBER_CARDS[0], "down")]) as sim:
        camera = open_station_camera(f"sim:{sim.control_address}")
        assert isinstance(camera, VirtualCamera)
        assert camera.look().face == "none"
        camera.close()


def test_the_virtual_camera_sees_the_back_of_a_face_down_card():
    with Simulator([DeckCard(NUMBER_CARDS[0], "down")]) as sim:
        sim.model.station.append(sim.model.hopper.pop(0))
        camera = VirtualCamera(sim.control_address)
        reading = camera.look()
        camera.close()
    assert (reading.face, reading.card) == ("down", None)


def test_an_unreachable_sim_camera_is_a_camera_error():
    with pytest.raises(CameraError, match=r"127\.0\.0\.1:1"):
        open_station_camera("sim:127.0.0.1:1")


def test_a_frame_too_small_for_a_card_is_a_camera_error_naming_the_source(tmp_path):
    cv2.imwrite(str(tmp_path / "00.png"), np.full((10, 10, 3), 200, np.uint8))
    camera = open_station_camera(str(tmp_path))
    with pytest.raises(CameraError, match="too small"):
        camera.look()
    camera.close()
