"""Load and faults against the production shape (deploy/production.py), on loopback, in about three minutes:
``bin/load-and-fault``. Prints a report and writes it to instance/production/load-and-fault.json.

1. Throughput (ApacheBench, keep-alive, 32 concurrent, medians of rounds): a 404 (the application's middleware, no
   view), the embed page and ``GET /contents/{id}`` and ``/episodes`` from nginx's cache (first-time viewers), past
   nginx (a caller with X-Session-Context, which nginx passes by: the application's own shared copy answers), and
   cold: a returning viewer's page (private: the title's snapshot and one query) and a viewer's own read (the last
   episode watched: the database every time). ``bin/bench-server`` compares the application with a trivial route.
2. Faults: PostgreSQL and Redis each gone (connections refused) and black-holed (accepted, never answered) for a few
   seconds, then back. Throughout, probes ask for a kept page, a returning viewer's page, a kept read, a viewer's own
   read and a progress save (both need the database): each answer's status and time, and how long after the store
   is back a progress save succeeds twelve times running (every worker past its breaker).
3. Slow clients: 200 idle connections and 20 sending one header line every few seconds, held open against nginx,
   while probes ask for the page and the API; then the same against gunicorn alone, for comparison.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.production import running  # noqa: E402

ROUNDS = 3
FAULT_SECONDS = 6
# All of this load comes from one address and a handful of viewers, which the production limits (60 progress calls a
# minute per viewer, 600 per address) would rightly refuse: raised for this run only, so that what is measured is the
# service and not its limits (tests/api/test_rate_limits.py proves those).
LOAD_SETTINGS = {"RATE_LIMIT_VIEWER": "1000000 per minute", "RATE_LIMIT_IP": "1000000 per minute",
                 "RATE_LIMIT_SESSION_CONTEXT": "10000 per minute"}


def ab(url: str, headers: dict[str, str], requests: int = 4000, concurrency: int = 32) -> dict[str, float]:
    command = ["ab", "-q", "-k", "-c", str(concurrency), "-n", str(requests), "-H", "Accept-Encoding: br, gzip"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    number = lambda pattern: float(re.search(pattern, out).group(1)) if re.search(pattern, out) else 0.0  # noqa: E731
    return {"rps": number(r"Requests per second:\s+([\d.]+)"), "p50": number(r"\n\s+50%\s+(\d+)"),
            "p99": number(r"\n\s+99%\s+(\d+)"), "failed": number(r"Failed requests:\s+(\d+)"),
            "non2xx": number(r"Non-2xx responses:\s+(\d+)")}


def median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def fetch(url: str, headers: dict[str, str] | None = None, data: bytes | None = None,
          timeout: float = 5) -> tuple[int, float]:
    started = time.monotonic()
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    except OSError:
        status = 0  # no answer in time, or the connection failed
    return status, time.monotonic() - started


def identity(base: str) -> str:
    request = urllib.request.Request(f"{base}/session-context", data=b'{"fingerprint": "loadtest-device-0001"}',
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return str(json.loads(response.read())["sessionContext"])


def throughput(base: str) -> dict[str, Any]:
    viewer = identity(base)
    saved, _ = fetch(f"{base}/contents/2/episodes/3/time-progress",
                     {"X-Session-Context": viewer, "Content-Type": "application/json"}, b'{"time": 5}')
    if saved != 204:
        raise RuntimeError(f"a progress save answered {saved}")  # the viewer's last watched episode must be one
    cases = {
        "a 404 (the application, no view)": (f"{base}/nothing-here", {}),
        "page, nginx's cache": (f"{base}/?movie_id=2", {}),
        "page, returning viewer (cold)": (f"{base}/?movie_id=2", {"Cookie": f"device_fp={viewer}"}),
        "GET /contents/1, nginx's cache": (f"{base}/contents/1", {}),
        "GET /contents/1, past nginx": (f"{base}/contents/1", {"X-Session-Context": viewer}),
        "GET /episodes, nginx's cache": (f"{base}/episodes?content-id=2", {}),
        "GET /episodes, past nginx": (f"{base}/episodes?content-id=2", {"X-Session-Context": viewer}),
        "last watched (database, cold)": (f"{base}/contents/2/episodes/watched/last", {"X-Session-Context": viewer}),
    }
    for url, headers in cases.values():
        ab(url, headers, requests=300)  # warm: connections, caches, the workers' first renders
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in cases}
    for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine falls on every case alike
        for name, (url, headers) in cases.items():
            runs[name].append(ab(url, headers))
    return {name: median_of(values) for name, values in runs.items()}


class Probes:
    """Asks, in a loop, for what a viewer asks for; keeps each answer's status and time per kind."""

    def __init__(self, base: str, viewer: str) -> None:
        self.base = base
        self.kinds = {
            "page, kept": lambda: fetch(f"{base}/?movie_id=1"),
            "page, returning viewer": lambda: fetch(f"{base}/?movie_id=1", {"Cookie": f"device_fp={viewer}"}),
            "read, kept": lambda: fetch(f"{base}/contents/1"),
            "viewer's read (database)": lambda: fetch(f"{base}/contents/2/episodes/watched/last",
                                                      {"X-Session-Context": viewer}),
            "progress save": lambda: fetch(f"{base}/contents/2/episodes/3/time-progress",
                                           {"X-Session-Context": viewer, "Content-Type": "application/json"},
                                           b'{"time": 5}'),
        }
        self.answers: dict[str, list[tuple[int, float]]] = {kind: [] for kind in self.kinds}

    def round(self) -> None:
        with ThreadPoolExecutor(len(self.kinds)) as pool:
            for kind, answer in zip(self.kinds, pool.map(lambda call: call(), self.kinds.values()), strict=True):
                self.answers[kind].append(answer)

    def report(self) -> dict[str, Any]:
        return {kind: {"statuses": dict(Counter(str(s) for s, _ in answers)),
                       "max_s": round(max(t for _, t in answers), 3),
                       "p50_s": round(statistics.median(t for _, t in answers), 3)}
                for kind, answers in self.answers.items() if answers}


