"""Seat zones: calibrated from marked corners or ArUco markers, stored safely, and refused
when they cannot be trusted."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.cards import Seat
from scanner.cli import main
from scanner.handdeal import footage
from scanner.handdeal.zones import (
    SeatZones,
    ZoneError,
    load_zones,
    save_zones,
    zones_from_corners,
    zones_from_markers,
)
from scanner.vision.synthetic import scene


def inside(zones: SeatZones, seat: Seat, point) -> bool:
    x, y = point
    return bool(zones.masks()[seat][int(y), int(x)])


def test_zones_from_the_tables_marked_corners_put_north_at_the_top_edge():
    corners = np.array([[100, 50], [1180, 50], [1180, 670], [100, 670]], np.float32)
    zones = zones_from_corners(corners, (1280, 720))
    zones.check_fits((720, 1280, 3), "camera")
    assert inside(zones, Seat.N, (640, 80)) and inside(zones, Seat.S, (640, 640))
    assert inside(zones, Seat.W, (130, 360)) and inside(zones, Seat.E, (1150, 360))
    assert not any(inside(zones, seat, (640, 360)) for seat in Seat)  # the dealer's space


def test_zones_from_the_seat_markers_surround_each_marker():
    table = scene.BACKGROUNDS["cloth"](np.random.default_rng(3), 720, 1280)
    footage._lay_markers(table)
    zones = zones_from_markers(table)
    zones.check_fits(table.shape, "camera")
    for seat in Seat:
        assert inside(zones, seat, footage._zone_centre(seat))


def test_a_table_without_all_four_markers_is_refused_naming_the_missing_ones():
    table = scene.BACKGROUNDS["cloth"](np.random.default_rng(3), 720, 1280)
    with pytest.raises(ZoneError, match="seat marker\\(s\\) N, E, S, W not seen"):
        zones_from_markers(table)


def test_overlapping_zones_are_refused():
    box = np.array([[0, 0], [400, 0], [400, 400], [0, 400]], np.float32)
    zones = SeatZones((1280, 720), {seat: box + 100 * i for i, seat in enumerate(Seat)})
    with pytest.raises(ZoneError, match="zones N and E overlap"):
        zones.check_fits((720, 1280, 3), "camera")


def test_zones_are_saved_atomically_and_never_over_an_existing_file(tmp_path):
    zones = footage.zones()
    path = tmp_path / "zones.json"
    save_zones(zones, path)
    assert load_zones(path).to_dict() == zones.to_dict()
    with pytest.raises(ZoneError, match="exists"):
        save_zones(zones, path)
    assert list(tmp_path.iterdir()) == [path]


def test_a_zones_file_that_is_not_json_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "zones.json"
    path.write_text('{"frame_size": [1280, 720],\n "zones": }', encoding="utf-8")
    with pytest.raises(ZoneError, match=r"zones\.json: line 2: not JSON"):
        load_zones(path)


def test_the_zones_command_stores_zones_found_from_the_markers(tmp_path, capsys):
    photo = tmp_path / "table.png"
    table = scene.BACKGROUNDS["cloth"](np.random.default_rng(5), 720, 1280)
    footage._lay_markers(table)
    cv2.imwrite(str(photo), table)
    out = tmp_path / "zones.json"
    assert main(["zones", str(out), "--table", str(tmp_path), "--markers"]) == 0
    zones = load_zones(out)
    assert zones.frame_size == (1280, 720)
    assert all(inside(zones, seat, footage._zone_centre(seat)) for seat in Seat)
    assert main(["zones", str(out), "--table", str(tmp_path), "--markers"]) == 2
    assert "exists" in capsys.readouterr().err


def test_the_zones_command_from_marked_corners_refuses_a_corner_off_the_frame(tmp_path, capsys):
    cv2.imwrite(str(tmp_path / "table.png"), np.zeros((720, 1280, 3), np.uint8))
    out = tmp_path / "zones.json"
    good = "40,20 1240,20 1240,700 40,700"
    assert main(["zones", str(out), "--table", str(tmp_path), "--corners", good]) == 0
    assert load_zones(out).frame_size == (1280, 720)
    bad = tmp_path / "bad.json"
    code = main(["zones", str(bad), "--table", str(tmp_path), "--corners",
                 "40,20 1400,20 1240,700 40,700"])
    assert code == 2 and not bad.exists()
    assert "a corner lies outside the 1280×720 frame" in capsys.readouterr().err
