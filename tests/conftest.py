"""Fixtures shared by every area's tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def output_dir(request: pytest.FixtureRequest) -> Path:
    """A folder under test-output/ named after the test, kept for people to look at."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)
    path = REPO / "test-output" / name
    path.mkdir(parents=True, exist_ok=True)
    return path
