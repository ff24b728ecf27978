"""A part of the app that runs in a daemon thread of its own until it is stopped."""

from __future__ import annotations

import threading
from typing import Self


class Worker:
    """A daemon thread that runs ``_run`` once, and ``_stop``, the flag ``_run`` watches to
    end early. The page outlives a worker: ``stop`` waits for it a while, then lets it go."""

    thread_name = "tablescan-worker"

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        raise NotImplementedError
