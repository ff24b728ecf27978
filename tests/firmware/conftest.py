"""Fixtures for the firmware's tests: one build of every firmware target per session."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from scanner.app.firmware_wire import BUILD, FIRMWARE, ShoeTarget

TOOLCHAIN = ("avr-gcc", "avr-size", "avr-objcopy", "cc", "make")
EXECUTABLES = {"simavr": "shoe-sim", "native": "shoe-native"}


@pytest.fixture(scope="session")
def firmware_build() -> Path:
    """Build the AVR image, the harness and the native target once; fail with make's output."""
    missing = [tool for tool in TOOLCHAIN if shutil.which(tool) is None]
    assert not missing, (f"missing {missing}: apt-get install gcc-avr avr-libc simavr "
                         "libsimavr-dev libsimavrparts1")
    result = subprocess.run(["make", "-C", str(FIRMWARE), "all", "native", "sim"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return BUILD


@pytest.fixture
def deck_file(tmp_path: Path) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text("# top card first\nAS\nkh\n10d down\nQ♣\n", encoding="utf-8")
    return path


@pytest.fixture(params=sorted(EXECUTABLES))
def shoe(request: pytest.FixtureRequest, firmware_build: Path, deck_file: Path
         ) -> Iterator[ShoeTarget]:
    """A running simulated shoe: the AVR image under simavr, or the host-native core."""
    target = ShoeTarget([str(firmware_build / EXECUTABLES[request.param]),
                         "--deck", str(deck_file)])
    yield target
    target.close()


@pytest.fixture(params=sorted(EXECUTABLES))
def noisy_shoe(request: pytest.FixtureRequest, firmware_build: Path, tmp_path: Path
               ) -> Iterator[ShoeTarget]:
    """A simulated shoe loaded with the twelve cards of test_noisy_link.CARDS, running at
    three times real time: the host's wall-clock timeouts then only get more lenient."""
    deck = tmp_path / "noisy.txt"
    deck.write_text("AS KH TD QC 9S 8H 7D 6C 5S 4H 3D 2C".replace(" ", "\n") + "\n",
                    encoding="utf-8")
    target = ShoeTarget([str(firmware_build / EXECUTABLES[request.param]), "--deck", str(deck),
                         "--speed", "3"])
    yield target
    target.close()
