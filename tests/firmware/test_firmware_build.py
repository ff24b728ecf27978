"""The AVR image builds and fits the issue's budget: 28 KiB of flash, 1.5 KiB of RAM."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

FLASH_LIMIT = 28 * 1024
RAM_LIMIT = 1536


def avr_size(elf: Path) -> tuple[int, int]:
    out = subprocess.run(["avr-size", "--format=berkeley", str(elf)], capture_output=True,
                         text=True, check=True).stdout
    text, data, bss = (int(v) for v in out.splitlines()[1].split()[:3])
    return text + data, data + bss


def test_avr_image_fits_28_kib_of_flash(firmware_build: Path) -> None:
    flash, _ = avr_size(firmware_build / "shoe.elf")
    assert 0 < flash <= FLASH_LIMIT


def test_avr_image_fits_1_5_kib_of_ram(firmware_build: Path) -> None:
    _, ram = avr_size(firmware_build / "shoe.elf")
    assert 0 < ram <= RAM_LIMIT


def test_build_prints_flash_and_ram_usage(firmware_build: Path) -> None:
    out = subprocess.run(["make", "-C", str(firmware_build.parent), "all"], capture_output=True,
                         text=True, check=True).stdout
    assert re.search(r"flash \d+ / 28672 bytes, RAM \d+ / 1536 bytes", out)


def test_hex_image_for_avrdude_is_produced(firmware_build: Path) -> None:
    first = (firmware_build / "shoe.hex").read_text().splitlines()[0]
    assert first.startswith(":")
