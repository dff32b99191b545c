"""Issue 36's uncached reads in-process, through the app's test client, against /healthz: each request's wall time, this
process's CPU time (what the application itself spends, which other work on the machine moves far less than wall
time) and its SQL statements; ``--profile NAME`` prints cProfile's top functions for one read. The shared store is
emptied before each request (every answer runs its view); ``read`` asks for a new content id each time (its snapshot
is made). Run it on the bench-catalogue database (tests/bench/catalogue.py) to compare two trees of the code:

    cd <tree> && DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/bench_reads PYTHONPATH=. \\
        .venv/bin/python -m tests.bench.reads_profile --runs 40
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import secrets
import statistics
import time

PATHS = {
    "healthz": "/healthz",
    "read": None,  # /contents/{a new id}
    "list": "/types/film/categories/popular/contents?genres=drama&yearFrom=1980&yearTo=2000&sort=rating&page=1",
    "main-mart": "/categories/main-mart",
    "search-words": "/v2/contents/search?query=%D1%82%D0%B8%D1%85%D0%B0%D1%8F+%D0%B3%D0%B0%D0%B2%D0%B0%D0%BD%D1%8C",
    "filters": "/categories/filters/1",
    "most-relevant": "/contents/most-relevant?pageSize=100",
}
WARMUP = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--only", default="", help="reads to measure, comma-separated (all)")
    parser.add_argument("--profile", default="", help="a read to profile with cProfile")
    args = parser.parse_args()
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(48))
    os.environ["REDIS_URL"] = ""
    from sqlalchemy import event, text

    from app import create_app
    from app.extensions import db

    app = create_app({"RATELIMIT_ENABLED": False, "SUGGESTION_INDEX": False})
    client = app.test_client()
    with app.app_context():
        published = db.session.execute(text("SELECT id FROM contents WHERE published ORDER BY id")).scalars()
        ids = iter(list(published)[::37])
        engine = db.engine
    seen = [0]
    event.listen(engine, "before_cursor_execute", lambda *_args: seen.__setitem__(0, seen[0] + 1))
    chosen = {name for name in args.only.split(",") if name} or set(PATHS)
    names = [name for name in PATHS if name in chosen or name == "healthz"]
    walls: dict[str, list[float]] = {name: [] for name in names}
    cpus: dict[str, list[float]] = {name: [] for name in names}
    statements: dict[str, int] = {}
    profile = cProfile.Profile() if args.profile else None
    resilient = app.extensions["resilient_cache"]
    for run in range(args.runs + WARMUP):
        for name in names:
            path = PATHS[name] or f"/contents/{next(ids)}"
            resilient._local.clear()  # the shared responses and the snapshots (no Redis: this process's store)
            resilient._near.clear()
            seen[0] = 0
            profiled = profile is not None and name == args.profile and run >= WARMUP
            if profiled:
                profile.enable()  # type: ignore[union-attr]
            wall, cpu = time.perf_counter(), time.process_time()
            response = client.get(path, headers={"Accept-Encoding": "br"})
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            if profiled:
                profile.disable()  # type: ignore[union-attr]
            assert response.status_code == 200, (path, response.status_code, response.get_data()[:300])
            if run >= WARMUP:
                walls[name].append(wall * 1000)
                cpus[name].append(cpu * 1000)
                statements[name] = seen[0]
    base = statistics.median(cpus["healthz"])
    for name in names:
        cpu = statistics.median(cpus[name])
        print(f"{name:14} wall median {statistics.median(walls[name]):7.2f} ms   CPU median {cpu:6.2f} ms "
              f"({cpu / base:5.1f}x healthz's)   statements {statements[name]}")
    if profile is not None:
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("tottime").print_stats(30)
        stats.sort_stats("cumulative").print_stats("/app/", 30)
        print(out.getvalue())


if __name__ == "__main__":
    main()
