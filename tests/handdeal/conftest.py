"""Rendered hand deals, filmed once per test run and shared by the tests that watch them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hand_films import MARKED, SCRIPTS, SEED, SHOE_ONLY

from scanner.handdeal import footage


@pytest.fixture(scope="session")
def film(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], footage.Footage]:
    """``film(name)``: the scenario's footage (rendered at its first use in the run)."""
    made: dict[str, footage.Footage] = {}
    root = tmp_path_factory.mktemp("hand-deals")

    def get(name: str) -> footage.Footage:
        if name not in made:
            made[name] = footage.render_deal(SCRIPTS[name](), Path(root / name), seed=SEED,
                                             table_camera=name not in SHOE_ONLY,
                                             markers=name in MARKED)
        return made[name]

    return get
