"""Accounts API benchmark (issue 18, ``make bench-auth``): what signing in costs against what the service's other
requests cost, on the server as production runs it.

Why: a sign-in verifies an argon2id hash (app/services/passwords.py: 19 MiB, 2 passes), which is CPU time a worker
spends on nothing else; a token refresh and an authenticated read only check signatures and a few rows. This puts the
four side by side with an anonymous catalogue read (a cached one: the baseline), and with the hash alone, timed in
this process, which is the CPU a sign-in costs on one core: sign-ins per second per core ≈ 1 / that time.

How: gunicorn with deploy/gunicorn.conf.py (gthread, its threads, timeouts and limits) serving ``wsgi:app`` on a free
127.0.0.1 port, as many workers as cores, on a throwaway SQLite database in a temp dir (migrated, demo seed), no Redis,
the auth rate limits set out of the way. No nginx in front: the figures are the application's. One client sends
sequential requests on one keep-alive connection; each round runs every measure once, in the same order (interleaved,
so machine noise hits all alike), after warm-up requests. Every answer must be a 200: anything else stops the run.
Printed and written to instance/bench/auth-<start time>.txt; ``--help`` lists the options.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import secrets
import signal
import socket
import statistics
import string
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app.config import INSTANCE_DIR, PROJECT_ROOT
from app.services.passwords import hash_password

VENV = PROJECT_ROOT / ".venv" / "bin"
EMAIL, PASSWORD = "viewer@example.com", "demo-password"  # app/demo/accounts.py
HUGE_LIMIT = "1000000 per minute"


class BenchError(Exception):
    """The measurement could not run (an answer that is not a 200, a server that never came up)."""


class Client:
    """Sequential requests on one keep-alive connection (reopened once if the server closed it while idle)."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None,
             token: str | None = None) -> tuple[float, Any]:
        """Seconds from sending to the whole answer read, and its JSON body; raises BenchError unless it is a 200."""
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        payload = json.dumps(body) if body is not None else None
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body=payload, headers=headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.connection.close()  # closed while idle (gunicorn's keepalive): once more on a new one, timed afresh
            started = time.perf_counter()
            self.connection.request(method, path, body=payload, headers=headers)
            response = self.connection.getresponse()
        raw = response.read()
        elapsed = time.perf_counter() - started
        if response.status != 200:
            raise BenchError(f"{method} {path} answered {response.status}, not 200: "
                             f"{raw[:300].decode(errors='replace')}")
        return elapsed, json.loads(raw)


class Server:
    """gunicorn -c deploy/gunicorn.conf.py wsgi:app on a migrated, seeded throwaway SQLite database."""

    def __init__(self, folder: Path, workers: int) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.log_path = folder / "gunicorn.log"
        self.env = {
            **os.environ, "ENV": "development", "DATABASE_URL": f"sqlite:///{folder / 'bench.db'}", "REDIS_URL": "",
            "SECRET_KEY": "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(48)),
            "RATE_LIMIT_AUTH_IP": HUGE_LIMIT, "RATE_LIMIT_AUTH_ACCOUNT": HUGE_LIMIT,
            "MAIL_OUTBOX": str(folder / "outbox"), "BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": str(workers), "PYTHONUNBUFFERED": "1",
        }
        for command in (["db", "upgrade"], ["demo", "seed"]):
            done = subprocess.run([str(VENV / "flask"), "--app", "wsgi", *command], cwd=PROJECT_ROOT, env=self.env,
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise BenchError(f"flask {' '.join(command)} failed:\n{done.stdout}{done.stderr}")
        self.log = self.log_path.open("w")
        self.process = subprocess.Popen(
            [str(VENV / "gunicorn"), "-c", str(PROJECT_ROOT / "deploy" / "gunicorn.conf.py"), "wsgi:app"],
            cwd=PROJECT_ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise BenchError(f"gunicorn did not listen within {timeout:.0f} s:\n{self.log_tail()}")

    def log_tail(self) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-20:])

    def stop(self) -> None:
        """SIGTERM to gunicorn's process group (the arbiter and its workers), SIGKILL if it outlasts the wait."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            except ProcessLookupError:
                pass
        self.log.close()


class Measures:
    """The five measures, one request (or hash) per call, each returning its seconds. A sign-in keeps its tokens: the
    round's reads present its access token, and its refresh token starts the round's refresh chain."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.access = self.refresh_token = ""

    def sign_in(self) -> float:
        seconds, body = self.client.call("POST", "/authentication", {"email": EMAIL, "password": PASSWORD})
        self.access, self.refresh_token = body["accessToken"], body["refreshToken"]
        return seconds

    def refresh(self) -> float:
        seconds, body = self.client.call("POST", "/authentication/refresh", {"refreshToken": self.refresh_token})
        self.refresh_token = body["refreshToken"]  # it rotates: the next refresh presents the new one
        return seconds

    def details(self) -> float:
        return self.client.call("GET", "/user/details", token=self.access)[0]

    def catalogue(self) -> float:
        return self.client.call("GET", "/contents/2")[0]

    @staticmethod
    def argon2() -> float:
        started = time.perf_counter()
        hash_password(PASSWORD)
        return time.perf_counter() - started


