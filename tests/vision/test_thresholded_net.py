"""A small net and its threshold (``thresholded_net``): the motif net and the pip net each
refuse a missing net or a threshold that is no probability between even odds and one,
naming the file and the training module that builds it again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from scanner.vision.motifs import MOTIF_PATH, MotifReader
from scanner.vision.pip_net import PIP_NET_PATH, PipReader

NETS = [(MOTIF_PATH, MotifReader, "train_motifs"), (PIP_NET_PATH, PipReader, "train_pips")]


@pytest.fixture(params=NETS, ids=["motif", "pip"])
def net_beside(request, tmp_path: Path):
    """A copy of a shipped net in a folder of its own, without its threshold, and its
    reader."""
    shipped, reader, _ = request.param
    net = tmp_path / shipped.name
    shutil.copy(shipped, net)
    return net, reader


@pytest.mark.parametrize("threshold", [0.5, 1.0, 1.5, -0.2, "0.9", True, None, [0.9]])
def test_a_threshold_that_is_no_probability_between_even_odds_and_one_is_refused(
        net_beside, threshold):
    net, reader = net_beside
    net.with_suffix(".json").write_text(json.dumps({"threshold": threshold}))
    with pytest.raises(ValueError, match=rf"{net.stem}\.json: threshold .* is not a "
                                         r"probability .* --calibrate-only"):
        _ = reader(net).threshold


def test_a_missing_threshold_is_refused(net_beside):
    net, reader = net_beside
    net.with_suffix(".json").write_text("{}")
    with pytest.raises(ValueError, match="threshold None"):
        _ = reader(net).threshold


@pytest.mark.parametrize(("shipped", "reader", "builder"), NETS)
def test_a_missing_net_says_how_to_build_it(tmp_path, shipped, reader, builder):
    with pytest.raises(FileNotFoundError, match=builder):
        reader(tmp_path / shipped.name)
