"""`serve --dealing hand` on real cameras: a reading shoe's camera as a live MJPEG stream (as
a phone's IP-camera app serves one) watched into the page's log. Pulled out mid-deal, the
camera's loss is logged with what the log keeps, so the page says so; plugged back, the
same hand goes on from the next card."""

from __future__ import annotations

import time
from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner.app.hand_cameras import HandCameras
from scanner.app.ip_camera import streaming
from scanner.cards import Seat
from scanner.events import CardDelivered, HandStarted, MachineFault
from scanner.handdeal import footage
from scanner.handdeal.game import HandDealGame
from scanner.handdeal.thumbnails import Thumbnails
from scanner.live import LiveTable
from scanner.log import EventLog

CARDS = 12  # dealt in the film: four packets of three


@pytest.fixture(scope="module")
def shoe_jpegs(tmp_path_factory) -> list[bytes]:
    """The reading shoe's frames of the first twelve draws of a deal by North, as JPEGs."""
    script = footage.right_deal("pinochle", Seat.N, 5)
    script = replace(script, draws=script.draws[:CARDS])
    films = footage.render_deal(script, tmp_path_factory.mktemp("film"), seed=5,
                                table_camera=False)
    capture = cv2.VideoCapture(str(films.station))
    jpegs = []
    while (shot := capture.read())[0]:
        jpegs.append(cv2.imencode(".jpg", shot[1])[1].tobytes())
    return jpegs


def events_of(db, kind):
    with EventLog(db) as log:
        return [e for _, e in log.replay() if isinstance(e, kind)]


def wait_for(check, timeout=120.0):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def test_a_camera_pulled_mid_deal_is_logged_with_what_is_kept_and_the_hand_goes_on(
        shoe_jpegs, tmp_path):
    db = tmp_path / "table.sqlite"
    cut = len(shoe_jpegs) // 2
    table = LiveTable(lambda: EventLog(db), HandDealGame(cameras=("station",)))
    with streaming(shoe_jpegs[:cut], shoe_jpegs[cut:]) as url:
        cameras = HandCameras(table.session, db, "pinochle", Seat.N, url, None, None,
                              Thumbnails(("station",)), retry_s=0.3).start()
        try:
            wait_for(lambda: len(events_of(db, MachineFault)) >= 1)
            [lost] = events_of(db, MachineFault)
            kept = len(events_of(db, CardDelivered))
            assert 0 < kept < CARDS
            assert lost.kind == "camera-lost"
            assert lost.detail.startswith(f"camera {url!r} stopped giving frames after "
                                          f"{kept} of 48 cards; the {kept} card(s) dealt so "
                                          "far are kept in the log")
            # The camera is plugged back: the same hand goes on to the film's last card.
            wait_for(lambda: len(events_of(db, CardDelivered)) == CARDS)
        finally:
            cameras.stop()
            table.close()
    assert len(events_of(db, HandStarted)) == 1
    seats = [e.to for e in events_of(db, CardDelivered)]
    assert seats == [s for s in Seat.N.left.clockwise_from() for _ in range(3)]


def test_the_page_shows_a_lost_camera_until_the_next_card(shoe_jpegs, tmp_path):
    db = tmp_path / "table.sqlite"
    table = LiveTable(lambda: EventLog(db), HandDealGame(cameras=("station",)))
    with streaming(shoe_jpegs[:9]) as url:
        cameras = HandCameras(table.session, db, "pinochle", Seat.N, url, None, None,
                              Thumbnails(("station",)), retry_s=0.3).start()
        try:
            wait_for(lambda: events_of(db, MachineFault))
            wait_for(lambda: table.snapshot()[1].get("stop") is not None, timeout=10)
            view = table.snapshot()[1]
        finally:
            cameras.stop()
            table.close()
    assert view["prompt"].startswith(f"STOP — camera {url!r} stopped giving frames after")
    assert view["stop"]["answerable"] is False
    assert sum(s["count"] for s in view["seats"]) == len(events_of(db, CardDelivered))


def test_a_frozen_camera_is_logged_naming_the_frame_and_what_is_kept(shoe_jpegs, tmp_path):
    frozen = tmp_path / "frozen.avi"
    first = cv2.imdecode(np.frombuffer(shoe_jpegs[0], np.uint8), cv2.IMREAD_COLOR)
    out = cv2.VideoWriter(str(frozen), cv2.VideoWriter_fourcc(*"MJPG"), 10,
                          (first.shape[1], first.shape[0]))
    frames = [cv2.imdecode(np.frombuffer(j, np.uint8), cv2.IMREAD_COLOR) for j in shoe_jpegs]
    for image in frames[:9] + [frames[8]] * 40:
        out.write(image)
    out.release()
    db = tmp_path / "table.sqlite"
    table = LiveTable(lambda: EventLog(db), HandDealGame(cameras=("station",)))
    cameras = HandCameras(table.session, db, "pinochle", Seat.N, str(frozen), None, None,
                          Thumbnails(("station",)), retry_s=0.3).start()
    try:
        wait_for(lambda: not cameras.watching)  # a frozen recording is not reopened
    finally:
        cameras.stop()
        table.close()
    [lost] = events_of(db, MachineFault)
    kept = len(events_of(db, CardDelivered))
    assert lost.detail.startswith(f"reading-shoe camera {str(frozen)!r} is frozen: frame ")
    assert f"the {kept} card(s) dealt so far are kept in the log" in lost.detail
