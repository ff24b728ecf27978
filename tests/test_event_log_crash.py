"""A dealing process killed with SIGKILL mid-deal resumes at the next card: nothing lost, nothing
logged twice. The processes are real; the kill is a real SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from core_crash_dealer import pack

from scanner.events import CardDelivered, HandStarted
from scanner.log import EventLog

DEALER = Path(__file__).with_name("core_crash_dealer.py")
SEED = 2026


def start_dealer(path: Path, delay: float, durability: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(DEALER), str(path), "board-7", str(SEED),
                             str(delay), durability], stdout=subprocess.PIPE, text=True)


def read_acks(proc: subprocess.Popen[str], stop_after: int | None) -> dict[int, int]:
    """Acknowledged ordinal -> seq, reading until ``stop_after`` acks (or the end)."""
    acks: dict[int, int] = {}
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("ack "):
            _, ordinal, seq = line.split()
            acks[int(ordinal)] = int(seq)
            if stop_after is not None and len(acks) >= stop_after:
                break
    return acks


# "process" durability (synchronous=NORMAL) promises exactly this too: kill -9, not a power cut.
@pytest.mark.parametrize(("killed_after", "durability"),
                         [(1, "power"), (19, "power"), (40, "power"), (19, "process")])
def test_a_deal_killed_mid_deal_resumes_at_the_next_card(tmp_path, killed_after, durability):
    path = tmp_path / "table.sqlite"
    first = start_dealer(path, delay=0.03, durability=durability)
    acked = read_acks(first, stop_after=killed_after)
    os.kill(first.pid, signal.SIGKILL)
    assert first.wait(timeout=30) == -signal.SIGKILL
    first.stdout.close()

    second = start_dealer(path, delay=0, durability=durability)
    resumed = read_acks(second, stop_after=None)
    assert second.wait(timeout=60) == 0
    second.stdout.close()

    with EventLog(path) as log:
        logged = list(log.replay())
    starts = [event for _, event in logged if isinstance(event, HandStarted)]
    cards = [(seq, event) for seq, event in logged if isinstance(event, CardDelivered)]
    assert len(starts) == 1
    assert [event.card for _, event in cards] == pack(SEED)
    seq_of_card = {ordinal: seq for ordinal, (seq, _) in enumerate(cards)}
    for ordinal, seq in acked.items():
        assert seq_of_card[ordinal] == seq, "an acknowledged event moved or was lost"
    # The second process re-sent the last card the first one logged, and got its old seq back.
    first_resent = min(resumed)
    assert resumed[first_resent] == seq_of_card[first_resent]
    assert first_resent >= max(acked)
