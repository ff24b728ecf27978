"""Fixtures shared by the vision tests."""

from types import SimpleNamespace

import numpy as np
import pytest

from scanner.vision import indices


@pytest.fixture
def no_motif_net(monkeypatch):
    """The finder's own rules alone: drawn circles and Hershey digits are plain enough that
    the motif net may call them a back's dots or print (``test_motifs`` checks that net)."""
    monkeypatch.setattr(indices, "default_motif_reader", lambda: SimpleNamespace(
        motifs=lambda windows: np.zeros(len(windows), bool)))
