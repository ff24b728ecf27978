"""hardware/PINMAP.md says what firmware/avr/pins.h says, pin for pin."""

from __future__ import annotations

import subprocess
import sys

from scanner.app.firmware_wire import FIRMWARE

PINMAP = FIRMWARE.parent / "hardware" / "PINMAP.md"


def test_pinmap_table_matches_the_firmware_pin_header() -> None:
    result = subprocess.run([sys.executable, str(FIRMWARE / "tools" / "pinmap.py"), "--check",
                             str(PINMAP)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_firmware_signal_appears_once_in_the_pinmap() -> None:
    header = (FIRMWARE / "avr" / "pins.h").read_text(encoding="utf-8")
    text = PINMAP.read_text(encoding="utf-8")
    signals = ["ESTOP", "DOOR", "PASS", "STATION", "HOPPER", "HOME", "BEAM_N", "BEAM_E",
               "BEAM_S", "BEAM_W", "FEED", "EXIT", "STEP", "DIR", "STEPPER_EN", "LIGHT"]
    for signal in signals:
        assert f"X({signal}," in header
        assert text.count(f"| {signal} |") == 1, signal


def test_no_nano_pin_is_used_twice() -> None:
    text = PINMAP.read_text(encoding="utf-8")
    table = text.split("pinmap:begin", 1)[1].split("pinmap:end", 1)[0]
    pins = [line.split("|")[1].strip() for line in table.splitlines()[3:] if line.startswith("|")]
    assert len(pins) == len(set(pins)) == 16
