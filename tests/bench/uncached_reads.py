"""The two catalogue reads of issue 30 (hole 13) and issue 36, and lists with issue 33's "available here" filter,
uncached, against /healthz, through the app's test client on the database DATABASE_URL names (a copy of the
100,000-title benchmark catalogue, migrated): before each request the shared-response store is emptied, so every
answer runs its view. Prints the median and p95 of each, in milliseconds, over ``--runs`` interleaved rounds, and the
ratio of each p95 to /healthz's.

    DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/<copy> .venv/bin/python -m tests.bench.uncached_reads
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import time

PATHS = {
    "healthz": "/healthz",
    "filters/1": "/categories/filters/1",
    "filters/2": "/categories/filters/2",
    "most-relevant 100": "/contents/most-relevant?pageSize=100",
    "most-relevant film 100": "/contents/most-relevant?type=film&pageSize=100",
    "contents 100": "/contents?pageSize=100",
    "contents here 100": "/contents?availableHere=true&pageSize=100",
    "most-relevant here 100": "/contents/most-relevant?availableHere=true&pageSize=100",
    "tree/1": "/categories/tree/content-type/1",
    "category filters popular": "/types/film/categories/popular/filters",
    "category filters drama": "/types/film/categories/drama-films/filters",
    "category list popular": "/types/film/categories/popular/contents?pageSize=100",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(48))
    os.environ["REDIS_URL"] = ""
    from app import create_app
    from app.caching import register_cache
    from app.extensions import cache

    app = create_app({"RATELIMIT_ENABLED": False})
    client = app.test_client()
    times: dict[str, list[float]] = {name: [] for name in PATHS}
    for run in range(args.runs + 3):  # three rounds of warm-up
        for name, path in PATHS.items():
            with app.app_context():
                app.extensions["cache"][cache].clear()
            register_cache(app)
            started = time.perf_counter()
            response = client.get(path)
            elapsed = (time.perf_counter() - started) * 1000
            assert response.status_code == 200, (path, response.status_code, response.get_data()[:300])
            if run >= 3:
                times[name].append(elapsed)
    p95 = {name: statistics.quantiles(values, n=20)[-1] for name, values in times.items()}
    for name, values in times.items():
        print(f"{name:24} median {statistics.median(values):8.1f} ms   p95 {p95[name]:8.1f} ms   "
              f"p95/healthz {p95[name] / p95['healthz']:6.1f}×")


if __name__ == "__main__":
    main()