ROWS = (("sign-in", "POST /authentication"), ("refresh", "POST /authentication/refresh (rotating)"),
        ("details", "GET /user/details (Bearer)"), ("catalogue", "GET /contents/2 (anonymous, cached)"),
        ("argon2", "hash_password, in this process"))


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18] if len(values) > 1 else values[0]


def summarise(rounds: dict[str, list[list[float]]]) -> dict[str, dict[str, float]]:
    """Per measure, in ms: the median over rounds of each round's p50 and p95, and the spread of the round p50s."""
    summary = {}
    for name, per_round in rounds.items():
        p50s = [statistics.median(times) * 1000 for times in per_round]
        summary[name] = {"p50": statistics.median(p50s), "p95": statistics.median([p95(t) * 1000 for t in per_round]),
                         "min": min(p50s), "max": max(p50s)}
    return summary


def render(summary: dict[str, dict[str, float]], args: argparse.Namespace, workers: int, elapsed: float) -> str:
    threads = os.environ.get("GUNICORN_THREADS", "4")  # deploy/gunicorn.conf.py's default
    lines = [f"accounts API: gunicorn -c deploy/gunicorn.conf.py wsgi:app, {workers} workers (= {os.cpu_count()} "
             f"cores) x {threads} threads, SQLite in a temp dir, no Redis, no nginx;\none client, sequential requests "
             f"on one keep-alive connection; {args.rounds} rounds x {args.requests} requests per measure (argon2: "
             f"{args.hashes} hashes) after {args.warmup} warm-ups each, interleaved",
             f"  {'measure':<10}{'what':<42}{'p50 ms':>9}{'p95 ms':>9}   round p50s min-max",
             *(f"  {name:<10}{what:<42}{summary[name]['p50']:>9.2f}{summary[name]['p95']:>9.2f}"
               f"   {summary[name]['min']:.2f}-{summary[name]['max']:.2f}" for name, what in ROWS),
             f"  p50/p95: medians over rounds of each round's; sign-ins per second per core ≈ 1/argon2 ≈ "
             f"{1000 / summary['argon2']['p50']:.1f}",
             f"\n{platform.python_implementation()} {platform.python_version()}, {platform.platform()}; load average "
             f"at the end {'/'.join(f'{x:.1f}' for x in os.getloadavg())} (1/5/15 min; other work skews the "
             f"figures); elapsed {elapsed:.0f} s"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each running every measure once (5)")
    parser.add_argument("--requests", type=int, default=50, help="requests per measure and round (50)")
    parser.add_argument("--hashes", type=int, default=20, help="argon2 hashes per round, in this process (20)")
    parser.add_argument("--warmup", type=int, default=10, help="discarded requests per measure first (10)")
    parser.add_argument("--out", type=Path, default=INSTANCE_DIR / "bench", help="results folder (instance/bench)")
    args = parser.parse_args(argv)
    if min(args.rounds, args.requests, args.hashes) < 1 or args.warmup < 1:
        parser.error("--rounds, --requests, --hashes and --warmup must be at least 1")
    workers = os.cpu_count() or 1
    started = datetime.now(UTC)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-auth-") as folder:
        server: Server | None = None
        try:
            server = Server(Path(folder), workers)
            server.wait_ready()
            print(f"bench-auth: gunicorn on 127.0.0.1:{server.port} with {workers} workers (= cores), "
                  f"database {folder}/bench.db", flush=True)
            measures = Measures(Client(server.port))
            order: dict[str, Callable[[], float]] = {
                "sign-in": measures.sign_in, "refresh": measures.refresh, "details": measures.details,
                "catalogue": measures.catalogue, "argon2": measures.argon2}
            for once in order.values():
                for _ in range(args.warmup):
                    once()
            rounds: dict[str, list[list[float]]] = {name: [] for name in order}
            for index in range(args.rounds):
                for name, once in order.items():
                    rounds[name].append([once() for _ in range(args.hashes if name == "argon2" else args.requests)])
                print(f"[{index + 1}/{args.rounds}] " + ", ".join(
                    f"{name} p50 {statistics.median(rounds[name][-1]) * 1000:.2f} ms" for name in order), flush=True)
        except (BenchError, OSError, http.client.HTTPException) as error:
            print(f"bench-auth: FAILED: {error}", file=sys.stderr)
            if server is not None and server.log_path.exists():
                print(f"gunicorn's log, last lines:\n{server.log_tail()}", file=sys.stderr)
            return 1
        finally:
            if server is not None:
                server.stop()
    text = render(summarise(rounds), args, workers, time.monotonic() - t0)
    print("\n" + text)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"auth-{started.strftime('%Y-%m-%dT%H-%M-%S')}.txt"
    path.write_text(text + "\n")
    print(f"wrote {path.relative_to(PROJECT_ROOT) if path.is_relative_to(PROJECT_ROOT) else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
