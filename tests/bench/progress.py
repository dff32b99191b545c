"""Progress saves under load (issue 32, ``bin/bench-progress``): the hottest write (every playing viewer, every 10 s),
on the production shape (nginx → gunicorn → PostgreSQL and Redis, deploy/production.py), against its trivial route
(``/healthz``) in the same run.

How: the shape on a throwaway PostgreSQL database, its rate limits lifted (every request here comes from one
address); VIEWERS device identities issued by ``POST /session-context``; then, each round, CLIENTS threads on
keep-alive connections send as fast as they are answered for SECONDS: first ``GET /healthz``, then
``POST /contents/2/episodes/{e}/time-progress`` (each request the next viewer of the thread's share, the next
episode, a growing time), so the database sees many viewers' rows, as in life. Every answer must be its 200 or 204.
Printed per round, then the medians of the rounds: requests per second, p50 and p95, and saves against healthz.
The client threads share the machine's cores with the service: the ratio is the figure to compare, not the
absolute rates. ``--help`` lists the options.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from deploy.production import free_port, running
from tests.bench.serving import machine_line
from tests.test_database_outages import LOCAL_POSTGRES

LOTS = "10000000 per minute"
EPISODES = (2, 3, 4, 5, 6, 7)


@dataclass
class Phase:
    requests: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    def quantile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def warm(port: int, seconds: float = 120) -> None:
    """Until each worker answers: /healthz, then the reads that make a title's snapshot."""
    deadline = time.monotonic() + seconds
    ready = 0
    while ready < 8:
        if time.monotonic() > deadline:
            raise SystemExit("the shape did not answer /healthz in time")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", "/healthz" if ready < 4 else "/episodes?content-id=2")
            response = connection.getresponse()
            response.read()
            connection.close()
            ready = ready + 1 if response.status == 200 else 0
        except OSError:
            time.sleep(0.5)


def issue_identities(base_port: int, count: int) -> list[str]:
    connection = http.client.HTTPConnection("127.0.0.1", base_port, timeout=30)
    identities = []
    for n in range(count):
        connection.request("POST", "/session-context", body=json.dumps({"fingerprint": f"bench-viewer-{n:06d}"}),
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        body = response.read()
        if response.status not in (200, 201):
            raise SystemExit(f"POST /session-context answered {response.status}: {body[:200]!r}")
        identities.append(json.loads(body)["sessionContext"])
    connection.close()
    return identities


Request = tuple[str, str, "str | None", dict[str, str], int]  # method, path, body, headers, the expected status


def load(port: int, clients: int, seconds: float, request_for: Callable[[int, int], Request]) -> Phase:
    """``clients`` threads, each on its own keep-alive connection, for ``seconds``: every answer timed."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    failures: list[str] = []
    stop = time.monotonic() + seconds

    def client(n: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        step = 0
        while time.monotonic() < stop and not failures:
            method, path, body, headers, expected = request_for(n, step)
            started = time.perf_counter()
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            latencies[n].append(time.perf_counter() - started)
            if response.status != expected:
                failures.append(f"{method} {path}: {response.status}")
            step += 1
        connection.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise SystemExit(f"an answer was not the expected one: {failures[0]}")
    flat = [value for per_client in latencies for value in per_client]
    return Phase(len(flat), time.monotonic() - started, flat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--viewers", type=int, default=400)
    options = parser.parse_args()
    server = sa.engine.make_url(os.environ.get("BENCH_POSTGRES", LOCAL_POSTGRES))
    name = f"player_bench_progress_{os.getpid()}"
    port = free_port()
    settings = {"RATE_LIMIT_VIEWER": LOTS, "RATE_LIMIT_IP": LOTS, "RATE_LIMIT_SESSION_CONTEXT": LOTS}
    began = time.monotonic()
    try:
        with running(port=port, quiet=True, database_url=server.set(database=name).render_as_string(
                hide_password=False), redis_url="redis://127.0.0.1:6379/6", settings=settings):
            warm(port)
            identities = issue_identities(port, options.viewers)
            share = max(1, len(identities) // options.clients)
            times: dict[tuple[int, int], int] = {}

            def healthz(_n: int, _step: int) -> Request:
                return "GET", "/healthz", None, {}, 200

            def save(n: int, step: int) -> Request:
                viewer = n * share + step % share
                episode = EPISODES[(step // share) % len(EPISODES)]
                times[(viewer, episode)] = times.get((viewer, episode), 0) + 10
                body = json.dumps({"time": min(times[(viewer, episode)], 50)})
                headers = {"Content-Type": "application/json", "X-Session-Context": identities[viewer]}
                return "POST", f"/contents/2/episodes/{episode}/time-progress", body, headers, 204

            for _ in range(2):  # warm-up: connections, snapshots
                load(port, options.clients, 1, healthz)
                load(port, options.clients, 1, save)
            rounds = []
            for number in range(1, options.rounds + 1):
                trivial = load(port, options.clients, options.seconds, healthz)
                saves = load(port, options.clients, options.seconds, save)
                rounds.append((trivial, saves))
                print(f"round {number}: healthz {trivial.rate:7.0f}/s p50 {trivial.quantile(0.5):6.1f} ms "
                      f"p95 {trivial.quantile(0.95):6.1f} ms | saves {saves.rate:7.0f}/s p50 {saves.quantile(0.5):6.1f}"
                      f" ms p95 {saves.quantile(0.95):6.1f} ms | saves/healthz {saves.rate / trivial.rate:.2f}")
            median = statistics.median
            print(f"medians of {options.rounds} rounds ({options.clients} clients, {options.viewers} viewers, "
                  f"{options.seconds:.0f} s each): healthz {median(t.rate for t, _ in rounds):.0f}/s p95 "
                  f"{median(t.quantile(0.95) for t, _ in rounds):.1f} ms; saves "
                  f"{median(s.rate for _, s in rounds):.0f}/s p95 {median(s.quantile(0.95) for _, s in rounds):.1f} ms;"
                  f" saves/healthz "
                  f"{median(s.rate / t.rate for t, s in rounds):.2f}")
        print(machine_line(time.monotonic() - began))
    finally:
        admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


if __name__ == "__main__":
    main()
