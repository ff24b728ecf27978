"""Starting a simulated shoe: the Python simulator, the host-native firmware core, or the real
AVR image under simavr. Each prints ``{"serial": …, "control": …}`` on its first line and serves
until stopped; the C targets are built with ``make -C firmware`` first, so a fresh clone works.
"""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
START_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class TargetSpec:
    """How to build and start one simulated shoe."""

    name: str
    make_goal: str | None
    command: tuple[str, ...]


TARGETS: dict[str, TargetSpec] = {
    "python": TargetSpec("python", None, (sys.executable, "-m",
                                                 "scanner.app.simulator_process")),
    "native": TargetSpec("native", "native", (str(FIRMWARE_DIR / "build" / "shoe-native"),)),
    "simavr": TargetSpec("simavr", "sim", (str(FIRMWARE_DIR / "build" / "shoe-sim"),)),
}


class TargetError(RuntimeError):
    """A simulated shoe that could not be built or started; the message says which and why."""


def build(spec: TargetSpec) -> None:
    """Run ``make -C firmware <goal>``; raise TargetError with make's output on failure."""
    if spec.make_goal is None:
        return
    result = subprocess.run(["make", "-C", str(FIRMWARE_DIR), spec.make_goal],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise TargetError(f"make -C {FIRMWARE_DIR} {spec.make_goal} failed "
                          f"(exit {result.returncode}):\n{result.stdout}{result.stderr}")


@dataclass
class RunningTarget:
    """A started simulated shoe: its serial port (pyserial URL or pty path) and control address."""

    name: str
    serial: str
    control: str
    process: subprocess.Popen[str]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()

    def __enter__(self) -> RunningTarget:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start(name: str, deck: Path, extra: tuple[str, ...] = ()) -> RunningTarget:
    """Build (if needed) and start target ``name`` with ``deck`` loaded in its hopper."""
    spec = TARGETS[name]
    build(spec)
    # stderr goes to a file, not a pipe nobody drains, and is shown if the start fails.
    with tempfile.TemporaryFile(mode="w+") as stderr:
        process = subprocess.Popen([*spec.command, "--deck", str(deck.resolve()), *extra],
                                   stdout=subprocess.PIPE, stderr=stderr, text=True,
                                   cwd=FIRMWARE_DIR.parent)
        try:
            line = _first_line(process)
            announced = json.loads(line)
            return RunningTarget(name, str(announced["serial"]), str(announced["control"]),
                                 process)
        except (ValueError, KeyError, TypeError, TargetError) as exc:
            process.kill()
            process.wait()
            stderr.seek(0)
            raise TargetError(f"{name} shoe did not announce its ports ({exc}); "
                              f"stderr: {stderr.read()[-2000:]}") from None


def _first_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(timeout=START_TIMEOUT_S):
            raise TargetError(f"{process.args!r} printed nothing within {START_TIMEOUT_S:.0f} s")
    line = process.stdout.readline()
    if not line:
        raise TargetError(f"{process.args!r} exited before announcing its ports")
    return line
