"""Accounts API benchmark (issue 18, ``make bench-auth``): what signing in costs against what the service's other
requests cost, on the server as production runs it.

Why: a sign-in verifies an argon2id hash (app/services/accounts/passwords.py: 19 MiB, 2 passes), which is CPU time a
worker spends on nothing else; a token refresh and an authenticated read only check signatures and a few rows. This puts
the four side by side with an anonymous catalogue read (a cached one: the baseline), and with the hash alone, timed in
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
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from app.config import INSTANCE_DIR
from app.services.accounts.passwords import hash_password
from tests.bench.serving import (
    FAILURES,
    BenchError,
    Client,
    Server,
    failed,
    machine_line,
    random_secret,
    summarise,
    write_results,
)

EMAIL, PASSWORD = "viewer@example.com", "demo-password"  # app/demo/accounts.py
HUGE_LIMIT = "1000000 per minute"


def seeded_server(folder: Path, workers: int) -> Server:
    """gunicorn (not started yet) on a migrated, seeded throwaway SQLite database, the auth rate limits out of the
    way."""
    server = Server(folder, workers, {
        "ENV": "development", "DATABASE_URL": f"sqlite:///{folder / 'bench.db'}", "REDIS_URL": "",
        "SECRET_KEY": random_secret(), "RATE_LIMIT_AUTH_IP": HUGE_LIMIT, "RATE_LIMIT_AUTH_ACCOUNT": HUGE_LIMIT,
        "MAIL_OUTBOX": str(folder / "outbox")})
    server.flask("db", "upgrade")
    server.flask("demo", "seed")
    return server


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
        return self.client.call("GET", "/user/details", headers={"Authorization": f"Bearer {self.access}"})[0]

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
             f"\n{machine_line(elapsed)}"]
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
            server = seeded_server(Path(folder), workers)
            server.start()
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
        except (BenchError, *FAILURES) as error:
            return failed("bench-auth", error, server)
        finally:
            if server is not None:
                server.stop()
    write_results(args.out, "auth", started, render(summarise(rounds), args, workers, time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
