"""A full process cache's write (app/caching.py ``ProcessCache``): cachelib's SimpleCache, which the process's own
cache was, against ProcessCache, side by side in one run, each filled to its threshold (2,000: a worker without Redis
after as many uncached answers) and then written new keys, as each uncached answer writes one; the median of several
rounds of the mean write.

    .venv/bin/python -m tests.bench.process_cache [--rounds 7] [--writes 2000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from cachelib import SimpleCache

from app.caching import ProcessCache

THRESHOLD = 2000  # app/caching.py: the process's own cache
VALUE = {"items": [{"id": n, "title": "Тихая гавань", "poster": "/media/p.jpg"} for n in range(5)], "total": 44}


def mean_write(cache: SimpleCache, writes: int, tag: str) -> float:
    for n in range(THRESHOLD):
        cache.set(f"{tag}:fill:{n}", VALUE, 300)
    began = time.perf_counter()
    for n in range(writes):
        cache.set(f"{tag}:new:{n}", VALUE, 300)
    return (time.perf_counter() - began) / writes * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--writes", type=int, default=2000)
    args = parser.parse_args()
    results: dict[str, list[float]] = {"SimpleCache (before)": [], "ProcessCache": []}
    for round_ in range(args.rounds):  # alternating, so that the machine's load falls on both alike
        for name, kind in (("SimpleCache (before)", SimpleCache), ("ProcessCache", ProcessCache)):
            results[name].append(mean_write(kind(threshold=THRESHOLD, default_timeout=300), args.writes, str(round_)))
    for name, means in results.items():
        print(f"{name:22} a write when full: median {statistics.median(means):7.1f} µs "
              f"(rounds {min(means):.1f}-{max(means):.1f}, {args.rounds} rounds of {args.writes})")


if __name__ == "__main__":
    main()
