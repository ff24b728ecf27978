"""A corner net is trusted only as its calibration says: a calibration lacking a threshold
the reader needs is refused by name, never filled in by a guess."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from scanner.vision.corner_net import NET_PATH, CornerReader


@pytest.mark.parametrize("key", ["corner", "corner_second"])
def test_a_calibration_without_a_corner_threshold_is_refused_by_name(tmp_path: Path, key):
    shutil.copy(NET_PATH, tmp_path / "net.onnx")
    calibration = json.loads(NET_PATH.with_suffix(".json").read_text())
    del calibration[key]
    (tmp_path / "net.json").write_text(json.dumps(calibration))
    with pytest.raises(ValueError, match=rf"net\.json: no {key}; calibrate"):
        _ = CornerReader(tmp_path / "net.onnx").calibration


def test_the_shipped_calibration_holds_every_threshold():
    calibration = CornerReader().calibration
    assert 0.5 <= calibration.corner < 1.0
    assert 0.5 <= calibration.corner_second < 1.0
    assert set(calibration.thresholds) == {"station", "card"}
