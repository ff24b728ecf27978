"""Wrong PINs are slowed down per client and overall, so guessing the PIN is hopeless.

Each client (its address) gets a few free tries; after that every wrong PIN doubles the wait
before the next try, and ten wrong PINs lock that client out for a quarter of an hour. However
many clients guess together, thirty wrong PINs in ten minutes lock PIN entry for everyone for
a quarter of an hour. A lockout is reported on the console, so the operator learns of it; a
session that is already logged in keeps working. README.md ("Security") has the arithmetic.
"""

from __future__ import annotations

import math
import sys
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from time import monotonic

FREE_TRIES = 3
FIRST_DELAY_S = 1.0
MAX_DELAY_S = 60.0
CLIENT_LOCKOUT_AFTER = 10
OVERALL_LIMIT = 30
OVERALL_WINDOW_S = 600.0
LOCKOUT_S = 900.0
# Clients are forgotten once they have been quiet this long, so the table cannot grow without
# bound under a spray of addresses.
FORGET_AFTER_S = LOCKOUT_S
MAX_CLIENTS = 10_000


def report_on_console(message: str) -> None:
    print(f"tablescan: {message}", file=sys.stderr, flush=True)


@dataclass
class _Client:
    wrong: int = 0
    last: float = 0.0
    next_try: float = 0.0


@dataclass
class PinThrottle:
    """Counts wrong PINs; ``wait(client)`` says how long that client must wait to try again."""

    clock: Callable[[], float] = monotonic
    report: Callable[[str], None] = report_on_console
    _clients: dict[str, _Client] = field(default_factory=dict)
    _recent: deque[float] = field(default_factory=deque)
    _locked_until: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self, client: str) -> float:
        """Seconds before ``client`` may try a PIN; 0 when it may try now."""
        now = self.clock()
        with self._lock:
            entry = self._clients.get(client)
            own = entry.next_try - now if entry else 0.0
            return max(0.0, own, self._locked_until - now)

    def failed(self, client: str) -> None:
        now = self.clock()
        with self._lock:
            self._forget_quiet(now)
            entry = self._clients.setdefault(client, _Client())
            entry.wrong += 1
            entry.last = now
            if entry.wrong >= CLIENT_LOCKOUT_AFTER:
                entry.next_try = now + LOCKOUT_S
                if entry.wrong == CLIENT_LOCKOUT_AFTER:
                    self.report(f"PIN entry locked for {client} for {LOCKOUT_S / 60:.0f} minutes "
                                f"after {entry.wrong} wrong PINs")
            elif entry.wrong >= FREE_TRIES:
                delay = FIRST_DELAY_S * 2 ** (entry.wrong - FREE_TRIES)
                entry.next_try = now + min(delay, MAX_DELAY_S)
            self._recent.append(now)
            while self._recent and self._recent[0] <= now - OVERALL_WINDOW_S:
                self._recent.popleft()
            if len(self._recent) >= OVERALL_LIMIT and self._locked_until <= now:
                self._locked_until = now + LOCKOUT_S
                self._recent.clear()
                self.report(f"PIN entry locked for everyone for {LOCKOUT_S / 60:.0f} minutes: "
                            f"{OVERALL_LIMIT} wrong PINs within {OVERALL_WINDOW_S / 60:.0f} "
                            "minutes. Sessions already logged in keep working; restart with a "
                            "new --pin to end the lockout at once")

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._clients.pop(client, None)

    def _forget_quiet(self, now: float) -> None:
        if len(self._clients) < MAX_CLIENTS:
            return
        for name in [n for n, c in self._clients.items()
                     if c.last < now - FORGET_AFTER_S and c.next_try <= now]:
            del self._clients[name]


def guesses_per_day() -> int:
    """At most this many wrong PINs a day get through, however many clients guess."""
    return math.floor(OVERALL_LIMIT * 86_400 / OVERALL_WINDOW_S)
