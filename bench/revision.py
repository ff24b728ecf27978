"""An earlier revision's ``scanner`` package beside the working tree's, to time both in one
process.

On a shared machine whose speed drifts from minute to minute, two timings taken minutes
apart compare the minutes as much as the code. Taken turn about, frame by frame, in one
process, the old and the new code meet the same machine: ``turn_about`` reports each one's
median and the median of their per-item ratios.
"""

from __future__ import annotations

import importlib
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parent.parent


def scanner_at(revision: str, module: str) -> ModuleType:
    """``scanner.<module>`` as it was at ``revision`` (anything git names a commit by), from
    a copy of that revision's package imported as ``scanner_<sha>``. Its modules import one
    another relatively, so the copy stands on its own."""
    sha = _git("rev-parse", "--short", f"{revision}^{{commit}}").decode().strip()
    name = f"scanner_{sha}"
    if name not in sys.modules:
        root = Path(tempfile.mkdtemp(prefix="tablescan-revision-"))
        archive = _git("archive", "--format=tar", sha, "scanner")
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(root, filter="data")
        (root / "scanner").rename(root / name)
        sys.path.insert(0, str(root))
    return importlib.import_module(f"{name}.{module}")


def _git(*args: str) -> bytes:
    try:
        return subprocess.run(["git", "-C", str(REPO), *args], check=True,
                              capture_output=True).stdout
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"git {' '.join(args)}: {error.stderr.decode().strip()}") from None


@dataclass(frozen=True)
class TurnAbout:
    old_ms: float  # median CPU ms per item
    new_ms: float
    ratio: float  # median over items of new / old

    def line(self, label: str) -> str:
        return (f"  {label:26s} old {self.old_ms:8.2f} ms   new {self.new_ms:8.2f} ms   "
                f"new/old {self.ratio:.3f}")


def turn_about(old: Callable[[object], object], new: Callable[[object], object],
               items: Sequence[object], rounds: int) -> TurnAbout:
    """Each item read by ``old`` then ``new``, ``rounds`` times over; CPU time, since
    this process's CPU time is what a shared machine inflates least."""
    old_ms, new_ms = [], []
    for _ in range(rounds):
        for item in items:
            old_ms.append(_cpu_ms(old, item))
            new_ms.append(_cpu_ms(new, item))
    return TurnAbout(statistics.median(old_ms), statistics.median(new_ms),
                     statistics.median(n / o for n, o in zip(new_ms, old_ms, strict=True)))


def _cpu_ms(action: Callable[[object], object], item: object) -> float:
    start = time.process_time()
    action(item)
    return 1000 * (time.process_time() - start)
