"""A small net shipped as ONNX, with the one threshold it was calibrated at beside it.

The motif net and the pip net are each an ``.onnx`` run through ``cv2.dnn`` and a ``.json``
of the same name holding ``{"threshold": p}``: the probability from which the net's verdict
is trusted. Both are read, checked and written here.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from ..output_file import written_atomically


class ThresholdedNet:
    """A trained net (``path``) and its threshold (the ``.json`` beside it); ``builder``
    is the training module that builds and calibrates it, named in every refusal."""

    def __init__(self, path: Path, builder: str) -> None:
        self.builder = builder
        if not path.exists():
            raise FileNotFoundError(
                f"{path} is missing; build it with python -m scanner.vision.training.{builder}")
        # OpenCV 5 runs ONNX on its new engine by default; the classic engine runs these
        # small nets as well, and the shipped thresholds were calibrated on it.
        self.net = cv2.dnn.readNetFromONNX(str(path), engine=cv2.dnn.ENGINE_CLASSIC)
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        self.calibration_path = path.with_suffix(".json")
        self._threshold: float | None = None

    @property
    def threshold(self) -> float:
        """The probability from which the net's verdict is trusted."""
        if self._threshold is None:
            value = json.loads(self.calibration_path.read_text()).get("threshold")
            # A threshold at or under even odds would trust a verdict the net finds less
            # likely than another; at 1, none: refused by name, never guessed.
            numeric = isinstance(value, int | float) and not isinstance(value, bool)
            if not numeric or not 0.5 < value < 1:
                raise ValueError(f"{self.calibration_path}: threshold {value!r} is not a "
                                 "probability between 0.5 and 1; calibrate the net again "
                                 f"({self.builder} --calibrate-only)")
            self._threshold = float(value)
        return self._threshold


def write_threshold(net_path: Path, threshold: float) -> None:
    """Write the threshold beside the net at ``net_path``, whole or not at all."""
    with written_atomically(net_path.with_suffix(".json"), overwrite=True) as temp:
        temp.write_text(json.dumps({"threshold": threshold}, indent=1) + "\n")
