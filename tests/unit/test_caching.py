"""The cache that never fails a request (app/caching.py): a cache server that fails is replaced by the process's
own cache for a while, then tried again; the catalogue's generation moves forward and is seen at once here."""

from __future__ import annotations

import logging

import pytest
from flask import Flask

from app.caching import ProcessCache, ResilientCache


class Flaky:
    """A cache server (a unit test's stand-in for Redis) that fails while ``down``."""

    def __init__(self) -> None:
        self.down = False
        self.data: dict[str, object] = {}
        self.calls = 0

    def get(self, key: str) -> object:
        self.calls += 1
        if self.down:
            raise ConnectionError("Redis is gone")
        return self.data.get(key)

    def set(self, key: str, value: object, timeout: int) -> None:
        self.calls += 1
        if self.down:
            raise ConnectionError("Redis is gone")
        self.data[key] = value

    def delete(self, key: str) -> None:
        self.data.pop(key, None)


@pytest.fixture
def cache(monkeypatch) -> tuple[ResilientCache, Flaky]:
    app = Flask(__name__)
    app.config.update(CACHE_TYPE="RedisCache", CACHE_RETRY_AFTER=5)
    flaky = Flaky()
    from app.extensions import cache as flask_cache

    app.extensions["cache"] = {flask_cache: flaky}
    return ResilientCache(app), flaky


def test_values_go_to_the_cache_server_while_it_answers(cache):
    resilient, server = cache
    resilient.set("k", 1, 60)
    assert server.data == {"k": 1} and resilient.get("k") == 1


def test_a_failing_server_is_replaced_by_the_local_cache_then_tried_again(cache, monkeypatch, caplog):
    resilient, server = cache
    clock = [1000.0]
    monkeypatch.setattr("app.database.time.monotonic", lambda: clock[0])
    server.down = True
    with caplog.at_level(logging.WARNING):
        resilient.set("k", "local", 60)
        assert resilient.get("k") == "local"  # from the process's own cache
    assert [r.getMessage() for r in caplog.records if "uses its own cache for 5.0 s" in r.getMessage()]
    assert resilient.failing
    calls = server.calls
    resilient.get("k")
    assert server.calls == calls  # the breaker: no call to a server that failed a moment ago
    server.down = False
    clock[0] += 6
    resilient.set("k", "shared", 60)
    assert server.data["k"] == "shared" and not resilient.failing  # back on the server, by itself


def test_the_generation_moves_forward_and_is_seen_at_once_here(cache):
    resilient, server = cache
    before = resilient.generation()
    after = resilient.bump_generation()
    assert after > before and resilient.generation() == after
    assert server.data["catalogue:generation"] == after


def test_a_near_read_keeps_a_copy_for_a_few_seconds_then_asks_the_server_again(cache, monkeypatch):
    resilient, server = cache
    clock = [5000.0]
    monkeypatch.setattr("cachelib.simple.time", lambda: clock[0])
    resilient.set("page", "v1", 60)
    assert resilient.get("page", near=True) == "v1"
    calls = server.calls
    server.data["page"] = "v2"
    assert resilient.get("page", near=True) == "v1" and server.calls == calls  # this process's copy, no round trip
    assert resilient.get("page") == "v2"  # a plain read always asks the server
    clock[0] += 6
    assert resilient.get("page", near=True) == "v2"  # the copy expired: asked again


def test_a_full_process_cache_drops_its_expired_then_its_oldest_a_tenth_at_once(monkeypatch):
    """cachelib's SimpleCache sorted every entry on each write past its threshold (0.5 ms at 2,000, every uncached
    answer of a worker without Redis); ProcessCache prunes to nine tenths, then writes without pruning until full."""
    import time

    cache = ProcessCache(threshold=100, default_timeout=300)
    cache.set("soon", "x", 1)
    for i in range(99):
        cache.set(f"k{i}", i)
        if i == 49:
            cache.set("counter", 7, 0)  # no expiry: never taken for an expired entry
    assert len(cache._cache) == 101
    later = time.time() + 5
    monkeypatch.setattr(time, "time", lambda: later)
    cache.set("new", "n")
    keys = list(cache._cache)
    # «soon» expired; then the oldest written (k0…k9) down to 90; then «new»
    assert "soon" not in keys and "counter" in keys and keys[0] == "k10" and keys[-1] == "new" and len(keys) == 91
    for i in range(10):
        cache.set(f"more{i}", i)
    assert len(cache._cache) == 101  # no pass over the entries for these ten writes
    assert cache.get("new") == "n" and cache.get("k10") == 10 and cache.get("k9") is None and cache.get("counter") == 7
