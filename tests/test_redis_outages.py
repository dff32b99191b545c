"""Redis gone or black-holed never takes the service down (app/http/rates.py, app/api/ops.py): the rate limits count
in memory instead and say so in the log, readiness says what is missing, and every call still answers within a
second. Redis's place is taken by a relay (deploy/relay.py) that refuses every connection, and by one that accepts
and never answers."""

from __future__ import annotations

import time

import pytest
from flask import Flask

from deploy.relay import Relay
from tests.conftest import signed_identity


@pytest.fixture(params=["gone", "black-holed"])
def redis_down(request, migrated_database, assets_built, tmp_path):
    from app import create_app
    from app.database import unhurried
    from app.demo.seed import seed_demo
    from app.extensions import db, limiter
    from tests.conftest import empty_tables

    hole = Relay(None, "black-hole" if request.param == "black-holed" else "gone")  # never a Redis behind it
    port = hole.port
    app: Flask = create_app({"TESTING": True, "DATABASE_URL": migrated_database, "MEDIA_ROOT": str(tmp_path),
                             "REDIS_URL": f"redis://127.0.0.1:{port}/0"})
    with app.app_context(), unhurried(app, db.engine):
        seed_demo()
        # Jinja compiles a template at its first use (a quarter of a second for the page's): done here, so that the
        # timed requests measure what Redis's absence costs them, not the process's first render.
        for template in ("player/player.html", "player/error.html"):
            app.jinja_env.get_template(template)
    limiter._storage_dead = False  # Flask-Limiter remembers a dead storage per process; each case starts alive
    yield app
    with app.app_context():
        empty_tables()
        db.engine.dispose()
    hole.close()


def timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_the_service_answers_without_redis_and_says_so(redis_down, caplog):
    # (no other application made in this test: Flask-Limiter keeps one storage per process, the last one set up)
    client = redis_down.test_client()
    headers = {"X-Session-Context": signed_identity(redis_down, "redis0outage0000000001")}
    for _ in range(3):
        response, took = timed(lambda: client.post("/contents/2/episodes/3/time-progress", json={"time": 5},
                                                   headers=headers))
        # the first pays Redis's half-second timeout once (app/http/limiter.py: not twice), the others none
        assert response.status_code == 204 and took < 1.0, took
    for _ in range(2):  # the page and a read: made, then kept by this process's own cache instead of Redis
        for path in ("/?movie_id=1", "/contents/1"):
            response, took = timed(lambda path=path: client.get(path))
            assert response.status_code == 200 and took < 1.2, (path, took)
            assert response.headers["Cache-Control"].startswith("public")
    assert redis_down.extensions["resilient_cache"].failing  # and it says so in the log (tests/unit/test_caching.py)
    ready, took = timed(lambda: client.get("/readyz"))
    assert ready.status_code == 503 and ready.get_json()["redis"].startswith("unavailable") and took < 1.2
    assert ready.get_json()["database"] == "ok"
    assert any(record.name == "flask-limiter" and "falling back to in-memory" in record.getMessage()
               for record in caplog.records), [record.getMessage() for record in caplog.records]


def test_the_limits_count_in_redis_again_once_it_is_back(migrated_database, assets_built, tmp_path):
    """Redis black-holed, then back: the request that finds it gone waits for its timeout once, the limits count in
    memory, and a request a second later finds Redis back and counts there again (Flask-Limiter's look at its storage,
    app/http/limiter.py)."""
    from urllib.parse import urlsplit

    from redis import Redis

    from app import create_app
    from app.database import unhurried
    from app.demo.seed import seed_demo
    from app.extensions import db, limiter
    from tests.api.test_revocation import redis_url
    from tests.conftest import empty_tables

    url = redis_url()
    if url is None:
        pytest.skip("no Redis on this machine (CI runs one)")
    where = urlsplit(url)
    relay = Relay((where.hostname or "127.0.0.1", where.port or 6379))
    app = create_app({"TESTING": True, "DATABASE_URL": migrated_database, "MEDIA_ROOT": str(tmp_path),
                      "REDIS_URL": f"redis://127.0.0.1:{relay.port}{where.path or '/0'}"})
    redis = Redis.from_url(url)
    limiter._storage_dead = False

    def counted_in_redis() -> int:
        return sum(1 for _ in redis.scan_iter(f"*{limiter._key_prefix}*"))

    try:
        with app.app_context(), unhurried(app, db.engine):
            seed_demo()
        client = app.test_client()
        headers = {"X-Session-Context": signed_identity(app, "redis0back000000000001")}

        def save() -> float:
            response, took = timed(lambda: client.post("/contents/2/episodes/3/time-progress", json={"time": 5},
                                                       headers=headers))
            assert response.status_code == 204
            return took

        save()
        assert counted_in_redis() > 0 and not limiter._storage_dead
        relay.set("black-hole")
        assert save() < 1.0 and limiter._storage_dead  # one timeout, then the memory's counters
        redis.delete(*redis.scan_iter(f"*{limiter._key_prefix}*"))
        relay.set("through")
        time.sleep(1.1)
        save()
        assert not limiter._storage_dead and counted_in_redis() > 0
    finally:
        limiter._storage_dead = False
        with app.app_context():
            empty_tables()
            db.engine.dispose()
        relay.close()
