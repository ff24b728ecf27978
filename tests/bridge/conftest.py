"""Fixtures for the bridge tests: the 16-deal converter fixture in every format; and, for
pre-dealing and verifying through a simulated shoe, the Python simulator on 127.0.0.1, its
control channel, a generated set file, and the hooks' environment."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from predeal_support import ROOT

from scanner.bridge.dealset import generate
from scanner.bridge.formats import write_boards
from scanner.shoe.control import ControlChannel
from scanner.shoe.simulator import Simulator

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "deal-convert"


@pytest.fixture
def fixtures() -> Path:
    assert FIXTURES.is_dir(), f"the cross-format fixture {FIXTURES} is missing"
    return FIXTURES


@pytest.fixture
def sim() -> Iterator[Simulator]:
    with Simulator(motion_s=0.0) as simulator:
        yield simulator


@pytest.fixture
def control(sim) -> Iterator[ControlChannel]:
    with ControlChannel(sim.control_address) as channel:
        yield channel


@pytest.fixture
def set_file(tmp_path) -> Path:
    path = tmp_path / "set.pbn"
    write_boards(path, generate(range(1, 5), seed="predeal tests"))
    return path


@pytest.fixture
def shoe_env(sim, tmp_path) -> dict[str, str]:
    """What the hook commands need: the simulator's control channel and a folder for decks."""
    decks = tmp_path / "decks"
    decks.mkdir()
    return {**os.environ, "SIM_CONTROL": sim.control_address, "DECK_DIR": str(decks),
            "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
