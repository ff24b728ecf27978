"""Shared fixtures for the bridge tests: the 16-deal converter fixture in every format."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "deal-convert"


@pytest.fixture
def fixtures() -> Path:
    assert FIXTURES.is_dir(), f"the cross-format fixture {FIXTURES} is missing"
    return FIXTURES
