"""`tablescan shoe-sim --firmware` as a user runs it: from their own directory."""

from __future__ import annotations

import json
import subprocess
import sys


def test_shoe_sim_firmware_takes_a_deck_path_relative_to_the_callers_directory(tmp_path):
    (tmp_path / "deck.txt").write_text("AS\nKD\n2C down\n", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "scanner", "shoe-sim", "--firmware", "--deck", "deck.txt"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
    finally:
        process.terminate()
        _, err = process.communicate(timeout=20)
    assert line, err
    announced = json.loads(line)
    assert announced["shoe"].startswith("/dev/pts/")
    assert announced["camera"].startswith("sim:127.0.0.1:")
