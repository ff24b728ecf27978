"""`tablescan watch` on bad input: a clear message naming what and where, exit 2, and what
the log acknowledged stays there."""

from __future__ import annotations

import json
import sqlite3

import cv2
import pytest

from scanner.app.ip_camera import streaming
from scanner.cli import main
from scanner.handdeal.zones import SeatZones, load_zones


def logged(db, kind):
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM events WHERE type = ?", (kind,)).fetchone()[0]


def frames_of(path):
    capture = cv2.VideoCapture(str(path))
    while True:
        ok, image = capture.read()
        if not ok:
            return
        yield image


@pytest.fixture
def station_jpegs(film) -> list[bytes]:
    """The reading shoe's film of the right deal, as the camera's JPEG frames."""
    return [cv2.imencode(".jpg", image)[1].tobytes()
            for image in frames_of(film("right").station)]


def test_a_camera_pulled_mid_deal_exits_2_naming_it_and_keeps_the_cards_logged(
        station_jpegs, tmp_path, capsys):
    cut = 60  # frames: a card every three
    db = tmp_path / "log.db"
    with streaming(station_jpegs[:cut]) as url:
        code = main(["watch", "--station", url, "--game", "pinochle", "--dealer", "N",
                     "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"camera {url!r} stopped giving frames after 20 of 48 cards" in err
    assert f"kept in {db}: run again with --resume" in err
    assert logged(db, "card-delivered") == 20 and logged(db, "hand-started") == 1

    # The camera is back and the dealer deals on: the same hand goes on from card 21.
    with streaming(station_jpegs[cut:]) as url:
        code = main(["watch", "--station", url, "--game", "pinochle", "--dealer", "N",
                     "--db", str(db), "--resume"])
    out = capsys.readouterr()
    assert code == 0, out.err
    result = json.loads(out.out)
    assert (result["status"], result["counts"]) == ("ok", {"N": 12, "E": 12, "S": 12, "W": 12})
    assert logged(db, "card-delivered") == 48 and logged(db, "hand-started") == 1


def test_resuming_another_games_hand_is_refused(station_jpegs, tmp_path, capsys):
    db = tmp_path / "log.db"
    with streaming(station_jpegs[:30]) as url:
        assert main(["watch", "--station", url, "--game", "pinochle", "--dealer", "N",
                     "--db", str(db)]) == 2
        assert main(["watch", "--station", url, "--game", "pinochle", "--dealer", "E",
                     "--db", str(db), "--resume"]) == 2
    assert "is pinochle dealt by N in packets of 3, not this one" in capsys.readouterr().err


def test_a_frozen_camera_exits_2_naming_it_and_the_frame(film, tmp_path, capsys):
    frames = list(frames_of(film("missing").station))[:30]
    frozen = tmp_path / "frozen.avi"
    out = cv2.VideoWriter(str(frozen), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    for image in frames + [frames[-1]] * 40:
        out.write(image)
    out.release()
    db = tmp_path / "log.db"
    code = main(["watch", "--station", str(frozen), "--game", "pinochle", "--dealer", "N",
                 "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"reading-shoe camera {str(frozen)!r} is frozen: frame 59" in err
    assert logged(db, "card-delivered") == 10


def test_zones_calibrated_on_another_frame_size_exit_2_before_anything_is_logged(
        film, tmp_path, capsys):
    footage = film("right")
    zones = load_zones(footage.zones)
    small = tmp_path / "zones.json"
    halved = {seat: polygon / 2 for seat, polygon in zones.zones.items()}
    small.write_text(json.dumps(SeatZones((640, 360), halved).to_dict()), "utf-8")
    db = tmp_path / "log.db"
    code = main(["watch", "--station", str(footage.station), "--table", str(footage.table),
                 "--zones", str(small), "--game", "pinochle", "--dealer", "N", "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2
    assert "calibrated on 640×360 frames but camera" in err and "gives 1280×720" in err
    assert not db.exists() or logged(db, "hand-started") == 0


def test_a_zones_file_missing_a_seat_exits_2_naming_the_file(film, tmp_path, capsys):
    footage = film("right")
    bad = tmp_path / "zones.json"
    bad.write_text(json.dumps({"frame_size": [1280, 720], "zones": {"N": [[0, 0], [9, 0],
                                                                          [9, 9]]}}), "utf-8")
    code = main(["watch", "--station", str(footage.station), "--table", str(footage.table),
                 "--zones", str(bad), "--game", "pinochle", "--dealer", "N",
                 "--db", str(tmp_path / "log.db")])
    assert code == 2
    assert f"{bad}: zones for N, E, S and W expected, got N" in capsys.readouterr().err


def test_a_station_source_that_does_not_exist_exits_2_naming_it(tmp_path, capsys):
    code = main(["watch", "--station", str(tmp_path / "nope.avi"), "--game", "bridge",
                 "--dealer", "S", "--db", str(tmp_path / "log.db")])
    assert code == 2
    assert "nope.avi" in capsys.readouterr().err
    assert not (tmp_path / "log.db").exists() or logged(tmp_path / "log.db", "hand-started") == 0
