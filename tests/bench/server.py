"""Server throughput against a trivial route on the same server (``bin/bench-server``): gunicorn as ``make start``
runs it (2 workers × 4 threads, nothing in front), ApacheBench on loopback, on SQLite and on PostgreSQL with Redis.

For each store, every case is measured in each round (interleaved, so that a slow moment of the machine falls on all
alike) and the median of the rounds is reported with its ratio to the trivial route's (a 404: the whole middleware,
no view). Cases: the embed page and the catalogue's reads as a first-time viewer gets them (the shared responses of
app/http/shared.py), a returning viewer's page (private: the title's snapshot and one query), and the same reads with
sharing off (``SHARED_CACHE_SECONDS=0``: each made anew; the page from the snapshot).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from deploy.production import ensure_database, free_port  # noqa: E402

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/player_bench"
REDIS = "redis://127.0.0.1:6379/4"


def ab(url: str, headers: dict[str, str], requests: int, concurrency: int, keepalive: bool) -> float:
    command = ["ab", "-q", "-c", str(concurrency), "-n", str(requests), "-H", "Accept-Encoding: br, gzip"]
    command += ["-k"] if keepalive else []
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    failed = int(re.search(r"Failed requests:\s+(\d+)", out).group(1))  # type: ignore[union-attr]
    if failed:
        raise RuntimeError(f"{failed} failed requests on {url}")
    return float(re.search(r"Requests per second:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]


class Server:
    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        flask = str(ROOT / ".venv" / "bin" / "flask")
        full = {**os.environ, "FLASK_APP": "wsgi.py", **env}
        subprocess.run([flask, "db", "upgrade"], cwd=ROOT, env=full, check=True, capture_output=True)
        subprocess.run([flask, "demo", "seed"], cwd=ROOT, env=full, check=True, capture_output=True)
        self.process = subprocess.Popen(
            [str(ROOT / ".venv" / "bin" / "gunicorn"), "--bind", f"127.0.0.1:{self.port}", "--workers", "2",
             "--threads", "4", "wsgi:app"], cwd=ROOT, env=full, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not start")

    def identity(self) -> str:
        request = urllib.request.Request(  # noqa: S310 - loopback
            f"{self.base}/session-context", data=b'{"fingerprint": "bench-device-0001"}',
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310 - loopback
            return str(json.loads(response.read())["sessionContext"])

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=20)


def measure(env: dict[str, str], rounds: int, requests: int, concurrency: int, keepalive: bool) -> dict[str, Any]:
    shared, cold = Server(env), Server({**env, "SHARED_CACHE_SECONDS": "0"})
    try:
        viewer = shared.identity()
        cases = {
            "trivial (404)": (shared, "/nothing-here", {}),
            "page": (shared, "/?movie_id=2", {}),
            "page, returning viewer": (shared, "/?movie_id=2", {"Cookie": f"device_fp={viewer}"}),
            "GET /contents/1": (shared, "/contents/1", {}),
            "GET /episodes?content-id=2": (shared, "/episodes?content-id=2", {}),
            "trivial (404), sharing off": (cold, "/nothing-here", {}),
            "page, sharing off": (cold, "/?movie_id=2", {}),
            "GET /contents/1, sharing off": (cold, "/contents/1", {}),
            "GET /episodes?content-id=2, sharing off": (cold, "/episodes?content-id=2", {}),
        }
        for server, path, headers in cases.values():
            ab(server.base + path, headers, 300, concurrency, keepalive)  # warm
        runs: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(rounds):
            for name, (server, path, headers) in cases.items():
                runs[name].append(ab(server.base + path, headers, requests, concurrency, keepalive))
    finally:
        shared.stop()
        cold.stop()
    medians = {name: statistics.median(values) for name, values in runs.items()}
    result = {}
    for name, median in medians.items():
        baseline = medians["trivial (404), sharing off" if "sharing off" in name else "trivial (404)"]
        result[name] = {"rps": round(median), "ratio": round(median / baseline, 2),
                        "rounds": [round(v) for v in runs[name]]}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--keepalive", action="store_true", help="ab -k (the issue's figures are without)")
    args = parser.parse_args()
    ensure_database(POSTGRES)
    stores = {
        "SQLite": {"DATABASE_URL": f"sqlite:///{ROOT / 'instance' / 'bench.db'}", "REDIS_URL": ""},
        "PostgreSQL + Redis": {"DATABASE_URL": POSTGRES, "REDIS_URL": REDIS},
    }
    report = {name: measure(env, args.rounds, args.requests, args.concurrency, args.keepalive)
              for name, env in stores.items()}
    print(f"\nab -c {args.concurrency} -n {args.requests}{' -k' if args.keepalive else ''}, "
          f"medians of {args.rounds} rounds; ratio: to the trivial route of the same server")
    for store, cases in report.items():
        print(f"\n{store}")
        for name, values in cases.items():
            print(f"  {name:42} {values['rps']:7} req/s  {values['ratio']:5.2f}×   {values['rounds']}")
    out = ROOT / "instance" / "bench" / "server.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
