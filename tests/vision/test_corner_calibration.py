"""A corner net is trusted only as its calibration says: a calibration lacking a threshold
the reader needs is refused by name, never filled in by a guess; and a second look at a
corner is read by the second net the calibration names, whose threshold was calibrated on
the two nets' reads together."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from scanner.vision.corner_net import NET_PATH, WINDOW, CornerReader, product_of_experts


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
    assert calibration.corner_second < calibration.corner_second_low < 1.0
    assert set(calibration.thresholds) == {"station", "card"}


def a_calibration_with(tmp_path: Path, **values: object) -> Path:
    """The shipped net copied to ``tmp_path``, its calibration changed by ``values`` (None:
    the key taken out)."""
    shutil.copy(NET_PATH, tmp_path / "net.onnx")
    calibration = json.loads(NET_PATH.with_suffix(".json").read_text())
    calibration.pop("second_opinion", None)
    for key, value in values.items():
        calibration.pop(key, None)
        if value is not None:
            calibration[key] = value
    (tmp_path / "net.json").write_text(json.dumps(calibration))
    return tmp_path / "net.onnx"


def test_a_calibration_without_a_threshold_far_short_of_sure_takes_no_look_that_low(
        tmp_path: Path):
    """An older calibration only abstains more without it, so it is not refused."""
    reader = CornerReader(a_calibration_with(tmp_path, corner_second_low=None))
    assert reader.calibration.corner_second_low is None


@pytest.mark.parametrize("value", ["0.96", 0.3, 1.5, True, [0.96]])
def test_a_threshold_far_short_of_sure_that_is_no_score_is_refused_by_name(tmp_path: Path,
                                                                            value):
    reader = CornerReader(a_calibration_with(tmp_path, corner_second_low=value))
    with pytest.raises(ValueError, match=r"net\.json: corner_second_low .* is not a score"):
        _ = reader.calibration


def a_net_named(tmp_path: Path, second_opinion: object) -> Path:
    """The shipped net copied to ``tmp_path``, its calibration naming ``second_opinion``."""
    return a_calibration_with(tmp_path, second_opinion=second_opinion)


def some_windows() -> list[np.ndarray]:
    rng = np.random.default_rng(4)
    return [rng.integers(0, 256, (*WINDOW[::-1], 3), np.uint8) for _ in range(3)]


def test_the_shipped_second_look_at_a_corner_is_read_by_a_second_net_too():
    reader = CornerReader()
    other = reader.second_opinion
    assert other is not None and other.calibration.second_opinion is None
    windows = some_windows()
    ranks, suits = reader.corner_second_look_probabilities(windows)
    own, theirs = reader.probabilities(windows), other.probabilities(windows)
    assert np.allclose(ranks, product_of_experts(own[0], theirs[0]))
    assert np.allclose(suits, product_of_experts(own[1], theirs[1]))
    assert not np.allclose(own[0], theirs[0])


def test_a_name_one_net_all_but_rules_out_stays_low_however_sure_the_other_is():
    sure, ruled_out = np.array([[0.98, 0.01, 0.01]]), np.array([[0.001, 0.989, 0.01]])
    together = product_of_experts(sure, ruled_out)
    assert together.sum() == pytest.approx(1.0)
    assert together[0, 0] < 0.25 < (sure[0, 0] + ruled_out[0, 0]) / 2
    assert product_of_experts(sure, sure)[0, 0] == pytest.approx(0.98)


def test_two_nets_sure_of_different_names_together_name_nothing():
    together = product_of_experts(np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]]))
    assert np.isfinite(together).all() and together.max() == 0.0


def test_a_net_with_no_second_opinion_looks_again_alone(tmp_path: Path):
    reader = CornerReader(a_net_named(tmp_path, None))
    windows = some_windows()
    assert reader.second_opinion is None
    assert all(np.array_equal(a, b) for a, b in zip(
        reader.corner_second_look_probabilities(windows), reader.probabilities(windows),
        strict=True))


def test_a_missing_second_opinion_is_refused_by_name(tmp_path: Path):
    reader = CornerReader(a_net_named(tmp_path, "gone.onnx"))
    with pytest.raises(FileNotFoundError, match=r"net\.json: its second opinion .*gone\.onnx"):
        _ = reader.second_opinion


@pytest.mark.parametrize("name", ["../net.onnx", "/tmp/other.onnx", "net.onnx", "other.json",
                                  5])
def test_a_second_opinion_that_is_not_another_net_beside_it_is_refused(tmp_path: Path, name):
    reader = CornerReader(a_net_named(tmp_path, name))
    with pytest.raises(ValueError, match=r"net\.json: second_opinion .* is not the name of"):
        _ = reader.calibration
