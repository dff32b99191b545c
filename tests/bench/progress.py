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

Scaling (issue 36): ``--clients 10,100,1000`` measures each number of concurrent viewers in every round (healthz,
then saves, per number), and prints one table of the medians. Each client is a viewer with a connection of its own:
by default it sends its next request as soon as the last is answered (the service's capacity, and the wait when that
many viewers ask at once); with ``--interval 10`` each sends one every 10 s (a playing viewer's cadence, spread evenly
over the interval: clients / 10 saves a second), which is the latency viewers see at that load. The client process's
CPU share of the machine is printed beside each figure: with a thousand threads it is part of what is measured.
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
    client_cpu: float = 0.0  # the client process's CPU seconds per second of the phase (2.0: both cores)

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


def load(port: int, clients: int, seconds: float, request_for: Callable[[int, int], Request],
         interval: float = 0) -> Phase:
    """``clients`` threads, each on its own keep-alive connection, for ``seconds``: every answer timed. ``interval``:
    each sends one request every ``interval`` seconds (their starts spread evenly over it), else as fast as answered."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    failures: list[str] = []
    began = time.monotonic()
    stop = began + seconds

    def client(n: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        step = 0
        next_at = began + interval * n / clients
        while time.monotonic() < stop and not failures:
            if interval:
                if next_at >= stop:
                    break
                time.sleep(max(0.0, next_at - time.monotonic()))
                next_at += interval
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

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    cpu = time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise SystemExit(f"an answer was not the expected one: {failures[0]}")
    flat = [value for per_client in latencies for value in per_client]
    elapsed = time.monotonic() - began
    return Phase(len(flat), elapsed, flat, (time.process_time() - cpu) / elapsed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--clients", default="8", help="concurrent viewers; a comma-separated list (10,100,1000) "
                        "measures each in every round")
    parser.add_argument("--interval", type=float, default=0, help="seconds between a client's requests (a playing "
                        "viewer's cadence is 10); 0: as fast as answered")
    parser.add_argument("--viewers", type=int, default=400, help="device identities (at least one per client)")
    options = parser.parse_args()
    levels = [int(n) for n in options.clients.split(",")]
    server = sa.engine.make_url(os.environ.get("BENCH_POSTGRES", LOCAL_POSTGRES))
    name = f"player_bench_progress_{os.getpid()}"
    port = free_port()
    settings = {"RATE_LIMIT_VIEWER": LOTS, "RATE_LIMIT_IP": LOTS, "RATE_LIMIT_SESSION_CONTEXT": LOTS}
    began = time.monotonic()
    try:
        with running(port=port, quiet=True, database_url=server.set(database=name).render_as_string(
                hide_password=False), redis_url="redis://127.0.0.1:6379/6", settings=settings):
            warm(port)
            identities = issue_identities(port, max(options.viewers, *levels))
            times: dict[tuple[int, int], int] = {}

            def healthz(_n: int, _step: int) -> Request:
                return "GET", "/healthz", None, {}, 200

            def saves_of(clients: int) -> Callable[[int, int], Request]:
                share = max(1, len(identities) // clients)

                def save(n: int, step: int) -> Request:
                    viewer = n * share + step % share
                    episode = EPISODES[(step // share) % len(EPISODES)]
                    times[(viewer, episode)] = times.get((viewer, episode), 0) + 10
                    body = json.dumps({"time": min(times[(viewer, episode)], 50)})
                    headers = {"Content-Type": "application/json", "X-Session-Context": identities[viewer]}
                    return "POST", f"/contents/2/episodes/{episode}/time-progress", body, headers, 204

                return save

            for clients in levels:  # warm-up: connections, snapshots
                load(port, clients, 1, healthz)
                load(port, clients, 1, saves_of(clients))
            rounds: dict[int, list[tuple[Phase, Phase]]] = {clients: [] for clients in levels}
            for number in range(1, options.rounds + 1):
                for clients in levels:
                    trivial = load(port, clients, options.seconds, healthz, options.interval)
                    saves = load(port, clients, options.seconds, saves_of(clients), options.interval)
                    rounds[clients].append((trivial, saves))
                    print(f"round {number}, {clients} clients: healthz {trivial.rate:7.0f}/s p50 "
                          f"{trivial.quantile(0.5):6.1f} ms p95 {trivial.quantile(0.95):6.1f} ms | saves "
                          f"{saves.rate:7.0f}/s p50 {saves.quantile(0.5):6.1f} ms p95 {saves.quantile(0.95):6.1f} ms"
                          f" | saves/healthz {saves.rate / trivial.rate:.2f} | client CPU {trivial.client_cpu:.2f}"
                          f" / {saves.client_cpu:.2f}", flush=True)
            median = statistics.median
            pace = f"one request every {options.interval:g} s each" if options.interval else "as fast as answered"
            print(f"\nmedians of {options.rounds} rounds ({len(identities)} viewers, {options.seconds:.0f} s each, "
                  f"{pace}; client CPU: the harness's share of the cores, 2.0 = both)\n")
            print("| concurrent viewers | healthz /s | p50 ms | p95 ms | saves /s | p50 ms | p95 ms | saves/healthz "
                  "| client CPU |")
            print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for clients, pairs in rounds.items():
                print(f"| {clients:,} | {median(t.rate for t, _ in pairs):.0f} "
                      f"| {median(t.quantile(0.5) for t, _ in pairs):.1f} "
                      f"| {median(t.quantile(0.95) for t, _ in pairs):.1f} "
                      f"| {median(s.rate for _, s in pairs):.0f} | {median(s.quantile(0.5) for _, s in pairs):.1f} "
                      f"| {median(s.quantile(0.95) for _, s in pairs):.1f} "
                      f"| {median(s.rate / t.rate for t, s in pairs):.2f} "
                      f"| {median(s.client_cpu for _, s in pairs):.2f} |")
        print(machine_line(time.monotonic() - began))
    finally:
        admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


if __name__ == "__main__":
    main()
