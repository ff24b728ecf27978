"""Many spectators: the operator's page and actions while hundreds of event streams are open.

A real `tablescan serve` process on 127.0.0.1; this process opens the spectators' streams
(reading every frame, as a page does) and, at the same time, times the operator's requests:
the page, /healthz, and an action (next-hand, then undo) through login and CSRF. Each scenario
runs in the same run as the baseline (no spectators), and every figure is printed as a median,
a p95 and a ratio to the baseline's median. The fan-out figure is the time from the action's
reply until the last spectator has its frame.

Target (issue 21): 500 spectators, operator p95 ≤ 100 ms; idle and slow connections shed.
Run: python3 bench/webui_spectators.py [--spectators 500] [--samples 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PIN = "2468013579"
SERVING = re.compile(r"serving (http://127\.0\.0\.1:(\d+)/)")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def start_server(folder: Path) -> tuple[subprocess.Popen, int]:
    log = (folder / "serve.log").open("w+")
    process = subprocess.Popen(
        [sys.executable, "-m", "scanner", "serve", "--port", "0", "--db",
         str(folder / "table.sqlite"), "--pin", PIN],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        match = SERVING.search((folder / "serve.log").read_text())
        if match:
            return process, int(match.group(2))
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise RuntimeError((folder / "serve.log").read_text())


async def request(port: int, raw: bytes) -> tuple[bytes, bytes]:
    """One request on a fresh connection; (head, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    head = await reader.readuntil(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
    body = await reader.readexactly(length)
    writer.close()
    return head, body


class Operator:
    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""
        self.token = ""

    async def log_in(self) -> None:
        head, body = await request(self.port, self._get("/"))
        self._keep_cookie(head)
        self.token = re.search(rb'name="csrf-token" content="([^"]+)"', body).group(1).decode()
        head, body = await request(self.port, self._post("/login", {"pin": PIN}))
        self._keep_cookie(head)
        self.token = json.loads(body)["csrf"]

    def _keep_cookie(self, head: bytes) -> None:
        match = re.search(rb"(?i)set-cookie: *([^;\r\n]+)", head)
        if match:
            self.cookie = match.group(1).decode()

    def _get(self, path: str) -> bytes:
        return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {self.cookie}\r\n"
                "Connection: close\r\n\r\n").encode()

    def _post(self, path: str, body: dict) -> bytes:
        data = json.dumps(body).encode()
        return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {self.cookie}\r\n"
                f"X-CSRF-Token: {self.token}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n").encode() + data

    async def timed(self, raw: bytes) -> float:
        start = time.perf_counter()
        head, _ = await request(self.port, raw)
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.decode(errors="replace"))
        return (time.perf_counter() - start) * 1000


class Spectator:
    """An open stream that reads every frame and notes when each version arrived."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.task: asyncio.Task | None = None
        self.ready = asyncio.Event()

    async def run(self, port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.decode(errors="replace"))
        try:
            while True:
                frame = await reader.readuntil(b"\n\n")
                match = re.match(rb"id: (\d+)\n", frame)
                if match:
                    self.seen[int(match.group(1))] = time.perf_counter()
                    self.ready.set()
        finally:
            writer.close()


async def scenario(port: int, spectators: int, idle: int, half: int, samples: int,
                   ) -> dict[str, list[float]]:
    watchers = [Spectator() for _ in range(spectators)]
    for watcher in watchers:
        watcher.task = asyncio.ensure_future(watcher.run(port))
        await asyncio.sleep(0)
    await asyncio.wait_for(asyncio.gather(*(w.ready.wait() for w in watchers)), 60)
    strays = []
    for i in range(idle + half):
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        if i >= idle:
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        strays.append(writer)
    operator = Operator(port)
    await operator.log_in()
    times: dict[str, list[float]] = {"GET /": [], "GET /healthz": [], "POST /act": [],
                                     "fan-out": []}
    for i in range(samples):
        times["GET /"].append(await operator.timed(operator._get("/")))
        times["GET /healthz"].append(await operator.timed(operator._get("/healthz")))
        action = "next-hand" if i % 2 == 0 else "undo"
        start = time.perf_counter()
        _head, body = await request(port, operator._post(f"/act/{action}", {}))
        times["POST /act"].append((time.perf_counter() - start) * 1000)
        version = json.loads(body)["version"]
        replied = time.perf_counter()
        while watchers and not all(version in w.seen for w in watchers):
            await asyncio.sleep(0.002)
        if watchers:
            last = max(w.seen[version] for w in watchers)
            times["fan-out"].append(max(0.0, (last - replied) * 1000))
        await asyncio.sleep(0.02)
    for watcher in watchers:
        watcher.task.cancel()
    for writer in strays:
        writer.close()
    await asyncio.sleep(0.5)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--idle", type=int, default=300, help="idle TCP connections")
    parser.add_argument("--half", type=int, default=150, help="half-sent request headers")
    parser.add_argument("--samples", type=int, default=60)
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    runs = [("baseline: no spectators", 0, 0, 0),
            (f"{args.spectators} spectators", args.spectators, 0, 0),
            (f"{args.spectators} spectators + {args.idle} idle + {args.half} half-sent",
             args.spectators, args.idle, args.half)]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        process, port = start_server(Path(tmp))
        try:
            for name, spectators, idle, half in runs:
                results[name] = asyncio.run(
                    scenario(port, spectators, idle, half, args.samples))
        finally:
            process.terminate()
            process.wait(timeout=10)
    base = results[runs[0][0]]
    print(f"operator requests on a fresh connection each, {args.samples} samples per row "
          "(ms; ratio = median / baseline median)")
    print(f"{'scenario':<52}{'request':<15}{'median':>8}{'p95':>8}{'ratio':>7}")
    for name, times in results.items():
        for what, values in times.items():
            if not values:
                continue
            ratio = (statistics.median(values) / statistics.median(base[what])
                     if base.get(what) else float("nan"))
            print(f"{name:<52}{what:<15}{statistics.median(values):>8.1f}"
                  f"{percentile(values, 0.95):>8.1f}{ratio:>7.2f}")
    worst = max(percentile(times[what], 0.95) for times in results.values()
                for what in ("GET /", "GET /healthz", "POST /act"))
    print(f"worst operator p95: {worst:.1f} ms — target ≤ 100 ms: "
          f"{'met' if worst <= 100 else 'NOT met'}")


if __name__ == "__main__":
    main()
