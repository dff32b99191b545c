"""Server throughput against a trivial route on the same server (``bin/bench-server``): gunicorn as ``make start``
runs it (2 workers × 4 threads, nothing in front), ApacheBench on loopback, on SQLite and on PostgreSQL with Redis.

For each store, every case is measured in each round (interleaved, so that a slow moment of the machine falls on all
alike) and the median of the rounds is reported with its ratio to the trivial route's (a 404: the whole middleware,
no view). Cases: the embed page and the catalogue's reads as a first-time viewer gets them (the shared responses of
app/http/shared.py), a returning viewer's page (a device identity that finished the series' first episode: private;
the lookup of the episodes it finished, then the page kept for that history), the same viewer's page of the film (no
lookup: app/player/views.py ``history_matters``), and the same reads with sharing off (``SHARED_CACHE_SECONDS=0``:
each made anew; the page from the snapshot). ``--compare DIR`` adds the trivial route and the pages of another
checkout (the code before a change) to the same rounds, each against its own trivial route.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
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
from tests.bench.serving import machine_line  # noqa: E402

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/player_bench"  # --postgres-url
REDIS = "redis://127.0.0.1:6379/4"  # --redis-url


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
    def __init__(self, env: dict[str, str], root: Path = ROOT) -> None:
        """gunicorn serving the checkout at ``root`` (another one's: ``--compare``)."""
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        flask = str(ROOT / ".venv" / "bin" / "flask")
        full = {**os.environ, "FLASK_APP": "wsgi.py", **env}
        subprocess.run([flask, "db", "upgrade"], cwd=root, env=full, check=True, capture_output=True)
        subprocess.run([flask, "demo", "seed"], cwd=root, env=full, check=True, capture_output=True)
        self.process = subprocess.Popen(
            [str(ROOT / ".venv" / "bin" / "gunicorn"), "--bind", f"127.0.0.1:{self.port}", "--workers", "2",
             "--threads", "4", "wsgi:app"], cwd=root, env=full, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not start")

    def identity(self) -> str:
        """A device identity that finished the series' first episode: its page opens the second (spec §2 rule 3)."""
        request = urllib.request.Request(  # noqa: S310 - loopback
            f"{self.base}/session-context", data=b'{"fingerprint": "bench-device-0001"}',
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310 - loopback
            identity = str(json.loads(response.read())["sessionContext"])
        finished = urllib.request.Request(  # noqa: S310 - loopback
            f"{self.base}/contents/2/episodes/2/completed", data=b"", method="POST",
            headers={"X-Session-Context": identity})
        with urllib.request.urlopen(finished, timeout=5) as response:  # noqa: S310 - loopback
            assert response.status == 204
        return identity

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=20)


def measure(env: dict[str, str], rounds: int, requests: int, concurrency: int, keepalive: bool,
            compare: Path | None = None) -> dict[str, Any]:
    """``compare``: another checkout (the code before a change), whose trivial route and pages are measured in the
    same rounds, on a server of their own, with the same identity (one SECRET_KEY for all)."""
    env = {"SECRET_KEY": secrets.token_urlsafe(32), **env}
    shared, cold = Server(env), Server({**env, "SHARED_CACHE_SECONDS": "0"})
    other = Server(env, compare) if compare else None
    try:
        viewer = shared.identity()
        cases = {
            "trivial (404)": (shared, "/nothing-here", {}),
            "page": (shared, "/?movie_id=2", {}),
            "page, returning viewer": (shared, "/?movie_id=2", {"Cookie": f"device_fp={viewer}"}),
            "film page, returning viewer": (shared, "/?movie_id=1", {"Cookie": f"device_fp={viewer}"}),
            "GET /contents/1": (shared, "/contents/1", {}),
            "GET /episodes?content-id=2": (shared, "/episodes?content-id=2", {}),
            "trivial (404), sharing off": (cold, "/nothing-here", {}),
            "page, sharing off": (cold, "/?movie_id=2", {}),
            "GET /contents/1, sharing off": (cold, "/contents/1", {}),
            "GET /episodes?content-id=2, sharing off": (cold, "/episodes?content-id=2", {}),
        }
        if other:
            cases.update({
                "trivial (404), compared": (other, "/nothing-here", {}),
                "page, compared": (other, "/?movie_id=2", {}),
                "page, returning viewer, compared": (other, "/?movie_id=2", {"Cookie": f"device_fp={viewer}"}),
                "film page, returning viewer, compared": (other, "/?movie_id=1", {"Cookie": f"device_fp={viewer}"}),
            })
        for server, path, headers in cases.values():
            ab(server.base + path, headers, 300, concurrency, keepalive)  # warm
        runs: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(rounds):
            for name, (server, path, headers) in cases.items():
                runs[name].append(ab(server.base + path, headers, requests, concurrency, keepalive))
    finally:
        for running in (shared, cold, other):
            if running:
                running.stop()
    medians = {name: statistics.median(values) for name, values in runs.items()}
    result = {}
    for name, median in medians.items():
        baseline = medians[next((f"trivial (404), {kind}" for kind in ("sharing off", "compared") if kind in name),
                                "trivial (404)")]
        result[name] = {"rps": round(median), "ratio": round(median / baseline, 2),
                        "rounds": [round(v) for v in runs[name]]}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--keepalive", action="store_true", help="ab -k (the issue's figures are without)")
    parser.add_argument("--postgres-url", default=POSTGRES, help="a database of this run's own (made if missing)")
    parser.add_argument("--redis-url", default=REDIS)
    parser.add_argument("--stores", default="sqlite,postgresql", help="which of sqlite,postgresql")
    parser.add_argument("--compare", type=Path, help="another checkout of this repository (the code before a "
                        "change, with its front end built): its pages measured in the same rounds")
    args = parser.parse_args()
    stores = {
        "SQLite": {"DATABASE_URL": f"sqlite:///{ROOT / 'instance' / 'bench.db'}", "REDIS_URL": ""},
        "PostgreSQL + Redis": {"DATABASE_URL": args.postgres_url, "REDIS_URL": args.redis_url},
    }
    chosen = args.stores.split(",")
    stores = {name: env for name, env in stores.items() if name.split()[0].lower() in chosen}
    if "PostgreSQL + Redis" in stores:
        ensure_database(args.postgres_url)
    began, load_before = time.monotonic(), "/".join(f"{x:.1f}" for x in os.getloadavg())
    report = {name: measure(env, args.rounds, args.requests, args.concurrency, args.keepalive, args.compare)
              for name, env in stores.items()}
    print(f"\nab -c {args.concurrency} -n {args.requests}{' -k' if args.keepalive else ''}, "
          f"medians of {args.rounds} rounds; ratio: to the trivial route of the same server")
    for store, cases in report.items():
        print(f"\n{store}")
        for name, values in cases.items():
            print(f"  {name:42} {values['rps']:7} req/s  {values['ratio']:5.2f}×   {values['rounds']}")
    print(f"\nload average at the start {load_before}; {machine_line(time.monotonic() - began)}")
    out = ROOT / "instance" / "bench" / "server.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
