"""How long an admin's save spends reindexing one content, on the benchmark's catalogue (make bench-catalogue made
it): `python -m tests.bench.reindex_one [DATABASE_URL] [--rounds N]`, PostgreSQL's bench_catalogue by default. Prints
the median and each round, in ms. Rewrites the documents of contents 5000, 5001, … as they are (no change to the
catalogue)."""

from __future__ import annotations

import argparse
import statistics
import time

from app import create_app
from app.database import batch_statements
from app.extensions import db
from app.services.search.index import reindex
from tests.bench.catalogue import POSTGRES_URL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("database", nargs="?", default=POSTGRES_URL)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    app = create_app({"DATABASE_URL": args.database})
    with app.app_context():
        batch_statements(app, db.engine)
        times = []
        for round_ in range(args.rounds):
            started = time.perf_counter()
            reindex([5000 + round_])
            times.append((time.perf_counter() - started) * 1000)
    print(f"reindex of one content: median {statistics.median(times):.1f} ms; rounds "
          + ", ".join(f"{value:.1f}" for value in times))


if __name__ == "__main__":
    main()
