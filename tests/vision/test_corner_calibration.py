"""A corner net is trusted only as its calibration says: a calibration lacking a threshold
the reader needs is refused by name, never filled in by a guess."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from scanner.vision.corner_net import NET_PATH, CornerReader


def test_a_calibration_without_the_corner_alone_threshold_is_refused_by_name(tmp_path: Path):
    shutil.copy(NET_PATH, tmp_path / "net.onnx")
    calibration = json.loads(NET_PATH.with_suffix(".json").read_text())
    del calibration["corner"]
    (tmp_path / "net.json").write_text(json.dumps(calibration))
    with pytest.raises(ValueError, match=r"net\.json: no corner; calibrate"):
        _ = CornerReader(tmp_path / "net.onnx").calibration


def test_the_shipped_calibration_holds_every_threshold():
    calibration = CornerReader().calibration
    assert 0.5 <= calibration.corner < 1.0
    assert set(calibration.thresholds) == {"station", "card"}