def fault(base: str, relay: Any, mode: str) -> dict[str, Any]:
    probes = Probes(base, identity(base))
    for _ in range(2):
        probes.round()  # before: everything answers, the kept ones are kept
    probes.answers = {kind: [] for kind in probes.kinds}
    relay.set(mode)
    deadline = time.monotonic() + FAULT_SECONDS
    while time.monotonic() < deadline:
        probes.round()
        time.sleep(0.2)  # a few viewers' worth, well inside the rate limits
    during = probes.report()
    relay.set("through")
    return {"during": during, "recovered_after_s": recovered_after(base)}


def recovered_after(base: str, in_a_row: int = 12) -> float | None:
    """Seconds until a progress save (it needs the database) succeeds ``in_a_row`` times running: every worker
    serves again, none still behind its breaker."""
    viewer, back, streak = identity(base), time.monotonic(), 0
    while time.monotonic() - back < 30:
        status, _ = fetch(f"{base}/contents/2/episodes/4/time-progress",
                          {"X-Session-Context": viewer, "Content-Type": "application/json"}, b'{"time": 7}')
        streak = streak + 1 if status == 204 else 0
        if streak == in_a_row:
            return round(time.monotonic() - back, 2)
        time.sleep(0.1)
    return None


def hold_slow_clients(host: str, port: int, stop: threading.Event, idle: int = 200,
                      slow: int = 20) -> list[socket.socket]:
    sockets = []
    for _ in range(idle):
        with contextlib.suppress(OSError):
            sockets.append(socket.create_connection((host, port), timeout=2))
    slow_ones = []
    for _ in range(slow):
        with contextlib.suppress(OSError):
            connection = socket.create_connection((host, port), timeout=2)
            connection.sendall(b"GET /?movie_id=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow_ones.append(connection)

    def drip() -> None:
        while not stop.wait(3):
            for connection in slow_ones:
                with contextlib.suppress(OSError):
                    connection.sendall(b"X-Slow: 1\r\n")

    threading.Thread(target=drip, daemon=True).start()
    return sockets + slow_ones


def slow_clients(base: str, label: str) -> dict[str, Any]:
    host, port = base.removeprefix("http://").split(":")
    stop = threading.Event()
    held = hold_slow_clients(host, int(port), stop)
    time.sleep(1)
    answers: dict[str, list[tuple[int, float]]] = {"page": [], "api": []}
    for _ in range(10):
        answers["page"].append(fetch(f"{base}/?movie_id=1", timeout=3))
        answers["api"].append(fetch(f"{base}/contents/1", timeout=3))
        time.sleep(0.3)
    stop.set()
    for connection in held:
        connection.close()
    return {"held": len(held), "where": label, **{
        kind: {"statuses": dict(Counter(str(s) for s, _ in values)), "max_s": round(max(t for _, t in values), 3)}
        for kind, values in answers.items()}}


def print_report(report: dict[str, Any]) -> None:
    print("\n== Throughput (ab -k -c 32, medians of", ROUNDS, "rounds) ==")
    print(f"{'case':36} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'errors':>7}")
    for name, values in report["throughput"].items():
        errors = values["failed"] + (values["non2xx"] if "404" not in name else 0)
        print(f"{name:36} {values['rps']:8.0f} {values['p50']:7.0f} {values['p99']:7.0f} {errors:7.0f}")
    for name, outcome in report["faults"].items():
        print(f"\n== {name} for {FAULT_SECONDS} s (recovered {outcome['recovered_after_s']} s after it came back) ==")
        for kind, values in outcome["during"].items():
            print(f"  {kind:26} {json.dumps(values['statuses']):28} "
                  f"p50 {values['p50_s']:.3f} s  max {values['max_s']:.3f} s")
    for outcome in report["slow_clients"]:
        print(f"\n== {outcome['held']} idle and slow connections held against {outcome['where']} ==")
        for kind in ("page", "api"):
            print(f"  {kind:6} {json.dumps(outcome[kind]['statuses']):20} max {outcome[kind]['max_s']:.3f} s")


def main() -> None:
    report: dict[str, Any] = {}
    started = time.monotonic()
    with running(port=8090, quiet=True, settings=LOAD_SETTINGS) as shape:
        print(f"production shape up: nginx {shape.base}, gunicorn {shape.app}", flush=True)
        report["throughput"] = throughput(shape.base)
        report["faults"] = {}
        for store, relay in (("PostgreSQL", shape.database), ("Redis", shape.redis)):
            for mode in ("gone", "black-hole"):
                print(f"fault: {store} {mode}", flush=True)
                report["faults"][f"{store} {mode}"] = fault(shape.base, relay, mode)
        print("slow clients", flush=True)
        report["slow_clients"] = [slow_clients(shape.base, "nginx (production)"),
                                  slow_clients(shape.app, "gunicorn alone (make start)")]
    report["seconds"] = round(time.monotonic() - started)
    print_report(report)
    out = ROOT / "instance" / "production" / "load-and-fault.json"
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    print(f"\n{report['seconds']} s; the figures are in {out}")


if __name__ == "__main__":
    main()
