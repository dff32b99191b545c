"""The rate limits' counters in memory (app/http/limiter.py ``SweptMemoryStorage``): no thread started per hit, the
expired counters still swept, and the application counting in them without Redis and while Redis fails."""

from __future__ import annotations

import threading
import time

from limits import parse
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter, RateLimiter

from app.config import Settings
from app.extensions import limiter
from app.http import limiter as limiter_module
from app.http.limiter import SweptMemoryStorage

LIMIT = parse("1000 per minute")


def started_threads_while(monkeypatch, hits) -> int:
    started = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: (started.append(thread), start(thread))[1])
    hits()
    return len(started)


def test_hits_start_no_thread(monkeypatch):
    storage = SweptMemoryStorage()  # (limits' own start of a first sweep, once, when it is made)
    fixed, moving = FixedWindowRateLimiter(storage), MovingWindowRateLimiter(storage)

    def hits() -> None:
        for n in range(12):
            assert fixed.hit(LIMIT, "viewer", str(n % 3)) and moving.hit(LIMIT, "address", str(n % 3))
            time.sleep(0.015)  # past the 10 ms after which limits' own storage sweeps, in a thread of its own

    assert started_threads_while(monkeypatch, hits) == 0
    assert fixed.get_window_stats(LIMIT, "viewer", "0").remaining == 1000 - 4


def test_expired_counters_are_swept_by_a_later_hit(monkeypatch):
    monkeypatch.setattr(limiter_module, "SWEEP_SECONDS", 0.05)
    storage = SweptMemoryStorage()
    storage.incr("gone", expiry=0.05)
    assert storage.acquire_entry("window", limit=5, expiry=0.05)  # type: ignore[arg-type]
    storage.incr("kept", expiry=60)
    time.sleep(0.12)
    assert storage.get("gone") == 0 and storage.get_moving_window("window", 5, 0.05)[1] == 0  # type: ignore[arg-type]
    storage.incr("kept", expiry=60)  # a sweep is due: this hit makes it
    assert "gone" not in storage.storage and "gone" not in storage.expirations
    assert storage.events["window"] == []  # (limits' sweep empties a window, keeping its name)
    assert storage.get("kept") == 2


def test_no_sweep_before_its_time():
    storage = SweptMemoryStorage()
    time.sleep(0.02)  # past limits' own first sweep, 10 ms after a storage is made
    storage.incr("brief", expiry=0.01)
    time.sleep(0.03)
    storage.incr("other", expiry=60)  # within SWEEP_SECONDS of the storage's start: nothing swept yet
    assert "brief" in storage.storage
    assert storage.get("brief") == 0  # yet read as none: a counter past its expiry


def test_the_application_counts_in_it_without_redis_and_while_redis_fails(app):
    assert Settings.from_env({"REDIS_URL": ""}).flask_mapping()["RATELIMIT_STORAGE_URI"] == "memory-swept://"
    assert isinstance(storage_from_string("memory-swept://"), SweptMemoryStorage)
    assert isinstance(limiter._fallback_storage, SweptMemoryStorage)  # (Redis failing: Flask-Limiter's fallback)
    fallback = limiter._fallback_limiter
    assert isinstance(fallback, RateLimiter) and fallback.storage is limiter._fallback_storage
    assert type(fallback) is type(limiter._limiter)  # the configured strategy, as Flask-Limiter made it
    if not app.config.get("CACHE_REDIS_URL"):
        assert isinstance(limiter._storage, SweptMemoryStorage)
