"""The firmware core's own C unit tests, compiled and run on the host."""

from __future__ import annotations

import subprocess

from scanner.app.firmware_wire import FIRMWARE


def test_core_unit_tests_pass_on_the_host() -> None:
    result = subprocess.run(["make", "-C", str(FIRMWARE), "test"], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 failed" in result.stdout
