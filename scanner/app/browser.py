"""Running the real parts from tests and benches: `tablescan serve` and Debian's Chromium."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps dialling out, and this machine's
# closed network refuses it; --no-sandbox because CI runs as root.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]
SERVING = re.compile(r"serving (http://127\.0\.0\.1:\d+/)")


@dataclass
class Server:
    url: str
    pin: str
    db: Path
    process: subprocess.Popen


@contextmanager
def running_server(tmp: Path, *args: str, pin: str = "1357") -> Iterator[Server]:
    """Start `tablescan serve` on a free port of 127.0.0.1 and wait until it listens."""
    db = tmp / "table.sqlite"
    log = (tmp / "serve.log").open("w+")
    process = subprocess.Popen(
        [sys.executable, "-m", "scanner", "serve", "--port", "0", "--db", str(db),
         "--pin", pin, *args],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        url = _wait_for_url(tmp / "serve.log", process)
        yield Server(url, pin, db, process)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def _wait_for_url(log_path: Path, process: subprocess.Popen, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = SERVING.search(log_path.read_text())
        if match:
            return match.group(1)
        if process.poll() is not None:
            raise RuntimeError(f"tablescan serve exited early:\n{log_path.read_text()}")
        time.sleep(0.05)
    raise RuntimeError(f"tablescan serve did not start:\n{log_path.read_text()}")


def chromium_path() -> str:
    path = shutil.which("chromium") or CHROMIUM
    if not Path(path).exists():
        raise RuntimeError("Debian's chromium is not installed: run bash .ci/run, which "
                           "installs it with apt-get")
    return path
