"""The cache as the service uses it: Flask-Caching's (Redis with ``REDIS_URL``, else in-process), never a reason to
fail or to wait.

* Redis's client waits half a second at most (``CACHE_OPTIONS``, app/config.py); a failure opens a short breaker
  during which this process uses its own in-process cache instead (and says so in the log, once), then Redis is tried
  again: the service keeps answering with Redis gone or black-holed, only less of it is shared between workers.
* Hot entries (shared responses, snapshots) are read "near": this process keeps its own copy a few seconds, so that
  most requests cost no round trip to Redis.
* The catalogue's generation: every key of what is derived from the catalogue (shared responses, snapshots) carries
  it, so a change made through the service (the demo seeder, the admin) bumps it and every such entry is unreachable
  at once, in every process within ``GENERATION_MEMO`` seconds (at once in the process that made the change).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from cachelib import SimpleCache
from flask import Flask, current_app

from app.database import Breaker

GENERATION_KEY = "catalogue:generation"
GENERATION_MEMO = 1.0  # seconds a process trusts the generation it last read
NEAR_SECONDS = 5  # how long a process keeps its own copy of a hot entry it read from Redis ("near" reads)


class ResilientCache:
    """``get``/``set``/``delete`` over the configured cache, falling back to an in-process one while it fails."""

    def __init__(self, app: Flask) -> None:
        from app.extensions import cache

        self._shared = app.extensions["cache"][cache]  # the backend Flask-Caching made (after cache.init_app)
        self._log = app.logger
        self._local = SimpleCache(threshold=2000, default_timeout=300)
        self._near = SimpleCache(threshold=500, default_timeout=NEAR_SECONDS)
        self._remote = app.config["CACHE_TYPE"] != "SimpleCache"
        self._breaker = Breaker(float(app.config["CACHE_RETRY_AFTER"]))
        self._generation: tuple[float, int] = (0.0, 0)
        self._lock = threading.Lock()

    def _call(self, method: str, *args: Any) -> Any:
        if self._remote and not self._breaker.open:
            try:
                return getattr(self._shared, method)(*args)
            except Exception as error:
                if not self._breaker.open:
                    self._log.warning("the cache (Redis) failed (%s: %s); this process uses its own cache for %s s",
                                type(error).__name__, error, self._breaker.seconds)
                self._breaker.trip()
        return getattr(self._local, method)(*args)

    @property
    def failing(self) -> bool:
        """Whether this process uses its own cache now, Redis having failed a moment ago."""
        return self._remote and self._breaker.open

    def get(self, key: str, near: bool = False) -> Any:
        """``near``: the entry may be this process's own copy, up to ``NEAR_SECONDS`` old, of what Redis holds (for
        entries keyed under the catalogue's generation: a change still shows within the generation's memo, plus
        this). A hot page then costs no round trip to Redis."""
        if near and self._remote:
            value = self._near.get(key)
            if value is not None:
                return value
            value = self._call("get", key)
            if value is not None:
                self._near.set(key, value, NEAR_SECONDS)
            return value
        return self._call("get", key)

    def set(self, key: str, value: Any, timeout: int) -> None:
        self._call("set", key, value, timeout)

    def delete(self, key: str) -> None:
        self._call("delete", key)

    def generation(self) -> int:
        read_at, value = self._generation
        if time.monotonic() - read_at < GENERATION_MEMO:
            return value
        stored = self.get(GENERATION_KEY)
        value = int(stored) if stored is not None else 0
        self._generation = (time.monotonic(), value)
        return value

    def bump_generation(self) -> int:
        """A new generation (a time in nanoseconds, so that it never repeats one a restarted cache forgot)."""
        with self._lock:
            value = max(time.time_ns(), self._generation[1] + 1)
            self.set(GENERATION_KEY, value, 0)
            self._local.set(GENERATION_KEY, value, 0)
            self._generation = (time.monotonic(), value)
            return value


def store() -> ResilientCache:
    return current_app.extensions["resilient_cache"]


def invalidate_catalogue() -> None:
    """Everything derived from the catalogue is stale: call after any change to contents, seasons, episodes or their
    rules (the admin, the demo seeder)."""
    store().bump_generation()


def register_cache(app: Flask) -> None:
    app.extensions["resilient_cache"] = ResilientCache(app)
